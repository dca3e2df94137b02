/**
 * The console's reading of the zone API's errors (console/src/settings-fields.ts,
 * console/src/zone-names.ts) against the service's own answers: each bad transfer setting sent
 * as the zone page sends it (PATCH /zones/{zone}, primaryCreateInfo) is refused with a message
 * the console puts under the input that holds the bad value.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { settingsFieldOf } from '../../console/src/settings-fields.ts'
import { zoneNamesOf } from '../../console/src/zone-names.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { client } from '../helpers/zones.ts'

type Range = { startIP: string, endIP: string, comment: string }

describe('console: the field of a transfer settings error', () => {
  let t: TestApp
  let api: ReturnType<typeof client>

  before(async () => {
    t = await buildTestApp('sqlite')
    api = client(t.app, await t.user('alice', 'acme', 'DNSAdministrators'))
    assert.equal((await api.newPrimary('fields.test', 'acme')).statusCode, 201)
  })
  after(async () => { await t.close() })

  /** The console's field for the service's first error of a PATCH of these settings. */
  async function fieldOf (section: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<string> {
    const res = await api.patch('/zones/fields.test', { primaryCreateInfo: section, ...extra })
    assert.equal(res.statusCode, 400, res.body)
    const [error] = res.json() as Array<{ errorMessage: string }>
    const ranges = ((section.restrictIPList ?? []) as Range[]).map(r => ({ start: r.startIP, end: r.endIP }))
    return settingsFieldOf(error!.errorMessage, { ranges })
  }
  const range = (startIP: string, endIP: string): Range => ({ startIP, endIP, comment: '' })

  it('puts a bad restrict range at its start or end address, by line', async () => {
    assert.equal(await fieldOf({ restrictIPList: [range('192.0.2.1', '192.0.2.1'), range('192.0.2.9', '192.0.2.300')] }), 'range-1-end')
    assert.equal(await fieldOf({ restrictIPList: [range('nope', '192.0.2.1')] }), 'range-0-start')
    assert.equal(await fieldOf({ restrictIPList: [range('192.0.2.9', '192.0.2.1')] }), 'range-0-end', 'end before start')
    assert.equal(await fieldOf({ restrictIPList: [range('192.0.2.1', '2001:db8::1')] }), 'range-0-end', 'two families')
  })

  it('puts a bad notify address at its line', async () => {
    assert.equal(await fieldOf({ notifyAddresses: [{ notifyAddress: '192.0.2.1', description: '' }, { notifyAddress: '192.0.2.300', description: '' }] }), 'notify-1-address')
  })

  it('puts TSIG problems at the key name, the secret or the algorithm', async () => {
    assert.equal(await fieldOf({ tsig: { tsigKeyName: 'bad..name', tsigKeyValue: 'c2VjcmV0', tsigAlgorithm: 'hmac-sha256' } }), 'tsig-name')
    assert.equal(await fieldOf({ tsig: { tsigKeyValue: 'c2VjcmV0', tsigAlgorithm: 'hmac-sha256' } }), 'tsig-name', 'no name')
    assert.equal(await fieldOf({ tsig: { tsigKeyName: 'k', tsigKeyValue: 'not base64!', tsigAlgorithm: 'hmac-sha256' } }), 'tsig-secret')
    assert.equal(await fieldOf({ tsig: { tsigKeyName: 'k', tsigKeyValue: 'c2VjcmV0', tsigAlgorithm: 'hmac-nope' } }), 'tsig-algorithm')
  })

  it('puts a change comment too long at the comment', async () => {
    assert.equal(await fieldOf({ notifyAddresses: [] }, { changeComment: 'x'.repeat(513) }), 'change-comment')
  })

  it('reads the zones of the query volume report: any separator, the final dot, no repeats', () => {
    assert.deepEqual(zoneNamesOf(' a.test, B.Test.;c.test\nA.TEST. '), ['a.test.', 'b.test.', 'c.test.'])
    assert.deepEqual(zoneNamesOf(' , '), [])
  })
})
