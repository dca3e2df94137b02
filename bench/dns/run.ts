import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { generateZone } from '../zonefile/generate.ts'
import type { AxfrResult } from './axfr-client.ts'
import { CLIENT_CPU, PINNED, SERVER_CPU, installed, memory, pinned, populateZonal, startKnot, startNamed, startNsd, startZonal, stop, waitForSoa, type Running } from './servers.ts'

/**
 * DNS benchmark: Zonal against BIND `named` on loopback, with NSD and Knot DNS beside them when
 * installed, one after the other in one run, each server pinned to CPU 0 and its clients to CPU 1.
 * Ratios are Zonal / BIND; NSD and Knot get columns (rows) of their own, a peer that is not
 * installed is skipped with a line saying so.
 *
 * - qps: a BENCH_DNS_RECORDS zone (100,000) queried by dnsperf for BENCH_DNS_SECONDS (20 s),
 *   80 % names that exist, 20 % that do not: queries per second, latency, ratio. Zonal runs
 *   twice: UDP batched (recvmmsg/sendmmsg, the default) and through node:dgram.
 * - startup, axfr, memory: a BENCH_DNS_BIG_RECORDS zone (1,000,000). Start-up is from spawning
 *   the server (Zonal over a store that already holds the zone, as after a restart; named with
 *   the zone file) to its first correct SOA answer; the AXFR of the whole zone (time to the last
 *   message, records counted and checked); memory per record (RSS after load less the RSS of
 *   the same server with a five-record zone, over the record count).
 *
 * - qps2: the q/s zone on both cores, nothing pinned: Zonal with 1 and 2 DNS worker threads,
 *   BIND with -n 1 and -n 2 (ratio at two threads, scaling from one to two).
 *
 * Zonal runs with one DNS worker thread in the pinned parts (BENCH_DNS_WORKERS of server.ts) and
 * with two in the 1,000,000-record part (start-up and memory with two workers, as `npm start`
 * runs on this 2-core machine).
 *
 * BENCH_DNS_PARTS (default `qps,qps2,startup,axfr,memory`) chooses the parts.
 */
const root = fileURLToPath(new URL('../../', import.meta.url))
const work = join(root, 'bench', '.work', 'dns')
mkdirSync(work, { recursive: true })
const COUNT = Number(process.env.BENCH_DNS_RECORDS ?? 100_000)
const BIG = Number(process.env.BENCH_DNS_BIG_RECORDS ?? 1_000_000)
const SECONDS = Number(process.env.BENCH_DNS_SECONDS ?? 20)
const PARTS = new Set((process.env.BENCH_DNS_PARTS ?? 'qps,qps2,startup,axfr,memory').split(',').map(s => s.trim()))
const ORIGIN = 'bench.test.'
const SERIAL = 2024010101 // the generated zone's SOA serial
const HAVE_CLIENTS = installed('dig', 'dnsperf')
const HAVE_BIND = HAVE_CLIENTS && installed('named')

/** The peers: BIND first (the ratios are against it), then NSD and Knot DNS. */
interface Peer { label: string, start: (zoneFile: string, origin: string, dir: string) => Promise<Running>, dir: string, available: boolean, missing: string }
const PEERS: Peer[] = [
  { label: 'BIND named', start: startNamed, dir: 'named', available: HAVE_BIND, missing: 'named, dig or dnsperf missing' },
  { label: 'NSD', start: startNsd, dir: 'nsd', available: HAVE_CLIENTS && installed('nsd'), missing: 'nsd, dig or dnsperf missing (Debian `nsd`)' },
  { label: 'Knot DNS', start: startKnot, dir: 'knot', available: HAVE_CLIENTS && installed('knotd'), missing: 'knotd, dig or dnsperf missing (Debian `knot`)' }
]
const notes: string[] = []
const fmt = (n: number, digits = 0): string => Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '-'
const ratio = (a: number, b: number): string => Number.isFinite(a / b) ? (a / b).toFixed(2) : '-'
const out: string[] = []
let failed = false

