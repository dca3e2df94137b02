// Memory of a large zone, served and then deleted: `npm run bench -- memory` (BENCH_RECORDS to
// change the size, default 262,144, the finding's zone). The service runs in this process
// (SQLite in a temporary folder, DNS worker threads as configured by ZONAL_DNS_WORKERS, default
// 2); the zone is uploaded (a task), served, then deleted. Figures are the process's RSS and the
// main thread's heap and array buffers after a full garbage collection, at each step.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setTimeout as sleep } from 'node:timers/promises'

if (typeof globalThis.gc !== 'function') {
  const r = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url)], { stdio: 'inherit' })
  process.exit(r.status ?? 1)
}

const { loadConfig } = await import('../../src/config/config.ts')
const { startService } = await import('../../src/cli/serve.ts')
const { WORKER_IDLE_MS } = await import('../../src/util/worker-pool.ts')

const RECORDS = Number(process.env.BENCH_RECORDS ?? 262_144)
const dir = mkdtempSync(join(tmpdir(), 'zonal-mem-'))
const config = loadConfig({
  ZONAL_DATABASE_URL: `sqlite:${join(dir, 'zonal.db')}`,
  ZONAL_HTTP_PORT: '0',
  ZONAL_DNS_PORT: '0',
  ZONAL_DNS_WORKERS: process.env.ZONAL_DNS_WORKERS ?? '2',
  ZONAL_ADMIN_PASSWORD: 'bench password',
  ZONAL_ADMIN_ACCOUNT: 'bench',
  ZONAL_LOG_LEVEL: process.env.BENCH_LOG ?? 'silent',
  ZONAL_RATE_LIMIT_MAX: '0'
})
const running = await startService(config)
const base = `http://127.0.0.1:${running.httpPort}`
const token = (await (await fetch(`${base}/authorization/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password', username: 'admin', password: 'bench password' }) })).json() as { accessToken: string }).accessToken
const auth = { authorization: `Bearer ${token}` }

const mb = (n: number): string => (n / 1024 / 1024).toFixed(0)
const rows: string[] = []
async function measure (step: string): Promise<void> {
  // Idle worker-pool threads with a large heap stop after a while (src/util/worker-pool.ts):
  // measure after that.
  await sleep(2 * WORKER_IDLE_MS)
  for (let i = 0; i < 3; i++) {
    globalThis.gc!()
    await sleep(200)
  }
  const m = process.memoryUsage()
  rows.push(`| ${step} | ${mb(m.rss)} | ${mb(m.heapUsed)} | ${mb(m.arrayBuffers)} |`)
  process.stdout.write(`${step}: rss ${mb(m.rss)} MB, heap ${mb(m.heapUsed)} MB, array buffers ${mb(m.arrayBuffers)} MB\n`)
}

/** Whether the DNS server answers the last generated name (dig; an answer of one address). */
function served (name: string): boolean {
  const r = spawnSync('dig', ['+short', '+tries=1', '+time=2', '-p', String(running.dns.port), '@127.0.0.1', name, 'A'], { encoding: 'utf8' })
  return r.stdout.trim() !== ''
}

async function until (what: string, check: () => Promise<boolean> | boolean): Promise<void> {
  const end = Date.now() + 600_000
  while (!await check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await sleep(200)
  }
}

const lines = ['$TTL 3600\n@ IN SOA ns1.example.net. hostmaster.big.test. 1 7200 3600 1209600 300\n@ IN NS ns1.example.net.\n@ IN NS ns2.example.net.']
for (let i = 0; i < RECORDS - 3; i++) lines.push(`h${i} IN A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`)
const text = lines.join('\n') + '\n'
lines.length = 0
const last = `h${RECORDS - 4}.big.test.`

try {
  await measure('started, no zone')
  for (let round = 1; round <= 2; round++) {
    const form = new FormData()
    form.append('zone', new Blob([JSON.stringify({ properties: { name: 'big.test.', accountName: 'bench', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'UPLOAD' } })], { type: 'application/json' }), '')
    form.append('file', new Blob([text]), 'big.zone')
    const res = await fetch(`${base}/zones`, { method: 'POST', headers: auth, body: form })
    if (res.status !== 202 && res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`)
    await until('the zone', async () => (await fetch(`${base}/zones/big.test.`, { headers: auth })).status === 200)
    await until('DNS answers', () => served(last))
    await measure(`round ${round}: ${RECORDS.toLocaleString('en-US')} records served`)
    const del = await fetch(`${base}/zones/big.test.`, { method: 'DELETE', headers: auth })
    if (del.status !== 204) throw new Error(`delete: ${del.status} ${await del.text()}`)
    await until('DNS forgets', () => !served(last))
    await measure(`round ${round}: deleted`)
    await sleep(10_000)
    await measure(`round ${round}: deleted, 10 s later`)
    if (process.env.BENCH_SNAPSHOT !== undefined && round === 1) (await import('node:v8')).writeHeapSnapshot(process.env.BENCH_SNAPSHOT)
  }
} finally {
  await running.close()
  rmSync(dir, { recursive: true, force: true })
}
process.stdout.write(`\n| step | RSS MB | main heap MB | main array buffers MB |\n|---|---|---|---|\n${rows.join('\n')}\n`)
