import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { generateZone } from '../zonefile/generate.ts'
import { CLIENT_CPU, PINNED, installed, memory, pinned, populateZonal, startNamed, startZonal, stop, waitForSoa, type Running } from '../dns/servers.ts'

/**
 * Signed answers (issue 19): Zonal against BIND `named` serving the same signed zone, one after
 * the other in one run, each server pinned to CPU 0 and dnsperf to CPU 1 (as the DNS benchmark).
 *
 * A generated zone of BENCH_DNSSEC_SERVE_RECORDS records (100,000) is signed once by BIND's
 * `dnssec-signzone` (ECDSAP256SHA256 KSK and ZSK from `dnssec-keygen`; NSEC, or NSEC3 with
 * BENCH_DNSSEC_SERVE_DENIAL=NSEC3, iterations 0, no salt), so both servers serve the very same
 * records and signatures. Zonal holds the signed file as it would hold a signed zone (its DNSSEC
 * records are rrsets of the zone); BIND loads it as a primary zone.
 *
 * - q/s: dnsperf with the DO bit (`-D`) for BENCH_DNSSEC_SERVE_SECONDS (20 s), 80 % names that
 *   exist (signed positive answers), 20 % that do not (NXDOMAIN with NSEC or NSEC3 proofs);
 *   ratio Zonal / BIND (target ≥ 1.0); and the same without DO for each server.
 * - memory: each server's resident memory with the signed zone against the unsigned one, per
 *   record of the unsigned zone.
 */
const root = fileURLToPath(new URL('../../', import.meta.url))
const work = join(root, 'bench', '.work', 'dnssec-serve')
const COUNT = Number(process.env.BENCH_DNSSEC_SERVE_RECORDS ?? 100_000)
const SECONDS = Number(process.env.BENCH_DNSSEC_SERVE_SECONDS ?? 20)
const DENIAL = process.env.BENCH_DNSSEC_SERVE_DENIAL === 'NSEC3' ? 'NSEC3' : 'NSEC'
const ORIGIN = 'bench.test.'
const SERIAL = 2024010101 // the generated zone's SOA serial (dnssec-signzone keeps it: -N keep)
const fmt = (n: number, digits = 0): string => Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '-'
const ratio = (a: number, b: number): string => Number.isFinite(a / b) ? (a / b).toFixed(2) : '-'

if (!installed('named', 'dnssec-keygen', 'dnssec-signzone', 'dig', 'dnsperf')) {
  process.stdout.write('dnssec-serve: SKIPPED (BIND tools, dig or dnsperf missing)\n')
  process.exit(0)
}
mkdirSync(work, { recursive: true })

/** The unsigned zone file and BIND's signed copy of it (made once, kept in bench/.work). */
async function zones (): Promise<{ unsigned: string, signed: string, records: number, signedRecords: number }> {
  const unsigned = join(work, `zone-${COUNT}.zone`)
  if (!existsSync(unsigned)) await generateZone(unsigned, COUNT, ORIGIN)
  const signed = join(work, `zone-${COUNT}-${DENIAL}.signed`)
  if (!existsSync(signed)) {
    const keys = join(work, 'keys')
    rmSync(keys, { recursive: true, force: true })
    mkdirSync(keys, { recursive: true })
    for (const ksk of [true, false]) {
      const r = spawnSync('dnssec-keygen', ['-q', '-K', keys, '-a', 'ECDSAP256SHA256', ...(ksk ? ['-f', 'KSK'] : []), ORIGIN], { encoding: 'utf8' })
      if (r.status !== 0) throw new Error(`dnssec-keygen: ${r.stderr}`)
    }
    const denial = DENIAL === 'NSEC3' ? ['-3', '-', '-H', '0'] : []
    const r = spawnSync('dnssec-signzone', ['-q', '-S', '-K', keys, '-N', 'keep', '-O', 'full', '-o', ORIGIN, '-f', signed, ...denial, unsigned], { encoding: 'utf8', cwd: work, maxBuffer: 1 << 26 })
    if (r.status !== 0) throw new Error(`dnssec-signzone: ${r.stderr}`)
  }
  const count = (path: string): number => readFileSync(path, 'utf8').split('\n').filter(l => l !== '' && !l.startsWith('$') && !l.startsWith(';')).length
  return { unsigned, signed, records: count(unsigned), signedRecords: count(signed) }
}

function dnsperf (port: number, queries: string, dnssec: boolean): { qps: number, avgMs: number, lost: string } {
  const argv = ['-s', '127.0.0.1', '-p', String(port), '-d', queries, '-l', String(SECONDS), '-c', '8', '-T', '1', '-q', '200', ...(dnssec ? ['-D'] : [])]
  const [cmd, args] = pinned(CLIENT_CPU, 'dnsperf', argv)
  const r = spawnSync(cmd, args, { encoding: 'utf8' })
  const qps = Number(/Queries per second:\s+([\d.]+)/.exec(r.stdout)?.[1] ?? NaN)
  const avg = Number(/Average Latency \(s\):\s+([\d.]+)/.exec(r.stdout)?.[1] ?? NaN) * 1000
  const lost = /Queries lost:\s+(.+)/.exec(r.stdout)?.[1] ?? '?'
  return { qps, avgMs: avg, lost }
}