async function zoneFile (count: number): Promise<{ path: string, records: number }> {
  const path = join(work, `zone-${count}.zone`)
  if (!existsSync(path)) await generateZone(path, count, ORIGIN)
  const records = readFileSync(path, 'utf8').split('\n').filter(l => l !== '' && !l.startsWith('$')).length
  return { path, records }
}

function dnsperf (port: number, queries: string, pin = true): { qps: number, avgMs: number, lost: string } {
  const argv = ['-s', '127.0.0.1', '-p', String(port), '-d', queries, '-l', String(SECONDS), '-c', '8', '-T', pin ? '1' : '2', '-q', '200']
  const [cmd, args] = pin ? pinned(CLIENT_CPU, 'dnsperf', argv) : ['dnsperf', argv]
  const r = spawnSync(cmd, args, { encoding: 'utf8' })
  const qps = Number(/Queries per second:\s+([\d.]+)/.exec(r.stdout)?.[1] ?? NaN)
  const avg = Number(/Average Latency \(s\):\s+([\d.]+)/.exec(r.stdout)?.[1] ?? NaN) * 1000
  const lost = /Queries lost:\s+(.+)/.exec(r.stdout)?.[1] ?? '?'
  return { qps, avgMs: avg, lost }
}

function axfr (port: number): AxfrResult {
  const [cmd, args] = pinned(CLIENT_CPU, process.execPath, [join(root, 'bench/dns/axfr-client.ts'), String(port), ORIGIN])
  const r = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
  if (r.status !== 0) throw new Error(`AXFR from port ${port} failed`)
  return JSON.parse(r.stdout) as AxfrResult
}

/** The q/s part's query file: owners of the zone (hits) and names that do not exist, 4 to 1. */
function queryFile (zone: { path: string }): string {
  const queries = join(work, `queries-${COUNT}.txt`)
  if (!existsSync(queries)) {
    const owners = readFileSync(zone.path, 'utf8').split('\n').filter(l => /^h\d+\.g\d+ /.test(l)).map(l => l.split(' ')[0]!)
    const lines: string[] = []
    for (let i = 0; i < 100_000; i++) lines.push(i % 5 === 4 ? `nx${i}.g${i % 1000}.${ORIGIN} A` : `${owners[(i * 7919) % owners.length]}.${ORIGIN} A`)
    writeFileSync(queries, lines.join('\n') + '\n')
  }
  return queries
}

/**
 * Both cores, nothing pinned (dnsperf shares them): Zonal with 1 and 2 DNS worker threads, BIND
 * with `-n 1` and `-n 2`; the ratio at two, and each server's scaling from one to two.
 */
async function qpsCores (): Promise<void> {
  const zone = await zoneFile(COUNT)
  const queries = queryFile(zone)
  populateZonal(zone.path, ORIGIN, join(work, 'zonal-qps'))
  const zonal: number[] = []
  for (const workers of [1, 2]) {
    const server = await startZonal(join(work, 'zonal-qps'), [], { workers, pin: false })
    try {
      await server.loaded
      zonal.push(dnsperf(server.port, queries, false).qps)
    } finally {
      await stop(server)
    }
  }
  const named: number[] = []
  if (HAVE_BIND) {
    for (const threads of [1, 2]) {
      const server = await startNamed(zone.path, ORIGIN, join(work, `named-qps-${threads}`), threads)
      try {
        await waitForSoa(server.port, ORIGIN, SERIAL, server.spawnedAt, undefined, server.child)
        named.push(dnsperf(server.port, queries, false).qps)
      } finally {
        await stop(server)
      }
    }
  } else notes.push('BIND missing: the two-core q/s part ran Zonal alone')
  out.push(`### Queries per second on both cores: ${fmt(zone.records)} records; nothing pinned; dnsperf -c 8 -T 2 -q 200 -l ${SECONDS}`, '')
  out.push('| server | 1 thread q/s | 2 threads q/s | scaling 1 → 2 | ratio at 2 (Zonal / BIND) |', '|---|---|---|---|---|')
  out.push(`| Zonal (ZONAL_DNS_WORKERS=1, =2) | ${fmt(zonal[0]!)} | ${fmt(zonal[1]!)} | ${ratio(zonal[1]!, zonal[0]!)} | ${named.length === 2 ? ratio(zonal[1]!, named[1]!) : '-'} |`)
  if (named.length === 2) out.push(`| BIND named (-n 1, -n 2) | ${fmt(named[0]!)} | ${fmt(named[1]!)} | ${ratio(named[1]!, named[0]!)} | 1.00 |`)
  out.push('')
}

