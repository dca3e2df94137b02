// Part "reports" of `npm run bench -- analytics` (bench/analytics/run.ts): report compute times
// on SQLite and on PostgreSQL (BENCH_ANALYTICS_PG_URL, default the local test database, in a
// fresh schema dropped at the end; skipped when it does not answer). The service runs as
// `npm start` runs it (its own process, ZONAL_ANALYTICS=off so no live capture adds rows) with
// BENCH_ANALYTICS_REPORT_ZONES zones (1,000) made through the API; 90 days (ending yesterday)
// of query_volume and response_codes rows for each zone are written through the store's own
// `queryCounts.add` (the capture flush's path), one day of every zone per call, and
// BENCH_ANALYTICS_CLIENTS (100,000) distinct clients (250 a /24) on each of the last
// BENCH_ANALYTICS_CLIENT_DAYS (7) days through `clientResponses.add`. Timed, from the POST to the
// GET of /requests/{id} that returns 200 (polled every 20 ms: each time up to 20 ms late; faster
// polling loaded the service with 202 answers), BENCH_ANALYTICS_REPEAT times (3) each: the zone
// query volume report over the 90 days (limit 100000: every zone and month), the advanced
// response codes report over the same days (limit 10000, its maximum), the client IP
// directional report of one of the clients' /24 networks over the 90 days, and the country code
// report (every zone) and the class C network ranking (every network) over the same days.
import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { freePort, npmStartArgs, startZonalProcess, zonalApi, type ZonalProcess } from '../api/servers.ts'
import { RCODE_COUNTERS, VOLUME_COUNTERS } from '../../src/store/query-count-columns.ts'
import { openStore } from '../../src/store/open-store.ts'
import type { ClientResponseRow, QueryCountRow, Store } from '../../src/store/store.ts'
import { networkOf } from '../../src/analytics/networks.ts'
import { sql, type Kysely } from 'kysely'

const root = fileURLToPath(new URL('../../', import.meta.url))
const work = join(root, 'bench', '.work', 'analytics-reports')
const ZONES = Number(process.env.BENCH_ANALYTICS_REPORT_ZONES ?? 1000)
const DAYS = 90
const REPEAT = Number(process.env.BENCH_ANALYTICS_REPEAT ?? 3)
const CLIENTS = Number(process.env.BENCH_ANALYTICS_CLIENTS ?? 100_000)
const CLIENT_DAYS = Number(process.env.BENCH_ANALYTICS_CLIENT_DAYS ?? 7)
const PG_URL = process.env.BENCH_ANALYTICS_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const fmt = (n: number, digits = 0): string => Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '-'

const dayOf = (d: Date): string => d.toISOString().slice(0, 10)
const today = new Date()
const days = Array.from({ length: DAYS }, (_, i) => dayOf(new Date(today.getTime() - (DAYS - i) * 86_400_000)))
const zoneName = (i: number): string => `z${i}.report.bench.`

/** Deterministic counters: a total, its parts by transport and IP version, types and rcodes. */
function rows (day: string, d: number): { volume: QueryCountRow[], rcodes: QueryCountRow[] } {
  const volume: QueryCountRow[] = []
  const rcodes: QueryCountRow[] = []
  for (let z = 0; z < ZONES; z++) {
    const total = 1000 + ((z * 7919 + d * 104729) % 100_000)
    const counts: Record<string, number> = {}
    VOLUME_COUNTERS.forEach((c, k) => { counts[c] = Math.floor(total / (k + 1)) })
    counts.rsp_total = total
    volume.push({ day, zone: zoneName(z), node: 'bench', counts })
    const r: Record<string, number> = {}
    RCODE_COUNTERS.forEach((c, k) => { r[c] = k === 0 ? Math.floor(total * 0.8) : Math.floor(total / (10 * k)) })
    rcodes.push({ day, zone: zoneName(z), node: 'bench', counts: r })
  }
  return { volume, rcodes }
}

/** Client `i`'s address: 250 clients a /24 (203.0.0.0/8 onwards), so 100,000 clients are 400 networks. */
function clientIp (i: number): string {
  const net = Math.floor(i / 250)
  return `${100 + (net >> 8)}.${net & 255}.${(net * 7) & 255}.${1 + (i % 250)}`
}

/** One day of every client: each client answered by one zone (client i: zone i mod ZONES). */
function clientRows (day: string): ClientResponseRow[] {
  const out: ClientResponseRow[] = []
  for (let i = 0; i < CLIENTS; i++) {
    const ip = clientIp(i)
    out.push({ day, zone: zoneName(i % ZONES), clientIp: ip, node: 'bench', country: 'germany', region: 'berlin', city: 'berlin', classC: networkOf(ip)!, responses: 1 + (i % 50) })
  }
  return out
}