/** Owners of the generated zone (hits) and names that do not exist, 4 to 1. */
function queryFile (unsigned: string): string {
  const queries = join(work, `queries-${COUNT}.txt`)
  if (!existsSync(queries)) {
    const owners = readFileSync(unsigned, 'utf8').split('\n').filter(l => /^h\d+\.g\d+ /.test(l)).map(l => l.split(' ')[0]!)
    const lines: string[] = []
    for (let i = 0; i < 100_000; i++) lines.push(i % 5 === 4 ? `nx${i}.g${i % 1000}.${ORIGIN} A` : `${owners[(i * 7919) % owners.length]}.${ORIGIN} A`)
    writeFileSync(queries, lines.join('\n') + '\n')
  }
  return queries
}

interface Served { doQps: ReturnType<typeof dnsperf>, plainQps: ReturnType<typeof dnsperf>, rssMb: number }

/** A server over one zone file: memory once loaded, then q/s with and without DO. */
async function serve (start: () => Promise<Running>, loaded: (s: Running) => Promise<void>, queries: string | undefined): Promise<Served> {
  const server = await start()
  try {
    await waitForSoa(server.port, ORIGIN, SERIAL, server.spawnedAt, undefined, server.child)
    await loaded(server)
    const { rssMb } = memory(server)
    if (queries === undefined) return { rssMb, doQps: { qps: NaN, avgMs: NaN, lost: '-' }, plainQps: { qps: NaN, avgMs: NaN, lost: '-' } }
    return { rssMb, doQps: dnsperf(server.port, queries, true), plainQps: dnsperf(server.port, queries, false) }
  } finally {
    await stop(server)
  }
}

const z = await zones()
const queries = queryFile(z.unsigned)
const zonalLoaded = async (s: Running): Promise<void> => { await (s as Awaited<ReturnType<typeof startZonal>>).loaded }
populateZonal(z.signed, ORIGIN, join(work, 'zonal-signed'))
populateZonal(z.unsigned, ORIGIN, join(work, 'zonal-unsigned'))
const zonalSigned = await serve(async () => await startZonal(join(work, 'zonal-signed')), zonalLoaded, queries)
const zonalUnsigned = await serve(async () => await startZonal(join(work, 'zonal-unsigned')), zonalLoaded, undefined)
const none = async (): Promise<void> => {}
const namedSigned = await serve(async () => await startNamed(z.signed, ORIGIN, join(work, 'named-signed')), none, queries)
const namedUnsigned = await serve(async () => await startNamed(z.unsigned, ORIGIN, join(work, 'named-unsigned')), none, undefined)
for (const d of readdirSync(work)) if (d.startsWith('named-')) rmSync(join(work, d), { recursive: true, force: true })

const perRecord = (signed: number, unsigned: number): string => fmt((signed - unsigned) * 1e6 / z.records, 0)
const out = [
  `### Signed answers: ${fmt(z.records)} records (${fmt(z.signedRecords)} signed, ${DENIAL}, ECDSAP256SHA256, signed by dnssec-signzone); dnsperf -c 8 -T 1 -q 200 -l ${SECONDS}; 80 % hits, 20 % NXDOMAIN; ${PINNED ? 'servers on CPU 0, dnsperf on CPU 1' : 'nothing pinned'}`,
  '',
  '| server | q/s with DO | avg ms | lost | q/s without DO | RSS signed | RSS unsigned | bytes more per record signed |',
  '|---|---|---|---|---|---|---|---|',
  `| Zonal | ${fmt(zonalSigned.doQps.qps)} | ${fmt(zonalSigned.doQps.avgMs, 2)} | ${zonalSigned.doQps.lost} | ${fmt(zonalSigned.plainQps.qps)} | ${fmt(zonalSigned.rssMb)} MB | ${fmt(zonalUnsigned.rssMb)} MB | ${perRecord(zonalSigned.rssMb, zonalUnsigned.rssMb)} |`,
  `| BIND named | ${fmt(namedSigned.doQps.qps)} | ${fmt(namedSigned.doQps.avgMs, 2)} | ${namedSigned.doQps.lost} | ${fmt(namedSigned.plainQps.qps)} | ${fmt(namedSigned.rssMb)} MB | ${fmt(namedUnsigned.rssMb)} MB | ${perRecord(namedSigned.rssMb, namedUnsigned.rssMb)} |`,
  '',
  `Ratio of signed answers with DO, Zonal / BIND: **${ratio(zonalSigned.doQps.qps, namedSigned.doQps.qps)}** (target ≥ 1.0); without DO: ${ratio(zonalSigned.plainQps.qps, namedSigned.plainQps.qps)}.`
]
process.stdout.write(out.join('\n') + '\n')
