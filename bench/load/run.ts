import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdirSync, readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { npmStartArgs, startZonalProcess, uploadZonal as upload, waitZonalTask as waitTask, zonalApi as api, type ZonalProcess } from '../api/servers.ts'

/**
 * The API under load on each engine: Zonal started as `npm start` starts it (the start script's
 * node flags, `src/main.ts serve`, its own process, rate limit off) over a fresh SQLite file,
 * then over a fresh PostgreSQL schema, in one run; each time BENCH_LOAD_CLIENTS (200) concurrent
 * keep-alive clients (bench/load/client.ts, a process of their own) repeat a cycle of six
 * requests for BENCH_LOAD_WARMUP (3, not counted) + BENCH_LOAD_SECONDS (15) seconds:
 *   GET /v3/zones?limit=100 (a list page of 101 zones), GET /zones/{z} (one zone), GET
 *   /zones/{z}/rrsets?limit=100&offset=… (a page of a 1,000-record zone with its totalCount), GET
 *   /zones/{z}/rrsets/A/{owner} (one rrset), PUT /zones/{w}/rrsets/A/c{client} (the client's own
 *   rrset in one of 20 zones, a new address each time: a serial bump, a journal entry and an audit
 *   record) and GET /tasks/{id} (a finished export task).
 * Reports per engine the requests a second, p50 and p99 (all requests and per kind), and the
 * ratio PostgreSQL / SQLite. Settings: BENCH_LOAD_ENGINES (sqlite,postgres), BENCH_LOAD_PG_URL
 * (postgres://postgres@127.0.0.1:5432/test; a schema of its own is created and dropped),
 * BENCH_LOAD_PROFILE=1 (a CPU profile of each server, in bench/.work/load/profile-<engine>/).
 */
const root = fileURLToPath(new URL('../../', import.meta.url))
const work = join(root, 'bench', '.work', 'load')
const CLIENTS = Number(process.env.BENCH_LOAD_CLIENTS ?? 200)
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 15)
const WARMUP = Number(process.env.BENCH_LOAD_WARMUP ?? 3)
const ENGINES = (process.env.BENCH_LOAD_ENGINES ?? 'sqlite,postgres').split(',').map(e => e.trim()).filter(e => e !== '')
const PG_URL = process.env.BENCH_LOAD_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const PROFILE = process.env.BENCH_LOAD_PROFILE === '1'
const READ_ZONE = 'read.load.test.'
const READ_RECORDS = 1000
const WRITE_ZONES = 20
const OTHER_ZONES = 80
const progress = (s: string): void => { process.stderr.write(`[load bench] ${s}\n`) }
const sleep = async (ms: number): Promise<void> => { await new Promise(resolve => setTimeout(resolve, ms)) }

interface KindFigures { requests: number, p50: number, p99: number }
interface LoadResult { requests: number, perSecond: number, failures: Record<string, number>, p50: number, p99: number, kinds: Record<string, KindFigures> }
/** CPU seconds of the server, its PostgreSQL backends and the load client during the measured seconds. */
interface Cpu { server: number, database: number, client: number }
interface Row { engine: string, load: [number, number], result: LoadResult, cpu: Cpu }

/** CPU seconds (user + system) a process has used so far; 0 once it is gone. */
function cpuSeconds (pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return 0
  }
}

/** The PostgreSQL backends serving connections named `application` (their process ids). */
async function backends (application: string): Promise<number[]> {
  const c = new pg.Client({ connectionString: PG_URL })
  await c.connect()
  try {
    const r = await c.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [application])
    return r.rows.map(row => row.pid)
  } finally {
    await c.end()
  }
}

function zoneText (name: string, records: number): string {
  const lines = [`$TTL 3600\n@ IN SOA ns1.zonal.test. hostmaster.${name} 1 7200 3600 1209600 300\n@ IN NS ns1.zonal.test.\n@ IN NS ns2.zonal.test.`]
  for (let i = 0; i < records - 3; i++) lines.push(`h${i} IN A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`)
  return lines.join('\n') + '\n'
}

