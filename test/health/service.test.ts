import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Pacer } from '../../src/dns/client/pacer.ts'
import { HealthChecker } from '../../src/health/service.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { eventually } from '../helpers/named.ts'
import { client } from '../helpers/zones.ts'

describe('Pacer', () => {
  it('spaces the queries to one server and leaves other servers alone', () => {
    let now = 1000
    const pacer = new Pacer(10, () => now)
    assert.deepEqual([pacer.take('192.0.2.1'), pacer.take('192.0.2.1'), pacer.take('192.0.2.1'), pacer.take('192.0.2.2')], [0, 100, 200, 0])
    now += 1000
    assert.equal(pacer.take('192.0.2.1'), 0)
  })
})

describe('HealthChecker schedule (no resolvers)', () => {
  let t: TestApp
  let checker: HealthChecker
  let zones: ReturnType<typeof client>
  before(async () => {
    t = await buildTestApp('sqlite')
    zones = client(t.app, await t.user('owner', 'acme'))
    for (const zone of ['one.example.org.', 'two.example.org.']) assert.equal((await zones.newPrimary(zone, 'acme')).statusCode, 201)
    assert.equal((await zones.post('/zones', { properties: { name: 'sec.example.org.', accountName: 'acme', type: 'SECONDARY' }, secondaryCreateInfo: { primaryNameServers: { nameServerIpList: { nameServerIp1: { ip: '192.0.2.53' } } } } })).statusCode, 201)
    checker = new HealthChecker(t.store, { resolvers: [], nsPort: 53, concurrency: 1, perServerQps: 10, intervalMs: 3_600_000, changeDelayMs: 50 })
  })
  after(async () => {
    await checker?.stop()
    await t?.close()
  })

  const versionsOf = async (zone: string): Promise<string[]> => {
    const id = (await t.store.zones.findByName(zone, { accountIds: [(await t.store.accounts.findByName('acme'))!.id] }))!.id
    return await t.store.healthChecks.versions(id)
  }

  it('checks every primary zone never checked, one at a time, and not again within the interval', async () => {
    // Two hours ago, so that the second round's versions are in the past too.
    const now = new Date(Date.now() - 7_200_000)
    assert.equal(await checker.checkDue(now), 2)
    await checker.idle()
    assert.equal((await versionsOf('one.example.org.')).length, 1)
    assert.equal((await versionsOf('two.example.org.')).length, 1)
    assert.deepEqual(await versionsOf('sec.example.org.'), [])
    assert.equal(await checker.checkDue(new Date(now.getTime() + 60_000)), 0)
    assert.equal(await checker.checkDue(new Date(now.getTime() + 3_600_001)), 2)
    await checker.idle()
    assert.equal((await versionsOf('one.example.org.')).length, 2)
  })

  it('checks a zone again shortly after it changes, once for several changes', async () => {
    await checker.startSchedule()
    const before = (await versionsOf('two.example.org.'))[0]!
    for (const owner of ['www1', 'www2', 'www3']) assert.equal((await zones.post(`/zones/two.example.org./rrsets/A/${owner}`, { ttl: 300, rdata: ['192.0.2.1'] })).statusCode, 201)
    await eventually(async () => (await versionsOf('two.example.org.'))[0]! > before, 10_000, 'a check after the change')
    await checker.idle()
    const after = await versionsOf('two.example.org.')
    assert.equal(after.length, 2)
    assert.equal(after[1], before, 'one check for the three changes')
  })
})
