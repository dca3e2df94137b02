// Measuring the whole service (its own process) under a DNS load: dnsperf at full rate, the CPU
// time of each thread group from /proc, the resident memory, and counters of its /metrics.
// Shared by the benchmarks that compare the service with a feature on and off in one run
// (`analytics` part capture, `traffic`).
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import type { ZonalProcess } from '../api/servers.ts'
import { CLIENT_CPU, pinned } from './servers.ts'

/**
 * dnsperf against 127.0.0.1:`port` for `seconds` at full rate (`-c 8 -q 200`): one thread pinned
 * to the client CPU when `pin`, else two threads where the scheduler puts them. Asynchronous, so
 * the calling process goes on serving (the traffic benchmark's probe targets live in it).
 */
export async function dnsperfFor (port: number, queries: string, seconds: number, pin: boolean): Promise<{ qps: number, completed: number, lost: string }> {
  const argv = ['-s', '127.0.0.1', '-p', String(port), '-d', queries, '-l', String(seconds), '-c', '8', '-T', pin ? '1' : '2', '-q', '200']
  const [cmd, args] = pin ? pinned(CLIENT_CPU, 'dnsperf', argv) : ['dnsperf', argv]
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'ignore'] })
  let stdout = ''
  child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d })
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject)
    child.once('close', () => resolve())
  })
  const qps = Number(/Queries per second:\s+([\d.]+)/.exec(stdout)?.[1] ?? NaN)
  const completed = Number(/Queries completed:\s+(\d+)/.exec(stdout)?.[1] ?? NaN)
  const lost = /Queries lost:\s+(.+)/.exec(stdout)?.[1] ?? '?'
  return { qps, completed, lost }
}

/** A counter of the service's /metrics, summed over its series whose labels include `label` ('' for all). */
export async function metric (z: ZonalProcess, name: string, label = ''): Promise<number> {
  const text = await (await fetch(`${z.base}/metrics`)).text()
  let sum = 0
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)(?:\{([^}]*)\})?\s+(\S+)$/.exec(line)
    if (m !== null && m[1] === name && (m[2] ?? '').includes(label)) sum += Number(m[3])
  }
  return sum
}

/** The thread groups whose CPU time is read: the main thread, the DNS workers, V8's helper threads (GC), the rest. */
export type ThreadCpu = Record<'main' | 'dns' | 'v8' | 'other', number>

/** CPU seconds (user + system) each thread group of process `pid` has used (Linux /proc; zeros elsewhere). */
export function threadCpu (pid: number): ThreadCpu {
  const out: ThreadCpu = { main: 0, dns: 0, v8: 0, other: 0 }
  let tasks: string[]
  try {
    tasks = readdirSync(`/proc/${pid}/task`)
  } catch {
    return out
  }
  for (const tid of tasks) {
    try {
      const comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim()
      // Fields after the command name's closing parenthesis: utime and stime are the 12th and 13th.
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      const seconds = (Number(fields[11]) + Number(fields[12])) / 100
      const group = comm === 'node-MainThread' ? 'main' : comm.startsWith('dns-') ? 'dns' : comm.startsWith('node-V8') ? 'v8' : 'other'
      out[group] += seconds
    } catch {} // a thread that ended meanwhile
  }
  return out
}

/** Resident memory of process `pid` in bytes (VmRSS; NaN where /proc has none). */
export function residentBytes (pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m === null ? NaN : Number(m[1]) * 1024
  } catch {
    return NaN
  }
}
