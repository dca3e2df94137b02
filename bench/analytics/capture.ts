// Part "capture" of `npm run bench -- analytics` (bench/analytics/run.ts): the whole service as
// `npm start` runs it (its own process, SQLite, ZONAL_DNS_WORKERS=1, every thread pinned to
// CPU 0 with `taskset -a`) answering dnsperf (pinned to CPU 1, `-c 8 -T 1 -q 200`, full rate) for
// (BENCH_ANALYTICS_WORKERS=2: two DNS workers, as `npm start` on 2 cores, and dnsperf -T 2,
// nothing pinned)
// BENCH_ANALYTICS_SECONDS (60) each way, ZONAL_ANALYTICS=on and =off alternated over
// BENCH_ANALYTICS_ROUNDS rounds (2: on off, off on) on one database holding one zone of
// BENCH_ANALYTICS_RECORDS records (10,000). Queries from 127.0.0.1 (dnsperf's own address):
// every owner of the zone with its own type (A, AAAA, CNAME, MX, TXT, SRV, NS), one in ten with
// another type (NODATA), one in five a name that does not exist (NXDOMAIN).
// Reported: q/s each run, the mean each way and on/off; after each on run the collector's
// dropped and failed queries and the raw sampler's outcomes (from /metrics), and the bytes the
// analytics tables grew by (SQLite dbstat over their tables and indexes, after the graceful stop
// wrote the last flush) per million queries answered (dnsperf's completed queries).
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import { freePort, npmStartArgs, startZonalProcess, uploadZonal, type ZonalProcess } from '../api/servers.ts'
import { CLIENT_CPU, PINNED, SERVER_CPU, installed, waitForSoa } from '../dns/servers.ts'
import { dnsperfFor, metric, threadCpu, type ThreadCpu } from '../dns/service-load.ts'
import { generateZone } from '../zonefile/generate.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))
const work = join(root, 'bench', '.work', 'analytics')
const SECONDS = Number(process.env.BENCH_ANALYTICS_SECONDS ?? 60)
const WORKERS = Number(process.env.BENCH_ANALYTICS_WORKERS ?? 1)
/** One worker: the service on one CPU, dnsperf on the other; more: nothing pinned. */
const PIN = PINNED && WORKERS === 1
const ROUNDS = Number(process.env.BENCH_ANALYTICS_ROUNDS ?? 2)
const RECORDS = Number(process.env.BENCH_ANALYTICS_RECORDS ?? 10_000)
const ORIGIN = 'bench.test.'
const SERIAL = 2024010101
/** The analytics tables (and so their indexes) whose growth is measured. */
const TABLES = ['query_volume', 'response_codes', 'host_volume', 'raw_queries', 'client_responses']

const fmt = (n: number, digits = 0): string => Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '-'
const load = (): string => loadavg().map(l => l.toFixed(2)).join(' ')

if (!installed('dnsperf', 'dig')) {
  process.stdout.write('capture on/off: SKIPPED (dnsperf or dig missing)\n')
  process.exit(0)
}

rmSync(work, { recursive: true, force: true })
mkdirSync(work, { recursive: true })
const zonePath = join(work, `zone-${RECORDS}.zone`)
await generateZone(zonePath, RECORDS, ORIGIN)
const zoneText = readFileSync(zonePath, 'utf8')

/** dnsperf's query file: owners with their own type, some with another (NODATA), 1 in 5 NXDOMAIN. */
function queryFile (): string {
  const owners: Array<[string, string]> = []
  for (const line of zoneText.split('\n')) {
    const m = /^(h\d+\.g\d+)\s+(?:\d+\s+)?IN\s+([A-Z]+)\s/.exec(line)
    if (m !== null) owners.push([m[1]!, m[2]!])
  }
  const other = ['AAAA', 'MX', 'TXT', 'A', 'SRV', 'CAA']
  const lines: string[] = []
  for (let i = 0; i < 100_000; i++) {
    const [owner, type] = owners[(i * 7919) % owners.length]!
    if (i % 5 === 4) lines.push(`nx${i}.g${i % 1000}.${ORIGIN} ${other[i % other.length]!}`)
    else if (i % 10 === 3) lines.push(`${owner}.${ORIGIN} ${other.find(t => t !== type)!}`)
    else lines.push(`${owner}.${ORIGIN} ${type}`)
  }
  lines.push(`${ORIGIN} SOA`, `${ORIGIN} NS`)
  const path = join(work, 'queries.txt')
  writeFileSync(path, lines.join('\n') + '\n')
  return path
}

