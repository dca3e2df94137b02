import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { StoredRrset } from '../../src/store/store.ts'
import { canonicalSortKey, parseName } from '../../src/zone/name.ts'
import { formatRdata, parseRdata, tokenize } from '../../src/zone/rdata/index.ts'
import { powerDnsAvailable, startPowerDns, startZonal, type PowerDns, type Zonal } from './servers.ts'

/**
 * Rrset benchmark (issue 5): a zone of 1,000,000 records (SOA, 2 NS, 999,997 A rrsets) loaded
 * straight into a fresh Zonal store and into PowerDNS's gsqlite3 database, then over real HTTP
 * on loopback, one client, sequential requests: rrset creates, reads of one rrset by type and
 * owner, and changes of one rrset. Zonal: `POST`, `GET …/rrsets/A/{owner}`, `PATCH`; PowerDNS:
 * `PATCH` with a REPLACE of a new rrset, `GET /zones/{z}` (with `rrset_name`/`rrset_type` when
 * the server honours them), `PATCH` with a REPLACE of an existing rrset. PowerDNS's operations
 * take seconds at this size, so only a few are timed.
 */
const ZONE = 'big.bench.test.'
const RECORDS = Number(process.env.BENCH_RRSET_RECORDS ?? 1_000_000)
const ZONAL_OPS = Number(process.env.BENCH_RRSET_OPS ?? 200)
const PDNS_OPS = Number(process.env.BENCH_RRSET_PDNS_OPS ?? 5)
const LOAD_BATCH = 50_000

export interface RrsetBenchRow {
  label: string
  zonal: Timing
  pdns?: Timing
  /** What PowerDNS did for this row when it differs from the label. */
  pdnsNote?: string
}

interface Timing {
  ops: number
  seconds: number
  medianMs: number
}