/** Zonal's q/s with UDP batched (the default) or through node:dgram (ZONAL_DNS_UDP_BATCH=0). */
async function zonalQps (queries: string, batch: boolean): Promise<ReturnType<typeof dnsperf> & { udp: string }> {
  const zonal = await startZonal(join(work, 'zonal-qps'), [], { env: { ZONAL_DNS_UDP_BATCH: batch ? '1' : '0' } })
  try {
    await zonal.loaded
    return { ...dnsperf(zonal.port, queries), udp: zonal.udp }
  } finally {
    await stop(zonal)
  }
}

async function qps (): Promise<void> {
  const zone = await zoneFile(COUNT)
  const queries = queryFile(zone)
  populateZonal(zone.path, ORIGIN, join(work, 'zonal-qps'))
  const z = await zonalQps(queries, true)
  const zd = await zonalQps(queries, false)
  if (z.udp !== 'batch') notes.push(`Zonal's batched UDP is not available (${z.udp}): both Zonal rows are node:dgram`)
  const peers: Array<{ peer: Peer, r: ReturnType<typeof dnsperf> }> = []
  for (const peer of PEERS.filter(p => p.available)) {
    try {
      const server = await peer.start(zone.path, ORIGIN, join(work, `${peer.dir}-qps`))
      try {
        await waitForSoa(server.port, ORIGIN, SERIAL, server.spawnedAt, undefined, server.child)
        peers.push({ peer, r: dnsperf(server.port, queries) })
      } finally {
        await stop(server)
      }
    } catch (err) {
      failed = true
      notes.push(`${peer.label} failed in the q/s part: ${err instanceof Error ? err.message : String(err)}`)
    }
  }
  const n = peers.find(p => p.peer === PEERS[0])?.r
  out.push(`### Queries per second: ${fmt(zone.records)} records; dnsperf -c 8 -T 1 -q 200 -l ${SECONDS}; 80 % hits, 20 % NXDOMAIN`, '')
  out.push('| server | q/s | avg latency ms | lost | ratio q/s (this server / BIND) | Zonal / this server |', '|---|---|---|---|---|---|')
  out.push(`| Zonal | ${fmt(z.qps)} | ${fmt(z.avgMs, 2)} | ${z.lost} | ${n === undefined ? '-' : ratio(z.qps, n.qps)} | 1.00 |`)
  out.push(`| Zonal, UDP through node:dgram (ZONAL_DNS_UDP_BATCH=0) | ${fmt(zd.qps)} | ${fmt(zd.avgMs, 2)} | ${zd.lost} | ${n === undefined ? '-' : ratio(zd.qps, n.qps)} | ${ratio(z.qps, zd.qps)} |`)
  for (const { peer, r } of peers) out.push(`| ${peer.label} | ${fmt(r.qps)} | ${fmt(r.avgMs, 2)} | ${r.lost} | ${n === undefined ? '-' : ratio(r.qps, n.qps)} | ${ratio(z.qps, r.qps)} |`)
  out.push('')
}

interface BigRun { startupMs: number, rssMb: number, peakMb: number, emptyRssMb: number, emptyStartupMs: number, transfer?: AxfrResult, note?: string }

/** One server over the big zone: start-up, memory, transfer (what PARTS asks for). */
async function measure (start: () => Promise<Running>, afterLoad: (s: Running) => Promise<string | undefined>, transfer = PARTS.has('axfr')): Promise<Omit<BigRun, 'emptyRssMb' | 'emptyStartupMs'>> {
  const server = await start()
  try {
    const startupMs = await waitForSoa(server.port, ORIGIN, SERIAL, server.spawnedAt, undefined, server.child)
    const note = await afterLoad(server)
    const { rssMb } = memory(server)
    const zone = transfer ? axfr(server.port) : undefined
    return { startupMs, rssMb, peakMb: memory(server).peakMb, ...(zone === undefined ? {} : { transfer: zone }), ...(note === undefined ? {} : { note }) }
  } finally {
    await stop(server)
  }
}

