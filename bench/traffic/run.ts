// `npm run bench -- traffic`: the prober's cost. The whole service as `npm start` runs it (its own
// process, SQLite, one DNS worker; every thread pinned to CPU 0, and dnsperf and this process,
// which serves the probed targets, to CPU 1 when the machine has two) holding
// BENCH_TRAFFIC_POOLS (1,000) SiteBacker pools of BENCH_TRAFFIC_RECORDS
// (10) records each, every pool with one HTTP probe (interval ONE_MINUTE) of each of its records:
// 10,000 probed records, every one probed once a minute. The records are 127.0.0.2 onwards (one
// address per record of a pool, shared by the pools), each served by a small HTTP server of this
// process on one port, so nothing leaves loopback. The service is started with ZONAL_PROBES=on
// and =off alternately (on, off, off, on) on the same database; each run answers dnsperf at full
// rate for BENCH_TRAFFIC_SECONDS (60: one whole probe round) over the pools' names and the apex.
// Reported per run: DNS q/s, the probes the targets received, CPU seconds per thread group of the
// service (the prober runs on the main thread) and its resident memory at the end; then q/s
// on/off (target ≥ 0.95) and the prober's CPU and memory (on less off).
import { createServer, type Server } from 'node:http'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort, npmStartArgs, startZonalProcess, zonalApi, type ZonalProcess } from '../api/servers.ts'
import { CLIENT_CPU, PINNED, SERVER_CPU, installed, waitForSoa } from '../dns/servers.ts'
import { dnsperfFor, residentBytes, threadCpu, type ThreadCpu } from '../dns/service-load.ts'
import { execFileSync } from 'node:child_process'

const root = fileURLToPath(new URL('../../', import.meta.url))
const work = join(root, 'bench', '.work', 'traffic')
const POOLS = Number(process.env.BENCH_TRAFFIC_POOLS ?? 1000)
const RECORDS = Number(process.env.BENCH_TRAFFIC_RECORDS ?? 10)
const SECONDS = Number(process.env.BENCH_TRAFFIC_SECONDS ?? 60)
const ROUNDS = Number(process.env.BENCH_TRAFFIC_ROUNDS ?? 2)
const ORIGIN = 'traffic.bench.'
const fmt = (n: number, digits = 0): string => Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '-'
const load = (): string => loadavg().map(l => l.toFixed(2)).join(' ')
const address = (record: number): string => `127.0.0.${2 + record}`

if (!installed('dnsperf', 'dig')) {
  process.stdout.write('traffic: SKIPPED (dnsperf or dig missing)\n')
  process.exit(0)
}
if (RECORDS < 1 || RECORDS > 200) throw new Error('BENCH_TRAFFIC_RECORDS: 1 to 200 (one loopback address each)')

rmSync(work, { recursive: true, force: true })
mkdirSync(work, { recursive: true })
// This process serves the probed targets: on the clients' CPU with dnsperf, so that answering
// the probes takes nothing from the service's CPU (as remote targets would not).
if (PINNED) execFileSync('taskset', ['-a', '-cp', String(CLIENT_CPU), String(process.pid)], { stdio: 'ignore' })

// The probed targets: one HTTP server per record address, all on one port, counting what they answer.
const targetPort = await freePort()
let probesReceived = 0
const servers: Server[] = []
for (let r = 0; r < RECORDS; r++) {
  const server = createServer((req, res) => {
    probesReceived++
    res.writeHead(200, { 'content-type': 'text/plain' })
    res.end('ok\n')
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(targetPort, address(r), () => resolve())
  })
  servers.push(server)
}