async function createZone (z: ZonalProcess, name: string): Promise<void> {
  const res = await api(z, 'POST', '/zones', { properties: { name, accountName: 'bench', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'NEW' } })
  if (res.status !== 201) throw new Error(`create ${name}: ${res.status} ${await res.text()}`)
  await res.arrayBuffer()
}

/** The zones, the clients' rrsets and one finished task; resolves to the write zones and the task id. */
async function populate (z: ZonalProcess): Promise<{ writeZones: string[], taskId: string }> {
  await upload(z, READ_ZONE, zoneText(READ_ZONE, READ_RECORDS))
  const writeZones = Array.from({ length: WRITE_ZONES }, (_, i) => `w${i}.load.test.`)
  for (const name of writeZones) await createZone(z, name)
  for (let i = 0; i < OTHER_ZONES; i++) await createZone(z, `o${i}.load.test.`)
  for (let c = 0; c < CLIENTS; c++) {
    const res = await api(z, 'POST', `/zones/${writeZones[c % WRITE_ZONES]!}/rrsets/A/c${c}`, { ttl: 300, rdata: ['10.1.0.0'] })
    if (res.status !== 201) throw new Error(`rrset c${c}: ${res.status} ${await res.text()}`)
    await res.arrayBuffer()
  }
  const res = await api(z, 'POST', '/zones/export', { zoneNames: [writeZones[0]] })
  const taskId = res.headers.get('x-task-id')
  if (res.status !== 202 || taskId === null) throw new Error(`export: ${res.status} ${await res.text()}`)
  await waitTask(z, taskId)
  return { writeZones, taskId }
}

async function runLoad (z: ZonalProcess, writeZones: string[], taskId: string, application?: string): Promise<{ result: LoadResult, cpu: Cpu }> {
  const settings = { base: z.base, token: z.token, clients: CLIENTS, warmupSeconds: WARMUP, seconds: SECONDS, readZone: READ_ZONE, readNames: READ_RECORDS - 3, writeZones, taskId }
  const child = spawn(process.execPath, [join(root, 'bench/load/client.ts'), JSON.stringify(settings)], { stdio: ['ignore', 'pipe', 'inherit'] })
  const line = new Promise<string>(resolve => { createInterface({ input: child.stdout }).once('line', resolve) })
  const exited = once(child, 'exit') as Promise<[number | null]>
  // CPU used from the end of the warm-up to the end of the measured seconds.
  const sample = async (): Promise<{ server: number, client: number, database: Map<number, number> }> => {
    const pids = application === undefined ? [] : await backends(application)
    return { server: cpuSeconds(z.child.pid!), client: cpuSeconds(child.pid!), database: new Map(pids.map(p => [p, cpuSeconds(p)])) }
  }
  await sleep(WARMUP * 1000)
  const a = await sample()
  await sleep(SECONDS * 1000)
  const b = await sample()
  const [code] = await exited
  if (code !== 0) throw new Error(`load client exited ${String(code)}`)
  let database = 0
  for (const [pid, t] of b.database) database += t - (a.database.get(pid) ?? 0)
  return { result: JSON.parse(await line) as LoadResult, cpu: { server: b.server - a.server, client: b.client - a.client, database } }
}

/** A fresh schema for `fn`, dropped after it; connections made with the URL are named after it. */
async function withPgSchema<T> (fn: (url: string, application: string) => Promise<T>): Promise<T> {
  const schema = `bench_load_${process.pid}`
  const admin = new pg.Client({ connectionString: PG_URL })
  await admin.connect()
  try {
    await admin.query(`drop schema if exists "${schema}" cascade`)
    const url = new URL(PG_URL)
    url.searchParams.set('schema', schema)
    url.searchParams.set('application_name', schema)
    return await fn(url.toString(), schema)
  } finally {
    await admin.query(`drop schema if exists "${schema}" cascade`).catch(() => {})
    await admin.end()
  }
}

