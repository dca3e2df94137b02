import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdirSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { npmStartArgs, startZonalProcess, type ZonalProcess } from '../api/servers.ts'

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
 * (postgres://postgres@127.0.0.1:5432/test; a schema of its own is created and dropped).
 */
const root = fileURLToPath(new URL('../../', import.meta.url))
const work = join(root, 'bench', '.work', 'load')
const CLIENTS = Number(process.env.BENCH_LOAD_CLIENTS ?? 200)
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 15)
const WARMUP = Number(process.env.BENCH_LOAD_WARMUP ?? 3)
const ENGINES = (process.env.BENCH_LOAD_ENGINES ?? 'sqlite,postgres').split(',').map(e => e.trim()).filter(e => e !== '')
const PG_URL = process.env.BENCH_LOAD_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const READ_ZONE = 'read.load.test.'
const READ_RECORDS = 1000
const WRITE_ZONES = 20
const OTHER_ZONES = 80
const progress = (s: string): void => { process.stderr.write(`[load bench] ${s}\n`) }
const sleep = async (ms: number): Promise<void> => { await new Promise(resolve => setTimeout(resolve, ms)) }

interface KindFigures { requests: number, p50: number, p99: number }
interface LoadResult { requests: number, perSecond: number, failures: Record<string, number>, p50: number, p99: number, kinds: Record<string, KindFigures> }
interface Row { engine: string, load: [number, number], result: LoadResult }

async function api (z: ZonalProcess, method: string, path: string, body?: unknown): Promise<Response> {
  return await fetch(z.base + path, { method, headers: { authorization: `Bearer ${z.token}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
}

async function waitTask (z: ZonalProcess, id: string): Promise<void> {
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    const task = await (await api(z, 'GET', `/tasks/${id}`)).json() as { code: string, message: string }
    if (task.code === 'COMPLETE') return
    if (task.code === 'ERROR') throw new Error(`task ${id} failed: ${task.message}`)
    await sleep(50)
  }
  throw new Error(`task ${id} did not finish within 2 minutes`)
}

function zoneText (name: string, records: number): string {
  const lines = [`$TTL 3600\n@ IN SOA ns1.zonal.test. hostmaster.${name} 1 7200 3600 1209600 300\n@ IN NS ns1.zonal.test.\n@ IN NS ns2.zonal.test.`]
  for (let i = 0; i < records - 3; i++) lines.push(`h${i} IN A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`)
  return lines.join('\n') + '\n'
}

async function upload (z: ZonalProcess, name: string, text: string): Promise<void> {
  const form = new FormData()
  form.append('zone', JSON.stringify({ properties: { name, accountName: 'bench', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'UPLOAD' } }))
  form.append('file', new Blob([text]), 'file')
  const res = await fetch(z.base + '/zones', { method: 'POST', headers: { authorization: `Bearer ${z.token}` }, body: form })
  if (res.status !== 201 && res.status !== 202) throw new Error(`upload ${name}: ${res.status} ${await res.text()}`)
  await res.arrayBuffer()
  const id = res.headers.get('x-task-id')
  if (res.status === 202 && id !== null) await waitTask(z, id)
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

async function runLoad (z: ZonalProcess, writeZones: string[], taskId: string): Promise<LoadResult> {
  const settings = { base: z.base, token: z.token, clients: CLIENTS, warmupSeconds: WARMUP, seconds: SECONDS, readZone: READ_ZONE, readNames: READ_RECORDS - 3, writeZones, taskId }
  const child = spawn(process.execPath, [join(root, 'bench/load/client.ts'), JSON.stringify(settings)], { stdio: ['ignore', 'pipe', 'inherit'] })
  const line = new Promise<string>(resolve => { createInterface({ input: child.stdout }).once('line', resolve) })
  const [code] = await once(child, 'exit') as [number | null]
  if (code !== 0) throw new Error(`load client exited ${String(code)}`)
  return JSON.parse(await line) as LoadResult
}

async function withPgSchema<T> (fn: (url: string) => Promise<T>): Promise<T> {
  const schema = `bench_load_${process.pid}`
  const admin = new pg.Client({ connectionString: PG_URL })
  await admin.connect()
  try {
    await admin.query(`drop schema if exists "${schema}" cascade`)
    const url = new URL(PG_URL)
    url.searchParams.set('schema', schema)
    return await fn(url.toString())
  } finally {
    await admin.query(`drop schema if exists "${schema}" cascade`).catch(() => {})
    await admin.end()
  }
}

async function engineRun (engine: string, databaseUrl?: string): Promise<Row> {
  const z = await startZonalProcess(join(work, engine), { nodeArgs: npmStartArgs(), ...(databaseUrl === undefined ? {} : { databaseUrl }) })
  try {
    progress(`${engine}: populating`)
    const { writeZones, taskId } = await populate(z)
    const before = loadavg()[0]!
    progress(`${engine}: ${CLIENTS} clients, ${WARMUP} + ${SECONDS} s`)
    const result = await runLoad(z, writeZones, taskId)
    return { engine, load: [before, loadavg()[0]!], result }
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
    if (await postgresAvailable()) rows.push(await withPgSchema(async url => await engineRun('postgres', url)))
    else skipped.push(`PostgreSQL skipped: nothing answers at ${PG_URL.replace(/\/\/[^@/]*@/, '//***@')}`)
  } else throw new Error(`unknown engine "${engine}" (sqlite, postgres)`)
}

const n = (x: number): string => x.toLocaleString('en-US')
const out: string[] = [
  `### API under load: ${CLIENTS} keep-alive clients, ${SECONDS} s measured after ${WARMUP} s of warm-up`,
  '',
  '| engine | requests | req/s | p50 ms | p99 ms | failed | load avg (before, after) |',
  '|---|---|---|---|---|---|---|'
]
for (const r of rows) {
  const failed = Object.values(r.result.failures).reduce((a, b) => a + b, 0)
  out.push(`| ${r.engine} | ${n(r.result.requests)} | ${n(r.result.perSecond)} | ${r.result.p50} | ${r.result.p99} | ${failed} | ${r.load[0].toFixed(1)}, ${r.load[1].toFixed(1)} |`)
}
const sqlite = rows.find(r => r.engine === 'sqlite')
const postgres = rows.find(r => r.engine === 'postgres')
if (sqlite !== undefined && postgres !== undefined) {
  out.push('', `PostgreSQL / SQLite: req/s ${(postgres.result.perSecond / sqlite.result.perSecond).toFixed(2)}, p50 ${(postgres.result.p50 / sqlite.result.p50).toFixed(2)}, p99 ${(postgres.result.p99 / sqlite.result.p99).toFixed(2)}`)
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
