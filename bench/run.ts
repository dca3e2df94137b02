// `npm run bench [-- name…]`: runs the named benchmarks (all by default), each a script in bench/<name>/run.ts.
import { spawnSync } from 'node:child_process'
import { readdirSync, statSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('./', import.meta.url))
const all = readdirSync(root).filter(d => statSync(join(root, d)).isDirectory() && existsSync(join(root, d, 'run.ts'))).sort()
const chosen = process.argv.slice(2).length > 0 ? process.argv.slice(2) : all
let failed = false
for (const name of chosen) {
  if (!all.includes(name)) {
    process.stderr.write(`unknown benchmark "${name}"; available: ${all.join(', ')}\n`)
    process.exit(2)
  }
  process.stdout.write(`\n## ${name}\n\n`)
  const r = spawnSync(process.execPath, [join(root, name, 'run.ts')], { stdio: 'inherit' })
  if (r.status !== 0) failed = true
}
process.exit(failed ? 1 : 0)