/** POST a report and GET /requests/{id} until 200; milliseconds from the POST to that 200, and the rows. */
async function timeReport (z: ZonalProcess, path: string, body: unknown): Promise<{ ms: number, rows: number, id: string }> {
  const t0 = performance.now()
  const res = await zonalApi(z, 'POST', path, body)
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`)
  const { requestId } = await res.json() as { requestId: string }
  for (;;) {
    const got = await zonalApi(z, 'GET', `/requests/${requestId}`)
    if (got.status === 200) {
      const rows = (await got.json() as unknown[]).length
      return { ms: performance.now() - t0, rows, id: requestId }
    }
    await got.arrayBuffer()
    if (got.status !== 202) throw new Error(`GET /requests/${requestId}: ${got.status}`)
    await new Promise(resolve => setTimeout(resolve, 20))
  }
}

async function pgAvailable (): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 })
  try {
    await client.connect()
    await client.query('select 1')
    return undefined
  } catch (err) {
    return (err as Error).message
  } finally {
    await client.end().catch(() => {})
  }
}

/** The store's Kysely instance (for ANALYZE and EXPLAIN). */
function dbOf (store: Store): Kysely<any> {
  return (store as unknown as { engineImpl: { db: Kysely<any> } }).engineImpl.db
}

/** The plan of the zone query volume read (the SQL of store/sql/query-counts.ts countReport, by month). */
async function explainVolume (store: Store, sqlite: boolean, accountId: string, from: string, to: string): Promise<string> {
  const db = dbOf(store)
  const sums = sql.join(VOLUME_COUNTERS.map(c => sql`coalesce(sum(${sql.ref(`c.${c}`)}), 0)`))
  const query = sql`select c.zone, a.name, min(c.day), max(c.day), ${sums}
    from query_volume c inner join zones z on z.name = c.zone inner join accounts a on a.id = z.account_id
    where z.account_id in (${accountId}) and c.day >= ${from} and c.day <= ${to}
    group by c.zone, a.name, substr(c.day, 1, 7) order by c.zone asc, max(c.day) asc, c.zone asc, min(c.day) asc limit 100000 offset 0`
  const plan = await sql`${sql.raw(sqlite ? 'explain query plan' : 'explain (analyze, buffers)')} ${query}`.execute(db)
  return (plan.rows as Array<Record<string, unknown>>).map(r => sqlite ? String(r.detail) : String(r['QUERY PLAN'])).join('\n')
}

const out: string[] = []
const engines: Array<{ name: string, url: string, drop: () => Promise<void> }> = [
  { name: 'SQLite', url: `sqlite:${join(work, 'sqlite', 'zonal.db')}`, drop: async () => rmSync(join(work, 'sqlite'), { recursive: true, force: true }) }
]
const unavailable = await pgAvailable()
if (unavailable === undefined) {
  const schema = `zb_${randomBytes(6).toString('hex')}`
  const url = new URL(PG_URL)
  url.searchParams.set('schema', schema)
  engines.push({
    name: 'PostgreSQL',
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: PG_URL })
      await client.connect()
      try { await client.query(`drop schema if exists "${schema}" cascade`) } finally { await client.end() }
    }
  })
} else {
  out.push(`PostgreSQL: SKIPPED (${unavailable})`)
}

out.push('| engine | statistics | report | rows | POST to 200, ms (each run) | load at start |', '|---|---|---|---|---|---|')
for (const engine of engines) {
  rmSync(join(work, 'service'), { recursive: true, force: true })
  const z = await startZonalProcess(join(work, 'service'), { nodeArgs: npmStartArgs(), dnsPort: await freePort(), databaseUrl: engine.url, env: { ZONAL_ANALYTICS: 'off' } })
  try {
    const t0 = performance.now()
    for (let i = 0; i < ZONES; i += 8) {
      await Promise.all(Array.from({ length: Math.min(8, ZONES - i) }, async (_, k) => {
        const res = await zonalApi(z, 'POST', '/zones', { properties: { name: zoneName(i + k), accountName: 'bench', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'NEW' } })
        if (res.status !== 201) throw new Error(`create ${zoneName(i + k)}: ${res.status} ${await res.text()}`)
        await res.arrayBuffer()
      }))
    }
    const zonesMs = performance.now() - t0
    const store = await openStore(engine.url)
    try {
      const a0 = performance.now()
      for (let d = 0; d < DAYS; d++) await store.queryCounts.add(rows(days[d]!, d))
      const addMs = performance.now() - a0
      process.stdout.write(`${engine.name}: ${fmt(ZONES)} zones made in ${fmt(zonesMs / 1000, 1)} s; ${fmt(ZONES * DAYS)} query_volume and ${fmt(ZONES * DAYS)} response_codes rows added in ${fmt(addMs / 1000, 1)} s (${DAYS} calls of queryCounts.add)\n`)
      const c0 = performance.now()
      for (const day of days.slice(DAYS - CLIENT_DAYS)) await store.clientResponses.add(clientRows(day))
      process.stdout.write(`${engine.name}: ${fmt(CLIENTS)} distinct clients × ${CLIENT_DAYS} days: ${fmt(CLIENTS * CLIENT_DAYS)} client_responses rows added in ${fmt((performance.now() - c0) / 1000, 1)} s (${CLIENT_DAYS} calls of clientResponses.add)\n`)
      const account = (await store.accounts.findByName('bench'))!
      const q = { accountIds: [account.id], from: days[0]!, to: days[DAYS - 1]!, offset: 0 }
      const reads: Array<[string, () => Promise<unknown[]>]> = [
        ['store volumeByMonth', async () => await store.queryCounts.volumeByMonth({ ...q, sort: [['zone', 'ASC'], ['end', 'ASC']], limit: 100_000 })],
        ['store responseCodesByZone', async () => await store.queryCounts.responseCodesByZone({ ...q, sort: [['zone', 'ASC']], limit: 10_000 })]
      ]
      const reports: Array<[string, string, unknown]> = [
        ['zone query volume, 90 days, limit 100000', '/reports/dns_resolution/query_volume/zone?limit=100000', { zoneQueryVolume: { startDate: days[0], endDate: days[DAYS - 1] } }],
        ['advanced response codes, 90 days, limit 10000', '/reports/dns_resolution/advanced_response_codes?limit=10000', { advancedResponseCodes: { accountName: 'bench', reportStartDate: days[0], reportEndDate: days[DAYS - 1] } }],
        [`client IP directional, one /24 of ${fmt(CLIENTS)} clients, 90 days, limit 10000`, '/reports/dns_resolution/directional_response_counts/client_ip?limit=10000', { clientIPDirectionalResponseCounts: { accountName: 'bench', classCNetwork: networkOf(clientIp(CLIENTS - 1)), reportStartDate: days[0], reportEndDate: days[DAYS - 1] } }],
        [`country code directional, every zone of ${fmt(CLIENTS)} clients, 90 days, limit 100000`, '/reports/dns_resolution/directional_response_counts/country_code?limit=100000', { countryCodeDirectionalResponseCounts: { accountName: 'bench', reportStartDate: days[0], reportEndDate: days[DAYS - 1] } }],
        [`class C networks of ${fmt(CLIENTS)} clients, 90 days, limit 100000`, '/reports/dns_resolution/directional_response_counts/class_c_network?limit=100000', { classCNetworkDirectionalResponseCounts: { accountName: 'bench', reportStartDate: days[0], reportEndDate: days[DAYS - 1] } }]
      ]
      // Right after the writes (PostgreSQL's statistics as autovacuum has left them), then after ANALYZE.
      for (const stage of ['just written', 'after ANALYZE']) {
        if (stage === 'after ANALYZE') await sql`analyze`.execute(dbOf(store))
        for (const [label, read] of reads) {
          const times: number[] = []
          for (let r = 0; r < REPEAT; r++) {
            const t = performance.now()
            await read()
            times.push(performance.now() - t)
          }
          process.stdout.write(`${engine.name}, ${stage}: ${label}: ${times.map(t => fmt(t)).join(', ')} ms\n`)
          out.push(`| ${engine.name} | ${stage} | ${label} (the store's read alone, in the bench process) | | ${times.map(t => fmt(t)).join(', ')} | |`)
        }
        if (process.env.BENCH_ANALYTICS_EXPLAIN === '1') process.stdout.write(`${engine.name}, ${stage}: plan of the volume read:\n${await explainVolume(store, engine.name === 'SQLite', account.id, days[0]!, days[DAYS - 1]!)}\n`)
        for (const [label, path, body] of reports) {
          const load = loadavg().map(l => l.toFixed(2)).join(' ')
          const times: number[] = []
          const computed: number[] = []
          let count = 0
          let id = ''
          for (let r = 0; r < REPEAT; r++) {
            const done = await timeReport(z, path, body)
            times.push(done.ms)
            // The service's own record: from the request stored to its rows stored.
            const request = await store.reportRequests.find(done.id)
            computed.push(Date.parse(request!.finished_at!) - Date.parse(request!.created_at))
            count = done.rows
            id = done.id
          }
          // The GET of the computed rows alone (read, decompress, serialize, and the client's parse).
          const gets: number[] = []
          for (let r = 0; r < REPEAT; r++) {
            const t = performance.now()
            await (await zonalApi(z, 'GET', `/requests/${id}`)).json()
            gets.push(performance.now() - t)
          }
          process.stdout.write(`${engine.name}, ${stage}: ${label}: ${count} rows, ${times.map(t => fmt(t)).join(', ')} ms; requested to computed ${computed.map(t => fmt(t)).join(', ')} ms; the GET of the rows alone ${gets.map(t => fmt(t)).join(', ')} ms\n`)
          out.push(`| ${engine.name} | ${stage} | ${label} | ${fmt(count)} | ${times.map(t => fmt(t)).join(', ')} (requested to computed, the service's record: ${computed.map(t => fmt(t)).join(', ')}; the GET of the computed rows alone: ${gets.map(t => fmt(t)).join(', ')}) | ${load} |`)
        }
      }
    } finally {
      await store.close()
    }
  } finally {
    await z.close()
    await engine.drop()
  }
}
rmSync(work, { recursive: true, force: true })
process.stdout.write(`\n${fmt(ZONES)} zones × ${DAYS} days (${days[0]} to ${days[DAYS - 1]}), one node\n\n${out.join('\n')}\n`)
