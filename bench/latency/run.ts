import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { mkdirSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { freePort, npmStartArgs, startZonalProcess, uploadZonal as upload, waitZonalTask as waitTask, zonalApi as api, type ZonalProcess } from '../api/servers.ts'
import { startNamed, stop, type Running } from '../dns/servers.ts'

/**
 * DNS latency under API load: a client (bench/latency/dns-client.ts, its own process) queries
 * the service's DNS at a steady rate (BENCH_LATENCY_QPS, 200 a second) and reports p50, p99 and
 * max latency and the answers lost, while
 *   - nothing else runs (idle baseline),
 *   - BENCH_LATENCY_CLIENTS (200) concurrent API clients run a mixed load (zone list pages,
 *     rrset reads, rrset writes; bench/latency/api-load.ts, its own process, niced so that it
 *     does not starve the DNS client) for BENCH_LATENCY_SECONDS (10),
 *   - a BENCH_LATENCY_UPLOAD_RECORDS (300,000) record zone is uploaded, from the request to the
 *     first DNS answer from the new zone,
 *   - BENCH_LATENCY_EXPORT_ZONES (250) zones of BENCH_LATENCY_EXPORT_RECORDS (1,000) records are
 *     exported (one task), from the request to the zip downloaded.
 * Zonal runs as `npm start` runs it (the start script's node flags, `src/main.ts serve`, one
 * process, SQLite). The peer is BIND `named` serving the same zone to the same client in the same
 * run, idle (BIND has no API). Nothing is pinned to a CPU.
 */
const root = fileURLToPath(new URL('../../', import.meta.url))
const work = join(root, 'bench', '.work', 'latency')
const QPS = Number(process.env.BENCH_LATENCY_QPS ?? 200)
const SECONDS = Number(process.env.BENCH_LATENCY_SECONDS ?? 10)
const CLIENTS = Number(process.env.BENCH_LATENCY_CLIENTS ?? 200)
const RECORDS = Number(process.env.BENCH_LATENCY_RECORDS ?? 1000)
const UPLOAD = Number(process.env.BENCH_LATENCY_UPLOAD_RECORDS ?? 300_000)
const EXPORT_ZONES = Number(process.env.BENCH_LATENCY_EXPORT_ZONES ?? 250)
const EXPORT_RECORDS = Number(process.env.BENCH_LATENCY_EXPORT_RECORDS ?? 1000)
const WRITE_ZONES = 20
const TIMEOUT_MS = 10_000
const ZONE = 'lat.bench.test.'
const HAVE_BIND = spawnSync('sh', ['-c', 'command -v named'], { stdio: 'ignore' }).status === 0
const progress = (s: string): void => { process.stderr.write(`[latency bench] ${s}\n`) }
const sleep = async (ms: number): Promise<void> => { await new Promise(resolve => setTimeout(resolve, ms)) }

interface Latency { load?: number, seconds: number, sent: number, answered: number, lost: number, errors: number, p50: number, p99: number, max: number, longestGap: number }

/** A zone of `records` records: SOA, two NS, A records h0, h1, … */
function zoneText (name: string, records: number): string {
  const lines = [`$TTL 3600\n@ IN SOA ns1.zonal.test. hostmaster.${name} 1 7200 3600 1209600 300\n@ IN NS ns1.zonal.test.\n@ IN NS ns2.zonal.test.`]
  for (let i = 0; i < records - 3; i++) lines.push(`h${i} IN A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`)
  return lines.join('\n') + '\n'
}

type Zonal = ZonalProcess

async function startZonal (dir: string): Promise<Zonal> {
  return await startZonalProcess(dir, { nodeArgs: npmStartArgs(), dnsPort: await freePort() })
}

interface StatusFigures { answered: number, p50: number, p99: number, max: number }

/**
 * `GET /status` one request after another (the next sent when the last answered) until the
 * returned function is called; it resolves to the answers' count and latency in ms.
 */
function probeStatus (z: Zonal): () => Promise<StatusFigures> {
  const latencies: number[] = []
  const state = { stopped: false }
  const loop = (async () => {
    while (!state.stopped) {
      const t = performance.now()
      const res = await fetch(z.base + '/status')
      await res.arrayBuffer()
      if (res.status !== 200) throw new Error(`GET /status: ${res.status}`)
      latencies.push(performance.now() - t)
    }
  })()
  return async () => {
    state.stopped = true
    await loop
    const sorted = latencies.sort((a, b) => a - b)
    const pct = (p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? NaN
    return { answered: sorted.length, p50: pct(0.5), p99: pct(0.99), max: sorted.at(-1) ?? NaN }
  }
}

const statusNote = (s: StatusFigures): string => `GET /status: ${s.answered.toLocaleString('en-US')} answered, p50 ${s.p50.toFixed(1)} / p99 ${s.p99.toFixed(1)} / max ${s.max.toFixed(0)} ms`

/** Poll with dig until `name` A is answered with NOERROR and AA. */
async function waitAnswered (port: number, name: string, ms = 600_000): Promise<void> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    const r = spawnSync('dig', ['@127.0.0.1', '-p', String(port), '+time=2', '+tries=1', '+norecurse', name, 'A'], { encoding: 'utf8' })
    if (/status: NOERROR/.test(r.stdout) && /flags:[^;]* aa[ ;]/.test(r.stdout) && /ANSWER: 1,/.test(r.stdout)) return
    await sleep(20)
  }
  throw new Error(`${name} not answered on port ${port} within ${ms} ms`)
}

