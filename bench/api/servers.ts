import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { join } from 'node:path'
import { execFileSync } from 'node:child_process'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../src/app.ts'
import { AuthService } from '../../src/auth/auth-service.ts'
import { UserAdmin } from '../../src/auth/user-admin.ts'
import { openStore } from '../../src/store/open-store.ts'
import type { Store } from '../../src/store/store.ts'
import { taskHandlers } from '../../src/tasks/jobs/index.ts'
import { TaskRunner } from '../../src/tasks/runner.ts'

/** A free TCP port on loopback. */
export async function freePort (): Promise<number> {
  const server = createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  await new Promise<void>(resolve => server.close(() => resolve()))
  return port
}

export interface Zonal {
  base: string
  token: string
  store: Store
  app: FastifyInstance
  close (): Promise<void>
}

/** Zonal's HTTP API on 127.0.0.1 (port 0) over a fresh SQLite file, with one Owner user. */
export async function startZonal (dir: string): Promise<Zonal> {
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const store = await openStore(`sqlite:${join(dir, 'zonal.db')}`)
  await store.migrate()
  const admin = new UserAdmin(store)
  await admin.addAccount('bench')
  await admin.addUser('bench', 'bench password')
  await admin.grant('bench', 'bench', 'Owner')
  const auth = new AuthService(store)
  const tasks = new TaskRunner(store, taskHandlers(), { workerId: 'bench' })
  const app = await buildApp({ store, auth, config: { bodyLimit: 64 << 20, rateLimitMax: 0, rateLimitWindowSeconds: 60 }, tasks })
  await app.listen({ host: '127.0.0.1', port: 0 })
  tasks.start()
  const { accessToken } = await auth.login('bench', 'bench password', '127.0.0.1')
  return {
    base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    token: accessToken,
    store,
    app,
    async close () {
      await app.close()
      await tasks.stop()
      await store.close()
    }
  }
}

/** A `zonal serve` process started by {@link startZonalProcess}. */
export interface ZonalProcess {
  base: string
  token: string
  dnsPort: number
  child: ChildProcess
  close (): Promise<void>
}

/**
 * The node arguments of `npm start` (package.json's start script: `[exec] node <args>`, after
 * the steps before it joined by `&&`, such as the console's build, which a benchmark does not need).
 */
