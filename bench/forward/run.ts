// `npm run bench -- forward`: requests per second of the forwarding server (issue 21) against a
// plain Fastify server answering the same redirect (bench/forward/server.ts: 301 to the host's
// target with the request's path and query, over BENCH_FORWARD_HOSTS hosts, 10,000 by default).
// Each server runs in its own process, pinned to CPU 0, the load generator (bench/forward/load.ts:
// BENCH_FORWARD_CONNECTIONS keep-alive connections, 64 by default, raw sockets) in another, pinned
// to CPU 1, when the machine has two CPUs and taskset; the servers take turns (zonal, fastify,
// fastify, zonal, … BENCH_FORWARD_ROUNDS rounds, 2 by default) with the same generator, for
// BENCH_FORWARD_SECONDS (10) after 2 s of warm-up each. Reported per run: requests per second, the
// CPU seconds per second of the server and of the generator over the counting window (a generator
// near one would be the bottleneck), requests per server CPU second; then the ratios of the means,
// zonal / fastify (target ≥ 0.8).
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { CLIENT_CPU, PINNED, SERVER_CPU, pinned } from '../dns/servers.ts'

const here = fileURLToPath(new URL('./', import.meta.url))
const HOSTS = Number(process.env.BENCH_FORWARD_HOSTS ?? 10_000)
const CONNECTIONS = Number(process.env.BENCH_FORWARD_CONNECTIONS ?? 64)
const SECONDS = Number(process.env.BENCH_FORWARD_SECONDS ?? 10)
const ROUNDS = Number(process.env.BENCH_FORWARD_ROUNDS ?? 2)
const WARMUP = 2
const fmt = (n: number, digits = 0): string => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
const load = (): string => loadavg().map(l => l.toFixed(2)).join(' ')

type Kind = 'zonal' | 'fastify'
interface Run { kind: Kind, rps: number, requests: number, bad: number, serverCpu: number, loadCpu: number, load: string }

/** User and system CPU seconds of a process so far, from /proc (Linux). */
function cpuSeconds (pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

async function run (kind: Kind): Promise<Run> {
  const [cmd, args] = pinned(SERVER_CPU, process.execPath, [`${here}server.ts`, kind, String(HOSTS)])
  const server = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  try {
    let out = ''
    server.stdout.setEncoding('utf8')
    while (!out.includes('\n')) {
      const [chunk] = await Promise.race([once(server.stdout, 'data'), once(server, 'exit').then(() => { throw new Error(`${kind} server exited`) })]) as [string]
      out += chunk
    }
    const port = Number(out.trim())
    const l = load()
    const [lcmd, largs] = pinned(CLIENT_CPU, process.execPath, [`${here}load.ts`, String(port), String(CONNECTIONS), String(SECONDS), String(HOSTS), String(WARMUP)])
    const gen = spawn(lcmd, largs, { stdio: ['ignore', 'pipe', 'inherit'] })
    // The server's CPU time over the counting window only: read when the generator says start and stop.
    let cpuStart = NaN
    let cpuStop = NaN
    let out2 = ''
    gen.stdout.setEncoding('utf8')
    gen.stdout.on('data', (d: string) => {
      out2 += d
      if (Number.isNaN(cpuStart) && out2.includes('start\n')) cpuStart = cpuSeconds(server.pid!)
      if (Number.isNaN(cpuStop) && out2.includes('stop\n')) cpuStop = cpuSeconds(server.pid!)
    })
    const [code] = await once(gen, 'exit') as [number]
    if (code !== 0) throw new Error(`load generator failed (${code})`)
    const r = JSON.parse(out2.split('\n').filter(line => line.startsWith('{'))[0]!) as { requests: number, seconds: number, rps: number, bad: number, cpuSeconds: number }
    return { kind, rps: r.rps, requests: r.requests, bad: r.bad, serverCpu: (cpuStop - cpuStart) / r.seconds, loadCpu: r.cpuSeconds / r.seconds, load: l }
  } finally {
    server.kill('SIGTERM')
    if (server.exitCode === null) await once(server, 'exit')
  }
}

const order: Kind[] = []
for (let r = 0; r < ROUNDS; r++) order.push(...(r % 2 === 0 ? ['zonal', 'fastify'] as const : ['fastify', 'zonal'] as const))
const runs: Run[] = []
for (const kind of order) {
  const r = await run(kind)
  runs.push(r)
  process.stdout.write(`${kind.padEnd(7)}: ${fmt(r.rps)} req/s (${fmt(r.requests)} in ${SECONDS} s, ${r.bad} not as expected), server ${fmt(r.serverCpu, 2)} CPU s/s (${fmt(r.rps / r.serverCpu)} req per CPU s), generator ${fmt(r.loadCpu, 2)} CPU s/s, load ${r.load}\n`)
  if (r.bad > 0) process.exitCode = 1
}
const meanOf = (kind: Kind, f: (r: Run) => number): number => { const xs = runs.filter(r => r.kind === kind).map(f); return xs.reduce((a, b) => a + b, 0) / xs.length }
const mean = (kind: Kind): number => meanOf(kind, r => r.rps)
const perCpu = (kind: Kind): number => meanOf(kind, r => r.rps / r.serverCpu)
process.stdout.write([
  '',
  `${fmt(HOSTS)} forwards (301, PARAMETER_AND_PATH), ${CONNECTIONS} keep-alive connections, one request in flight each; ${SECONDS} s runs after ${WARMUP} s of warm-up; ${PINNED ? `servers on CPU ${SERVER_CPU}, generator on CPU ${CLIENT_CPU}` : 'nothing pinned'}`,
  '',
  '| run | server | req/s | server CPU s/s | req per server CPU s | generator CPU s/s | load at start |',
  '|---|---|---|---|---|---|---|',
  ...runs.map((r, i) => `| ${i + 1} | ${r.kind} | ${fmt(r.rps)} | ${fmt(r.serverCpu, 2)} | ${fmt(r.rps / r.serverCpu)} | ${fmt(r.loadCpu, 2)} | ${r.load} |`),
  '',
  `Mean req/s: zonal ${fmt(mean('zonal'))}, fastify ${fmt(mean('fastify'))}; zonal/fastify ${(mean('zonal') / mean('fastify')).toFixed(3)} (target ≥ 0.8).`,
  `Mean requests per server CPU second: zonal ${fmt(perCpu('zonal'))}, fastify ${fmt(perCpu('fastify'))}; zonal/fastify ${(perCpu('zonal') / perCpu('fastify')).toFixed(3)} (the fairer figure when other work shares the CPUs).`,
  ''
].join('\n'))