const dbPath = join(work, 'zonal.db')
const dnsPort = await freePort()
let runNo = 0
async function start (probes: boolean): Promise<ZonalProcess> {
  const z = await startZonalProcess(join(work, `run-${runNo++}`), {
    // BENCH_TRAFFIC_NODE_ARGS: more node arguments (`--cpu-prof --cpu-prof-dir=…` to profile).
    nodeArgs: [...(process.env.BENCH_TRAFFIC_NODE_ARGS ?? '').split(' ').filter(a => a !== ''), ...npmStartArgs()],
    dnsPort,
    databaseUrl: `sqlite:${dbPath}`,
    env: { ZONAL_PROBES: probes ? 'on' : 'off', ZONAL_DNS_WORKERS: '1', ZONAL_DNS_RRL: '0', ZONAL_ANALYTICS: 'off', ZONAL_HEALTH_INTERVAL: '0' }
  })
  if (PINNED) execFileSync('taskset', ['-a', '-cp', String(SERVER_CPU), String(z.child.pid)], { stdio: 'ignore' })
  return z
}

// The zone and its pools, once, through the API of a first start (probes off).
let serial = 0
{
  const z = await start(false)
  try {
    const t0 = performance.now()
    const created = await zonalApi(z, 'POST', '/zones', { properties: { name: ORIGIN, accountName: 'bench', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'NEW' } })
    if (created.status !== 201) throw new Error(`zone: ${created.status} ${await created.text()}`)
    const rdata = Array.from({ length: RECORDS }, (_, r) => address(r))
    const profile = { '@context': 'http://schemas.ultradns.com/SBPool.jsonschema', maxActive: 1, maxServed: 1, rdataInfo: rdata.map((_, r) => ({ priority: r + 1 })), backupRecords: [] }
    const probe = { type: 'HTTP', interval: 'ONE_MINUTE', agents: ['NEW_YORK', 'DALLAS'], threshold: 1, details: { transactions: [{ method: 'GET', url: `http://www.${ORIGIN.slice(0, -1)}:${targetPort}/health`, expectedResponse: '2XX', limits: { connect: { fail: 5 }, searchString: { fail: 'ok' } } }] } }
    for (let i = 0; i < POOLS; i += 8) {
      await Promise.all(Array.from({ length: Math.min(8, POOLS - i) }, async (_, k) => {
        const owner = `p${i + k}.${ORIGIN}`
        const pool = await zonalApi(z, 'POST', `/zones/${ORIGIN}/rrsets/A/${owner}`, { ttl: 60, rdata, profile })
        if (pool.status !== 201) throw new Error(`pool ${owner}: ${pool.status} ${await pool.text()}`)
        await pool.arrayBuffer()
        const p = await zonalApi(z, 'POST', `/zones/${ORIGIN}/rrsets/A/${owner}/probes`, probe)
        if (p.status !== 201) throw new Error(`probe of ${owner}: ${p.status} ${await p.text()}`)
        await p.arrayBuffer()
      }))
    }
    // The serial the zone ends at, from its SOA as served (what each later start must answer first).
    for (let i = 0; i < 100 && !(serial > 0); i++) {
      const soa = execFileSync('dig', ['@127.0.0.1', '-p', String(dnsPort), '+short', '+time=2', '+tries=1', ORIGIN, 'SOA'], { encoding: 'utf8' }).trim().split(/\s+/)
      serial = Number(soa[2])
      if (!(serial > 0)) await new Promise(resolve => setTimeout(resolve, 100))
    }
    process.stdout.write(`${fmt(POOLS)} SB pools of ${RECORDS} records, each with an HTTP probe of every record (ONE_MINUTE): made through the API in ${fmt((performance.now() - t0) / 1000, 1)} s\n`)
  } finally {
    await z.close()
  }
}

// dnsperf's queries: the pools' names (A) and the apex.
const queries = join(work, 'queries.txt')
writeFileSync(queries, [...Array.from({ length: POOLS }, (_, i) => `p${i}.${ORIGIN} A`), `${ORIGIN} SOA`, `${ORIGIN} NS`].join('\n') + '\n')