export function npmStartArgs (): string[] {
  const root = new URL('../../', import.meta.url).pathname
  const script = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start
  const words = script.split('&&').at(-1)!.trim().split(/\s+/)
  if (words[0] === 'exec') words.shift()
  if (words.shift() !== 'node' || words.some(w => /[;&|<>$`'"]/.test(w))) throw new Error(`cannot run the start script "${script}" without a shell`)
  return words
}

/**
 * Zonal as it runs in production: `zonal serve` in its own process (no rate limit) over a fresh
 * SQLite file, so the benchmark client does not share its thread. `nodeArgs` are the node
 * arguments before the script (default: none; the latency benchmark passes `npm start`'s),
 * `dnsPort` the DNS port (default: one picked by the service), `databaseUrl` the database
 * (default: a SQLite file in `dir`) and `env` more settings.
 */
export async function startZonalProcess (dir: string, opts: { nodeArgs?: string[], dnsPort?: number, databaseUrl?: string, env?: Record<string, string> } = {}): Promise<ZonalProcess> {
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const root = new URL('../../', import.meta.url).pathname
  const port = await freePort()
  const args = opts.nodeArgs ?? [join(root, 'src/main.ts'), 'serve']
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      ZONAL_DATABASE_URL: opts.databaseUrl ?? `sqlite:${join(dir, 'zonal.db')}`,
      ZONAL_HTTP_PORT: String(port),
      ZONAL_DNS_PORT: String(opts.dnsPort ?? 0),
      ZONAL_ADMIN_ACCOUNT: 'bench',
      ZONAL_ADMIN_USERNAME: 'bench',
      ZONAL_ADMIN_PASSWORD: 'bench password',
      ZONAL_RATE_LIMIT_MAX: '0',
      ZONAL_LOG_LEVEL: 'warn',
      ...opts.env
    }
  })
  const base = `http://127.0.0.1:${port}`
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`zonal serve exited ${child.exitCode}`)
    try {
      if ((await fetch(`${base}/status`)).ok) break
    } catch {}
    if (i > 300) throw new Error('zonal serve did not start')
    await new Promise(resolve => setTimeout(resolve, 100))
  }
  const res = await fetch(`${base}/authorization/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password', username: 'bench', password: 'bench password' }) })
  const { accessToken } = await res.json() as { accessToken: string }
  return {
    base,
    token: accessToken,
    dnsPort: opts.dnsPort ?? 0,
    child,
    async close () {
      if (child.exitCode !== null) return
      child.kill('SIGTERM')
      await new Promise(resolve => child.once('exit', resolve))
    }
  }
}

export interface PowerDns {
  base: string
  key: string
  close (): Promise<void>
}

export function powerDnsAvailable (): boolean {
  try {
    execFileSync('sh', ['-c', 'command -v pdns_server && test -f /usr/share/doc/pdns-backend-sqlite3/schema.sqlite3.sql && command -v sqlite3'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/**
 * PowerDNS Authoritative (gsqlite3 backend) with its HTTP API, DNS and web server on loopback
 * ports of its own, in a fresh folder; as measured in reference/perf-anchors.md.
 */
export async function startPowerDns (dir: string): Promise<PowerDns> {
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const db = join(dir, 'pdns.sqlite3')
  execFileSync('sh', ['-c', `sqlite3 ${db} < /usr/share/doc/pdns-backend-sqlite3/schema.sqlite3.sql`])
  const [dnsPort, apiPort] = [await freePort(), await freePort()]
  const key = 'benchkey'
  writeFileSync(join(dir, 'pdns.conf'), [
    'launch=gsqlite3',
    `gsqlite3-database=${db}`,
    'local-address=127.0.0.1',
    `local-port=${dnsPort}`,
    'api=yes',
    `api-key=${key}`,
    'webserver=yes',
    'webserver-address=127.0.0.1',
    `webserver-port=${apiPort}`,
    'webserver-allow-from=127.0.0.0/8',
    'guardian=no',
    'daemon=no',
    'disable-syslog=yes',
    'loglevel=3',
    `socket-dir=${dir}`,
    ''
  ].join('\n'))
  const child: ChildProcess = spawn('pdns_server', [`--config-dir=${dir}`], { stdio: 'ignore' })
  const base = `http://127.0.0.1:${apiPort}`
  for (let i = 0; i < 100; i++) {
    try {
      const res = await fetch(`${base}/api/v1/servers/localhost`, { headers: { 'X-API-Key': key } })
      if (res.ok) break
    } catch {}
    await new Promise(resolve => setTimeout(resolve, 100))
  }
  return {
    base,
    key,
    async close () {
      child.kill('SIGTERM')
      await new Promise(resolve => child.once('exit', resolve))
    }
  }
}

/** An API request to a {@link ZonalProcess} as its bootstrap admin (a JSON body when given). */
export async function zonalApi (z: ZonalProcess, method: string, path: string, body?: unknown): Promise<Response> {
  return await fetch(z.base + path, { method, headers: { authorization: `Bearer ${z.token}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
}

/** Wait for a task of a {@link ZonalProcess} to complete (polling every 50 ms); its ERROR fails. */
export async function waitZonalTask (z: ZonalProcess, id: string, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const task = await (await zonalApi(z, 'GET', `/tasks/${id}`)).json() as { code: string, message: string }
    if (task.code === 'COMPLETE') return
    if (task.code === 'ERROR') throw new Error(`task ${id} failed: ${task.message}`)
    await new Promise(resolve => setTimeout(resolve, 50))
  }
  throw new Error(`task ${id} did not finish within ${timeoutMs / 1000} s`)
}

/** Upload a zone file to a {@link ZonalProcess} (account `bench`); waits for the task when it makes one. */
export async function uploadZonal (z: ZonalProcess, name: string, text: string): Promise<void> {
  const form = new FormData()
  form.append('zone', JSON.stringify({ properties: { name, accountName: 'bench', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'UPLOAD' } }))
  form.append('file', new Blob([text]), 'file')
  const res = await fetch(z.base + '/zones', { method: 'POST', headers: { authorization: `Bearer ${z.token}` }, body: form })
  if (res.status !== 201 && res.status !== 202) throw new Error(`upload ${name}: ${res.status} ${await res.text()}`)
  await res.arrayBuffer()
  const id = res.headers.get('x-task-id')
  if (res.status === 202 && id !== null) await waitZonalTask(z, id)
}