async function engineRun (engine: string, databaseUrl?: string, application?: string): Promise<Row> {
  const profile = PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${join(work, `profile-${engine}`)}`] : []
  const z = await startZonalProcess(join(work, engine), { nodeArgs: [...profile, ...npmStartArgs()], ...(databaseUrl === undefined ? {} : { databaseUrl }) })
  try {
    progress(`${engine}: populating`)
    const { writeZones, taskId } = await populate(z)
    const before = loadavg()[0]!
    progress(`${engine}: ${CLIENTS} clients, ${WARMUP} + ${SECONDS} s`)
    const { result, cpu } = await runLoad(z, writeZones, taskId, application)
    return { engine, load: [before, loadavg()[0]!], result, cpu }
  } finally {
    await z.close()
  }
}

async function postgresAvailable (): Promise<boolean> {
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 })
  try {
    await c.connect()
    await c.end()
    return true
  } catch {
    return false
  }
}

mkdirSync(work, { recursive: true })
const rows: Row[] = []
const skipped: string[] = []
for (const engine of ENGINES) {
  if (engine === 'sqlite') rows.push(await engineRun('sqlite'))
  else if (engine === 'postgres') {
    if (await postgresAvailable()) rows.push(await withPgSchema(async (url, application) => await engineRun('postgres', url, application)))
    else skipped.push(`PostgreSQL skipped: nothing answers at ${PG_URL.replace(/\/\/[^@/]*@/, '//***@')}`)
  } else throw new Error(`unknown engine "${engine}" (sqlite, postgres)`)
}

const n = (x: number): string => x.toLocaleString('en-US')
const out: string[] = [
  `### API under load: ${CLIENTS} keep-alive clients, ${SECONDS} s measured after ${WARMUP} s of warm-up`,
  '',
  '| engine | requests | req/s | p50 ms | p99 ms | failed | CPU ms per request: server + database + client = total | load avg (before, after) |',
  '|---|---|---|---|---|---|---|---|'
]
const perRequest = (r: Row, s: number): string => (s * 1000 / r.result.requests).toFixed(2)
for (const r of rows) {
  const failed = Object.values(r.result.failures).reduce((a, b) => a + b, 0)
  out.push(`| ${r.engine} | ${n(r.result.requests)} | ${n(r.result.perSecond)} | ${r.result.p50} | ${r.result.p99} | ${failed} | ${perRequest(r, r.cpu.server)} + ${perRequest(r, r.cpu.database)} + ${perRequest(r, r.cpu.client)} = ${perRequest(r, r.cpu.server + r.cpu.database + r.cpu.client)} | ${r.load[0].toFixed(1)}, ${r.load[1].toFixed(1)} |`)
}
const sqlite = rows.find(r => r.engine === 'sqlite')
const postgres = rows.find(r => r.engine === 'postgres')
if (sqlite !== undefined && postgres !== undefined) {
  const total = (r: Row): number => (r.cpu.server + r.cpu.database + r.cpu.client) / r.result.requests
  out.push('', `PostgreSQL / SQLite: req/s ${(postgres.result.perSecond / sqlite.result.perSecond).toFixed(2)}, CPU per request ${(total(postgres) / total(sqlite)).toFixed(2)}, p50 ${(postgres.result.p50 / sqlite.result.p50).toFixed(2)}, p99 ${(postgres.result.p99 / sqlite.result.p99).toFixed(2)}`)
}
out.push('', '| request | ' + rows.map(r => `${r.engine} p50 / p99 ms`).join(' | ') + ' |', '|---|' + rows.map(() => '---|').join(''))
for (const kind of Object.keys(rows[0]?.result.kinds ?? {})) {
  out.push(`| ${kind} | ` + rows.map(r => `${r.result.kinds[kind]!.p50} / ${r.result.kinds[kind]!.p99}`).join(' | ') + ' |')
}
for (const r of rows) {
  if (Object.keys(r.result.failures).length > 0) out.push('', `${r.engine} failures: ${JSON.stringify(r.result.failures)}`)
}
out.push(...skipped.map(s => '\n' + s))
process.stdout.write(out.join('\n') + '\n')
if (rows.some(r => Object.keys(r.result.failures).length > 0)) process.exitCode = 1
