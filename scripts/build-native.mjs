// Builds the native addon (better-sqlite3) for the Node the project pins (the `node` package,
// node_modules/.bin/node), offline, as the project's own install step (`npm install`, `npm ci`).
// better-sqlite3's own install script is turned off (package.json "allowScripts"): it would try
// to download a prebuilt binary, then compile against the headers npm's config points at, which
// may be another Node's (a machine's `nodedir=/usr`), giving an addon the pinned Node refuses.
// Here: lay the pinned Node's headers out the way node-gyp expects, and compile against them
// with the pinned node first on PATH. Skips the build when the addon already loads.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, realpathSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'

const root = resolve(dirname(new URL(import.meta.url).pathname), '..')
const bin = join(root, 'node_modules', '.bin')
const pinned = join(bin, process.platform === 'win32' ? 'node.exe' : 'node')
const addon = join(root, 'node_modules', 'better-sqlite3')

function fail (message) {
  console.error(`build-native: ${message}`)
  process.exit(1)
}

if (!existsSync(addon)) process.exit(0) // installed without it (e.g. --omit); nothing to build
if (!existsSync(pinned)) fail(`no pinned Node at ${pinned} (is the "node" dependency installed?)`)

function loads () {
  const probe = "new (require('better-sqlite3'))(':memory:').close()"
  return spawnSync(pinned, ['-e', probe], { cwd: root, stdio: 'ignore' }).status === 0
}

if (loads()) process.exit(0)

const version = spawnSync(pinned, ['-p', 'process.version'], { encoding: 'utf8' }).stdout.trim()
// The `node` package keeps the platform package (node-<platform>-<arch>) with the binary and the
// headers beside the binary: <pkg>/bin/node and <pkg>/include/node.
const platformPkg = dirname(dirname(realpathSync(join(root, 'node_modules', 'node', 'bin', 'node'))))
let include = join(platformPkg, 'include', 'node')
if (!existsSync(join(include, 'node.h'))) {
  const nested = join(root, 'node_modules', 'node', 'node_modules', `node-${process.platform}-${process.arch}`)
  include = join(nested, 'include', 'node')
}
if (!existsSync(join(include, 'node.h'))) fail(`no headers for the pinned Node ${version} (looked in ${include})`)

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

console.log(`build-native: compiling better-sqlite3 for Node ${version}`)
const env = {
  ...process.env,
  PATH: `${bin}${process.platform === 'win32' ? ';' : ':'}${process.env.PATH ?? ''}`,
  npm_config_nodedir: headers, // over any nodedir of the user's npm config
  JOBS: process.env.JOBS ?? 'max'
}
const result = spawnSync(pinned, [gyp, 'rebuild', '--release', `--nodedir=${headers}`], { cwd: addon, env, stdio: 'inherit' })
if (result.status !== 0) fail(`node-gyp failed (${result.status ?? result.signal})`)
if (!loads()) fail(`better-sqlite3 was built but does not load in the pinned Node ${version}`)