async function dnsperf (port: number, queries: string): Promise<{ qps: number, completed: number, lost: string }> {
  return await dnsperfFor(port, queries, SECONDS, PIN)
}

/** Bytes of the analytics tables and their indexes (dbstat), and the database file size after a checkpoint. */
function stored (dbPath: string): { dbstat: number | undefined, file: number } {
  const db = new Database(dbPath)
  try {
    db.pragma('wal_checkpoint(TRUNCATE)')
    let dbstat: number | undefined
    try {
      const names = db.prepare(`SELECT name FROM sqlite_schema WHERE tbl_name IN (${TABLES.map(() => '?').join(',')})`).pluck().all(...TABLES) as string[]
      dbstat = Number(db.prepare(`SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name IN (${names.map(() => '?').join(',')})`).pluck().get(...names))
    } catch {
      dbstat = undefined // SQLite built without dbstat
    }
    return { dbstat, file: statSync(dbPath).size }
  } finally {
    db.close()
  }
}

const dbPath = join(work, 'zonal.db')
const databaseUrl = `sqlite:${dbPath}`
const queries = queryFile()
const dnsPort = await freePort()
let runNo = 0

async function start (analytics: boolean): Promise<ZonalProcess> {
  const z = await startZonalProcess(join(work, `run-${runNo++}`), {
    // BENCH_ANALYTICS_NODE_ARGS: more node arguments (`--cpu-prof --cpu-prof-dir=…` to profile).
    nodeArgs: [...(process.env.BENCH_ANALYTICS_NODE_ARGS ?? '').split(' ').filter(a => a !== ''), ...npmStartArgs()],
    dnsPort,
    databaseUrl,
    env: { ZONAL_ANALYTICS: analytics ? 'on' : 'off', ZONAL_DNS_WORKERS: String(WORKERS), ZONAL_DNS_RRL: '0' }
  })
  // Every thread of the service (the DNS worker too, and any started later) on one CPU.
  if (PIN) execFileSync('taskset', ['-a', '-cp', String(SERVER_CPU), String(z.child.pid)], { stdio: 'ignore' })
  return z
}

// The zone, once: uploaded through the API of a first start.
{
  const z = await start(false)
  try {
    await uploadZonal(z, ORIGIN, zoneText)
  } finally {
    await z.close()
  }
}