/** Start the DNS client on `port`; once it sends, resolves to a function that stops it and gives its figures. */
async function measure (port: number): Promise<() => Promise<Latency>> {
  const child = spawn(process.execPath, [join(root, 'bench/latency/dns-client.ts'), String(port), ZONE, String(RECORDS - 3), String(QPS), String(TIMEOUT_MS)], { stdio: ['pipe', 'pipe', 'inherit'] })
  const lines: string[] = []
  const waiting: Array<(l: string) => void> = []
  createInterface({ input: child.stdout }).on('line', (l) => { const w = waiting.shift(); if (w === undefined) lines.push(l); else w(l) })
  const exited = once(child, 'close').then(([code]) => { throw new Error(`DNS client exited ${String(code)}`) })
  exited.catch(() => {})
  const next = async (): Promise<string> => lines.shift() ?? await Promise.race([new Promise<string>(resolve => waiting.push(resolve)), exited])
  await next() // {"sending":true}
  return async () => {
    child.stdin.end('stop\n')
    // The machine's 1-minute load average: other work on it shows in the figures.
    return { ...JSON.parse(await next()) as Latency, load: loadavg()[0]! }
  }
}

/** The DNS client alone for SECONDS. */
async function idle (port: number): Promise<Latency> {
  const done = await measure(port)
  await sleep(SECONDS * 1000)
  return await done()
}

interface Row { label: string, latency: Latency, note: string }

async function zonalRuns (): Promise<Row[]> {
  const rows: Row[] = []
  const z = await startZonal(join(work, 'zonal'))
  try {
    progress('setting up')
    await upload(z, ZONE, zoneText(ZONE, RECORDS))
    const writeZones: string[] = []
    for (let i = 0; i < WRITE_ZONES; i++) {
      const name = `w${i}.load.test.`
      writeZones.push(name)
      const res = await api(z, 'POST', '/zones', { properties: { name, accountName: 'bench', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'NEW' } })
      if (res.status !== 201) throw new Error(`create ${name}: ${res.status} ${await res.text()}`)
    }
    for (let c = 0; c < CLIENTS; c++) {
      const res = await api(z, 'POST', `/zones/${writeZones[c % WRITE_ZONES]!}/rrsets/A/c${c}`, { ttl: 300, rdata: ['10.1.0.0'] })
      if (res.status !== 201) throw new Error(`rrset c${c}: ${res.status} ${await res.text()}`)
    }
    await waitAnswered(z.dnsPort, `h0.${ZONE}`)

    progress(`idle, ${SECONDS} s`)
    rows.push({ label: 'Zonal, idle', latency: await idle(z.dnsPort), note: '' })

    progress(`${CLIENTS} API clients, ${SECONDS} s`)
    const load = spawn('nice', ['-n', '10', process.execPath, join(root, 'bench/latency/api-load.ts'), z.base, z.token, String(CLIENTS), String(SECONDS + 2), ZONE, String(RECORDS - 3), ...writeZones], { stdio: ['ignore', 'pipe', 'inherit'] })
    const loadLine = new Promise<string>(resolve => { createInterface({ input: load.stdout }).once('line', resolve) })
    // Listened for now: on a busy machine the load may end before the measurement does.
    const loadExit = once(load, 'exit')
    await sleep(1000)
    const loaded = await idle(z.dnsPort)
    const [loadResult] = await Promise.all([loadLine, loadExit])
    const l = JSON.parse(loadResult) as { requests: number, perSecond: number, failures: Record<string, number>, p50: number, p99: number }
    const failed = Object.values(l.failures).reduce((a, b) => a + b, 0)
    if (failed > 0) progress(`API failures: ${JSON.stringify(l.failures)}`)
    rows.push({ label: `Zonal, ${CLIENTS} API clients (mixed load)`, latency: loaded, note: `${l.perSecond.toLocaleString('en-US')} API requests/s, API p50 ${l.p50} ms / p99 ${l.p99} ms, ${failed} failed` })

    progress(`uploading a ${UPLOAD}-record zone`)
    const big = zoneText('upload.bench.test.', UPLOAD)
    let done = await measure(z.dnsPort)
    await sleep(500)
    let t0 = performance.now()
    let status = probeStatus(z)
    await upload(z, 'upload.bench.test.', big)
    const uploaded = performance.now() - t0
    const uploadStatus = await status()
    await waitAnswered(z.dnsPort, 'h0.upload.bench.test.')
    const served = performance.now() - t0
    await sleep(500)
    rows.push({ label: `Zonal, ${UPLOAD.toLocaleString('en-US')}-record zone upload`, latency: await done(), note: `upload ${(uploaded / 1000).toFixed(1)} s to the task's end, ${(served / 1000).toFixed(1)} s to its first DNS answer; ${statusNote(uploadStatus)} (to the task's end)` })

    progress(`loading ${EXPORT_ZONES} zones of ${EXPORT_RECORDS} records`)
    const names: string[] = []
    for (let i = 0; i < EXPORT_ZONES; i++) {
      names.push(`x${i}.export.test.`)
      await upload(z, names[i]!, zoneText(names[i]!, EXPORT_RECORDS))
    }
    await sleep(2000) // the DNS index takes the new zones in
    progress(`exporting ${EXPORT_ZONES} zones`)
    done = await measure(z.dnsPort)
    await sleep(500)
    t0 = performance.now()
    status = probeStatus(z)
    const res = await api(z, 'POST', '/zones/export', { zoneNames: names })
    const id = res.headers.get('x-task-id')
    if (res.status !== 202 || id === null) throw new Error(`export: ${res.status} ${await res.text()}`)
    await waitTask(z, id)
    const bytes = (await (await api(z, 'GET', `/tasks/${id}/result`)).arrayBuffer()).byteLength
    const exported = performance.now() - t0
    const exportStatus = await status()
    await sleep(500)
    rows.push({ label: `Zonal, ${EXPORT_ZONES}-zone export`, latency: await done(), note: `export of ${EXPORT_ZONES} × ${EXPORT_RECORDS.toLocaleString('en-US')} records, ${(exported / 1000).toFixed(1)} s to the zip (${(bytes / 1e6).toFixed(1)} MB) downloaded; ${statusNote(exportStatus)}` })
  } finally {
    const exited = once(z.child, 'exit')
    z.child.kill('SIGTERM')
    await exited
  }
  return rows
}

