import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { freePort } from '../api/servers.ts'

/**
 * The servers of the DNS benchmark: Zonal (bench/dns/server.ts), BIND `named`, NSD and Knot
 * DNS `knotd` (authoritative only, in the foreground, in a temp directory of their own), each pinned
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
  /** The server is several processes (the spawned one and its descendants): see `memory`. */
  forks?: boolean
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

/** The process and all its descendants, from /proc. */
export function processTree (pid: number): number[] {
  const parents = new Map<number, number[]>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      parents.set(ppid, [...parents.get(ppid) ?? [], Number(entry)])
    } catch { /* exited meanwhile */ }
  }
  const tree = [pid]
  for (let i = 0; i < tree.length; i++) tree.push(...parents.get(tree[i]!) ?? [])
  return tree
}

/**
 * A server's memory (MB): `rss` of its process, or for a server of several processes the sum
 * of their proportional set sizes (shared pages split between them, so counted once) and the
 * sum of their peaks.
 */
export function memory (server: Running): { rssMb: number, peakMb: number } {
  if (server.forks !== true) return rss(server.child.pid!)
  let rssMb = 0
  let peakMb = 0
  for (const pid of processTree(server.child.pid!)) {
    try {
      const pss = Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? NaN)
      rssMb += pss * 1024 / 1e6
      peakMb += rss(pid).peakMb
    } catch { /* exited meanwhile */ }
  }
  return { rssMb, peakMb }
}

/**
 * Poll with dig until the server gives the zone's SOA (NOERROR, AA, one answer, the expected
 * serial); returns the milliseconds since `since`. Gives up early if `child` exits.
 */
export async function waitForSoa (port: number, origin: string, serial: number, since: number, ms = 600_000, child?: ChildProcess): Promise<number> {
  const soa = new RegExp(`^${origin.replace(/\./g, '\\.')}\\s+\\d+\\s+IN\\s+SOA\\s+\\S+\\s+\\S+\\s+${serial}\\s`, 'm')
  const [cmd, args] = pinned(CLIENT_CPU, 'dig', ['@127.0.0.1', '-p', String(port), '+time=5', '+tries=1', '+norecurse', origin, 'SOA'])
  while (performance.now() - since < ms) {
    if (child !== undefined && (child.exitCode !== null || child.signalCode !== null)) throw new Error(`the server on port ${port} exited (${child.exitCode ?? child.signalCode}) before answering`)
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
  /** How UDP is read: `batch`, `dgram`, or why the batched socket is not available. */
  udp: string
  /** Resolves once every zone is loaded, after a full GC: Zonal's own timings and memory. */
  loaded: Promise<{ loadMs: number, rssMb: number, rssAfterGcMb: number, heapUsedMb: number, heapTotalMb: number, arrayBuffersMb: number }>
}

/**
 * Spawn Zonal's DNS server over the store in `dir` with `workers` DNS worker threads (0: on the
 * main thread), pinned to the server CPU unless `pin` is false; resolves once it listens.
 */
export async function startZonal (dir: string, nodeFlags: string[] = [], opts: { workers?: number, pin?: boolean, env?: Record<string, string> } = {}): Promise<ZonalRunning> {
  const argv = ['--expose-gc', '--max-semi-space-size=64', ...nodeFlags, join(root, 'bench/dns/server.ts'), 'serve', dir]
  const [cmd, args] = opts.pin === false ? [process.execPath, argv] : pinned(SERVER_CPU, process.execPath, argv)
  const spawnedAt = performance.now()
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { NODE_COMPILE_CACHE: join(root, 'bench', '.work', 'compile-cache'), ...process.env, ZONAL_DNS_RRL: '0', BENCH_DNS_WORKERS: String(opts.workers ?? 1), ...opts.env } })
  const next = lineReader(child, 'zonal dns')
  const { port, udp } = await next() as unknown as { port: number, udp: string }
  const loaded = next() as ZonalRunning['loaded']
  loaded.catch(() => {})
  return { child, port, udp, spawnedAt, loaded }
}

/**
 * Spawn `named` serving one zone file (transfers allowed to 127.0.0.1), pinned to the server CPU
 * (one thread) unless `threads` is given (then `-n threads`, unpinned); resolves at once.
 */
