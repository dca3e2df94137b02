/**
 * The console's handling of pool profiles (console/src/pool-profile.ts) against the service's
 * own answers: the profile GET gives back without its live fields is accepted again by PUT as it
 * is; a simple field written by its path lands where the service reads it; each refused value
 * is put at the editor's field that holds it, or at the JSON when the editor has no such field.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { getAt, poolFieldOf, poolFields, poolKindOf, recordFields, setAt, writableProfile } from '../../console/src/pool-profile.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { client } from '../helpers/zones.ts'

const ctx = (schema: string): string => `http://schemas.ultradns.com/${schema}.jsonschema`
const MONITOR = { method: 'GET', url: 'http://192.0.2.200/health' }

describe('console: pool profiles in the pool editor', () => {
  let t: TestApp
  let api: ReturnType<typeof client>

  before(async () => {
    t = await buildTestApp('sqlite')
    api = client(t.app, await t.user('alice', 'acme', 'DNSAdministrators'))
    assert.equal((await api.newPrimary('pools.test', 'acme')).statusCode, 201)
  })
  after(async () => { await t.close() })

  const url = (owner: string): string => `/zones/pools.test./rrsets/A/${owner}.pools.test.`

  /** The editor's field for the service's first error of a POST of this pool. */
  async function fieldOf (owner: string, rdata: string[], profile: Record<string, unknown>): Promise<string> {
    const res = await api.post(url(owner), { ttl: 60, rdata, profile })
    assert.equal(res.statusCode, 400, res.body)
    const [error] = res.json() as Array<{ errorMessage: string }>
    const kind = poolKindOf(profile)
    const fields = new Set([...poolFields(kind), ...rdata.flatMap((_, i) => recordFields(kind, i))].map(f => f.path))
    return poolFieldOf(error!.errorMessage, fields)
  }

  it('gives back a listed profile without its live fields, and PUT takes it as it is', async () => {
    const body = { ttl: 60, rdata: ['192.0.2.1', '192.0.2.2'], profile: { '@context': ctx('SLBPool'), monitor: MONITOR, allFailRecord: { rdata: '192.0.2.9' }, rdataInfo: [{}, { forcedState: 'FORCED_INACTIVE' }] } }
    assert.equal((await api.post(url('slb'), body)).statusCode, 201)
    const listed = ((await api.get(url('slb'))).json() as { rrSets: Array<{ profile: Record<string, unknown> }> }).rrSets[0]!.profile
    assert.equal(getAt(listed, 'rdataInfo[1].availableToServe'), false, 'the listing has live fields')
    assert.equal(typeof getAt(listed, 'allFailRecord.serving'), 'boolean')
    const writable = writableProfile(listed)
    assert.equal(getAt(writable, 'rdataInfo[1].availableToServe'), undefined)
    assert.equal(getAt(writable, 'allFailRecord.serving'), undefined)
    assert.equal(getAt(writable, 'rdataInfo[1].forcedState'), 'FORCED_INACTIVE')
    assert.equal(poolKindOf(writable), 'SLB')
    const edited = setAt(writable, 'rdataInfo[0].probingEnabled', false)
    assert.equal((await api.put(url('slb'), { ...body, profile: edited })).statusCode, 200)
    const again = ((await api.get(url('slb'))).json() as { rrSets: Array<{ profile: Record<string, unknown> }> }).rrSets[0]!.profile
    assert.deepEqual(writableProfile(again), edited)
  })

  it('writes and removes a field by its path, making objects on the way, leaving the original alone', () => {
    const p = { '@context': ctx('SFPool') }
    const set = setAt(p, 'monitor.url', 'http://192.0.2.7/')
    assert.deepEqual(set, { '@context': ctx('SFPool'), monitor: { url: 'http://192.0.2.7/' } })
    assert.deepEqual(p, { '@context': ctx('SFPool') })
    assert.deepEqual(setAt(set, 'monitor.url', undefined), { '@context': ctx('SFPool'), monitor: {} })
    assert.deepEqual(setAt({ rdataInfo: [{}, { weight: 2 }] }, 'rdataInfo[1].weight', 4), { rdataInfo: [{}, { weight: 4 }] })
  })

  it('puts a refused value at the field that holds it', async () => {
    assert.equal(await fieldOf('rd', ['192.0.2.1'], { '@context': ctx('RDPool'), order: 'SIDEWAYS' }), 'order')
    assert.equal(await fieldOf('tc', ['192.0.2.1', '192.0.2.2'], { '@context': ctx('TCPool'), rdataInfo: [{}, { weight: 3 }] }), 'rdataInfo[1].weight')
    assert.equal(await fieldOf('sb', ['192.0.2.1'], { '@context': ctx('SBPool'), rdataInfo: [{ priority: 0 }] }), 'rdataInfo[0].priority')
    assert.equal(await fieldOf('sf', ['192.0.2.1'], { '@context': ctx('SFPool'), regionFailureSensitivity: 'HIGH', monitor: { method: 'GET', url: 'ftp://x' }, backupRecord: { rdata: '192.0.2.9' } }), 'monitor.url')
    assert.equal(await fieldOf('sf', ['192.0.2.1'], { '@context': ctx('SFPool'), regionFailureSensitivity: 'HIGH', monitor: MONITOR, backupRecord: { rdata: '2001:db8::1' } }), 'backupRecord.rdata')
  })

  it('puts a refusal about a field the editor does not show at the JSON, and one about records at the records', async () => {
    assert.equal(await fieldOf('tc', ['192.0.2.1'], { '@context': ctx('TCPool'), rdataInfo: [{}], runProbes: 'often' }), 'json')
    assert.equal(await fieldOf('tc', ['192.0.2.1'], { '@context': ctx('TCPool'), rdataInfo: [{}], colour: 'red' }), 'json', 'an unknown key')
    assert.equal(await fieldOf('tc', ['192.0.2.1', '192.0.2.2'], { '@context': ctx('TCPool'), rdataInfo: [{}] }), 'json', 'one rdataInfo short')
    assert.equal(await fieldOf('sf', ['192.0.2.1', '192.0.2.2'], { '@context': ctx('SFPool'), regionFailureSensitivity: 'HIGH', monitor: MONITOR, backupRecord: { rdata: '192.0.2.9' } }), 'rdata', 'two live records')
    assert.equal(await fieldOf('rd', ['192.0.2.300'], { '@context': ctx('RDPool') }), 'rdata', 'a bad address')
  })
})