async function bindRun (): Promise<Row> {
  const file = join(work, 'lat.zone')
  writeFileSync(file, zoneText(ZONE, RECORDS))
  const named: Running = await startNamed(file, ZONE, join(work, 'named'))
  try {
    await waitAnswered(named.port, `h0.${ZONE}`, 30_000)
    progress(`BIND idle, ${SECONDS} s`)
    return { label: 'BIND named, idle', latency: await idle(named.port), note: '' }
  } finally {
    await stop(named)
  }
}

mkdirSync(work, { recursive: true })
const rows = await zonalRuns()
const bind = HAVE_BIND ? await bindRun() : undefined
if (bind !== undefined) rows.push(bind)

const ms = (n: number): string => Number.isFinite(n) ? n.toFixed(2) : '-'
const ratio = (a: number, b: number | undefined): string => b !== undefined && Number.isFinite(a / b) ? (a / b).toFixed(a / b < 10 ? 2 : 0) : '-'
const out: string[] = [
  `### DNS latency under API load: ${QPS} queries/s (A, ${(RECORDS - 3).toLocaleString('en-US')} names of a ${RECORDS.toLocaleString('en-US')}-record zone), answers lost after ${TIMEOUT_MS / 1000} s`,
  '',
  '| while | queries | p50 ms | p99 ms | max ms | longest silence ms | lost | p99 ratio (/ BIND idle) | load avg | |',
  '|---|---|---|---|---|---|---|---|---|---|'
]
for (const r of rows) {
  const l = r.latency
  const errors = l.errors > 0 ? ` (${l.errors} not NOERROR)` : ''
  out.push(`| ${r.label} | ${l.sent.toLocaleString('en-US')} | ${ms(l.p50)} | ${ms(l.p99)} | ${ms(l.max)} | ${ms(l.longestGap)} | ${l.lost}${errors} | ${ratio(l.p99, bind?.latency.p99)} | ${l.load?.toFixed(1) ?? '-'} | ${r.note} |`)
}
out.push('', 'Zonal as `npm start` runs it (one process, SQLite); the DNS client and the API load each in a process of their own (the load niced), nothing pinned.')
if (!HAVE_BIND) out.push('BIND skipped: named missing.')
process.stdout.write(out.join('\n') + '\n')
if (rows.some(r => r.latency.errors > 0)) process.exitCode = 1
