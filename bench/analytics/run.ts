// `npm run bench -- analytics`: the parts named in BENCH_ANALYTICS_PARTS (default
// `sinks,capture,reports`), each a script of this folder run in its own process:
// - sinks.ts: the capture's sinks in process (cost per query, flush times);
// - capture.ts: the whole service answering dnsperf with ZONAL_ANALYTICS on and off, alternated;
// - reports.ts: report compute times over 1,000 zones × 90 days of counts, SQLite and PostgreSQL.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = fileURLToPath(new URL('./', import.meta.url))
const PARTS = (process.env.BENCH_ANALYTICS_PARTS ?? 'sinks,capture,reports').split(',').map(s => s.trim()).filter(s => s !== '')
let failed = false
for (const part of PARTS) {
  if (!['sinks', 'capture', 'reports'].includes(part)) {
    process.stderr.write(`unknown part "${part}" (sinks, capture, reports)\n`)
    process.exit(2)
  }
  process.stdout.write(`\n### ${part}\n\n`)
  const r = spawnSync(process.execPath, [join(here, `${part}.ts`)], { stdio: 'inherit' })
  if (r.status !== 0) failed = true
}
process.exit(failed ? 1 : 0)
