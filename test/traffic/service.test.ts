/**
 * The traffic service (src/traffic/service.ts) on both engines, driven by its own clock
 * (`tick(now)`) against real targets on loopback: an SF pool's monitor and an SLB pool follow an
 * HTTP server that goes down, answers wrongly and comes back; an SB pool's TCP probe follows a
 * listener; a failover delay holds a change back; each change is one failover event and one
 * audit record, published once; two nodes on one database agree, make each change once, a node
 * that does not probe follows them, and a node going away flips nothing.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { openStore } from '../../src/store/open-store.ts'
import type { Store } from '../../src/store/store.ts'
import { TrafficService, type TrafficSettings } from '../../src/traffic/service.ts'
import type { PoolRecordStates } from '../../src/zone/pools/health.ts'
import { canonicalSortKey, parseName } from '../../src/zone/name.ts'
import { engineCases, freshStore } from '../helpers/engines.ts'
import { storeZone } from '../helpers/stored-zones.ts'
import { sbProfile, sfProfile, slbProfile } from '../helpers/traffic.ts'
import { HttpTarget, TcpTarget } from '../helpers/loopback-targets.ts'

const T0 = Date.parse('2026-11-26T08:00:00.000Z')
const MIN = 60_000

function zoneText (records: string): string {
  return `$ORIGIN example.org.
$TTL 300
@ IN SOA ns1 hostmaster 1 3600 900 604800 300
@ IN NS ns1
ns1 IN A 192.0.2.53
${records}`
}

function service (store: Store, published: PoolRecordStates[], node = 'n1', extra: Partial<TrafficSettings> = {}): TrafficService {
  return new TrafficService(store, {
    node,
    region: 'NORTH_AMERICA_EAST',
    monitorIntervalSeconds: 60,
    minIntervalSeconds: 30,
    concurrency: 4,
    publish: (s) => published.push(s),
    random: () => 0,
    ...extra
  })
}

const healthOf = (s: PoolRecordStates): Record<string, string> => Object.fromEntries(s.health)

for (const engine of await engineCases()) {
  describe(`${engine.name}: traffic service`, { skip: engine.skip }, () => {
    let store: Store
    let url: string
    let close: () => Promise<void>
    let accountId: string
    let web: HttpTarget
    let web2: HttpTarget

    before(async () => {
      ({ store, url, close } = await freshStore(engine.name))
      accountId = (await store.accounts.create('acme')).id
      web = await new HttpTarget('127.0.0.4').start()
      web2 = await new HttpTarget('127.0.0.6').start(web.port)
    })
    after(async () => {
      await web?.stop()
      await web2?.stop()
      await close?.()
    })

    it('SF: the monitor takes the live record DOWN when the server fails or answers wrongly, and UP when it is back; one event each', async () => {
      const monitor = `http://www.example.org:${web.port}/health`
      const zone = await storeZone(store, 'acme', 'example.org.', zoneText('sf IN A 127.0.0.4\n'), { profiles: { 'sf.example.org./1': sfProfile('sf.example.org.', '127.0.0.4', monitor) } })
      const published: PoolRecordStates[] = []
      const traffic = service(store, published)
      try {
        web.mode = 'up'
        await traffic.tick(T0)
        assert.equal(web.requests.length, 1)
        assert.equal(published.length, 0, 'all UP: nothing to publish')
        web.mode = 'error'
        await traffic.tick(T0 + 30_000)
        assert.equal(web.requests.length, 1, 'not due before its interval')
        await traffic.tick(T0 + MIN)
        assert.deepEqual(published.map(healthOf), [{ '127.0.0.4': 'DOWN' }])
        assert.deepEqual([published[0]!.zoneId, published[0]!.owner, published[0]!.type], [zone.id, 'sf.example.org.', 1])
        web.mode = 'wrong-body'
        await traffic.tick(T0 + 2 * MIN)
        assert.equal(published.length, 1, 'still DOWN: nothing new')
        web.mode = 'up'
        await traffic.tick(T0 + 3 * MIN)
        assert.deepEqual(published.map(healthOf), [{ '127.0.0.4': 'DOWN' }, { '127.0.0.4': 'UP' }])
        const events = await store.traffic.events({ accountId, from: '2026-11-26T00:00:00.000Z', to: '2026-11-27T00:00:00.000Z', limit: 10 })
        assert.deepEqual(events.map(e => [e.at, e.poolName, e.poolRecord, e.recordType, e.poolType, e.oldState, e.newState, e.reason, e.allFail, e.node]), [
          ['2026-11-26T08:01:00.000Z', 'sf.example.org.', '127.0.0.4', 'A', 'FAILOVER_POOL', 'ACTIVE', 'INACTIVE', 'Probe Failure', true, 'n1'],
          ['2026-11-26T08:03:00.000Z', 'sf.example.org.', '127.0.0.4', 'A', 'FAILOVER_POOL', 'INACTIVE', 'ACTIVE', 'Probe Success', false, 'n1']
        ])
        const audit = (await store.audit.recent(10)).filter(r => r.object_type === 'POOL_RECORD')
        assert.deepEqual(audit.map(r => [r.change_type, r.object, r.parent]).sort(), [['FAILBACK', '127.0.0.4', 'sf.example.org.'], ['FAILOVER', '127.0.0.4', 'sf.example.org.']])
        assert.deepEqual((await traffic.poolStates(zone.id)).map(healthOf), [{ '127.0.0.4': 'UP' }])
        const runs = await store.traffic.runs({ zoneId: zone.id, ownerKey: canonicalSortKey(parseName('sf.example.org.')), rrtype: 1 }, '2026-11-26T00:00:00.000Z', '2026-11-27T00:00:00.000Z', 10)
        assert.deepEqual(runs.map(r => r.ok), [true, false, false, true], 'every run recorded')
      } finally {
        await traffic.stop()
        await store.zones.deleteById(zone.id)
      }
    })

    it('SLB: each record follows its own server', async () => {
      const monitor = `http://www.example.org:${web.port}/health`
      const zone = await storeZone(store, 'acme', 'example.org.', zoneText('slb IN A 127.0.0.4\nslb IN A 127.0.0.6\n'), { profiles: { 'slb.example.org./1': slbProfile('slb.example.org.', ['127.0.0.4', '127.0.0.6'], monitor) } })
      const published: PoolRecordStates[] = []
      const traffic = service(store, published)
      try {
        web.mode = 'up'
        web2.mode = 'error'
        await traffic.tick(T0 + 10 * MIN)
        assert.deepEqual(published.map(healthOf), [{ '127.0.0.4': 'UP', '127.0.0.6': 'DOWN' }])
      } finally {
        await traffic.stop()
        await store.zones.deleteById(zone.id)
      }
    })

    it('SB: a TCP probe takes records DOWN and UP with the listener; the last one down is an all-fail change', async () => {
      const listener = await new TcpTarget('127.0.0.2').start()
      const zone = await storeZone(store, 'acme', 'example.org.', zoneText('sb IN A 127.0.0.2\nsb IN A 127.0.0.3\n'), { profiles: { 'sb.example.org./1': sbProfile('sb.example.org.', ['127.0.0.2', '127.0.0.3']) } })
      const ownerKey = canonicalSortKey(parseName('sb.example.org.'))
      await store.traffic.createProbe({ id: 'A1', zoneId: zone.id, ownerKey, rrtype: 1, poolRecord: null, probeType: 'TCP', interval: 'ONE_MINUTE', agents: ['NEW_YORK'], threshold: 1, details: { port: listener.port }, createdAt: '2026-11-26T07:00:00.000Z' })
      const published: PoolRecordStates[] = []
      const traffic = service(store, published)
      const t = T0 + 20 * MIN
      try {
        await traffic.tick(t)
        assert.deepEqual(published.map(healthOf), [{ '127.0.0.2': 'UP', '127.0.0.3': 'DOWN' }], 'nothing listens on 127.0.0.3')
        await listener.stop()
        await traffic.tick(t + MIN)
        assert.deepEqual(published.map(healthOf).at(-1), { '127.0.0.2': 'DOWN', '127.0.0.3': 'DOWN' })
        const events = await store.traffic.events({ accountId, zoneName: 'example.org.', poolName: 'sb.example.org.', from: new Date(t).toISOString(), to: new Date(t + 2 * MIN).toISOString(), limit: 10 })
        assert.deepEqual(events.map(e => [e.poolRecord, e.newState, e.allFail, e.poolType]), [['127.0.0.3', 'INACTIVE', false, 'SITE_BACKER'], ['127.0.0.2', 'INACTIVE', true, 'SITE_BACKER']])
        await listener.start(listener.port)
        await traffic.tick(t + 2 * MIN)
        assert.deepEqual(published.map(healthOf).at(-1), { '127.0.0.2': 'UP', '127.0.0.3': 'DOWN' })
      } finally {
        await traffic.stop()
        await listener.stop()
        await store.zones.deleteById(zone.id)
      }
    })

    it('SB: a failover delay holds the change until the failure has lasted that long', async () => {
      const zone = await storeZone(store, 'acme', 'example.org.', zoneText('late IN A 127.0.0.7\n'), { profiles: { 'late.example.org./1': sbProfile('late.example.org.', ['127.0.0.7'], { failoverDelay: 2 }) } })
      const ownerKey = canonicalSortKey(parseName('late.example.org.'))
      const listener = await new TcpTarget('127.0.0.7').start()
      await store.traffic.createProbe({ id: 'B1', zoneId: zone.id, ownerKey, rrtype: 1, poolRecord: '127.0.0.7', probeType: 'TCP', interval: 'ONE_MINUTE', agents: ['NEW_YORK'], threshold: 1, details: { port: listener.port }, createdAt: '2026-11-26T07:00:00.000Z' })
      const published: PoolRecordStates[] = []
      const traffic = service(store, published)
      const t = T0 + 30 * MIN
      try {
        await listener.stop()
        await traffic.tick(t)
        await traffic.tick(t + MIN)
        assert.equal(published.length, 0, 'failing for one minute of two')
        const pending = await store.traffic.health(zone.id)
        assert.deepEqual(pending.map(r => [r.state, r.pendingState, r.pendingSince]), [['UP', 'DOWN', new Date(t).toISOString()]])
        await traffic.tick(t + 2 * MIN)
        assert.deepEqual(published.map(healthOf), [{ '127.0.0.7': 'DOWN' }])
      } finally {
        await traffic.stop()
        await store.zones.deleteById(zone.id)
      }
    })

    it('runs at most `concurrency` checks at once; a target that hangs costs one timeout and is DOWN', async () => {
      // Connections arrive one timeout (1 s) apart when checks run one at a time; together when not.
      const arrivals: number[] = []
      const hold = (socket: import('node:net').Socket): void => {
        arrivals.push(performance.now())
        socket.resume()
      }
      const first = await new TcpTarget('127.0.0.2').start(0, hold)
      const others = [await new TcpTarget('127.0.0.3').start(first.port, hold), await new TcpTarget('127.0.0.7').start(first.port, hold)]
      const zone = await storeZone(store, 'acme', 'example.org.', zoneText('slow IN A 127.0.0.2\nslow IN A 127.0.0.3\nslow IN A 127.0.0.7\n'), { profiles: { 'slow.example.org./1': sbProfile('slow.example.org.', ['127.0.0.2', '127.0.0.3', '127.0.0.7']) } })
      const ownerKey = canonicalSortKey(parseName('slow.example.org.'))
      await store.traffic.createProbe({
        id: 'D1',
        zoneId: zone.id,
        ownerKey,
        rrtype: 1,
        poolRecord: null,
        probeType: 'HTTP',
        interval: 'ONE_MINUTE',
        agents: ['ASIA'],
        threshold: 1,
        createdAt: '2026-11-26T07:00:00.000Z',
        details: { transactions: [{ method: 'GET', url: `http://www.example.org:${first.port}/`, limits: { run: { fail: 1 } } }] }
      })
      const published: PoolRecordStates[] = []
      const traffic = service(store, published, 'n1', { concurrency: 1 })
      try {
        await traffic.tick(T0 + 50 * MIN)
        assert.equal(arrivals.length, 3, 'each record asked once')
        for (let i = 1; i < arrivals.length; i++) assert.ok(arrivals[i]! - arrivals[i - 1]! >= 900, `connection ${i + 1} came ${arrivals[i]! - arrivals[i - 1]!} ms after the one before: not one at a time`)
        assert.deepEqual(published.map(healthOf).at(-1), { '127.0.0.2': 'DOWN', '127.0.0.3': 'DOWN', '127.0.0.7': 'DOWN' })
        const runs = await store.traffic.runs({ zoneId: zone.id, ownerKey, rrtype: 1 }, '2026-11-26T00:00:00.000Z', '2026-11-27T00:00:00.000Z', 10)
        assert.deepEqual(runs.map(r => [r.ok, r.message]), [[false, 'transaction 1: timed out'], [false, 'transaction 1: timed out'], [false, 'transaction 1: timed out']])
      } finally {
        await traffic.stop()
        await first.stop()
        for (const o of others) await o.stop()
        await store.zones.deleteById(zone.id)
      }
    })

    it('two nodes on one database: the decision is over both agents, each change is made once, a node going away flips nothing', async () => {
      const other = await openStore(url)
      const zone = await storeZone(store, 'acme', 'example.org.', zoneText('two IN A 127.0.0.4\n'), { profiles: { 'two.example.org./1': sbProfile('two.example.org.', ['127.0.0.4']) } })
      const ownerKey = canonicalSortKey(parseName('two.example.org.'))
      await store.traffic.createProbe({
        id: 'C1',
        zoneId: zone.id,
        ownerKey,
        rrtype: 1,
        poolRecord: null,
        probeType: 'HTTP',
        interval: 'ONE_MINUTE',
        agents: ['NEW_YORK', 'DALLAS'],
        threshold: 2,
        createdAt: '2026-11-26T07:00:00.000Z',
        details: { transactions: [{ method: 'GET', url: `http://www.example.org:${web.port}/`, limits: { searchString: { fail: 'healthy' } } }] }
      })
      const seenA: PoolRecordStates[] = []
      const seenB: PoolRecordStates[] = []
      const a = service(store, seenA, 'n1')
      const b = service(other, seenB, 'n2')
      const t = T0 + 40 * MIN
      const window = { accountId, poolName: 'two.example.org.', from: new Date(t).toISOString(), to: new Date(t + 60 * MIN).toISOString(), limit: 10 }
      try {
        web.mode = 'up'
        await a.tick(t)
        await b.tick(t)
        web.mode = 'error'
        await a.tick(t + MIN)
        assert.equal(seenA.length, 0, 'one agent of two failing is under the probe\'s threshold of 2')
        await b.tick(t + MIN)
        assert.deepEqual(seenB.map(healthOf), [{ '127.0.0.4': 'DOWN' }])
        await a.tick(t + 2 * MIN)
        assert.deepEqual(seenA.map(healthOf), [{ '127.0.0.4': 'DOWN' }], 'the other node publishes the shared state')
        // A node that does not probe follows the shared state, and sends nothing.
        const seenC: PoolRecordStates[] = []
        const c = service(other, seenC, 'n3', { probe: false })
        const sent = web.requests.length
        await c.tick(t + 2 * MIN)
        await c.stop()
        assert.deepEqual(seenC.map(healthOf), [{ '127.0.0.4': 'DOWN' }])
        assert.equal(web.requests.length, sent)
        await b.tick(t + 2 * MIN)
        assert.deepEqual((await store.traffic.events(window)).map(e => [e.newState, e.node]), [['INACTIVE', 'n2']], 'one change, made once')
        // Node n2 goes away; n1 goes on failing after n2's results are stale: still DOWN, no new event.
        await b.stop()
        await a.tick(t + 10 * MIN)
        assert.equal((await store.traffic.events(window)).length, 1)
        assert.deepEqual((await a.poolStates(zone.id)).map(healthOf), [{ '127.0.0.4': 'DOWN' }])
        web.mode = 'up'
        await a.tick(t + 11 * MIN)
        assert.deepEqual((await store.traffic.events(window)).map(e => [e.newState, e.reason, e.node]), [['INACTIVE', 'Probe Failure', 'n2'], ['ACTIVE', 'Probe Success', 'n1']])
      } finally {
        await a.stop()
        await b.stop()
        await other.close()
        await store.zones.deleteById(zone.id)
      }
    })

    it('a restarted node keeps each check\'s schedule: the next run an interval after the last, an overdue one within the coming interval', async () => {
      const monitor = `http://www.example.org:${web.port}/health`
      const zone = await storeZone(store, 'acme', 'example.org.', zoneText('again IN A 127.0.0.4\n'), { profiles: { 'again.example.org./1': sfProfile('again.example.org.', '127.0.0.4', monitor) } })
      const t = T0 + 60 * MIN
      web.mode = 'up'
      const before = web.requests.length
      const asked = (): number => web.requests.length - before
      try {
        const first = service(store, [], 'n1')
        await first.tick(t)
        await first.stop()
        assert.equal(asked(), 1)
        // Restarted 20 s later: the check is due one interval (60 s) after its last run, not at once.
        const second = service(store, [], 'n1')
        await second.tick(t + 20_000)
        assert.equal(asked(), 1, 'not run again at the restart')
        await second.tick(t + MIN - 1)
        assert.equal(asked(), 1)
        await second.tick(t + MIN)
        assert.equal(asked(), 2, 'run one interval after the last')
        await second.stop()
        // Restarted long after: due somewhere in the coming interval (here, with the jitter at one
        // half, half an interval on), not all at once at the start.
        const third = service(store, [], 'n1', { random: () => 0.5 })
        await third.tick(t + 10 * MIN)
        assert.equal(asked(), 2, 'an overdue check is not run at the start')
        await third.tick(t + 10 * MIN + MIN / 2)
        assert.equal(asked(), 3)
        await third.stop()
        // Another node, which never ran the check, starts it at once.
        const other = service(store, [], 'n9')
        await other.tick(t + 10 * MIN + MIN / 2 + 1)
        assert.equal(asked(), 4)
        await other.stop()
      } finally {
        await store.zones.deleteById(zone.id)
      }
    })

    it('spreads the first runs of checks new together: 2 s, and 5 ms more for each of them', async () => {
      const monitor = `http://www.example.org:${web.port}/health`
      const zone = await storeZone(store, 'acme', 'example.org.', zoneText('spread IN A 127.0.0.4\nspread IN A 127.0.0.6\n'), { profiles: { 'spread.example.org./1': slbProfile('spread.example.org.', ['127.0.0.4', '127.0.0.6'], monitor) } })
      const t = T0 + 80 * MIN
      web.mode = 'up'
      web2.mode = 'up'
      const before = web.requests.length + web2.requests.length
      const asked = (): number => web.requests.length + web2.requests.length - before
      // With the jitter at its top, two new checks are due 0.999 × (2,000 + 2 × 5) ms on.
      const traffic = service(store, [], 'n1', { random: () => 0.999 })
      try {
        await traffic.tick(t)
        await traffic.tick(t + 2000)
        assert.equal(asked(), 0, 'not within 2 s: the spread grew with the checks new together')
        await traffic.tick(t + 2010)
        assert.equal(asked(), 2)
      } finally {
        await traffic.stop()
        await store.zones.deleteById(zone.id)
      }
    })
  })
}

describe('probe intervals', () => {
  it('are the probe\'s or the monitor\'s, never shorter than the minimum', () => {
    const traffic = new TrafficService({} as Store, { node: 'n1', region: 'ASIA', monitorIntervalSeconds: 5, minIntervalSeconds: 45, concurrency: 1, publish: () => {} })
    assert.equal(traffic.intervalMs('MONITOR'), 45_000)
    assert.equal(traffic.intervalMs('HALF_MINUTE'), 45_000)
    assert.equal(traffic.intervalMs('TWO_MINUTES'), 120_000)
    const quick = new TrafficService({} as Store, { node: 'n1', region: 'ASIA', monitorIntervalSeconds: 2, minIntervalSeconds: 1, concurrency: 1, publish: () => {} })
    assert.equal(quick.intervalMs('MONITOR'), 2_000)
  })
})