async function big (): Promise<void> {
  const zone = await zoneFile(BIG)
  const empty = await zoneFile(5)
  const stored = populateZonal(zone.path, ORIGIN, join(work, 'zonal-big'))
  if (stored.records !== zone.records) throw new Error(`Zonal stored ${stored.records} records of ${zone.records}`)
  const profile = process.env.BENCH_DNS_PROFILE === '1' ? ['--cpu-prof', `--cpu-prof-dir=${join(work, 'profile')}`] : []
  const zonalLoaded = async (s: Running): Promise<string> => {
    const l = await (s as Awaited<ReturnType<typeof startZonal>>).loaded
    return `Zonal: zones loaded ${fmt(l.loadMs / 1000, 2)} s after the listeners opened; RSS ${fmt(l.rssMb)} MB before a full GC, ${fmt(l.rssAfterGcMb)} MB after it (JS heap ${fmt(l.heapUsedMb)} MB used of ${fmt(l.heapTotalMb)} MB, array buffers ${fmt(l.arrayBuffersMb)} MB)`
  }
  // The same server with a five-record zone: its start-up and memory without the zone.
  const baseline = async (start: () => Promise<Running>, afterLoad: (s: Running) => Promise<string | undefined>): Promise<Pick<BigRun, 'emptyRssMb' | 'emptyStartupMs'>> => {
    if (!PARTS.has('memory') && !PARTS.has('startup')) return { emptyRssMb: NaN, emptyStartupMs: NaN }
    const r = await measure(start, afterLoad, false)
    return { emptyRssMb: r.rssMb, emptyStartupMs: r.startupMs }
  }
  populateZonal(empty.path, ORIGIN, join(work, 'zonal-empty'))
  // One untimed start first: Node's compile cache then holds the compiled sources, as for any
  // start after the first (`npm start` enables it; BIND's code is compiled ahead of time too).
  const warm = await startZonal(join(work, 'zonal-empty'), [], { workers: 2 })
  await warm.loaded
  await stop(warm)
  const zonalEmpty = await baseline(async () => await startZonal(join(work, 'zonal-empty'), [], { workers: 2 }), zonalLoaded)
  const zonal: BigRun = { ...await measure(async () => await startZonal(join(work, 'zonal-big'), profile, { workers: 2 }), zonalLoaded), ...zonalEmpty }
  const none = async (): Promise<undefined> => undefined
  const peers: Array<{ peer: Peer, r: BigRun }> = []
  for (const peer of PEERS.filter(p => p.available)) {
    try {
      const peerEmpty = await baseline(async () => await peer.start(empty.path, ORIGIN, join(work, `${peer.dir}-empty`)), none)
      peers.push({ peer, r: { ...await measure(async () => await peer.start(zone.path, ORIGIN, join(work, `${peer.dir}-big`)), none), ...peerEmpty } })
    } catch (err) {
      failed = true
      notes.push(`${peer.label} failed in the ${fmt(zone.records)}-record part: ${err instanceof Error ? err.message : String(err)}`)
    }
  }
  const named = peers.find(p => p.peer === PEERS[0])?.r

  const perRecord = (r: BigRun): number => (r.rssMb - r.emptyRssMb) * 1024 * 1024 / (zone.records - empty.records)
  const rows: Array<[string, (r: BigRun) => string, (r: BigRun) => number]> = []
  if (PARTS.has('startup')) {
    rows.push(
      ['start-up to first SOA answer, s', r => fmt(r.startupMs / 1000, 2), r => r.startupMs],
      ['start-up with a five-record zone, s', r => fmt(r.emptyStartupMs / 1000, 2), r => r.emptyStartupMs]
    )
  }
  if (PARTS.has('axfr')) {
    const expected = zone.records + 1
    for (const r of [zonal, ...peers.map(p => p.r)]) {
      if (r?.transfer !== undefined && r.transfer.records !== expected) failed = true
    }
    rows.push(
      ['AXFR: request to last message, s', r => fmt(r.transfer!.ms / 1000, 2), r => r.transfer!.ms],
      ['AXFR: records per second', r => fmt(r.transfer!.records / r.transfer!.ms * 1000), r => r.transfer!.records / r.transfer!.ms],
      [`AXFR: records received (zone + closing SOA = ${fmt(expected)})`, r => `${fmt(r.transfer!.records)} ${r.transfer!.records === expected ? 'ok' : 'WRONG'}`, () => NaN],
      ['AXFR: messages, MB on the wire', r => `${fmt(r.transfer!.messages)}, ${fmt(r.transfer!.bytes / 1e6, 1)}`, r => r.transfer!.bytes],
      ['AXFR: client CPU, s', r => fmt(r.transfer!.cpuMs / 1000, 2), () => NaN]
    )
  }
  if (PARTS.has('memory')) {
    rows.push(
      ['RSS after load, MB', r => fmt(r.rssMb), r => r.rssMb],
      ['RSS with a five-record zone, MB', r => fmt(r.emptyRssMb), r => r.emptyRssMb],
      ['memory per record, bytes', r => fmt(perRecord(r)), perRecord]
    )
  }
  rows.push([`peak RSS${PARTS.has('axfr') ? ' (start-up and transfer)' : ''}, MB`, r => fmt(r.peakMb), r => r.peakMb])
  out.push(`### ${fmt(zone.records)}-record zone: start-up, AXFR, memory`, '')
  out.push(`| measure | Zonal | ${peers.map(p => p.peer.label).join(' | ')}${peers.length > 0 ? ' | ' : ''}ratio (Zonal / BIND) |`, `|---|---|${peers.map(() => '---|').join('')}---|`)
  for (const [label, show, value] of rows) {
    out.push(`| ${label} | ${show(zonal)} | ${peers.map(p => `${show(p.r)} | `).join('')}${named === undefined ? '-' : ratio(value(zonal), value(named))} |`)
  }
  out.push('')
  out.push(`Zonal's store (SQLite) was filled before timing: ${fmt(stored.records)} records in ${fmt(stored.ms / 1000, 1)} s.`)
  if (zonal.note !== undefined) out.push(`${zonal.note}; Zonal's "RSS after load" is read after that GC.`)
  if (PARTS.has('memory')) out.push('Memory per record: (RSS after load − RSS with a five-record zone) / the difference in records.')
  if (PARTS.has('memory') && peers.some(p => p.peer.label === 'NSD')) out.push('NSD runs as three processes (xfrd, main, server): its "RSS" is the sum of their proportional set sizes (pages they share counted once), its peak the sum of their peaks.')
  if (PARTS.has('axfr')) out.push('AXFR client: a Node TCP client (bench/dns/axfr-client.ts) that skims the answers (checks ids, rcodes, the opening and closing SOA, counts records) without decoding them; its CPU time is well under the transfer time when it is not the bottleneck.')
  out.push('')
}

try {
  if (PARTS.has('qps')) await qps()
  if (PARTS.has('qps2')) await qpsCores()
  if (PARTS.has('startup') || PARTS.has('axfr') || PARTS.has('memory')) await big()
} catch (err) {
  failed = true
  process.stderr.write(`${err instanceof Error ? err.stack ?? err.message : String(err)}\n`)
}
out.push(PINNED ? `Servers on CPU ${SERVER_CPU}, clients (dnsperf, dig, AXFR client) on CPU ${CLIENT_CPU} (taskset).` : 'Not pinned to CPUs (taskset or a second CPU missing).')
for (const peer of PEERS) if (!peer.available) out.push(`${peer.label} skipped: ${peer.missing}.`)
out.push(...notes)
if (process.env.BENCH_DNS_CAPTURE === '1') out.push('Zonal with query capture on.')
process.stdout.write(out.join('\n') + '\n')
if (failed) process.exitCode = 1
