import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { auditBenchTable, benchAudit } from './audit.ts'
import { benchZoneList, listBenchTable } from './list.ts'
import { benchRrsets, rrsetBenchTable } from './rrsets.ts'
import { powerDnsAvailable, startPowerDns, startZonalProcess, type PowerDns } from './servers.ts'

type Zonal = Awaited<ReturnType<typeof startZonalProcess>>

/**
 * API benchmark, Zonal side by side with PowerDNS Authoritative's REST API (gsqlite3) in one
 * run, both over real HTTP on loopback: zone creation rate, listing 10,000 zones, exporting
 * 250 zones of 1,000 records; then Zonal's keyset list pages with 100,000 zones.
 */
const root = fileURLToPath(new URL('../../', import.meta.url))
const work = join(root, 'bench', '.work', 'api')
const CREATE = Number(process.env.BENCH_CREATE ?? 1000)
const LIST_ZONES = Number(process.env.BENCH_LIST_ZONES ?? 10_000)
const EXPORT_ZONES = Number(process.env.BENCH_EXPORT_ZONES ?? 250)
const EXPORT_RECORDS = Number(process.env.BENCH_EXPORT_RECORDS ?? 1000)

const rows: string[] = []
const out = (s: string): void => { process.stdout.write(s) }

async function zonalPost (z: Zonal, path: string, body: unknown): Promise<Response> {
  return await fetch(z.base + path, { method: 'POST', headers: { authorization: `Bearer ${z.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
}

async function pdnsPost (p: PowerDns, body: unknown): Promise<Response> {
  return await fetch(`${p.base}/api/v1/servers/localhost/zones`, { method: 'POST', headers: { 'X-API-Key': p.key, 'content-type': 'application/json' }, body: JSON.stringify(body) })
}

/** Create zones `from`..`to` one request at a time; returns zones per second. */
async function createZonal (z: Zonal, from: number, to: number): Promise<number> {
  const t0 = performance.now()
  for (let i = from; i < to; i++) {
    const res = await zonalPost(z, '/zones', { properties: { name: `z${i}.bench.test.`, accountName: 'bench', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'NEW' } })
    if (res.status !== 201) throw new Error(`zonal create ${i}: ${res.status} ${await res.text()}`)
  }
  return (to - from) / ((performance.now() - t0) / 1000)
}

async function createPdns (p: PowerDns, from: number, to: number): Promise<number> {
  const t0 = performance.now()
  for (let i = from; i < to; i++) {
    const res = await pdnsPost(p, { name: `z${i}.bench.test.`, kind: 'Native', nameservers: ['ns1.zonal.test.', 'ns2.zonal.test.'] })
    if (res.status !== 201) throw new Error(`pdns create ${i}: ${res.status} ${await res.text()}`)
    await res.arrayBuffer()
  }
  return (to - from) / ((performance.now() - t0) / 1000)
}

async function timed<T> (fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now()
  const v = await fn()
  return [performance.now() - t0, v]
}

function median (values: number[]): number {
  const s = [...values].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]!
}

function zoneText (name: string, records: number): string {
  let s = `$TTL 3600\n@ IN SOA ns1.zonal.test. hostmaster.${name} 1 7200 3600 1209600 300\n@ IN NS ns1.zonal.test.\n@ IN NS ns2.zonal.test.\n`
  for (let i = 0; i < records - 3; i++) s += `h${i} IN A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}\n`
  return s
}

async function uploadZonal (z: Zonal, name: string, text: string): Promise<void> {
  const form = new FormData()
  form.append('zone', JSON.stringify({ properties: { name, accountName: 'bench', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'UPLOAD' } }))
  form.append('file', new Blob([text]), 'file')
  const res = await fetch(z.base + '/zones', { method: 'POST', headers: { authorization: `Bearer ${z.token}` }, body: form })
  if (res.status !== 201 && res.status !== 202) throw new Error(`upload ${name}: ${res.status} ${await res.text()}`)
}

async function exportZonal (z: Zonal, names: string[]): Promise<number> {
  const res = await zonalPost(z, '/zones/export', { zoneNames: names })
  const id = res.headers.get('x-task-id')
  if (res.status !== 202 || id === null) throw new Error(`export: ${res.status} ${await res.text()}`)
  const deadline = Date.now() + 600_000
  while (Date.now() < deadline) {
    const task = await (await fetch(`${z.base}/tasks/${id}`, { headers: { authorization: `Bearer ${z.token}` } })).json() as { code: string, message: string }
    if (task.code === 'COMPLETE') break
    if (task.code === 'ERROR') throw new Error(`export failed: ${task.message}`)
    await new Promise(resolve => setTimeout(resolve, 20))
  }
  if (Date.now() >= deadline) throw new Error('export did not finish within 10 minutes')
  const result = await fetch(`${z.base}/tasks/${id}/result`, { headers: { authorization: `Bearer ${z.token}` } })
  return (await result.arrayBuffer()).byteLength
}

const progress = (s: string): void => { process.stderr.write(`[api bench] ${s}\n`) }

async function main (): Promise<void> {
  const zonal = await startZonalProcess(join(work, 'zonal'))
  const pdns = powerDnsAvailable() ? await startPowerDns(join(work, 'pdns')) : undefined
  if (pdns === undefined) out('PowerDNS not installed (apt-get install pdns-server pdns-backend-sqlite3 sqlite3): Zonal only\n')
  try {
    progress(`creating ${LIST_ZONES} zones on each server`)
    // 1. Creation rate, the first CREATE zones, then up to LIST_ZONES.
    const zFirst = await createZonal(zonal, 0, CREATE)
    const pFirst = pdns === undefined ? NaN : await createPdns(pdns, 0, CREATE)
    rows.push(`| create zones 0–${CREATE} (sequential POST) | ${zFirst.toFixed(0)} zones/s | ${pFirst.toFixed(0)} zones/s | ${(zFirst / pFirst).toFixed(2)}× the rate |`)
    const zRest = await createZonal(zonal, CREATE, LIST_ZONES)
    const pRest = pdns === undefined ? NaN : await createPdns(pdns, CREATE, LIST_ZONES)
    rows.push(`| create zones ${CREATE}–${LIST_ZONES} | ${zRest.toFixed(0)} zones/s | ${pRest.toFixed(0)} zones/s | ${(zRest / pRest).toFixed(2)}× the rate |`)

    progress('listing')
    // 2. Listing LIST_ZONES zones: PowerDNS answers all at once (no paging); Zonal pages by 1,000.
    const zPage: number[] = []
    const zAll: number[] = []
    const pAll: number[] = []
    for (let run = 0; run < 5; run++) {
      let cursor: string | undefined
      let total = 0
      const t0 = performance.now()
      do {
        const url = `${zonal.base}/v3/zones?limit=1000${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`
        const [ms, body] = await timed(async () => await (await fetch(url, { headers: { authorization: `Bearer ${zonal.token}` } })).json() as { zones: unknown[], cursorInfo: { next?: string } })
        if (cursor === undefined) zPage.push(ms)
        total += body.zones.length
        cursor = body.cursorInfo.next
      } while (cursor !== undefined)
      zAll.push(performance.now() - t0)
      if (total !== LIST_ZONES) throw new Error(`zonal listed ${total} zones`)
      if (pdns !== undefined) {
        const [ms, list] = await timed(async () => await (await fetch(`${pdns.base}/api/v1/servers/localhost/zones`, { headers: { 'X-API-Key': pdns.key } })).json() as unknown[])
        if (list.length !== LIST_ZONES) throw new Error(`pdns listed ${list.length} zones`)
        pAll.push(ms)
      }
    }
    const pList = pdns === undefined ? NaN : median(pAll)
    rows.push(`| list ${LIST_ZONES} zones: one page of 1,000 (Zonal) vs all (PowerDNS) | ${median(zPage).toFixed(1)} ms | ${pList.toFixed(1)} ms | ${(median(zPage) / pList).toFixed(2)} |`)
    rows.push(`| list ${LIST_ZONES} zones: all ${LIST_ZONES / 1000} pages (Zonal) vs all (PowerDNS) | ${median(zAll).toFixed(1)} ms | ${pList.toFixed(1)} ms | ${(median(zAll) / pList).toFixed(2)} |`)

    progress(`loading ${EXPORT_ZONES} zones of ${EXPORT_RECORDS} records for the export`)
    // 3. Export EXPORT_ZONES zones of EXPORT_RECORDS records.
    const names: string[] = []
    for (let i = 0; i < EXPORT_ZONES; i++) {
      const name = `x${i}.export.test.`
      names.push(name)
      const text = zoneText(name, EXPORT_RECORDS)
      await uploadZonal(zonal, name, text)
      if (pdns !== undefined) {
        const records = text.split('\n').filter(l => l.startsWith('h')).map(l => l.split(' '))
        const res = await pdnsPost(pdns, {
          name,
          kind: 'Native',
          nameservers: ['ns1.zonal.test.', 'ns2.zonal.test.'],
          rrsets: records.map(([owner, , , value]) => ({ name: `${owner}.${name}`, type: 'A', ttl: 3600, changetype: 'REPLACE', records: [{ content: value, disabled: false }] }))
        })
        if (res.status !== 201) throw new Error(`pdns zone ${name}: ${res.status} ${await res.text()}`)
        await res.arrayBuffer()
      }
    }
    const [zExport, bytes] = await timed(async () => await exportZonal(zonal, names))
    let pExport = NaN
    if (pdns !== undefined) {
      ;[pExport] = await timed(async () => {
        for (const name of names) await (await fetch(`${pdns.base}/api/v1/servers/localhost/zones/${name}/export`, { headers: { 'X-API-Key': pdns.key } })).text()
      })
    }
    rows.push(`| export ${EXPORT_ZONES} zones × ${EXPORT_RECORDS} records (Zonal: one task, zip of ${(bytes / 1e6).toFixed(1)} MB; PowerDNS: ${EXPORT_ZONES} /export calls) | ${(zExport / 1000).toFixed(2)} s | ${(pExport / 1000).toFixed(2)} s | ${(zExport / pExport).toFixed(2)} |`)
  } finally {
    await zonal.close()
    await pdns?.close()
  }
  out('\nZonal (`zonal serve`, its own process) and PowerDNS 4.7 (gsqlite3), HTTP on loopback, one client, sequential requests\n\n')
  out('| measure | Zonal | PowerDNS | ratio (Zonal / PowerDNS) |\n|---|---|---|---|\n')
  out(rows.join('\n') + '\n')

  out('\nZonal zone list with 100,000 zones (keyset pages, app.inject, median of 5)\n\n')
  out(listBenchTable(await benchZoneList({ zones: Number(process.env.BENCH_ZONES ?? 100_000) })))

  out('\n' + rrsetBenchTable(await benchRrsets(work)))

  out('\nAudit log with 1,000,000 records (GET /reports/dns_configuration/audit, app.inject, median of 5)\n\n')
  out(auditBenchTable(await benchAudit()))
}

await main()
