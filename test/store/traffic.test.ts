/**
 * Traffic services in the store (migration 0022, src/store/sql/traffic.ts), on both engines:
 * probe definitions per pool, the pools the scheduler probes (SB, TC, SF, SLB of active
 * primaries, with their probes), runs and each agent's latest result, the decided record state
 * changed compare-and-set, failover events filtered and paged, and the zone's rows going with it.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { FailoverEvent, ProbeDefinition, Store, Zone } from '../../src/store/store.ts'
import { canonicalSortKey, parseName } from '../../src/zone/name.ts'
import { engineCases, freshStore } from '../helpers/engines.ts'
import { storeZone } from '../helpers/stored-zones.ts'
import { sbProfile, sfProfile } from '../helpers/traffic.ts'

const ZONE = `$ORIGIN example.org.
$TTL 300
@ IN SOA ns1 hostmaster 1 3600 900 604800 300
@ IN NS ns1
ns1 IN A 192.0.2.53
sb IN A 127.0.0.2
sb IN A 127.0.0.3
sf IN A 127.0.0.4
rd IN A 192.0.2.1
rd IN A 192.0.2.2
`
const SB = canonicalSortKey(parseName('sb.example.org.'))
const SF = canonicalSortKey(parseName('sf.example.org.'))

function probe (zoneId: string, id: string, poolRecord: string | null = null): ProbeDefinition {
  return {
    id,
    zoneId,
    ownerKey: SB,
    rrtype: 1,
    poolRecord,
    probeType: 'TCP',
    interval: 'ONE_MINUTE',
    agents: ['NEW_YORK'],
    threshold: 1,
    details: { port: 8080 },
    createdAt: `2026-11-26T08:00:0${id.slice(-1)}.000Z`
  }
}

function event (accountId: string, zoneId: string, at: string, id: string, extra: Partial<FailoverEvent> = {}): FailoverEvent {
  return {
    id,
    at,
    accountId,
    accountName: 'acme',
    zoneId,
    zoneName: 'example.org.',
    poolName: 'sb.example.org.',
    poolRecord: '127.0.0.2',
    recordType: 'A',
    poolType: 'SITE_BACKER',
    oldState: 'ACTIVE',
    newState: 'INACTIVE',
    reason: 'Probe Failure',
    allFail: false,
    node: 'n1',
    ...extra
  }
}

for (const engine of await engineCases()) {
  describe(`${engine.name}: traffic store`, { skip: engine.skip }, () => {
    let store: Store
    let close: () => Promise<void>
    let zone: Zone
    let accountId: string

    before(async () => {
      ({ store, close } = await freshStore(engine.name))
      accountId = (await store.accounts.create('acme')).id
      await store.accounts.create('other')
      zone = await storeZone(store, 'acme', 'example.org.', ZONE, {
        profiles: {
          'sb.example.org./1': sbProfile('sb.example.org.', ['127.0.0.2', '127.0.0.3']),
          'sf.example.org./1': sfProfile('sf.example.org.', '127.0.0.4', 'http://www.example.org:8080/health')
        }
      })
    })
    after(async () => { await close?.() })

    it('creates, reads, updates and deletes the probes of a pool', async () => {
      await store.traffic.createProbe(probe(zone.id, 'P1'))
      await store.traffic.createProbe(probe(zone.id, 'P2', '127.0.0.3'))
      assert.deepEqual((await store.traffic.probes(zone.id, SB, 1)).map(p => [p.id, p.poolRecord]), [['P1', null], ['P2', '127.0.0.3']])
      assert.deepEqual((await store.traffic.probe(zone.id, SB, 1, 'P1'))?.details, { port: 8080 })
      assert.equal(await store.traffic.probe(zone.id, SF, 1, 'P1'), undefined, 'a probe belongs to its pool')
      assert.equal(await store.traffic.updateProbe({ ...probe(zone.id, 'P1'), probeType: 'HTTP', threshold: 1, details: { transactions: [] } }), true)
      assert.equal((await store.traffic.probe(zone.id, SB, 1, 'P1'))?.probeType, 'HTTP')
      assert.equal(await store.traffic.updateProbe(probe(zone.id, 'NOPE')), false)
      assert.equal(await store.traffic.deleteProbe(zone.id, SB, 1, 'P2'), true)
      assert.equal(await store.traffic.deleteProbe(zone.id, SB, 1, 'P2'), false)
      await store.traffic.updateProbe(probe(zone.id, 'P1'))
    })

    it('lists the probed pools of active primary zones with their probes (not RD pools)', async () => {
      const pools = await store.traffic.pools()
      assert.deepEqual(pools.map(p => [p.ownerName, p.profile.kind, p.probes.map(x => x.id), p.rdataText]), [
        ['sb.example.org.', 'SB_POOLS', ['P1'], ['127.0.0.2', '127.0.0.3']],
        ['sf.example.org.', 'SF_POOLS', [], ['127.0.0.4']]
      ])
      assert.equal(pools[0]!.accountName, 'acme')
      assert.equal(pools[0]!.zoneName, 'example.org.')
    })

    it('records runs and keeps each agent\'s latest result (a late older run does not replace it)', async () => {
      const base = { zoneId: zone.id, ownerKey: SB, rrtype: 1, record: '127.0.0.2', probeId: 'P1', region: 'NORTH_AMERICA_EAST', probeType: 'TCP', durationMs: 3 }
      await store.traffic.record({ ...base, agent: 'n1', at: '2026-11-26T08:01:00.000Z', ok: true, message: 'connected' })
      await store.traffic.record({ ...base, agent: 'n1', at: '2026-11-26T08:02:00.000Z', ok: false, message: 'refused' })
      await store.traffic.record({ ...base, agent: 'n1', at: '2026-11-26T08:01:30.000Z', ok: true, message: 'late' })
      await store.traffic.record({ ...base, agent: 'n2', at: '2026-11-26T08:02:00.000Z', ok: true, message: 'connected' })
      const seen = (await store.traffic.observations(zone.id, SB, 1)).sort((a, b) => a.agent < b.agent ? -1 : 1)
      assert.deepEqual(seen.map(o => [o.agent, o.ok, o.message, o.at]), [['n1', false, 'refused', '2026-11-26T08:02:00.000Z'], ['n2', true, 'connected', '2026-11-26T08:02:00.000Z']])
      const runs = await store.traffic.runs({ zoneId: zone.id, ownerKey: SB, rrtype: 1 }, '2026-11-26T00:00:00.000Z', '2026-11-27T00:00:00.000Z', 100)
      assert.deepEqual(runs.map(r => [r.at, r.agent, r.ok]), [
        ['2026-11-26T08:01:00.000Z', 'n1', true], ['2026-11-26T08:01:30.000Z', 'n1', true], ['2026-11-26T08:02:00.000Z', 'n1', false], ['2026-11-26T08:02:00.000Z', 'n2', true]
      ])
    })

    it('records a batch of runs in one call: every run kept, the newest of the batch each agent\'s latest unless a newer one is stored', async () => {
      const base = { zoneId: zone.id, ownerKey: SB, rrtype: 1, record: '127.0.0.3', probeId: 'P2', region: 'ASIA', probeType: 'HTTP', durationMs: 5 }
      await store.traffic.record({ ...base, agent: 'n2', at: '2026-11-26T09:05:00.000Z', ok: true, message: 'stored newer' })
      await store.traffic.recordMany([
        { ...base, agent: 'n1', at: '2026-11-26T09:01:00.000Z', ok: true, message: 'first' },
        { ...base, agent: 'n1', at: '2026-11-26T09:03:00.000Z', ok: false, message: 'newest of the batch' },
        { ...base, agent: 'n1', at: '2026-11-26T09:02:00.000Z', ok: true, message: 'late in the batch' },
        { ...base, agent: 'n2', at: '2026-11-26T09:04:00.000Z', ok: false, message: 'older than stored' }
      ])
      await store.traffic.recordMany([])
      const seen = (await store.traffic.observations(zone.id, SB, 1)).filter(o => o.record === '127.0.0.3' || o.probeId === 'P2').sort((a, b) => a.agent < b.agent ? -1 : 1)
      assert.deepEqual(seen.map(o => [o.agent, o.ok, o.message]), [['n1', false, 'newest of the batch'], ['n2', true, 'stored newer']])
      const runs = await store.traffic.runs({ zoneId: zone.id, ownerKey: SB, rrtype: 1 }, '2026-11-26T09:00:00.000Z', '2026-11-26T10:00:00.000Z', 100)
      assert.deepEqual(runs.map(r => [r.at, r.agent]), [
        ['2026-11-26T09:01:00.000Z', 'n1'], ['2026-11-26T09:02:00.000Z', 'n1'], ['2026-11-26T09:03:00.000Z', 'n1'], ['2026-11-26T09:04:00.000Z', 'n2'], ['2026-11-26T09:05:00.000Z', 'n2']
      ])
    })

    it('changes a record\'s state only from the state it has (a record without a row is UP)', async () => {
      const key = { zoneId: zone.id, ownerKey: SB, rrtype: 1, record: '127.0.0.2' }
      assert.deepEqual(await store.traffic.health(zone.id), [])
      assert.equal(await store.traffic.changeState(key, 'DOWN', 'UP', '2026-11-26T08:03:00.000Z'), false)
      await store.traffic.setPending(key, { state: 'DOWN', since: '2026-11-26T08:02:00.000Z' })
      let rows = await store.traffic.health(zone.id)
      assert.deepEqual(rows.map(r => [r.ownerName, r.record, r.state, r.pendingState, r.pendingSince]), [['sb.example.org.', '127.0.0.2', 'UP', 'DOWN', '2026-11-26T08:02:00.000Z']])
      assert.equal(await store.traffic.changeState(key, 'UP', 'DOWN', '2026-11-26T08:03:00.000Z'), true)
      assert.equal(await store.traffic.changeState(key, 'UP', 'DOWN', '2026-11-26T08:03:00.000Z'), false, 'a second node finds it changed')
      rows = await store.traffic.health(zone.id, { ownerKey: SB, rrtype: 1 })
      assert.deepEqual(rows.map(r => [r.state, r.changedAt, r.pendingState]), [['DOWN', '2026-11-26T08:03:00.000Z', null]])
      assert.deepEqual(await store.traffic.health(zone.id, { ownerKey: SF, rrtype: 1 }), [])
    })

    it('lists an account\'s failover events in a window, filtered, oldest first, by keyset pages', async () => {
      const other = (await store.accounts.findByName('other'))!.id
      await store.traffic.appendEvent(event(accountId, zone.id, '2026-11-25T10:00:00.000Z', 'e1'))
      await store.traffic.appendEvent(event(accountId, zone.id, '2026-11-26T10:00:00.000Z', 'e3', { poolRecord: '127.0.0.3', newState: 'ACTIVE', oldState: 'INACTIVE', reason: 'Probe Success', allFail: true }))
      await store.traffic.appendEvent(event(accountId, zone.id, '2026-11-26T10:00:00.000Z', 'e2', { poolName: 'sf.example.org.', poolType: 'FAILOVER_POOL', recordType: 'AAAA' }))
      await store.traffic.appendEvent(event(accountId, zone.id, '2026-11-26T11:00:00.000Z', 'e4', { zoneName: 'example.net.' }))
      await store.traffic.appendEvent(event(other, zone.id, '2026-11-26T10:30:00.000Z', 'x1', { accountName: 'other' }))
      const q = { accountId, from: '2026-11-25T00:00:00.000Z', to: '2026-11-27T00:00:00.000Z', limit: 10 }
      const ids = async (extra: object = {}): Promise<string[]> => (await store.traffic.events({ ...q, ...extra })).map(e => e.id)
      assert.deepEqual(await ids(), ['e1', 'e2', 'e3', 'e4'])
      assert.deepEqual(await ids({ from: '2026-11-26T10:00:00.000Z', to: '2026-11-26T11:00:00.000Z' }), ['e2', 'e3'], 'from inclusive, to exclusive')
      assert.deepEqual(await ids({ zoneName: 'example.net.' }), ['e4'])
      assert.deepEqual(await ids({ poolName: 'sf.example.org.' }), ['e2'])
      assert.deepEqual(await ids({ poolRecord: '127.0.0.3' }), ['e3'])
      assert.deepEqual(await ids({ recordType: 'AAAA' }), ['e2'])
      assert.deepEqual(await ids({ poolType: 'SITE_BACKER' }), ['e1', 'e3', 'e4'])
      assert.deepEqual(await ids({ limit: 2 }), ['e1', 'e2'])
      assert.deepEqual(await ids({ limit: 2, after: { at: '2026-11-26T10:00:00.000Z', id: 'e2' } }), ['e3', 'e4'])
      assert.deepEqual(await ids({ limit: 2, before: { at: '2026-11-26T10:00:00.000Z', id: 'e3' } }), ['e1', 'e2'])
      assert.deepEqual(await ids({ limit: 1, before: { at: '2026-11-26T11:00:00.000Z', id: 'e4' } }), ['e3'])
      const e3 = (await store.traffic.events({ ...q, poolRecord: '127.0.0.3' }))[0]!
      assert.deepEqual(e3, event(accountId, zone.id, '2026-11-26T10:00:00.000Z', 'e3', { poolRecord: '127.0.0.3', newState: 'ACTIVE', oldState: 'INACTIVE', reason: 'Probe Success', allFail: true }))
    })

    it('forgets a pool: its probes, latest results and states (its runs stay)', async () => {
      const SF_KEY = { zoneId: zone.id, ownerKey: SF, rrtype: 1, record: '127.0.0.4' }
      await store.traffic.createProbe({ ...probe(zone.id, 'P9'), ownerKey: SF })
      await store.traffic.record({ ...SF_KEY, probeId: '', agent: 'n1', region: 'ASIA', probeType: 'HTTP', ok: false, message: 'down', durationMs: 1, at: '2026-11-26T08:05:00.000Z' })
      await store.traffic.changeState(SF_KEY, 'UP', 'DOWN', '2026-11-26T08:05:00.000Z')
      await store.traffic.forgetPool(zone.id, SF, 1)
      assert.deepEqual(await store.traffic.probes(zone.id, SF, 1), [])
      assert.deepEqual(await store.traffic.observations(zone.id, SF, 1), [])
      assert.deepEqual(await store.traffic.health(zone.id, { ownerKey: SF, rrtype: 1 }), [])
      assert.equal((await store.traffic.runs({ zoneId: zone.id, ownerKey: SF, rrtype: 1 }, '2026-11-26T00:00:00.000Z', '2026-11-27T00:00:00.000Z', 10)).length, 1)
      assert.equal((await store.traffic.probes(zone.id, SB, 1)).length, 1, 'other pools keep theirs')
    })

    it('drops the probes, results and states of a deleted zone, and keeps its events', async () => {
      await store.zones.deleteById(zone.id)
      assert.deepEqual(await store.traffic.probes(zone.id, SB, 1), [])
      assert.deepEqual(await store.traffic.observations(zone.id, SB, 1), [])
      assert.deepEqual(await store.traffic.health(zone.id), [])
      assert.deepEqual(await store.traffic.pools(), [])
      assert.equal((await store.traffic.events({ accountId, from: '2026-11-25T00:00:00.000Z', to: '2026-11-27T00:00:00.000Z', limit: 10 })).length, 4)
    })
  })
}
