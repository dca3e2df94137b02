import { pathToFileURL } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../src/app.ts'
import { AuthService, defaultAuthSettings } from '../../src/auth/auth-service.ts'
import { UserAdmin } from '../../src/auth/user-admin.ts'
import type { EngineName } from '../../src/store/engine.ts'
import { freshStore, postgresUnavailable } from '../../test/helpers/engines.ts'
import { analyze, loginToken, median } from './store-bench.ts'

/**
 * Zone list benchmark: 100,000 zones in a fresh store, then `GET /v3/zones?limit=1000` through
 * `app.inject` for the first page, a middle page and the last page (keyset cursors: the three
 * should cost the same), by NAME and by ZONE_TYPE, plus the old offset list at the same middle
 * depth for comparison; and the web console's own request (`limit=50&sort=NAME&reverse=false&
 * q=zone_status:ACTIVE`, what its zone list asks for) at its first page, at depth 50,000 (page
 * 1,001 of 2,000, reached through a cursor of the same list) and at its last page. SQLite always; PostgreSQL when it answers (a fresh schema, dropped
 * afterwards), measured right after the bulk load and again after ANALYZE.
 */
export interface ListBenchOptions {
  /** Zones to create; default 100,000 (`BENCH_ZONES`). */
  zones?: number
  /** Timed runs per request (after one warm-up); the median is reported. Default 5. */
  runs?: number
  engines?: EngineName[]
}

export interface ListBenchResult {
  engine: EngineName
  /** `fresh`: right after the bulk load; `analyzed`: PostgreSQL after ANALYZE. */
  statistics: 'fresh' | 'analyzed'
  zones: number
  /** Seconds to insert the zones (one transaction). */
  insertSeconds: number
  /** Median milliseconds per request, by label. */
  medians: { label: string, ms: number, rows: number }[]
}

const LIMIT = 1000
/** The page size of the web console's zone list (`console/src/pages/zones.tsx`). */
const CONSOLE_LIMIT = 50
const PASSWORD = 'bench password 1234'

async function timeGet (app: FastifyInstance, url: string, token: string, runs: number): Promise<{ ms: number, rows: number }> {
  const once = async (): Promise<{ ms: number, rows: number }> => {
    const start = process.hrtime.bigint()
    const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } })
    const ms = Number(process.hrtime.bigint() - start) / 1e6
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
    return { ms, rows: (res.json() as { zones: unknown[] }).zones.length }
  }
  const { rows } = await once()
  const times: number[] = []
  for (let i = 0; i < runs; i++) times.push((await once()).ms)
  return { ms: median(times), rows }
}

/** The timed requests: first, middle and last page by NAME and by ZONE_TYPE, and one offset page. */
async function timePages (app: FastifyInstance, token: string, zones: number, runs: number): Promise<ListBenchResult['medians']> {
  const medians: ListBenchResult['medians'] = []
  const add = async (label: string, u: string): Promise<void> => { medians.push({ label, ...(await timeGet(app, u, token, runs)) }) }
  const pages = Math.ceil(zones / LIMIT)
  const middle = Math.floor(pages / 2)
  for (const sort of ['NAME', 'ZONE_TYPE']) {
    const url = `/v3/zones?limit=${LIMIT}&sort=${sort}`
    const page = async (cursor?: string): Promise<{ cursorInfo: Record<string, string> }> =>
      (await app.inject({ method: 'GET', url: cursor === undefined ? url : `${url}&cursor=${cursor}`, headers: { authorization: `Bearer ${token}` } })).json()
    // The cursor of the middle page, reached by following `next` (not timed).
    const first = await page()
    let cursor = first.cursorInfo.next
    for (let i = 1; i < middle && cursor !== undefined; i++) cursor = (await page(cursor)).cursorInfo.next
    if (cursor === undefined || first.cursorInfo.last === undefined) throw new Error('the list has fewer pages than expected')
    await add(`v3 sort=${sort}: first page`, url)
    await add(`v3 sort=${sort}: middle page (${middle + 1} of ${pages}, via next)`, `${url}&cursor=${cursor}`)
    await add(`v3 sort=${sort}: last page (via last)`, `${url}&cursor=${first.cursorInfo.last}`)
  }
  await add(`v1 sort=NAME: offset ${middle * LIMIT} (OFFSET + count)`, `/v1/zones?limit=${LIMIT}&offset=${middle * LIMIT}`)

  // The console's zone list: pages of 50 with the status filter it always sends. A cursor pins
  // the sort, direction and filter but not the page size, so the deep cursor is reached by
  // following `next` through pages of 1,000 of the same list (not timed).
  const query = (limit: number): string => `/v3/zones?${new URLSearchParams({ limit: String(limit), sort: 'NAME', reverse: 'false', q: 'zone_status:ACTIVE' }).toString()}`
  const walk = async (cursor?: string): Promise<{ cursorInfo: Record<string, string> }> =>
    (await app.inject({ method: 'GET', url: cursor === undefined ? query(LIMIT) : `${query(LIMIT)}&cursor=${cursor}`, headers: { authorization: `Bearer ${token}` } })).json()
  const start = await walk()
  let deep = start.cursorInfo.next
  for (let i = 1; i < middle && deep !== undefined; i++) deep = (await walk(deep)).cursorInfo.next
  if (deep === undefined || start.cursorInfo.last === undefined) throw new Error('the console\'s list has fewer pages than expected')
  const consolePages = Math.ceil(zones / CONSOLE_LIMIT)
  const depth = middle * LIMIT
  await add(`console (limit ${CONSOLE_LIMIT}, q=zone_status:ACTIVE): first page`, query(CONSOLE_LIMIT))
  await add(`console (limit ${CONSOLE_LIMIT}, q=zone_status:ACTIVE): page ${depth / CONSOLE_LIMIT + 1} of ${consolePages} (after ${depth.toLocaleString('en-US')} zones, via next)`, `${query(CONSOLE_LIMIT)}&cursor=${deep}`)
  await add(`console (limit ${CONSOLE_LIMIT}, q=zone_status:ACTIVE): last page (via last)`, `${query(CONSOLE_LIMIT)}&cursor=${start.cursorInfo.last}`)
  return medians
}

