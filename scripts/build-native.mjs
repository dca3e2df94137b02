// Builds the project's native addons for the Node the project pins (the `node` package,
// node_modules/.bin/node), as the project's own install step (`npm install`, `npm ci`), offline:
//
// - better-sqlite3 (required). It ships Node-API builds for the common platforms (prebuilds/),
//   which load in every Node ≥ 22.14: then there is nothing to do. Elsewhere (another platform,
//   a build that does not load) it is compiled here. better-sqlite3's own install step is turned
//   off (package.json "allowScripts"): npm would compile against the headers its config names,
//   which may be another Node's (a machine's `nodedir=/usr`).
// - native/udp-batch (optional, Linux only): batched UDP socket calls for the DNS answer path.
//   Compiled when its build is missing or older than its source; a failure is reported and the
//   install goes on (the DNS server then reads UDP through node:dgram and says so at start).
//
// Both compile against the pinned Node's headers, laid out the way node-gyp expects, with the
// pinned node first on PATH. `node scripts/build-native.mjs /path/to/node` checks (and if need
// be builds) for that Node instead.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, realpathSync, rmSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'

const root = resolve(dirname(new URL(import.meta.url).pathname), '..')
const bin = join(root, 'node_modules', '.bin')
const pinnedNode = join(bin, process.platform === 'win32' ? 'node.exe' : 'node')
const pinned = process.argv[2] === undefined ? pinnedNode : resolve(process.argv[2])
const addon = join(root, 'node_modules', 'better-sqlite3')
const udpBatch = join(root, 'native', 'udp-batch')
const udpBatchBuilt = join(udpBatch, 'build', 'Release', 'udp_batch.node')

class BuildError extends Error {}
function fail (message) {
  throw new BuildError(message)
}

if (!existsSync(pinned)) {
  console.error(`build-native: no Node at ${pinned} (is the "node" dependency installed?)`)
  process.exit(1)
}

function loads () {
  const probe = "new (require('better-sqlite3'))(':memory:').close()"
  return spawnSync(pinned, ['-e', probe], { cwd: root, stdio: 'ignore' }).status === 0
}

function udpBatchLoads () {
  return spawnSync(pinned, ['-e', `require(${JSON.stringify(udpBatchBuilt)})`], { cwd: root, stdio: 'ignore' }).status === 0
}

function udpBatchCurrent () {
  if (!existsSync(udpBatchBuilt)) return false
  const built = statSync(udpBatchBuilt).mtimeMs
  return ['udp_batch.c', 'binding.gyp'].every(f => statSync(join(udpBatch, f)).mtimeMs <= built) && udpBatchLoads()
}

let headersDir
/** The pinned Node's headers in node-gyp's layout (made once). */
function headers () {
  if (headersDir !== undefined) return headersDir
  const version = spawnSync(pinned, ['-p', 'process.version'], { encoding: 'utf8' }).stdout.trim()
  // Laid out by an earlier run (before an install pruned the platform package): use it again.
  const laidOut = join(root, 'node_modules', '.node-headers', version)
  if (['include/node/node.h', 'include/node/node_api.h', 'common.gypi', 'config.gypi'].every(f => existsSync(join(laidOut, f)))) {
    headersDir = laidOut
    return laidOut
  }
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
  headersDir = headers
  return headers
}

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
/** node-gyp rebuild in `dir` against the pinned Node's headers. */
function gypRebuild (dir) {
  const gyp = nodeGyp()
  if (!gyp) fail('node-gyp not found (it comes with npm; run through `npm install` or `npm rebuild`)')
  const nodedir = headers()
  const env = {
    ...process.env,
    PATH: `${dirname(pinned)}${process.platform === 'win32' ? ';' : ':'}${process.env.PATH ?? ''}`,
    npm_config_nodedir: nodedir, // over any nodedir of the user's npm config
    JOBS: process.env.JOBS ?? 'max'
  }
  const result = spawnSync(pinned, [gyp, 'rebuild', '--release', '--force_build=1', `--nodedir=${nodedir}`], { cwd: dir, env, stdio: 'inherit' })
  if (result.status !== 0) fail(`node-gyp failed in ${dir} (${result.status ?? result.signal})`)
}

let status = 0
try {
  if (existsSync(addon) && !loads()) { // without it (e.g. --omit): nothing to build
    console.log('build-native: better-sqlite3 does not load in this Node as shipped; compiling it')
    gypRebuild(addon)
    if (!loads()) fail(`better-sqlite3 was built but does not load in ${pinned}`)
  }
} catch (err) {
  if (!(err instanceof BuildError)) throw err
  console.error(`build-native: ${err.message}`)
  status = 1
}
if (process.platform === 'linux' && existsSync(udpBatch) && !udpBatchCurrent()) {
  try {
    console.log('build-native: compiling native/udp-batch (batched UDP for DNS)')
    gypRebuild(udpBatch)
    if (!udpBatchLoads()) fail(`native/udp-batch was built but does not load in ${pinned}`)
  } catch (err) {
    if (!(err instanceof BuildError)) throw err
    rmSync(udpBatchBuilt, { force: true })
    console.error(`build-native: ${err.message}; DNS over UDP will use node:dgram (optional addon, install goes on)`)
  }
}
process.exit(status)
