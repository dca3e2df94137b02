import { pathToFileURL } from 'node:url'
import Database from 'better-sqlite3'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../src/app.ts'
import { AuthService, defaultAuthSettings } from '../../src/auth/auth-service.ts'
import { UserAdmin } from '../../src/auth/user-admin.ts'
import { parseDatabaseUrl, type EngineName } from '../../src/store/engine.ts'
import { freshStore, postgresUnavailable } from '../../test/helpers/engines.ts'
import { analyze, loginToken, median, pgClient } from './store-bench.ts'

/**
 * Audit log benchmark (issue 8): a fresh store with 1,000,000 audit records spread over the last
 * 30 days (nine in ten in the caller's account), then `GET /reports/dns_configuration/audit`
 * through `app.inject`: first pages with no filter and with filters of several selectivities,
 * the page 100 pages deep of two of them (reached by following `Link: rel="next"`; keyset, so
 * it should cost what the first page costs), CSV, and the filter list. SQLite always; PostgreSQL
 * when it answers, measured right after the bulk load and again after ANALYZE.
 */
export interface AuditBenchResult {
  engine: EngineName
  statistics: 'fresh' | 'analyzed'
  records: number
  insertSeconds: number
  medians: { label: string, ms: number, rows: number }[]
}

const PASSWORD = 'bench password 1234'
const DAY_S = 86_400
const AUDIT = '/reports/dns_configuration/audit'

/**
 * The records as one INSERT … SELECT over a generated series (`i` from 1 to n), the same values
 * on both engines: 50 users, 5 object types, 7-step change types, 5,000 names in 200 zones,
 * a comment on every 13th, times evenly spread from 30 days ago to now.
 */
function insertSql (engine: EngineName, n: number, startS: number, stepS: number, bench: string, other: string): string {
  const time = engine === 'sqlite'
    ? `strftime('%Y-%m-%dT%H:%M:%fZ', ${startS} + i * ${stepS}, 'unixepoch')`
    : `to_char(timestamp 'epoch' + (${startS} + i * ${stepS}) * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
  const series = engine === 'sqlite'
    ? `with recursive g(i) as (select 1 union all select i + 1 from g where i < ${n})`
    : `with g(i) as (select generate_series(1, ${n}))`
  return `${series}
    insert into audit_records (account_id, account_name, user_name, ip_address, object_type, change_type, object, parent, detail, change_comment, change_time)
    select case when i % 10 = 0 then '${other}' else '${bench}' end,
      case when i % 10 = 0 then 'other' else 'bench' end,
      'u' || (i % 50),
      '192.0.2.' || (i % 250),
      case i % 5 when 0 then 'ZONE' when 1 then 'A' when 2 then 'AAAA' when 3 then 'TXT' else 'RD_POOL' end,
      case i % 7 when 0 then 'ADD' when 3 then 'DELETE' when 4 then 'LOGIN' else 'MODIFY' end,
      'h' || (i % 5000) || '.z' || (i % 200) || '.bench.test.',
      'z' || (i % 200) || '.bench.test.',
      '{"changes":[{"name":"rdata","from":["192.0.2.1"],"to":["192.0.2.2"]}],"others":[]}',
      case when i % 13 = 0 then 'ticket ' || i else null end,
      ${time}
    from g`
}

async function bulkInsert (url: string, sqlText: string): Promise<void> {
  const location = parseDatabaseUrl(url)
  if (location.engine === 'sqlite') {
    const db = new Database(location.path)
    try {
      db.exec(sqlText)
    } finally {
      db.close()
    }
    return
  }
  const client = await pgClient(location)
  try {
    await client.query(sqlText)
  } finally {
    await client.end()
  }
}

/**
 * The reference a keyset page is compared with: the same page 100 read by OFFSET (what paging
 * by position would cost), as plain SQL on the same database, median of `runs`.
 */
async function offsetReference (url: string, accountId: string, runs: number): Promise<number> {
  const from = new Date(Date.now() - 30 * DAY_S * 1000).toISOString()
  const to = new Date(Date.now() + 60_000).toISOString()
  const location = parseDatabaseUrl(url)
  const times: number[] = []
  if (location.engine === 'sqlite') {
    const db = new Database(location.path, { readonly: true })
    try {
      const stmt = db.prepare("select * from audit_records where account_id = ? and change_time >= ? and change_time < ? and change_type = 'DELETE' order by change_time desc, id desc limit 50 offset 4950")
      for (let i = 0; i <= runs; i++) {
        const start = process.hrtime.bigint()
        if (stmt.all(accountId, from, to).length !== 50) throw new Error('offset reference: short page')
        if (i > 0) times.push(Number(process.hrtime.bigint() - start) / 1e6)
      }
    } finally {
      db.close()
    }
    return median(times)
  }
  const client = await pgClient(location)
  try {
    for (let i = 0; i <= runs; i++) {
      const start = process.hrtime.bigint()
      const r = await client.query("select * from audit_records where account_id = $1 and change_time >= $2 and change_time < $3 and change_type = 'DELETE' order by change_time desc, id desc limit 50 offset 4950", [accountId, from, to])
      if (r.rows.length !== 50) throw new Error('offset reference: short page')
      if (i > 0) times.push(Number(process.hrtime.bigint() - start) / 1e6)
    }
  } finally {
    await client.end()
  }
  return median(times)
}

async function get (app: FastifyInstance, token: string, url: string, accept?: string): Promise<{ ms: number, rows: number, next?: string }> {
  const start = process.hrtime.bigint()
  const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}`, ...(accept === undefined ? {} : { accept }) } })
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
  const rows = accept === 'text/csv' ? Number(res.headers.results) : url.includes('/filters') ? Object.values((res.json() as { filters: Record<string, unknown[]> }).filters).reduce((n, l) => n + l.length, 0) : (res.json() as { auditRecords: unknown[] }).auditRecords.length
  const link = /<([^>]*)>;\s*rel="next"/.exec(String(res.headers.link ?? ''))
  return { ms, rows, ...(link === null ? {} : { next: `/${link[1]!}` }) }
}

