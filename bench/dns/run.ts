import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from '../api/servers.ts'
import { generateZone } from '../zonefile/generate.ts'

/**
 * DNS benchmark: the same generated zone served by Zonal and by BIND `named` on loopback,
 * queried by `dnsperf` with the same query file (80 % names that exist, 20 % that do not),
 * one after the other in one run; queries per second, latency and the ratio.
 */
const root = fileURLToPath(new URL('../../', import.meta.url))
const work = join(root, 'bench', '.work', 'dns')
mkdirSync(work, { recursive: true })
const COUNT = Number(process.env.BENCH_DNS_RECORDS ?? 100_000)
const SECONDS = Number(process.env.BENCH_DNS_SECONDS ?? 20)
const ORIGIN = 'bench.test.'
const zone = join(work, `zone-${COUNT}.zone`)
if (!existsSync(zone)) await generateZone(zone, COUNT, ORIGIN)

// Query file: owners of the zone (hits) and names that do not exist, 4 to 1.
const queries = join(work, `queries-${COUNT}.txt`)
if (!existsSync(queries)) {
  const lines: string[] = []
  const owners = readFileSync(zone, 'utf8').split('\n').filter(l => /^h\d+\.g\d+ /.test(l)).map(l => l.split(' ')[0]!)
  for (let i = 0; i < 100_000; i++) {
    lines.push(i % 5 === 4 ? `nx${i}.g${i % 1000}.${ORIGIN} A` : `${owners[(i * 7919) % owners.length]}.${ORIGIN} A`)
  }
  writeFileSync(queries, lines.join('\n') + '\n')
}

function dnsperf (port: number): { qps: number, avgMs: number, lost: string } {
  const r = spawnSync('dnsperf', ['-s', '127.0.0.1', '-p', String(port), '-d', queries, '-l', String(SECONDS), '-c', '8', '-T', '1', '-q', '200'], { encoding: 'utf8' })
  const qps = Number(/Queries per second:\s+([\d.]+)/.exec(r.stdout)?.[1] ?? NaN)
  const avg = Number(/Average Latency \(s\):\s+([\d.]+)/.exec(r.stdout)?.[1] ?? NaN) * 1000
  const lost = /Queries lost:\s+(.+)/.exec(r.stdout)?.[1] ?? '?'
  return { qps, avgMs: avg, lost }
}

async function waitForAnswer (port: number, ms = 120_000): Promise<number> {
  const t0 = performance.now()
  while (performance.now() - t0 < ms) {
    const r = spawnSync('dig', ['@127.0.0.1', '-p', String(port), '+time=1', '+tries=1', `${ORIGIN}`, 'SOA'], { encoding: 'utf8' })
    if (/status: NOERROR/.test(r.stdout) && /ANSWER: 1/.test(r.stdout)) return performance.now() - t0
    await new Promise(resolve => setTimeout(resolve, 100))
  }
  throw new Error('server did not answer')
}

async function startZonal (): Promise<{ child: ChildProcess, port: number, loadMs: number, rssMb: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench/dns/server.ts'), zone, ORIGIN, join(work, 'zonal')], { stdio: ['ignore', 'pipe', 'inherit'] })
  const line = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      if (out.includes('\n')) resolve(out.split('\n')[0]!)
    })
    child.on('exit', code => reject(new Error(`zonal dns exited ${code}`)))
  })
  const info = JSON.parse(line) as { port: number, loadMs: number, rssMb: number }
  return { child, ...info }
}

async function startNamed (): Promise<{ child: ChildProcess, port: number, startMs: number }> {
  const port = await freePort()
  const dir = join(work, 'named')
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'named.conf'), `options { directory "${dir}"; listen-on port ${port} { 127.0.0.1; }; listen-on-v6 { none; }; recursion no; notify no; dnssec-validation no; minimal-responses yes; pid-file none; };
controls { };
zone "${ORIGIN}" { type primary; file "${zone}"; };
`)
  const t0 = performance.now()
  const child = spawn('named', ['-g', '-4', '-c', join(dir, 'named.conf')], { stdio: 'ignore' })
  await waitForAnswer(port)
  return { child, port, startMs: performance.now() - t0 }
}

const out: string[] = []
const zonal = await startZonal()
const z = dnsperf(zonal.port)
zonal.child.kill('SIGTERM')
let n: { qps: number, avgMs: number, lost: string } | undefined
let namedStart = NaN
if (spawnSync('sh', ['-c', 'command -v named && command -v dnsperf']).status === 0) {
  const named = await startNamed()
  namedStart = named.startMs
  n = dnsperf(named.port)
  named.child.kill('SIGTERM')
}
out.push(`zone: ${COUNT} records; dnsperf -c 8 -T 1 -q 200 -l ${SECONDS}; 80 % hits, 20 % NXDOMAIN${process.env.BENCH_DNS_CAPTURE === '1' ? '; Zonal with query capture on' : ''}`)
out.push('')
out.push('| server | q/s | avg latency ms | lost | load to first answer s | ratio (Zonal / BIND) q/s |')
out.push('|---|---|---|---|---|---|')
out.push(`| Zonal | ${z.qps.toFixed(0)} | ${z.avgMs.toFixed(2)} | ${z.lost} | ${(zonal.loadMs / 1000).toFixed(2)} (RSS ${zonal.rssMb} MB) | ${n === undefined ? '-' : (z.qps / n.qps).toFixed(2)} |`)
if (n !== undefined) out.push(`| BIND named | ${n.qps.toFixed(0)} | ${n.avgMs.toFixed(2)} | ${n.lost} | ${(namedStart / 1000).toFixed(2)} | 1.00 |`)
process.stdout.write(out.join('\n') + '\n')
