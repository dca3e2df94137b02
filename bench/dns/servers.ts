import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { freePort } from '../api/servers.ts'

/**
 * The servers of the DNS benchmark: Zonal (bench/dns/server.ts) and BIND `named`, each pinned
 * to CPU 0, with their clients (dig, dnsperf, the AXFR client) pinned to CPU 1, when `taskset`
 * (util-linux) is there and the machine has two CPUs.
 */
const root = fileURLToPath(new URL('../../', import.meta.url))

export const PINNED = availableParallelism() >= 2 && spawnSync('sh', ['-c', 'command -v taskset'], { stdio: 'ignore' }).status === 0
export const SERVER_CPU = 0
export const CLIENT_CPU = 1

/** The command line that runs `cmd` on one CPU (unchanged without taskset). */
export function pinned (cpu: number, cmd: string, args: string[]): [string, string[]] {
  return PINNED ? ['taskset', ['-c', String(cpu), cmd, ...args]] : [cmd, args]
}

export interface Running {
  child: ChildProcess
  port: number
  /** `performance.now()` when the process was spawned. */
  spawnedAt: number
}

/** Stop a server and wait until it has exited. */
export async function stop (server: Running): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return
  const exited = once(server.child, 'exit')
  server.child.kill('SIGTERM')
  await exited
}

/** Resident memory of a process, from /proc (MB): now and its peak. */
export function rss (pid: number): { rssMb: number, peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN)
  return { rssMb: kb('VmRSS') * 1024 / 1e6, peakMb: kb('VmHWM') * 1024 / 1e6 }
}

/**
 * Poll with dig until the server gives the zone's SOA (NOERROR, AA, one answer, the expected
 * serial); returns the milliseconds since `since`.
 */
export async function waitForSoa (port: number, origin: string, serial: number, since: number, ms = 600_000): Promise<number> {
  const soa = new RegExp(`^${origin.replace(/\./g, '\\.')}\\s+\\d+\\s+IN\\s+SOA\\s+\\S+\\s+\\S+\\s+${serial}\\s`, 'm')
  const [cmd, args] = pinned(CLIENT_CPU, 'dig', ['@127.0.0.1', '-p', String(port), '+time=5', '+tries=1', '+norecurse', origin, 'SOA'])
  while (performance.now() - since < ms) {
    const r = spawnSync(cmd, args, { encoding: 'utf8' })
    if (/status: NOERROR/.test(r.stdout) && /flags:[^;]* aa[ ;]/.test(r.stdout) && /ANSWER: 1,/.test(r.stdout) && soa.test(r.stdout)) return performance.now() - since
    await new Promise(resolve => setTimeout(resolve, 50))
  }
  throw new Error(`no SOA answer on port ${port} within ${ms} ms`)
}

/** JSON lines of a child's stdout, one at a time; rejects if the child exits first. */
function lineReader (child: ChildProcess, what: string): () => Promise<Record<string, number>> {
  const queue: string[] = []
  const waiting: Array<{ resolve: (l: string) => void, reject: (e: Error) => void }> = []
  let ended = false
  createInterface({ input: child.stdout! }).on('line', (l) => {
    const w = waiting.shift()
    if (w === undefined) queue.push(l)
    else w.resolve(l)
  })
  child.on('exit', (code, signal) => {
    ended = true
    for (const w of waiting.splice(0)) w.reject(new Error(`${what} exited (${code ?? signal})`))
  })
  return async () => {
    const l = queue.shift() ?? await new Promise<string>((resolve, reject) => {
      if (ended) reject(new Error(`${what} exited`))
      else waiting.push({ resolve, reject })
    })
    return JSON.parse(l) as Record<string, number>
  }
}

/** Import a zone file into a fresh store in `dir` (not timed); returns the records stored. */
export function populateZonal (zoneFile: string, origin: string, dir: string): { records: number, ms: number } {
  const r = spawnSync(process.execPath, [join(root, 'bench/dns/server.ts'), 'populate', zoneFile, origin, dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 })
  if (r.status !== 0) throw new Error(`populating the Zonal store failed (${r.status ?? r.signal})`)
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as { records: number, ms: number }
}

export interface ZonalRunning extends Running {
  /** Resolves once every zone is loaded, after a full GC: Zonal's own timings and memory. */
  loaded: Promise<{ loadMs: number, rssMb: number, rssAfterGcMb: number, heapUsedMb: number, heapTotalMb: number, arrayBuffersMb: number }>
}

/** Spawn Zonal's DNS server over the store in `dir`; resolves once it listens. */
export async function startZonal (dir: string, nodeFlags: string[] = []): Promise<ZonalRunning> {
  const [cmd, args] = pinned(SERVER_CPU, process.execPath, ['--expose-gc', '--max-semi-space-size=64', ...nodeFlags, join(root, 'bench/dns/server.ts'), 'serve', dir])
  const spawnedAt = performance.now()
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ZONAL_DNS_RRL: '0' } })
  const next = lineReader(child, 'zonal dns')
  const { port } = await next()
  const loaded = next() as ZonalRunning['loaded']
  loaded.catch(() => {})
  return { child, port: port!, spawnedAt, loaded }
}

/** Spawn `named` serving one zone file (transfers allowed to 127.0.0.1); resolves at once. */
export async function startNamed (zoneFile: string, origin: string, dir: string): Promise<Running> {
  const port = await freePort()
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'named.conf'), `options { directory "${dir}"; listen-on port ${port} { 127.0.0.1; }; listen-on-v6 { none; }; recursion no; notify no; dnssec-validation no; minimal-responses yes; pid-file none; };
controls { };
zone "${origin}" { type primary; file "${zoneFile}"; allow-transfer { 127.0.0.1; }; };
`)
  const [cmd, args] = pinned(SERVER_CPU, 'named', ['-g', '-4', '-c', join(dir, 'named.conf')])
  const spawnedAt = performance.now()
  const child = spawn(cmd, args, { stdio: 'ignore' })
  return { child, port, spawnedAt }
}