async function timeGet (app: FastifyInstance, token: string, url: string, runs: number, accept?: string): Promise<{ ms: number, rows: number }> {
  const { rows } = await get(app, token, url, accept)
  const times: number[] = []
  for (let i = 0; i < runs; i++) times.push((await get(app, token, url, accept)).ms)
  return { ms: median(times), rows }
}

/** The URL of page `n` (1-based) of a listing, by following `next` from the first page (not timed). */
async function pageUrl (app: FastifyInstance, token: string, first: string, n: number): Promise<string> {
  let url = first
  for (let i = 1; i < n; i++) {
    const { next } = await get(app, token, url)
    if (next === undefined) throw new Error(`${first} has fewer than ${n} pages`)
    url = next
  }
  return url
}

async function timeRequests (app: FastifyInstance, token: string, runs: number): Promise<AuditBenchResult['medians']> {
  const medians: AuditBenchResult['medians'] = []
  const add = async (label: string, url: string, accept?: string): Promise<void> => { medians.push({ label, ...(await timeGet(app, token, url, runs, accept)) }) }
  const q = (filter: string): string => `${AUDIT}?limit=50&filter=${encodeURIComponent(filter)}`
  const deletes = q('change_type:DELETE::date_range:30d')
  const user = q('users:u7::date_range:30d')
  await add('no filter (last 24 hours): first page', `${AUDIT}?limit=50`)
  await add('change_type:DELETE, 30 days (1 in 7): first page', deletes)
  await add('change_type:DELETE, 30 days: page 100 (via next)', await pageUrl(app, token, deletes, 100))
  await add('users:u7, 30 days (1 in 50): first page', user)
  await add('users:u7, 30 days: page 100 (via next)', await pageUrl(app, token, user, 100))
  await add('users:u7 + object_type:AAAA + change_type:ADD, 30 days (1 in 350): first page', q('users:u7::object_type:AAAA::change_type:ADD::date_range:30d'))
  await add('object_name:h42.z42.bench.test (200 records in 1,000,000): first page', q('object_name:h42.z42.bench.test::date_range:30d'))
  await add('change_comment:ticket 99999 (substring), 30 days: first page', q('change_comment:ticket 99999::date_range:30d'))
  await add('change_type:DELETE, 30 days: first page as CSV', deletes, 'text/csv')
  await add('filter list, last 24 hours', `${AUDIT}/filters`)
  await add('filter list, 30 days', `${AUDIT}/filters?dateRange=30d`)
  return medians
}

