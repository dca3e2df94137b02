/**
 * GET /reports/traffic_services/failover_report (spec "Failover report"), on both engines: the
 * state changes the service recorded for the caller's account, every filter, the date rules
 * (default last 24 hours, end not before start, 30-day span, 3-month age), the limit rules,
 * Link cursors that keep the query, both spellings of the count and list, and the errors.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { FailoverEvent } from '../../../../src/store/store.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'

const NOW = new Date('2026-11-26T12:00:00.000Z')
const PATH = '/reports/traffic_services/failover_report'
const hoursAgo = (h: number): string => new Date(NOW.getTime() - h * 3_600_000).toISOString()

interface Body {
  failoverRecordCount: number
  failoverRecords: Array<Record<string, unknown>>
  probeResultDetailsCount: number
  probeResultDetails: Array<Record<string, unknown>>
}

function linkOf (header: unknown, rel: string): string | undefined {
  const m = new RegExp(`<([^>]+)>; rel="${rel}"`).exec(String(header ?? ''))
  return m?.[1]
}

for (const engine of await engineCases()) {
  describe(`${engine.name}: GET ${PATH}`, { skip: engine.skip }, () => {
    let t: TestApp
    let token: string
    let otherToken: string

    before(async () => {
      t = await buildTestApp(engine.name, { clock: () => NOW })
      token = await t.user('alice', 'acme')
      otherToken = await t.user('bob', 'globex')
      const acme = (await t.store.accounts.findByName('acme'))!.id
      const globex = (await t.store.accounts.findByName('globex'))!.id
      const base = { accountId: acme, accountName: 'acme', zoneId: 'z1', zoneName: 'example.org.', poolName: 'sb.example.org.', poolRecord: '127.0.0.2', recordType: 'A', poolType: 'SITE_BACKER', oldState: 'ACTIVE', newState: 'INACTIVE', reason: 'Probe Failure', allFail: false, node: 'n1' } satisfies Omit<FailoverEvent, 'id' | 'at'>
      const events: FailoverEvent[] = [
        { ...base, id: 'e0', at: hoursAgo(30) },
        { ...base, id: 'e1', at: hoursAgo(5) },
        { ...base, id: 'e2', at: hoursAgo(4), oldState: 'INACTIVE', newState: 'ACTIVE', reason: 'Probe Success' },
        { ...base, id: 'e3', at: hoursAgo(3), poolName: 'sf.example.org.', poolRecord: '127.0.0.4', poolType: 'FAILOVER_POOL', allFail: true },
        { ...base, id: 'e4', at: hoursAgo(2), zoneName: 'example.net.', poolName: 'slb.example.net.', poolRecord: '2001:db8::1', recordType: 'AAAA', poolType: 'SIMPLE_LOAD_BALANCING' },
        { ...base, id: 'e5', at: hoursAgo(1), poolType: 'TRAFFIC_CONTROLLER', poolName: 'tc.example.org.' },
        { ...base, id: 'g1', at: hoursAgo(1), accountId: globex, accountName: 'globex' }
      ]
      for (const e of events) await t.store.traffic.appendEvent(e)
    })
    after(async () => { await t?.close() })

    const get = async (query: string, auth = token) => await t.app.inject({ method: 'GET', url: `${PATH}?${query}`, headers: auth === '' ? {} : { authorization: `Bearer ${auth}` } })
    const pools = (body: Body): unknown[] => body.failoverRecords.map(r => [r.poolName, r.poolRecord])

    it('answers 401 without a valid token', async () => {
      assert.equal((await get('accountName=acme', '')).statusCode, 401)
      assert.equal((await get('accountName=acme', 'nope')).statusCode, 401)
    })

    it('lists the account\'s changes of the last 24 hours, oldest first, under both spellings', async () => {
      const res = await get('accountName=acme')
      assert.equal(res.statusCode, 200, res.body)
      const body = res.json() as Body
      assert.equal(body.failoverRecordCount, 5)
      assert.equal(body.probeResultDetailsCount, 5)
      assert.deepEqual(body.probeResultDetails, body.failoverRecords)
      assert.deepEqual(pools(body), [['sb.example.org.', '127.0.0.2'], ['sb.example.org.', '127.0.0.2'], ['sf.example.org.', '127.0.0.4'], ['slb.example.net.', '2001:db8::1'], ['tc.example.org.', '127.0.0.2']])
      assert.deepEqual(body.failoverRecords[2], {
        failoverTime: hoursAgo(3),
        accountName: 'acme',
        zoneName: 'example.org.',
        poolName: 'sf.example.org.',
        poolRecord: '127.0.0.4',
        poolRecordType: 'A',
        poolRecordState: 'INACTIVE',
        poolRecordStatus: 'failed',
        failoverReason: 'Probe Failure',
        allFailRecord: true,
        trafficServicePoolType: 'FAILOVER_POOL'
      })
      assert.equal(body.failoverRecords[1]!.failoverReason, 'Probe Success')
      assert.equal(body.failoverRecords[1]!.poolRecordStatus, 'ok')
      assert.equal(res.headers.link, undefined)
    })

    it('filters by zone, pool, record, record type and pool type', async () => {
      const ids = async (q: string): Promise<unknown[]> => {
        const res = await get(`accountName=acme&${q}`)
        assert.equal(res.statusCode, 200, res.body)
        return pools(res.json() as Body)
      }
      assert.deepEqual(await ids('zoneName=example.net'), [['slb.example.net.', '2001:db8::1']])
      assert.deepEqual(await ids('poolName=SF.example.org.'), [['sf.example.org.', '127.0.0.4']])
      assert.deepEqual(await ids('poolRecord=127.0.0.4'), [['sf.example.org.', '127.0.0.4']])
      assert.deepEqual(await ids('poolRecordType=AAAA'), [['slb.example.net.', '2001:db8::1']])
      assert.deepEqual(await ids('poolRecordType=ALL&trafficServicePoolType=TRAFFIC_CONTROLLER'), [['tc.example.org.', '127.0.0.2']])
      assert.deepEqual(await ids('trafficServicePoolType=SIMPLE_FAILOVER'), [['sf.example.org.', '127.0.0.4']])
      assert.deepEqual(await ids('trafficServicePoolType=SIMPLE_LOAD_BALANCING&zoneName=example.org.'), [])
    })

    it('reads a date range, and an older window within 3 months', async () => {
      const res = await get(`accountName=acme&reportStartDateTime=${hoursAgo(31)}&reportEndDateTime=${hoursAgo(4.5)}`)
      assert.deepEqual((res.json() as Body).failoverRecords.map(r => r.failoverTime), [hoursAgo(30), hoursAgo(5)])
      const startOnly = await get(`accountName=acme&reportStartDateTime=${encodeURIComponent('2026-11-25T05:30:00.000+00:00')}`)
      assert.deepEqual((startOnly.json() as Body).failoverRecords.map(r => r.failoverTime), [hoursAgo(30)], 'the 24 hours from the start')
    })

    it('refuses bad dates: format, end before start, a span over 30 days, a start over 3 months old', async () => {
      const message = async (q: string): Promise<[number, string]> => {
        const res = await get(`accountName=acme&${q}`)
        return [res.statusCode, (res.json() as Array<{ errorMessage: string }>)[0]!.errorMessage]
      }
      assert.deepEqual(await message('reportStartDateTime=2026-11-25'), [400, 'Date provided is not in a valid format.'])
      assert.deepEqual(await message(`reportStartDateTime=${hoursAgo(2)}&reportEndDateTime=${hoursAgo(3)}`), [400, 'reportEndDateTime is before reportStartDateTime.'])
      assert.deepEqual(await message('reportStartDateTime=2026-10-01T00:00:00.000Z&reportEndDateTime=2026-11-01T00:00:00.001Z'), [400, 'The span between reportStartDateTime and reportEndDateTime is at most 30 days.'])
      assert.equal((await get('accountName=acme&reportStartDateTime=2026-10-01T00:00:00.000Z&reportEndDateTime=2026-10-31T00:00:00.000Z')).statusCode, 200, 'exactly 30 days')
      assert.deepEqual(await message('reportStartDateTime=2026-08-25T00:00:00.000Z&reportEndDateTime=2026-09-01T00:00:00.000Z'), [400, 'start date is older than 3 months'])
      assert.equal((await get('accountName=acme&reportStartDateTime=2026-08-26T12:00:00.000Z&reportEndDateTime=2026-09-01T00:00:00.000Z')).statusCode, 200, 'exactly 3 months')
    })

    it('requires an account the caller can read', async () => {
      const missing = await get('zoneName=example.org.')
      assert.equal(missing.statusCode, 400)
      assert.equal((missing.json() as Array<{ errorMessage: string }>)[0]!.errorMessage, 'Account name not provided.')
      const denied = await get('accountName=acme', otherToken)
      assert.equal(denied.statusCode, 400)
      assert.equal((denied.json() as Array<{ errorMessage: string }>)[0]!.errorMessage, 'You do not have access to the accountName.')
      const own = await get('accountName=globex', otherToken)
      assert.deepEqual(pools(own.json() as Body), [['sb.example.org.', '127.0.0.2']])
    })

    it('refuses bad values of the limit, the types and the cursor', async () => {
      for (const q of ['limit=0', 'limit=1001', 'limit=abc', 'poolRecordType=MX', 'trafficServicePoolType=RD', 'cursor=xyz', 'cursorOperation=SIDEWAYS', 'zoneName=bad..name']) {
        const res = await get(`accountName=acme&${q}`)
        assert.equal(res.statusCode, 400, `${q}: ${res.body}`)
      }
      assert.equal((await get('accountName=acme&limit=1000')).statusCode, 200)
    })

    it('pages with Link cursors that keep the query, forwards and back', async () => {
      const first = await get('accountName=acme&zoneName=example.org.&limit=2')
      assert.deepEqual((first.json() as Body).failoverRecords.map(r => r.failoverTime), [hoursAgo(5), hoursAgo(4)])
      assert.equal(linkOf(first.headers.link, 'previous'), undefined)
      const next = linkOf(first.headers.link, 'next')!
      assert.match(next, /^\/v1\/reports\/traffic_services\/failover_report\?accountName=acme&zoneName=example\.org\.&reportStartDateTime=.*&cursor=.*&cursorOperation=NEXT&limit=2$/)
      const second = await t.app.inject({ method: 'GET', url: next, headers: { authorization: `Bearer ${token}` } })
      assert.equal(second.statusCode, 200, second.body)
      assert.deepEqual((second.json() as Body).failoverRecords.map(r => r.failoverTime), [hoursAgo(3), hoursAgo(1)])
      assert.equal(linkOf(second.headers.link, 'next'), undefined, 'the last page')
      const previous = linkOf(second.headers.link, 'previous')!
      assert.match(previous, /cursorOperation=PREVIOUS&limit=2$/)
      const back = await t.app.inject({ method: 'GET', url: previous, headers: { authorization: `Bearer ${token}` } })
      assert.deepEqual((back.json() as Body).failoverRecords.map(r => r.failoverTime), [hoursAgo(5), hoursAgo(4)])
      assert.equal(linkOf(back.headers.link, 'previous'), undefined)
      assert.ok(linkOf(back.headers.link, 'next') !== undefined)
    })
  })
}
