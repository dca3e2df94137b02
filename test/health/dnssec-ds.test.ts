/**
 * The health check "DS records at the parent match the zone's DNSKEYs" (src/health/checks/
 * dnssec-ds.ts) run as the health API runs it, against a BIND parent (`test.`, the loopback world
 * of test/helpers/health-world.ts) holding the DS records a registrar would publish from
 * GET /zones/{z}/dnssec: matching (each digest type GET lists), it passes, and is an ERROR once
 * the zone is unsigned; a DS of another key is an ERROR; a signed zone with no DS at its parent
 * gets the documented WARNING; after a KSK rollover the old DS left at the
 * parent still matches while the old KSK is published, and is an ERROR once the maintenance job
 * (driven in this process with a test clock) has removed it.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { SecretBox } from '../../src/auth/secrets.ts'
import { maintainZone } from '../../src/zones/dnssec/maintenance.ts'
import { healthResult, runHealthCheck, startHealthWorld, type HealthReport, type HealthWorld } from '../helpers/health-world.ts'
import { bindSkip } from '../helpers/named.ts'
import { apiKsks, serviceApi, startTestService, type ServiceApi, type TestService } from '../helpers/service.ts'

const PASSWORD = 'dnssec ds health password'
const NS = ['ns1.zonal.test.', 'ns2.zonal.test.']
const ZONES = ['matching.test.', 'otherkey.test.', 'nods.test.', 'rolled.test.']
const CHECK = 'DS records at the parent match the zone\'s DNSKEYs'

describe('the DNSSEC DS health check against a BIND parent holding DS records', { skip: bindSkip('named', 'nsupdate') }, () => {
  let world: HealthWorld
  let t: TestService
  let api: ServiceApi
  /** The SHA-256 DS of the zone's (first) KSK, as GET /zones/{z}/dnssec gives it. */
  const ds = async (zone: string): Promise<string> => (await apiKsks(api, zone))[0]!.dsRecords.find(d => d.split(' ')[2] === '2')!
  const dsCheck = async (zone: string): Promise<HealthReport> => healthResult(await runHealthCheck(api, zone), 'DNSSEC', CHECK)

  before(async () => {
    world = await startHealthWorld(Object.fromEntries(ZONES.map(z => [z, NS])))
    t = await startTestService(PASSWORD, { ...world.env, ZONAL_HEALTH_INTERVAL: '0', ZONAL_HEALTH_QPS: '1000', ZONAL_DNS_WORKERS: '0' })
    api = await serviceApi(t.service, PASSWORD)
    for (const zone of ZONES) {
      const res = await api('POST', '/zones', { properties: { name: zone, accountName: 'default', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'NEW' } })
      assert.equal(res.status, 201, await res.text())
      assert.equal((await api('POST', `/zones/${zone}/dnssec`, {})).status, 201)
    }
    // What a registrar publishes: each zone's own DS, except otherkey.test. (the DS of matching.test.'s key) and nods.test. (none).
    await world.updateParent([
      ...(await apiKsks(api, 'matching.test.'))[0]!.dsRecords.map(d => `update add matching.test. 3600 IN DS ${d}`),
      `update add otherkey.test. 3600 IN DS ${await ds('matching.test.')}`,
      `update add rolled.test. 3600 IN DS ${await ds('rolled.test.')}`
    ])
  })
  after(async () => {
    await t?.stop()
    await world?.stop()
  })

  it('passes when the parent\'s DS records match the zone\'s KSK (SHA-1, SHA-256 and SHA-384, all GET lists)', async () => {
    const r = await dsCheck('matching.test.')
    assert.equal(r.status, 'OK', JSON.stringify(r))
    const listed = (await apiKsks(api, 'matching.test.'))[0]!.dsRecords
    assert.deepEqual(listed.map(d => d.split(' ')[2]), ['1', '2', '4'])
    assert.equal(r.messages.length, 1, JSON.stringify(r.messages))
    assert.equal(r.messages[0].status, 'OK')
    for (const d of listed) assert.ok(r.messages[0].message.includes(d), `${d} matches: ${r.messages[0].message}`)
  })

  it('reports an ERROR when the parent holds DS records for a zone no longer signed (DELETE …/dnssec)', async () => {
    const listed = (await apiKsks(api, 'matching.test.'))[0]!.dsRecords
    assert.equal((await api('DELETE', '/zones/matching.test./dnssec')).status, 204)
    const r = await dsCheck('matching.test.')
    assert.equal(r.status, 'ERROR', JSON.stringify(r))
    assert.equal(r.messages.length, 1)
    assert.match(r.messages[0].message, /^The parent 'test\.' holds DS records for 'matching\.test\.' \[.*\], but the zone is not signed: validating resolvers fail its names\.$/)
    for (const d of listed) assert.ok(r.messages[0].message.includes(d), d)
  })

  it('reports an ERROR when the parent\'s DS is of another key', async () => {
    const r = await dsCheck('otherkey.test.')
    assert.equal(r.status, 'ERROR', JSON.stringify(r))
    assert.match(r.messages[0].message, /^None of the DS records at the parent 'test\.' \[.*\] matches a DNSKEY of 'otherkey\.test\.': validating resolvers fail its names\.$/)
  })

  it('reports a signed zone without DS at its parent as a WARNING: not validated', async () => {
    const r = await dsCheck('nods.test.')
    assert.equal(r.status, 'WARNING', JSON.stringify(r))
    assert.deepEqual(r.messages, [{ status: 'WARNING', message: 'Zone \'nods.test.\' is signed but its parent \'test.\' holds no DS record for it: its answers are not validated.' }])
  })

  it('after a KSK rollover, passes while the old KSK is published and reports the old DS left at the parent once it is removed', async () => {
    const oldDs = await ds('rolled.test.')
    const res = await api('POST', '/zones/rolled.test./dnssec/kskrollover', {})
    assert.equal(res.status, 200, await res.text())
    assert.equal((await dsCheck('rolled.test.')).status, 'OK')

    const zone = (await t.service.store.zones.findByName('rolled.test.', { accountIds: [(await t.service.store.accounts.findByName('default'))!.id] }))!
    const leaving = (await t.service.store.dnssec.keys(zone.id)).find(k => k.role === 'KSK' && k.removedAt !== null)!
    const { steps } = await maintainZone(t.service.store, new SecretBox(undefined), zone.id, new Date(Date.parse(leaving.removedAt!) + 1000))
    assert.deepEqual(steps, [`KSK ${leaving.keyTag} removed`])
    const r = await dsCheck('rolled.test.')
    assert.equal(r.status, 'ERROR', JSON.stringify(r))
    assert.deepEqual(r.messages, [{ status: 'ERROR', message: `None of the DS records at the parent 'test.' [${oldDs}] matches a DNSKEY of 'rolled.test.': validating resolvers fail its names.` }])
  })
})