async function benchEngine (engine: EngineName, zones: number, runs: number): Promise<ListBenchResult[]> {
  const { store, url, close } = await freshStore(engine)
  try {
    const admin = new UserAdmin(store)
    const account = await admin.addAccount('bench')
    await admin.addUser('bench', PASSWORD)
    await admin.grant('bench', 'bench', 'Owner')

    const started = process.hrtime.bigint()
    await store.transaction(async (tx) => {
      for (let i = 0; i < zones; i++) {
        await tx.zones.create({ accountId: account.id, accountNameKey: account.name_key, name: `z${String(i).padStart(6, '0')}.bench.test.`, type: i % 4 === 3 ? 'SECONDARY' : 'PRIMARY' })
      }
    })
    const insertSeconds = Number(process.hrtime.bigint() - started) / 1e9

    const auth = new AuthService(store, defaultAuthSettings)
    const app = await buildApp({ store, auth, config: { bodyLimit: 1024 * 1024, rateLimitMax: 0, rateLimitWindowSeconds: 60 } })
    try {
      const token = await loginToken(app, 'bench', PASSWORD)
      const results: ListBenchResult[] = [{ engine, statistics: 'fresh', zones, insertSeconds, medians: await timePages(app, token, zones, runs) }]
      if (engine === 'postgres') {
        await analyze(url)
        results.push({ engine, statistics: 'analyzed', zones, insertSeconds, medians: await timePages(app, token, zones, runs) })
      }
      return results
    } finally {
      await app.close()
    }
  } finally {
    await close()
  }
}

/** Run the zone list benchmark on each available engine. */
export async function benchZoneList (options: ListBenchOptions = {}): Promise<ListBenchResult[]> {
  const zones = options.zones ?? Number(process.env.BENCH_ZONES ?? 100_000)
  const runs = options.runs ?? 5
  const results: ListBenchResult[] = []
  for (const engine of options.engines ?? ['sqlite', 'postgres']) {
    if (engine === 'postgres') {
      const reason = await postgresUnavailable()
      if (reason !== undefined) {
        process.stderr.write(`postgres skipped: ${reason}\n`)
        continue
      }
    }
    results.push(...await benchEngine(engine, zones, runs))
  }
  return results
}

/** The results as a Markdown table. */
export function listBenchTable (results: ListBenchResult[]): string {
  const lines = ['| engine | statistics | zones | insert s | request | rows | median ms |', '|---|---|---|---|---|---|---|']
  for (const r of results) {
    for (const m of r.medians) {
      lines.push(`| ${r.engine} | ${r.statistics} | ${r.zones.toLocaleString('en-US')} | ${r.insertSeconds.toFixed(1)} | ${m.label} | ${m.rows} | ${m.ms.toFixed(1)} |`)
    }
  }
  return lines.join('\n') + '\n'
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const results = await benchZoneList()
  process.stdout.write(`GET /zones through app.inject, limit ${LIMIT}, median of 5 after one warm-up\n\n`)
  process.stdout.write(listBenchTable(results))
}