function median (values: number[]): number {
  const s = [...values].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

/** Run `op(i)` for i in [0, n) one after another; ops/s over the whole run and the median latency. */
async function timeOps (n: number, op: (i: number) => Promise<void>): Promise<Timing> {
  const times: number[] = []
  const t0 = performance.now()
  for (let i = 0; i < n; i++) {
    const s = performance.now()
    await op(i)
    times.push(performance.now() - s)
  }
  const seconds = (performance.now() - t0) / 1000
  return { ops: n / seconds, seconds, medianMs: median(times) }
}

const address = (i: number): string => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`
/** A host of the loaded zone, spread over the whole zone. */
const host = (i: number): number => (i * 7919 + 13) % (RECORDS - 3)

/** The zone straight into the store: one zone row, rrsets in transactions of 50,000. */
async function loadZonal (z: Zonal): Promise<number> {
  const t0 = performance.now()
  const account = (await z.store.accounts.findByName('bench'))!
  const origin = parseName(ZONE)
  const zone = await z.store.zones.create({ accountId: account.id, accountNameKey: account.name_key, name: ZONE, type: 'PRIMARY', serial: 2026010100 })
  const soa = parseRdata(6, tokenize('ns1.zonal.test. hostmaster.big.bench.test. 2026010100 7200 3600 1209600 300'), { origin })
  const apex = canonicalSortKey(origin)
  const ns = ['ns1.zonal.test.', 'ns2.zonal.test.']
  let batch: StoredRrset[] = [
    { ownerKey: apex, ownerName: ZONE, type: 6, ttl: 86400, rdata: [soa], rdataText: [formatRdata(6, soa)], profile: null },
    { ownerKey: apex, ownerName: ZONE, type: 2, ttl: 86400, rdata: ns.map(n => parseName(n)), rdataText: ns, profile: null }
  ]
  const flush = async (): Promise<void> => {
    const rows = batch
    batch = []
    await z.store.transaction(async (tx) => { await tx.rrsets.insertMany(zone.id, rows) })
  }
  for (let i = 0; i < RECORDS - 3; i++) {
    const owner = `h${i}.${ZONE}`
    batch.push({ ownerKey: canonicalSortKey(parseName(owner)), ownerName: owner, type: 1, ttl: 3600, rdata: [Uint8Array.of(10, (i >> 16) & 255, (i >> 8) & 255, i & 255)], rdataText: [address(i)], profile: null })
    if (batch.length >= LOAD_BATCH) await flush()
  }
  await flush()
  await z.store.zones.update(zone.id, { record_count: RECORDS })
  return (performance.now() - t0) / 1000
}

/** PowerDNS: the zone through its API (SOA and NS), then the A records with one SQL insert. */
async function loadPdns (p: PowerDns, db: string): Promise<number> {
  const t0 = performance.now()
  const res = await fetch(`${p.base}/api/v1/servers/localhost/zones`, {
    method: 'POST',
    headers: { 'X-API-Key': p.key, 'content-type': 'application/json' },
    body: JSON.stringify({ name: ZONE, kind: 'Native', nameservers: ['ns1.zonal.test.', 'ns2.zonal.test.'] })
  })
  if (res.status !== 201) throw new Error(`pdns zone: ${res.status} ${await res.text()}`)
  await res.arrayBuffer()
  const name = ZONE.slice(0, -1)
  execFileSync('sqlite3', [db, `
    pragma busy_timeout = 10000;
    with recursive n(i) as (select 0 union all select i + 1 from n where i < ${RECORDS - 4})
    insert into records (domain_id, name, type, content, ttl, prio, disabled, auth)
    select (select id from domains where name = '${name}'), 'h' || i || '.${name}', 'A',
           '10.' || ((i >> 16) & 255) || '.' || ((i >> 8) & 255) || '.' || (i & 255), 3600, 0, 0, 1 from n;
  `])
  const count = execFileSync('sqlite3', [db, 'select count(*) from records']).toString().trim()
  if (Number(count) !== RECORDS) throw new Error(`pdns holds ${count} records, not ${RECORDS}`)
  return (performance.now() - t0) / 1000
}

async function zonalCall (z: Zonal, method: string, path: string, body?: unknown): Promise<Response> {
  return await fetch(z.base + path, {
    method,
    headers: { authorization: `Bearer ${z.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
}

async function expectStatus (res: Response, status: number, what: string): Promise<unknown> {
  const text = await res.text()
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${text.slice(0, 300)}`)
  return text === '' ? undefined : JSON.parse(text)
}

async function pdnsPatch (p: PowerDns, owner: string, content: string): Promise<void> {
  const res = await fetch(`${p.base}/api/v1/servers/localhost/zones/${ZONE}`, {
    method: 'PATCH',
    headers: { 'X-API-Key': p.key, 'content-type': 'application/json' },
    body: JSON.stringify({ rrsets: [{ name: owner, type: 'A', ttl: 300, changetype: 'REPLACE', records: [{ content, disabled: false }] }] })
  })
  if (res.status !== 204) throw new Error(`pdns PATCH ${owner}: ${res.status} ${await res.text()}`)
}

/** GET of one rrset's zone with the rrset filters; returns how many rrsets came back. */
async function pdnsGet (p: PowerDns, owner: string): Promise<number> {
  const res = await fetch(`${p.base}/api/v1/servers/localhost/zones/${ZONE}?rrsets=true&rrset_name=${owner}&rrset_type=A`, { headers: { 'X-API-Key': p.key } })
  if (res.status !== 200) throw new Error(`pdns GET: ${res.status} ${(await res.text()).slice(0, 300)}`)
  const zone = await res.json() as { rrsets: unknown[] }
  return zone.rrsets.length
}

/** Load both servers, time the operations; Zonal only when PowerDNS is not installed. */
export async function benchRrsets (work: string): Promise<{ rows: RrsetBenchRow[], loads: string[] }> {
  const zonal = await startZonal(join(work, 'rrsets-zonal'))
  const pdns = powerDnsAvailable() ? await startPowerDns(join(work, 'rrsets-pdns')) : undefined
  const loads: string[] = []
  const rows: RrsetBenchRow[] = []
  try {
    loads.push(`Zonal: ${RECORDS.toLocaleString('en-US')} records into a fresh SQLite store (insertMany, ${LOAD_BATCH.toLocaleString('en-US')} per transaction) in ${(await loadZonal(zonal)).toFixed(1)} s`)
    if (pdns !== undefined) loads.push(`PowerDNS: the same zone into gsqlite3 (API for SOA/NS, one SQL insert for the A records) in ${(await loadPdns(pdns, join(work, 'rrsets-pdns', 'pdns.sqlite3'))).toFixed(1)} s`)
    const zone = `/zones/${ZONE}/rrsets`

    const create = await timeOps(ZONAL_OPS, async (i) => { await expectStatus(await zonalCall(zonal, 'POST', `${zone}/A/new${i}`, { ttl: 300, rdata: [`192.0.2.${i % 250}`] }), 201, 'zonal POST') })
    const read = await timeOps(ZONAL_OPS, async (i) => {
      const body = await expectStatus(await zonalCall(zonal, 'GET', `${zone}/A/h${host(i)}`), 200, 'zonal GET') as { rrSets: unknown[] }
      if (body.rrSets.length !== 1) throw new Error('zonal GET: not one rrset')
    })
    const patch = await timeOps(ZONAL_OPS, async (i) => { await expectStatus(await zonalCall(zonal, 'PATCH', `${zone}/A/h${host(i + 1000)}`, { rdata: [`192.0.2.${i % 250}`] }), 200, 'zonal PATCH') })
    const firstPage = await timeOps(5, async () => { await expectStatus(await zonalCall(zonal, 'GET', `${zone}?limit=100`), 200, 'zonal list') })
    const deepPage = await timeOps(5, async () => { await expectStatus(await zonalCall(zonal, 'GET', `${zone}?limit=100&offset=${Math.floor(RECORDS / 2)}`), 200, 'zonal list') })
    const serial = ((await expectStatus(await zonalCall(zonal, 'GET', `${zone}/SOA/@`), 200, 'zonal SOA')) as { rrSets: { rdata: string[] }[] }).rrSets[0]!.rdata[0]!.split(' ')[2]

    let pCreate: Timing | undefined
    let pRead: Timing | undefined
    let pPatch: Timing | undefined
    let readNote: string | undefined
    if (pdns !== undefined) {
      pCreate = await timeOps(PDNS_OPS, async (i) => { await pdnsPatch(pdns, `new${i}.${ZONE}`, `192.0.2.${i}`) })
      const returned = await pdnsGet(pdns, `h${host(0)}.${ZONE}`)
      readNote = returned === 1 ? 'GET zone with rrset_name and rrset_type' : `GET zone: rrset_name/rrset_type not supported by this version, the whole zone (${returned.toLocaleString('en-US')} rrsets) comes back`
      pRead = await timeOps(returned === 1 ? PDNS_OPS * 4 : 3, async (i) => { await pdnsGet(pdns, `h${host(i)}.${ZONE}`) })
      pPatch = await timeOps(PDNS_OPS, async (i) => { await pdnsPatch(pdns, `h${host(i + 1000)}.${ZONE}`, `192.0.2.${i}`) })
    }
    rows.push({ label: `create an rrset (Zonal POST; PowerDNS PATCH REPLACE of a new rrset), ${ZONAL_OPS} / ${PDNS_OPS}`, zonal: create, pdns: pCreate })
    rows.push({ label: `read one rrset by type and owner (Zonal GET …/rrsets/A/{owner}), ${ZONAL_OPS} / ${pRead === undefined ? 0 : Math.round(pRead.ops * pRead.seconds)}`, zonal: read, pdns: pRead, pdnsNote: readNote })
    rows.push({ label: `change one rrset (Zonal PATCH; PowerDNS PATCH REPLACE), ${ZONAL_OPS} / ${PDNS_OPS}`, zonal: patch, pdns: pPatch })
    rows.push({ label: 'Zonal list: first page of 100 with totalCount', zonal: firstPage })
    rows.push({ label: `Zonal list: page of 100 at offset ${Math.floor(RECORDS / 2).toLocaleString('en-US')}`, zonal: deepPage })
    loads.push(`Zonal SOA serial after the ${ZONAL_OPS * 2} changes: ${serial}`)
    return { rows, loads }
  } finally {
    await zonal.close()
    await pdns?.close()
    // Close to a gigabyte of databases: not kept.
    for (const dir of ['rrsets-zonal', 'rrsets-pdns']) rmSync(join(work, dir), { recursive: true, force: true })
  }
}

/** The results as a Markdown table: ops/s, median ms, and how many times faster Zonal is. */
export function rrsetBenchTable (result: { rows: RrsetBenchRow[], loads: string[] }): string {
  const lines = [
    `Rrsets in a ${RECORDS.toLocaleString('en-US')}-record zone, HTTP on loopback, one client, sequential requests`,
    '',
    ...result.loads.map(l => `- ${l}`),
    '',
    '| operation | Zonal ops/s | Zonal median ms | PowerDNS ops/s | PowerDNS median ms | ratio (PowerDNS ms / Zonal ms) |',
    '|---|---|---|---|---|---|'
  ]
  for (const r of result.rows) {
    const p = r.pdns
    const label = r.pdnsNote === undefined ? r.label : `${r.label} — PowerDNS: ${r.pdnsNote}`
    lines.push(`| ${label} | ${r.zonal.ops.toFixed(0)} | ${r.zonal.medianMs.toFixed(2)} | ${p === undefined ? '—' : p.ops.toFixed(2)} | ${p === undefined ? '—' : p.medianMs.toFixed(0)} | ${p === undefined ? '—' : `${(p.medianMs / r.zonal.medianMs).toFixed(0)}×`} |`)
  }
  return lines.join('\n') + '\n'
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(rrsetBenchTable(await benchRrsets(join(process.cwd(), 'bench', '.work', 'api'))))
}
