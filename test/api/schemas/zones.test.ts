/**
 * The Zone DTO response schemas (src/api/schemas/zones.ts) are the last whitelist for TSIG
 * secrets: Fastify's serializer writes only declared fields, so a secret (revealed or masked)
 * leaves only where a `tsigKeyValue` is declared for the zone's type.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import { ZoneDto } from '../../../src/api/schemas/zones.ts'

const SECRET = 'c2VjcmV0c2VjcmV0'
const MASKED = '<TSIG_KEY_VALUE>'

const properties = (type: string) => ({
  name: 'example.org.',
  accountName: 'acme',
  type,
  dnssecStatus: 'UNSIGNED',
  status: 'ACTIVE',
  owner: '',
  lastModifiedDateTime: '2026-11-24T08:00Z',
  recordCount: 3,
  resourceRecordCount: 3
})

describe('Zone DTO response schema', () => {
  let app: FastifyInstance
  let payload: unknown

  before(async () => {
    app = Fastify()
    app.get('/zone', { schema: { response: { 200: ZoneDto } } }, async () => payload)
    await app.ready()
  })
  after(async () => { await app.close() })

  const serialise = async (value: unknown): Promise<Record<string, unknown>> => {
    payload = value
    const res = await app.inject({ method: 'GET', url: '/zone' })
    assert.equal(res.statusCode, 200, res.body)
    return res.json()
  }

  it('writes a primary zone\'s declared fields, its TSIG secret revealed or masked, and the properties B1 adds', async () => {
    const primary = {
      properties: { ...properties('PRIMARY'), mailMonitor: false, certEnabled: false, valimailMonitor: true },
      registrarInfo: { nameServers: { ok: ['ns1.zonal.test.'], missing: ['ns2.zonal.test.'], incorrect: ['ns.example.net.'] } },
      restrictIpList: [{ startIP: '192.0.2.0', endIP: '192.0.2.255', comment: 'lan' }],
      tsig: { tsigKeyName: 'k.', tsigKeyValue: SECRET, tsigAlgorithm: 'hmac-sha256', description: '' },
      notifyAddresses: [{ notifyAddress: '192.0.2.7', description: '' }]
    }
    assert.deepEqual(await serialise(primary), primary)
    const masked = { ...primary, tsig: { ...primary.tsig, tsigKeyValue: MASKED } }
    assert.deepEqual(await serialise(masked), masked)
  })

  it('drops what a primary zone does not declare: another type\'s sections and unknown fields, with their secrets', async () => {
    const out = await serialise({
      properties: { ...properties('PRIMARY'), sealedKey: 'v1:abc' },
      restrictIpList: [],
      tsig: { tsigKeyName: 'k.', tsigKeyValue: MASKED, tsigAlgorithm: 'hmac-sha256', sealed: SECRET },
      notifyAddresses: [],
      primaryNameServers: { nameServerIpList: { nameServerIp1: { ip: '192.0.2.1', tsigKey: 'k.', tsigKeyValue: SECRET } } },
      secret: SECRET
    })
    assert.deepEqual(Object.keys(out).sort(), ['notifyAddresses', 'properties', 'restrictIpList', 'tsig'])
    assert.equal((out.properties as Record<string, unknown>).sealedKey, undefined)
    assert.deepEqual(out.tsig, { tsigKeyName: 'k.', tsigKeyValue: MASKED, tsigAlgorithm: 'hmac-sha256' })
    assert.ok(!JSON.stringify(out).includes(SECRET))
  })

  it('writes a secondary zone\'s primary name servers with their secrets, and drops a tsig section and unknown keys', async () => {
    const servers = { nameServerIp1: { ip: '192.0.2.53', tsigKey: 'xfr.', tsigKeyValue: SECRET, tsigAlgorithm: 'hmac-sha256' }, nameServerIp2: { ip: '192.0.2.54' } }
    const secondary = {
      properties: properties('SECONDARY'),
      primaryNameServers: { nameServerIpList: servers },
      transferStatusDetails: { lastRefresh: '11/22/26 03:04:05 PM GMT', lastRefreshStatus: 'FAILED', lastRefreshStatusMessage: 'Connection refused' },
      notificationEmailAddress: 'ops@example.org'
    }
    assert.deepEqual(await serialise(secondary), secondary)
    const out = await serialise({
      ...secondary,
      primaryNameServers: { nameServerIpList: { ...servers, leak: { ip: '192.0.2.9', tsigKeyValue: 'bGVhaw==' } } },
      tsig: { tsigKeyName: 'k.', tsigKeyValue: 'bGVhaw==', tsigAlgorithm: 'hmac-md5' },
      restrictIpList: []
    })
    assert.deepEqual(out, secondary)
  })

  it('writes an alias zone as properties and originalZoneName only', async () => {
    const alias = { properties: properties('ALIAS'), originalZoneName: 'example.net.' }
    assert.deepEqual(await serialise({ ...alias, tsig: { tsigKeyName: 'k.', tsigKeyValue: SECRET, tsigAlgorithm: 'hmac-md5' }, registrarInfo: { nameServers: { ok: [] } } }), alias)
  })
})