interface Run { probes: boolean, qps: number, completed: number, lost: string, load: string, cpu: ThreadCpu, rss: number, received: number }
const runs: Run[] = []
const order: boolean[] = []
for (let r = 0; r < ROUNDS; r++) order.push(...(r % 2 === 0 ? [true, false] : [false, true]))
for (const probes of order) {
  const z = await start(probes)
  let run: Run
  try {
    await waitForSoa(dnsPort, ORIGIN, serial, performance.now(), 60_000, z.child)
    // With probes on, the first round starts within 2 s of the start (spread by jitter): wait for it.
    if (probes) {
      const t = performance.now()
      const before = probesReceived
      const started = (): boolean => probesReceived - before >= POOLS * RECORDS / 2 || performance.now() - t >= 30_000
      while (!started()) await new Promise(resolve => setTimeout(resolve, 100))
    }
    const l = load()
    const received0 = probesReceived
    const cpu0 = threadCpu(z.child.pid!)
    const p = await dnsperfFor(dnsPort, queries, SECONDS, PINNED)
    const cpu1 = threadCpu(z.child.pid!)
    run = { probes, ...p, load: l, cpu: { main: cpu1.main - cpu0.main, dns: cpu1.dns - cpu0.dns, v8: cpu1.v8 - cpu0.v8, other: cpu1.other - cpu0.other }, rss: residentBytes(z.child.pid!), received: probesReceived - received0 }
  } finally {
    await z.close()
  }
  runs.push(run)
  process.stdout.write(`probes ${probes ? 'on ' : 'off'}: ${fmt(run.qps)} q/s, ${fmt(run.completed)} queries, lost ${run.lost}, load ${run.load}, CPU s main ${run.cpu.main.toFixed(2)} dns ${run.cpu.dns.toFixed(2)} v8 ${run.cpu.v8.toFixed(2)} other ${run.cpu.other.toFixed(2)}, RSS ${fmt(run.rss / 1048576)} MB, probes received ${fmt(run.received)}\n`)
}
for (const s of servers) s.close()

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length
const on = runs.filter(r => r.probes)
const off = runs.filter(r => !r.probes)
const cpuOf = (r: Run): number => r.cpu.main + r.cpu.dns + r.cpu.v8 + r.cpu.other
const out = [
  '',
  `${fmt(POOLS)} SB pools × ${RECORDS} records, one HTTP probe of each record a minute (${fmt(POOLS * RECORDS)} probed records); ${SECONDS} s runs; ${PINNED ? `service on CPU ${SERVER_CPU}, dnsperf on CPU ${CLIENT_CPU}` : 'nothing pinned'}`,
  '',
  '| run | probes | q/s | probes received | CPU s: main / DNS worker / V8 helpers / other | RSS at the end | load at start |',
  '|---|---|---|---|---|---|---|',
  ...runs.map((r, i) => `| ${i + 1} | ${r.probes ? 'on' : 'off'} | ${fmt(r.qps)} | ${fmt(r.received)} (${fmt(r.received / SECONDS, 1)}/s) | ${r.cpu.main.toFixed(2)} / ${r.cpu.dns.toFixed(2)} / ${r.cpu.v8.toFixed(2)} / ${r.cpu.other.toFixed(2)} | ${fmt(r.rss / 1048576)} MB | ${r.load} |`),
  '',
  `Mean q/s: on ${fmt(mean(on.map(r => r.qps)))}, off ${fmt(mean(off.map(r => r.qps)))}; on/off ${(mean(on.map(r => r.qps)) / mean(off.map(r => r.qps))).toFixed(3)} (target ≥ 0.95).`,
  `The prober: main thread ${(mean(on.map(r => r.cpu.main)) - mean(off.map(r => r.cpu.main))).toFixed(2)} CPU s more in ${SECONDS} s (${fmt(100 * (mean(on.map(r => r.cpu.main)) - mean(off.map(r => r.cpu.main))) / SECONDS, 1)} % of a core), all threads ${(mean(on.map(cpuOf)) - mean(off.map(cpuOf))).toFixed(2)} s more; resident memory ${fmt((mean(on.map(r => r.rss)) - mean(off.map(r => r.rss))) / 1048576)} MB more; ${fmt(mean(on.map(r => r.received)) / SECONDS, 1)} probes a second received.`
]
process.stdout.write(out.join('\n') + '\n')
