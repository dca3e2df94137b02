// Builds the web console (console/, Preact + Vite) into dist/console/, which the service serves at
// /console/. Run by the project's own install step (`npm install`, `npm ci`) and by `npm start`,
// so a fresh clone serves the console after `npm install && npm start`, offline.
//
//   node scripts/build-console.mjs              build
//   node scripts/build-console.mjs --if-stale   build only when dist/console is missing or older
//                                               than a file of console/, package-lock.json or this script
//   --or-warn                                   a failed build is reported and exits 0 (npm start:
//                                               the API still starts; /console/ then says it is not built)
//   --out <dir>                                 build there instead of dist/console (tests)
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const root = resolve(dirname(new URL(import.meta.url).pathname), '..')
const source = join(root, 'console')
const outAt = process.argv.indexOf('--out')
const out = outAt > 0 && process.argv[outAt + 1] !== undefined ? resolve(process.argv[outAt + 1]) : join(root, 'dist', 'console')
const stamp = join(out, '.built')
const ifStale = process.argv.includes('--if-stale')
const orWarn = process.argv.includes('--or-warn')

/** The newest modification time among the files under `dir`. */
function newest (dir) {
  let max = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    max = Math.max(max, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }
  return max
}

function stale () {
  if (!existsSync(stamp) || !existsSync(join(out, 'index.html'))) return true
  const inputs = Math.max(newest(source), statSync(join(root, 'package-lock.json')).mtimeMs, statSync(new URL(import.meta.url)).mtimeMs)
  return inputs > statSync(stamp).mtimeMs
}

if (!existsSync(source)) process.exit(0) // a package without the console's sources
if (ifStale && !stale()) process.exit(0)

try {
  const { build } = await import('vite')
  const started = Date.now()
  await build({ configFile: join(source, 'vite.config.ts'), logLevel: 'warn', build: { outDir: out } })
  writeFileSync(stamp, `${new Date().toISOString()}\n`)
  console.log(`build-console: built ${relative(root, out) || out} in ${Date.now() - started} ms`)
} catch (err) {
  console.error(`build-console: the web console could not be built: ${err instanceof Error ? err.message : String(err)}`)
  process.exit(orWarn ? 0 : 1)
}