interface Run { analytics: boolean, qps: number, completed: number, lost: string, load: string, cpu: ThreadCpu, dropped?: number, failed?: number, rawWritten?: number, rawDropped?: number, grewDbstat?: number, grewFile?: number }
const runs: Run[] = []
const order: boolean[] = []
for (let r = 0; r < ROUNDS; r++) order.push(...(r % 2 === 0 ? [true, false] : [false, true]))
for (const analytics of order) {
  const before = stored(dbPath)
  const z = await start(analytics)
  let run: Run
  try {
    await waitForSoa(dnsPort, ORIGIN, SERIAL, performance.now(), 60_000, z.child)
    const l = load()
    const cpuBefore = threadCpu(z.child.pid!)
    const p = await dnsperf(dnsPort, queries)
    const cpuAfter = threadCpu(z.child.pid!)
    const cpu = { main: cpuAfter.main - cpuBefore.main, dns: cpuAfter.dns - cpuBefore.dns, v8: cpuAfter.v8 - cpuBefore.v8, other: cpuAfter.other - cpuBefore.other }
    run = { analytics, ...p, load: l, cpu }
    if (analytics) {
      run.dropped = await metric(z, 'zonal_dns_capture_lost_total', 'reason="dropped"')
      run.failed = await metric(z, 'zonal_dns_capture_lost_total', 'reason="failed"')
      run.rawWritten = await metric(z, 'zonal_dns_raw_samples_total', 'outcome="written"')
      run.rawDropped = await metric(z, 'zonal_dns_raw_samples_total', 'outcome="dropped"')
    }
  } finally {
    await z.close() // a graceful stop: the last flush is written
  }
  const after = stored(dbPath)
  if (analytics) {
    run.grewDbstat = after.dbstat === undefined || before.dbstat === undefined ? undefined : after.dbstat - before.dbstat
    run.grewFile = after.file - before.file
  }
  runs.push(run)
  process.stdout.write(`capture ${analytics ? 'on ' : 'off'}: ${fmt(run.qps)} q/s, ${fmt(run.completed)} queries, lost ${run.lost}, load ${run.load}, CPU s main ${run.cpu.main.toFixed(2)} dns ${run.cpu.dns.toFixed(2)} v8 ${run.cpu.v8.toFixed(2)} other ${run.cpu.other.toFixed(2)}${analytics ? `, dropped ${run.dropped ?? '-'}, failed ${run.failed ?? '-'}, raw samples written ${run.rawWritten ?? '-'} dropped ${run.rawDropped ?? '-'}, analytics tables +${fmt(run.grewDbstat ?? NaN)} B (dbstat), file +${fmt(run.grewFile ?? NaN)} B` : ''}\n`)
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length
const on = runs.filter(r => r.analytics)
const off = runs.filter(r => !r.analytics)
const onQps = mean(on.map(r => r.qps))
const offQps = mean(off.map(r => r.qps))
const out: string[] = []
out.push(`### Capture on and off: ${fmt(RECORDS)} records, dnsperf -c 8 -T ${PIN ? 1 : 2} -q 200 -l ${SECONDS}, ${PIN ? `service (1 DNS worker) on CPU ${SERVER_CPU}, dnsperf on CPU ${CLIENT_CPU}` : `${WORKERS} DNS workers, nothing pinned`}`, '')
out.push('| run | analytics | q/s | queries | lost | load (1/5/15 min) at start | CPU µs per query: main thread / DNS worker / V8 helpers / other | collector dropped / failed | raw samples written / dropped | analytics tables grew (dbstat) | B per million queries |', '|---|---|---|---|---|---|---|---|---|---|---|')
runs.forEach((r, i) => {
  const perMillion = r.grewDbstat === undefined ? NaN : r.grewDbstat / r.completed * 1e6
  const perQuery = (s: number): string => (s * 1e6 / r.completed).toFixed(2)
  out.push(`| ${i + 1} | ${r.analytics ? 'on' : 'off'} | ${fmt(r.qps)} | ${fmt(r.completed)} | ${r.lost} | ${r.load} | ${perQuery(r.cpu.main)} / ${perQuery(r.cpu.dns)} / ${perQuery(r.cpu.v8)} / ${perQuery(r.cpu.other)} | ${r.analytics ? `${r.dropped} / ${r.failed}` : '-'} | ${r.analytics ? `${fmt(r.rawWritten ?? NaN)} / ${fmt(r.rawDropped ?? NaN)}` : '-'} | ${r.analytics ? `${fmt(r.grewDbstat ?? NaN)} B` : '-'} | ${r.analytics ? fmt(perMillion) : '-'} |`)
})
const cpuPerQuery = (rs: Run[]): number => mean(rs.map(r => (r.cpu.main + r.cpu.dns + r.cpu.v8 + r.cpu.other) * 1e6 / r.completed))
out.push('', `Mean q/s: on ${fmt(onQps)}, off ${fmt(offQps)}; on/off ${(onQps / offQps).toFixed(3)} (target ≥ 0.95).`)
out.push(`CPU per query answered, all threads: on ${cpuPerQuery(on).toFixed(2)} µs, off ${cpuPerQuery(off).toFixed(2)} µs; off/on ${(cpuPerQuery(off) / cpuPerQuery(on)).toFixed(3)} (the q/s ratio if CPU were the only limit).`)
out.push(`Database file ${existsSync(dbPath) ? fmt(statSync(dbPath).size) : '-'} B at the end (${fmt(RECORDS)}-record zone and the analytics rows).`)
process.stdout.write('\n' + out.join('\n') + '\n')
rmSync(work, { recursive: true, force: true })