async function benchEngine (engine: EngineName, records: number, runs: number): Promise<AuditBenchResult[]> {
  const { store, url, close } = await freshStore(engine)
  try {
    const admin = new UserAdmin(store)
    const bench = await admin.addAccount('bench')
    const other = await admin.addAccount('other')
    await admin.addUser('bench', PASSWORD)
    await admin.grant('bench', 'bench', 'Owner')

    const now = Math.floor(Date.now() / 1000)
    const started = process.hrtime.bigint()
    await bulkInsert(url, insertSql(engine, records, now - 30 * DAY_S, (30 * DAY_S - 60) / records, bench.id, other.id))
    const insertSeconds = Number(process.hrtime.bigint() - started) / 1e9

    const auth = new AuthService(store, defaultAuthSettings)
    const app = await buildApp({ store, auth, config: { bodyLimit: 1024 * 1024, rateLimitMax: 0, rateLimitWindowSeconds: 60 } })
    try {
      const token = await loginToken(app, 'bench', PASSWORD)
      const measure = async (): Promise<AuditBenchResult['medians']> => {
        const medians = await timeRequests(app, token, runs)
        medians.push({ label: 'reference: change_type:DELETE page 100 by SQL OFFSET 4950 (no API)', ms: await offsetReference(url, bench.id, runs), rows: 50 })
        return medians
      }
      const results: AuditBenchResult[] = [{ engine, statistics: 'fresh', records, insertSeconds, medians: await measure() }]
      if (engine === 'postgres') {
        await analyze(url)
        results.push({ engine, statistics: 'analyzed', records, insertSeconds, medians: await measure() })
      }
      return results
    } finally {
      await app.close()
    }
  } finally {
    await close()
  }
}

/** Run the audit log benchmark on each available engine. */
export async function benchAudit (options: { records?: number, runs?: number, engines?: EngineName[] } = {}): Promise<AuditBenchResult[]> {
  const records = options.records ?? Number(process.env.BENCH_AUDIT_RECORDS ?? 1_000_000)
  const runs = options.runs ?? 5
  const results: AuditBenchResult[] = []
  const engines = options.engines ?? (process.env.BENCH_ENGINES?.split(',') as EngineName[] | undefined) ?? ['sqlite', 'postgres']
  for (const engine of engines) {
    if (engine === 'postgres') {
      const reason = await postgresUnavailable()
      if (reason !== undefined) {
        process.stderr.write(`postgres skipped: ${reason}\n`)
        continue
      }
    }
    process.stderr.write(`[audit bench] ${engine}: ${records} records\n`)
    results.push(...await benchEngine(engine, records, runs))
  }
  return results
}

/** The results as a Markdown table. */
export function auditBenchTable (results: AuditBenchResult[]): string {
  const lines = ['| engine | statistics | records | insert s | request (limit 50) | rows | median ms |', '|---|---|---|---|---|---|---|']
  for (const r of results) {
    for (const m of r.medians) {
      lines.push(`| ${r.engine} | ${r.statistics} | ${r.records.toLocaleString('en-US')} | ${r.insertSeconds.toFixed(1)} | ${m.label} | ${m.rows} | ${m.ms.toFixed(1)} |`)
    }
  }
  return lines.join('\n') + '\n'
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const results = await benchAudit()
  process.stdout.write('GET /reports/dns_configuration/audit through app.inject, median of 5 after one warm-up\n\n')
  process.stdout.write(auditBenchTable(results))
}
