import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runProcess, type ProcessResult } from './process.ts'

/**
 * The real Python clients of the UltraDNS API for interop tests: the official client
 * (`ultra_rest_client`) and octoDNS with its UltraDNS provider. No registry this project reaches
 * carries them, so tests read their sources from `ZONAL_TEST_CLIENTS_DIR`: a folder holding each
 * repository as `<owner>+<name>/repo` (a git directory, bare or with `.git`) or as a plain checkout
 * `<name>/`. Their Python dependencies come from Debian (python3-requests, python3-yaml,
 * python3-dnspython, python3-natsort, python3-dateutil, python3-idna; `.ci/run` installs them) and
 * run on Debian's `/usr/bin/python3`. Anything missing skips the tests with a visible line.
 */
export const CLIENTS_DIR = process.env.ZONAL_TEST_CLIENTS_DIR ?? ''
export const PYTHON = process.env.ZONAL_TEST_PYTHON ?? '/usr/bin/python3'

/** A client repository and the folder inside it that goes on `PYTHONPATH`. */
interface ClientSource { repo: string, pathEntry: string }

export const ULTRA_REST_CLIENT: ClientSource[] = [{ repo: 'ultradns/python_rest_api_client', pathEntry: 'src' }]
export const OCTODNS_ULTRA: ClientSource[] = [
  { repo: 'octodns/octodns', pathEntry: '' },
  { repo: 'octodns/octodns-ultra', pathEntry: '' },
  { repo: 'ypcrts/fqdn', pathEntry: '' }
]

const PY_MODULES: Record<string, string[]> = {
  'ultradns/python_rest_api_client': ['requests'],
  'octodns/octodns': ['yaml', 'dns', 'natsort', 'dateutil', 'idna'],
  'octodns/octodns-ultra': ['requests']
}

function gitDirOf (repo: string): string | undefined {
  const base = join(CLIENTS_DIR, repo.replace('/', '+'), 'repo')
  if (existsSync(join(base, '.git'))) return join(base, '.git')
  if (existsSync(join(base, 'HEAD'))) return base
  return undefined
}

/**
 * The sources of `repo` as a folder: a plain checkout as it is, a git repository's HEAD extracted
 * once into a cache under the system's temporary folder (keyed by commit).
 */
function sourceFolder (repo: string): string | undefined {
  if (CLIENTS_DIR === '') return undefined
  const checkout = join(CLIENTS_DIR, repo.split('/')[1]!)
  if (existsSync(checkout) && !existsSync(join(checkout, 'repo'))) return checkout
  const gitDir = gitDirOf(repo)
  if (gitDir === undefined) return undefined
  const head = spawnSync('git', ['--git-dir', gitDir, 'rev-parse', 'HEAD'], { encoding: 'utf8' })
  if (head.status !== 0) return undefined
  const into = join(tmpdir(), 'zonal-test-clients', `${repo.replace('/', '+')}-${head.stdout.trim()}`)
  if (existsSync(into)) return into
  const part = `${into}.${process.pid}.part`
  mkdirSync(part, { recursive: true })
  const archive = spawnSync('sh', ['-c', `git --git-dir="${gitDir}" archive HEAD | tar -x -C "${part}"`])
  if (archive.status !== 0) {
    rmSync(part, { recursive: true, force: true })
    return undefined
  }
  try {
    renameSync(part, into)
  } catch {
    rmSync(part, { recursive: true, force: true }) // another test process extracted it first
  }
  return into
}

export interface PythonClients {
  /** `PYTHONPATH` holding every source asked for. */
  pythonPath: string
}

/**
 * The clients' sources and a Python that imports their dependencies, or the reason they are not
 * here (printed as `# client interop SKIPPED: …`, for node:test's `skip`).
 */
export function pythonClients (sources: ClientSource[]): PythonClients | { skip: string } {
  const skip = (reason: string): { skip: string } => {
    console.log(`# client interop SKIPPED: ${reason}`)
    return { skip: reason }
  }
  if (CLIENTS_DIR === '') return skip('ZONAL_TEST_CLIENTS_DIR is not set (a folder with the client repositories)')
  const entries: string[] = []
  for (const s of sources) {
    const folder = sourceFolder(s.repo)
    if (folder === undefined) return skip(`${s.repo} not found in ${CLIENTS_DIR}`)
    entries.push(s.pathEntry === '' ? folder : join(folder, s.pathEntry))
  }
  const modules = [...new Set(sources.flatMap(s => PY_MODULES[s.repo] ?? []))]
  const probe = spawnSync(PYTHON, ['-c', modules.map(m => `import ${m}`).join('; ') || 'pass'], { encoding: 'utf8' })
  if (probe.error !== undefined || probe.status !== 0) {
    return skip(`${PYTHON} cannot import ${modules.join(', ')} (Debian python3-requests python3-yaml python3-dnspython python3-natsort python3-dateutil python3-idna)`)
  }
  return { pythonPath: entries.join(':') }
}

/**
 * Run Python `args` (a script file or `-c`, `-m`) with the clients on its path, without blocking
 * this process's event loop (the service under test runs in it).
 */
export async function runPython (clients: PythonClients, args: string[], opts: { cwd?: string, env?: Record<string, string> } = {}): Promise<ProcessResult> {
  return await runProcess(PYTHON, args, {
    ...(opts.cwd === undefined ? {} : { cwd: opts.cwd }),
    env: { ...process.env, PYTHONPATH: clients.pythonPath, PYTHONDONTWRITEBYTECODE: '1', ...opts.env }
  })
}
