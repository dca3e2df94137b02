/**
 * What signing a large zone does to the API's event loop: a zone of N records (default 100,000)
 * signed as a request signs it (`runDnssec`: records read and signed inside the transaction, on
 * the main thread) and as the signing task does (`runDnssecTask`: read and signed in a worker
 * thread before the transaction, which writes the result). For each: the wall time, and how long
 * the main thread's event loop was held at a time while it ran (the longest gap between ticks of
 * a 5 ms timer: what an API request arriving then waits at least), and the holds over 100 ms.
 * SQLite (or ZONAL_BENCH_DATABASE_URL). BENCH_ONLY=request|task runs one of them.
 *
 *   node bench/dnssec/sign-task.ts [records] [NSEC|NSEC3]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SecretBox } from '../../src/auth/secrets.ts'
import { openStore } from '../../src/store/open-store.ts'
import { closeSharedPool } from '../../src/util/worker-pool.ts'
import { policyWith } from '../../src/zones/dnssec/policy.ts'
import { runDnssec, runDnssecTask, type DnssecTaskPayload } from '../../src/zones/dnssec/sign-zone.ts'
import { storeBenchZone } from './bench-zone.ts'

const N = Number(process.argv[2] ?? 100_000)
const securityType = (process.argv[3] ?? 'NSEC') as 'NSEC' | 'NSEC3'
const secrets = new SecretBox(undefined)

const dir = mkdtempSync(join(tmpdir(), 'zonal-bench-sign-task-'))
const store = await openStore(process.env.ZONAL_BENCH_DATABASE_URL ?? `sqlite:${join(dir, 'zonal.db')}`)
try {
  await store.migrate()
  const deps = { store, secrets, clock: () => new Date() }
  const measure = async (label: string, sign: (p: DnssecTaskPayload) => Promise<unknown>): Promise<void> => {
    const zone = await storeBenchZone(store, label, `${label}.bench.test.`, N)
    const payload: DnssecTaskPayload = { zoneId: zone.id, operation: 'SIGN', policy: policyWith(securityType === 'NSEC' ? {} : { securityType }), actor: { user: 'bench', ipAddress: null }, comment: null }
    // The gaps between ticks of a 5 ms timer: how long the event loop was held at a time
    // (perf_hooks' monitorEventLoopDelay under-reports holds of seconds, so it is not used).
    let last = performance.now()
    const gaps: number[] = []
    const tick = setInterval(() => { const t = performance.now(); gaps.push(t - last); last = t }, 5)
    const t0 = performance.now()
    await sign(payload)
    const wall = performance.now() - t0
    clearInterval(tick)
    gaps.push(performance.now() - last)
    const held = gaps.filter(g => g > 100)
    console.log(`${label}: ${N} records ${securityType}; ${wall.toFixed(0)} ms; event loop held at most ${Math.max(...gaps).toFixed(0)} ms at a time; ${held.length} holds over 100 ms, ${held.reduce((a, b) => a + b, 0).toFixed(0)} ms in all`)
  }
  const only = process.env.BENCH_ONLY
  if (only !== 'task') await measure('request', async (p) => await runDnssec(deps, p))
  if (only !== 'request') await measure('task', async (p) => await runDnssecTask(deps, p, async () => {}))
} finally {
  await store.close()
  await closeSharedPool()
  rmSync(dir, { recursive: true, force: true })
}
