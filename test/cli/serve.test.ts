import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { after, before, describe, it } from 'node:test'
import type { RunningService } from '../../src/cli/serve.ts'
import { ROOT } from '../helpers/cli.ts'
import { engineCases, freshDatabase, type TestDatabase } from '../helpers/engines.ts'
import { startTestService, type TestService } from '../helpers/service.ts'

interface LogLine { msg?: string, port?: number }

/** Start `npm start` with `env`; resolves once the HTTP port is logged. */
async function npmStart (env: Record<string, string>) {
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: { ...process.env, ZONAL_HTTP_PORT: '0', ZONAL_FORWARD_HTTP_PORT: '0', ZONAL_DNS_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true
  })
  const lines: LogLine[] = []
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
  let buffer = ''
  const port = await new Promise<number>((resolve, reject) => {
    // Not a measure of speed: a deadline so a service that never listens fails the test (and is
    // killed, so the test file ends) rather than hanging it; generous for a loaded machine.
    const timer = setTimeout(() => {
      try { process.kill(-child.pid!, 'SIGKILL') } catch {}
      reject(new Error(`no port logged; stderr: ${stderr}`))
    }, 120_000)
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString()
      let nl
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl)
        buffer = buffer.slice(nl + 1)
        try {
          const parsed = JSON.parse(line) as LogLine
          lines.push(parsed)
          if (parsed.msg === 'HTTP API listening' && typeof parsed.port === 'number') {
            clearTimeout(timer)
            resolve(parsed.port)
          }
        } catch {}
      }
    })
    child.on('exit', (code) => reject(new Error(`exited ${code} before listening: ${stderr}`)))
  })
  // 'close' waits for every process holding the output pipes: npm and the service it started.
  const closed = once(child, 'close')
  return {
    port,
    lines,
    stderr: () => stderr,
    /** SIGTERM the whole process group (npm and the service) and wait until both are gone. */
    async stop () {
      process.kill(-child.pid!, 'SIGTERM')
      await closed
    },
    /**
     * SIGTERM npm alone, as a service manager or a terminal's kill does; resolves once npm and
     * the service are both gone, and rejects (killing the group) when the service outlives npm.
     */
    async stopNpm () {
      process.kill(child.pid!, 'SIGTERM')
      const gone = await Promise.race([closed.then(() => true), new Promise<boolean>(resolve => setTimeout(() => resolve(false), 20_000).unref())])
      if (!gone) {
        process.kill(-child.pid!, 'SIGKILL')
        throw new Error('the service kept running after npm was stopped')
      }
    }
  }
}

async function token (port: number, username: string, password: string): Promise<Response> {
  return await fetch(`http://127.0.0.1:${port}/v1/authorization/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Basic Og==' },
    body: new URLSearchParams({ grant_type: 'password', username, password })
  })
}

for (const engine of await engineCases()) {
  describe(`${engine.name}: npm start`, { skip: engine.skip }, () => {
    let db: TestDatabase
    before(async () => { db = await freshDatabase(engine.name) })
    after(async () => { await db?.drop() })

    it('migrates, bootstraps the admin with a printed password, serves tokens on a free port, and shuts down cleanly', async () => {
      const service = await npmStart({ ZONAL_DATABASE_URL: db.url, ZONAL_ADMIN_PASSWORD: '', ZONAL_ADMIN_ACCOUNT: 'first-acct' })
      const printed = /Generated password \(shown only now\): (\S+)/.exec(service.stderr())
      assert.ok(printed, service.stderr())
      assert.ok(service.lines.some(l => l.msg === 'database migrated'))
      const res = await token(service.port, 'admin', printed[1]!)
      assert.equal(res.status, 200)
      const body = await res.json() as { access_token: string }
      const accounts = await fetch(`http://127.0.0.1:${service.port}/accounts`, { headers: { authorization: `Bearer ${body.access_token}` } })
      assert.equal(((await accounts.json()) as { accounts: { accountName: string }[] }).accounts[0]?.accountName, 'first-acct')
      await service.stop()
      assert.ok(service.lines.some(l => l.msg === 'shut down cleanly'), JSON.stringify(service.lines))
    })

    it('stops the service when npm alone is stopped', async () => {
      const service = await npmStart({ ZONAL_DATABASE_URL: db.url, ZONAL_ADMIN_PASSWORD: 'admin password' })
      await service.stopNpm()
      assert.ok(service.lines.some(l => l.msg === 'shut down cleanly'), JSON.stringify(service.lines))
    })

    it('does not bootstrap again on a database that has users', async () => {
      const service = await npmStart({ ZONAL_DATABASE_URL: db.url, ZONAL_ADMIN_PASSWORD: 'ignored password' })
      assert.doesNotMatch(service.stderr(), /Generated password/)
      assert.ok(!service.lines.some(l => l.msg === 'bootstrap admin created'))
      assert.equal((await token(service.port, 'admin', 'ignored password')).status, 400)
      await service.stop()
      assert.ok(service.lines.some(l => l.msg === 'shut down cleanly'))
    })
  })
}

describe('sqlite: graceful shutdown', () => {
  let running: TestService
  let service: RunningService
  before(async () => {
    running = await startTestService('admin password')
    service = running.service
  })
  after(async () => { await running?.stop() })

  it('lets an in-flight request finish, then refuses new connections', async () => {
    // A login spends tens of milliseconds in scrypt: close while it is being handled.
    const inFlight = token(service.httpPort, 'admin', 'admin password')
    // Fastify's own 'request' listener runs first: once ours fires, the request is being handled.
    await once(service.app.server, 'request')
    const closing = service.close()
    const res = await inFlight
    assert.equal(res.status, 200)
    await closing
    await assert.rejects(fetch(`http://127.0.0.1:${service.httpPort}/status`))
  })
})
