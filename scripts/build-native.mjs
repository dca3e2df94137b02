// Makes sure the native addon (better-sqlite3) loads in the Node the project pins (the `node`
// package, node_modules/.bin/node), as the project's own install step (`npm install`, `npm ci`),
// offline. better-sqlite3 ships Node-API builds for the common platforms (prebuilds/), which
// load in every Node ≥ 22.14: then there is nothing to do. Elsewhere (another platform, a build
// that does not load) it is compiled here. better-sqlite3's own install step is turned off
// (package.json "allowScripts"): npm would compile against the headers its config names, which
// may be another Node's (a machine's `nodedir=/usr`). Here: lay the pinned Node's headers out
// the way node-gyp expects, and compile against them with the pinned node first on PATH.
// `node scripts/build-native.mjs /path/to/node` checks (and if need be builds) for that Node instead.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, realpathSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'

const root = resolve(dirname(new URL(import.meta.url).pathname), '..')
const bin = join(root, 'node_modules', '.bin')
const pinnedNode = join(bin, process.platform === 'win32' ? 'node.exe' : 'node')
const pinned = process.argv[2] === undefined ? pinnedNode : resolve(process.argv[2])
const addon = join(root, 'node_modules', 'better-sqlite3')

function fail (message) {
  console.error(`build-native: ${message}`)
  process.exit(1)
}

if (!existsSync(addon)) process.exit(0) // installed without it (e.g. --omit); nothing to build
if (!existsSync(pinned)) fail(`no Node at ${pinned} (is the "node" dependency installed?)`)

function loads () {
  const probe = "new (require('better-sqlite3'))(':memory:').close()"
  return spawnSync(pinned, ['-e', probe], { cwd: root, stdio: 'ignore' }).status === 0
}

if (loads()) process.exit(0)

const version = spawnSync(pinned, ['-p', 'process.version'], { encoding: 'utf8' }).stdout.trim()
// A Node keeps its headers beside its binary: <prefix>/bin/node and <prefix>/include/node (the
// `node` package's platform package node-<platform>-<arch> too, nested in node_modules/node).
let include = join(dirname(dirname(realpathSync(pinned))), 'include', 'node')
if (!existsSync(join(include, 'node.h')) && pinned === pinnedNode) {
  const nested = join(root, 'node_modules', 'node', 'node_modules', `node-${process.platform}-${process.arch}`)
  include = join(nested, 'include', 'node')
}
if (!existsSync(join(include, 'node.h')) && pinned === pinnedNode) {
  // Gone when a later install pruned the platform package (it is not in the lockfile): fetch
  // it again from the registry, through npm, and take its headers.
  const pkg = `node-${process.platform}-${process.arch}@${version.slice(1)}`
  const fetched = join(root, 'node_modules', '.node-headers', 'fetched')
  rmSync(fetched, { recursive: true, force: true })
  mkdirSync(fetched, { recursive: true })
  const pack = spawnSync('npm', ['pack', pkg, '--silent', '--pack-destination', fetched], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
  const tarball = pack.stdout?.trim().split('\n').pop()
  if (pack.status === 0 && tarball) {
    spawnSync('tar', ['-xzf', join(fetched, tarball), '-C', fetched, 'package/include'], { stdio: 'inherit' })
    include = join(fetched, 'package', 'include', 'node')
  }
}
if (!existsSync(join(include, 'node.h'))) fail(`no headers for Node ${version} (looked in ${include})`)

// node-gyp's layout: <dir>/include/node/*.h and <dir>/common.gypi, <dir>/config.gypi.
const headers = join(root, 'node_modules', '.node-headers', version)
rmSync(headers, { recursive: true, force: true })
mkdirSync(join(headers, 'include'), { recursive: true })
cpSync(include, join(headers, 'include', 'node'), { recursive: true })
cpSync(join(include, 'common.gypi'), join(headers, 'common.gypi'))
cpSync(join(include, 'config.gypi'), join(headers, 'config.gypi'))

// node-gyp comes with npm; npm names it to lifecycle scripts, else find it beside npm itself.
function nodeGyp () {
  const candidates = []
  if (process.env.npm_config_node_gyp) candidates.push(process.env.npm_config_node_gyp)
  if (process.env.npm_execpath) {
    candidates.push(join(dirname(dirname(process.env.npm_execpath)), 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'))
  }
  for (const dir of (process.env.PATH ?? '').split(process.platform === 'win32' ? ';' : ':')) {
    const npm = join(dir, 'npm')
    if (dir && existsSync(npm)) {
      candidates.push(join(dirname(dirname(realpathSync(npm))), 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'))
    }
  }
  try {
    candidates.push(createRequire(join(root, 'package.json')).resolve('node-gyp/bin/node-gyp.js'))
  } catch {}
  return candidates.find(path => existsSync(path))
}
const gyp = nodeGyp()
if (!gyp) fail('node-gyp not found (it comes with npm; run through `npm install` or `npm rebuild`)')

console.log(`build-native: better-sqlite3 does not load in Node ${version} as shipped; compiling it`)
const env = {
  ...process.env,
  PATH: `${dirname(pinned)}${process.platform === 'win32' ? ';' : ':'}${process.env.PATH ?? ''}`,
  npm_config_nodedir: headers, // over any nodedir of the user's npm config
  JOBS: process.env.JOBS ?? 'max'
}
const result = spawnSync(pinned, [gyp, 'rebuild', '--release', '--force_build=1', `--nodedir=${headers}`], { cwd: addon, env, stdio: 'inherit' })
if (result.status !== 0) fail(`node-gyp failed (${result.status ?? result.signal})`)
if (!loads()) fail(`better-sqlite3 was built but does not load in Node ${version} (${pinned})`)