export async function startNamed (zoneFile: string, origin: string, dir: string, threads?: number): Promise<Running> {
  const port = await freePort()
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'named.conf'), `options { directory "${dir}"; listen-on port ${port} { 127.0.0.1; }; listen-on-v6 { none; }; recursion no; notify no; dnssec-validation no; minimal-responses yes; pid-file none; };
controls { };
zone "${origin}" { type primary; file "${zoneFile}"; allow-transfer { 127.0.0.1; }; };
`)
  const argv = ['-g', '-4', '-c', join(dir, 'named.conf')]
  const [cmd, args] = threads === undefined ? pinned(SERVER_CPU, 'named', argv) : ['named', [...argv, '-n', String(threads)]]
  const spawnedAt = performance.now()
  const child = spawn(cmd, args, { stdio: 'ignore' })
  return { child, port, spawnedAt }
}

/** Whether every command is on the PATH. */
export function installed (...commands: string[]): boolean {
  return spawnSync('sh', ['-c', commands.map(c => `command -v ${c}`).join(' && ')], { stdio: 'ignore' }).status === 0
}

/**
 * Spawn NSD in the foreground (`-d`) serving one zone file read as text (no zone database),
 * one server process, no NOTIFY, response rate limiting off (as for Zonal), transfers allowed
 * to 127.0.0.1; resolves at once. NSD runs as three processes (xfrd, main, server).
 */
export async function startNsd (zoneFile: string, origin: string, dir: string): Promise<Running> {
  const port = await freePort()
  rmSync(dir, { recursive: true, force: true }) // no state (xfrd, timers) from an earlier run
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'nsd.conf'), `server:
  ip-address: 127.0.0.1@${port}
  port: ${port}
  do-ip6: no
  server-count: 1
  username: ""
  chroot: ""
  database: ""
  zonesdir: "${dir}"
  pidfile: "${join(dir, 'nsd.pid')}"
  xfrdfile: "${join(dir, 'xfrd.state')}"
  zonelistfile: "${join(dir, 'zone.list')}"
  xfrdir: "${dir}"
  logfile: "${join(dir, 'nsd.log')}"
  minimal-responses: yes
  rrl-ratelimit: 0
  rrl-whitelist-ratelimit: 0
  verbosity: 0
remote-control:
  control-enable: no
zone:
  name: "${origin}"
  zonefile: "${zoneFile}"
  provide-xfr: 127.0.0.1 NOKEY
`)
  const [cmd, args] = pinned(SERVER_CPU, 'nsd', ['-d', '-4', '-c', join(dir, 'nsd.conf')])
  const spawnedAt = performance.now()
  const child = spawn(cmd, args, { stdio: 'ignore' })
  return { child, port, spawnedAt, forks: true }
}

/**
 * Spawn Knot DNS `knotd` (foreground by default) serving one zone file, one UDP and one TCP
 * worker, no NOTIFY, no journal or zone-file write-back, transfers allowed to 127.0.0.1;
 * resolves at once.
 */
export async function startKnot (zoneFile: string, origin: string, dir: string): Promise<Running> {
  const port = await freePort()
  rmSync(dir, { recursive: true, force: true }) // no state (xfrd, timers) from an earlier run
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'knot.conf'), `server:
  rundir: "${dir}"
  listen: 127.0.0.1@${port}
  udp-workers: 1
  tcp-workers: 1
  background-workers: 1
database:
  storage: "${dir}"
log:
  - target: stderr
    any: error
acl:
  - id: local-transfer
    address: 127.0.0.1
    action: transfer
template:
  - id: default
    storage: "${dir}"
    zonefile-sync: -1
    zonefile-load: whole
    journal-content: none
zone:
  - domain: "${origin}"
    file: "${zoneFile}"
    acl: local-transfer
`)
  const [cmd, args] = pinned(SERVER_CPU, 'knotd', ['-c', join(dir, 'knot.conf')])
  const spawnedAt = performance.now()
  const child = spawn(cmd, args, { stdio: 'ignore' })
  return { child, port, spawnedAt }
}
