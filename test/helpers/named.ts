import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createSocket } from 'node:dgram'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

/**
 * BIND `named` and `dig` for interop tests, on loopback only. Missing tools skip the tests
 * with a visible reason, except when `CI=true` or `ZONAL_TEST_REQUIRE_BIND=1`, where they fail.
 */
export const BIND_REQUIRED = process.env.CI === 'true' || process.env.ZONAL_TEST_REQUIRE_BIND === '1'

/**
 * False when every tool answers `-v`, else the reason to skip (for node:test's `skip`).
 * @throws Error when a tool is missing and BIND is required (CI).
 */
export function bindSkip (...tools: string[]): string | false {
  const missing = tools.filter(t => spawnSync(t, ['-v']).status !== 0)
  if (missing.length === 0) return false
  const reason = `${missing.join(', ')} not installed (bind9, bind9-dnsutils)`
  if (BIND_REQUIRED) throw new Error(`BIND tools are required here but ${reason}`)
  console.log(`# BIND interop SKIPPED: ${reason}`)
  return reason
}

/** A port free for both UDP and TCP on 127.0.0.1 at the time of asking. */
export async function freeDnsPort (): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const tcp = createServer()
    await new Promise<void>(resolve => tcp.listen(0, '127.0.0.1', resolve))
    const port = (tcp.address() as AddressInfo).port
    const udp = createSocket('udp4')
    const ok = await new Promise<boolean>((resolve) => {
      udp.once('error', () => resolve(false))
      udp.bind(port, '127.0.0.1', () => resolve(true))
    })
    if (ok) udp.close()
    await new Promise<void>(resolve => tcp.close(() => resolve()))
    if (ok) return port
  }
  throw new Error('no port free for both UDP and TCP')
}

export interface NamedOptions {
  /** The port to listen on (from {@link freeDnsPort}, when a peer must know it first); free by default. */
  port?: number
  /** Extra lines for the `options` block (e.g. `minimal-responses yes;`). */
  options?: string
  /**
   * The NOTIFY policy: none (the default), or `notify explicit` to these 127.0.0.1 ports only.
   */
  notifyPorts?: number[]
  /** named's debug level (`-d`): 3 logs each transfer request, the IXFR serial among them. */
  debug?: number
  /** Files written into the instance's directory before it starts (zone files), by name. */
  files?: Record<string, string>
  /** Key and zone statements. `$DIR` is replaced by the instance's directory. */
  body: string
  /** The loopback address to listen on (default 127.0.0.1; any of 127.0.0.0/8 on Linux). */
  address?: string
  /** `recursion yes` (a resolver of the test's own world, its root hints on loopback); no by default. */
  recursion?: boolean
}

export interface Named {
  port: number
  /** The instance's working directory (zone files, journals); removed by `stop`. */
  dir: string
  /** Everything named wrote to stderr (`-g` logs there) so far. */
  log (): string
  /** Resolves with the log once `pattern` matches the log from offset `from` on. */
  waitForLog (pattern: RegExp, ms?: number, from?: number): Promise<string>
  /** Ask named to load its zone files again (SIGHUP: there is no control channel); wait with `waitForLog`. */
  reload (): void
  stop (): Promise<void>
}

/**
 * The configuration every instance gets: loopback only, no recursion, no validation, no pid
 * file, no control channel, and no NOTIFY except to explicit 127.0.0.1 ports.
 */
export function namedConf (port: number, dir: string, opts: NamedOptions): string {
  const notify = opts.notifyPorts === undefined || opts.notifyPorts.length === 0
    ? 'notify no;'
    : `notify explicit; also-notify { ${opts.notifyPorts.map(p => `127.0.0.1 port ${p};`).join(' ')} };`
  const body = opts.body.replaceAll('$DIR', dir)
  if (opts.address !== undefined && !/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(opts.address)) throw new Error('named listens on loopback only')
  if (/\bforwarders\b|\bforward\b/.test(body + (opts.options ?? ''))) throw new Error('named.conf must not forward')
  if (/\bnotify\b/.test(body.replace(/\bnotify\s+no\s*;/g, '')) || /\bnotify\b/.test(opts.options ?? '')) throw new Error('NOTIFY is set by notifyPorts only')
  return `options {
  directory "${dir}";
  listen-on port ${port} { ${opts.address ?? '127.0.0.1'}; };
  listen-on-v6 { none; };
  recursion ${opts.recursion === true ? 'yes' : 'no'};
  ${notify}
  dnssec-validation no;
  pid-file none;
  session-keyfile "${join(dir, 'session.key')}";
  ${opts.options ?? ''}
};
controls { };
${body}
`
}

/**
 * Start `named -g -4` with {@link namedConf} in a fresh temporary directory, on a port free
 * for UDP and TCP; resolves once it logs "running".
 * @throws Error with named's log when it exits or does not start within 20 s.
 */
export async function startNamed (opts: NamedOptions): Promise<Named> {
  const dir = mkdtempSync(join(tmpdir(), 'zonal-named-'))
  const port = opts.port ?? await freeDnsPort()
  for (const [name, text] of Object.entries(opts.files ?? {})) writeFileSync(join(dir, name), text)
  return await runNamed(dir, port, namedConf(port, dir, opts), opts.debug)
}

/**
 * Run `named -g -4` with the configuration `conf`, written into `dir` (which `stop` removes);
 * resolves once it logs "running". For instances whose configuration {@link namedConf} does not
 * make (a forwarding resolver of the test's own world).
 * @throws Error with named's log when it exits or does not start within 20 s.
 */
export async function runNamed (dir: string, port: number, conf: string, debug?: number): Promise<Named> {
  const confPath = join(dir, 'named.conf')
  writeFileSync(confPath, conf)
  const child: ChildProcess = spawn('named', ['-g', '-4', ...(debug === undefined ? [] : ['-d', String(debug)]), '-c', confPath], { stdio: ['ignore', 'ignore', 'pipe'] })
  let text = ''
  let exited = false
  const listeners = new Set<() => void>()
  child.stderr!.on('data', (d: Buffer) => {
    text += d.toString()
    for (const l of listeners) l()
  })
  child.on('exit', () => {
    exited = true
    for (const l of listeners) l()
  })
  const waitForLog = async (pattern: RegExp, ms = 20_000, from = 0): Promise<string> => {
    await new Promise<void>((resolve, reject) => {
      const check = (): void => {
        if (pattern.test(text.slice(from))) done(resolve)
        else if (exited) done(() => reject(new Error(`named exited before logging ${pattern}:\n${text}`)))
      }
      const timer = setTimeout(() => done(() => reject(new Error(`named did not log ${pattern} within ${ms} ms:\n${text}`))), ms)
      const done = (then: () => void): void => {
        clearTimeout(timer)
        listeners.delete(check)
        then()
      }
      listeners.add(check)
      check()
    })
    return text
  }
  const stop = async (): Promise<void> => {
    if (!exited) {
      const gone = new Promise<void>(resolve => child.once('exit', () => resolve()))
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
      await gone
      clearTimeout(timer)
    }
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    await waitForLog(/ running$/m)
  } catch (err) {
    await stop()
    throw err
  }
  return { port, dir, log: () => text, waitForLog, reload: () => { child.kill('SIGHUP') }, stop }
}

/** `dig @127.0.0.1 -p port` without blocking the event loop (a server may run in this process). */
export async function dig (port: number, ...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)('dig', ['@127.0.0.1', '-p', String(port), '+time=2', '+tries=1', ...args], { encoding: 'utf8' })
  return stdout
}

/** Poll `check` every 50 ms until it holds; fails after `ms` (waiting for a peer, not timing it). */
export async function eventually (check: () => Promise<boolean>, ms = 10_000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await check()) return
    await new Promise(resolve => setTimeout(resolve, 50))
  }
  throw new Error(`${what}: not true within ${ms} ms`)
}

/**
 * The configuration of a validating recursive `named` whose world is one server on loopback:
 * `port` sends every query it makes to `serverPort` (the server under test), the root hints and
 * a static-stub zone for each of `stubZones` name 127.0.0.1 only, and `trustAnchors` (a
 * `trust-anchors` statement) is all it trusts. Nothing leaves loopback.
 */
export function validatingResolverConf (port: number, dir: string, serverPort: number, stubZones: readonly string[], trustAnchors: string): string {
  if (!Number.isInteger(serverPort) || serverPort < 1 || serverPort > 65535) throw new Error('the server is a loopback port')
  return `options {
  directory "${dir}";
  listen-on port ${port} { 127.0.0.1; };
  listen-on-v6 { none; };
  port ${serverPort};
  query-source address 127.0.0.1;
  recursion yes;
  allow-recursion { 127.0.0.1; };
  allow-query { 127.0.0.1; };
  dnssec-validation yes;
  notify no;
  pid-file none;
  session-keyfile "${join(dir, 'session.key')}";
};
controls { };
zone "." { type hint; file "root.hint"; };
${stubZones.map(z => `zone "${z}" { type static-stub; server-addresses { 127.0.0.1; }; };`).join('\n')}
${trustAnchors}
`
}

/** Start a validating resolver ({@link validatingResolverConf}) on a free loopback port. */
export async function startValidatingResolver (serverPort: number, stubZones: readonly string[], trustAnchors: string): Promise<Named> {
  const dir = mkdtempSync(join(tmpdir(), 'zonal-validating-'))
  const port = await freeDnsPort()
  writeFileSync(join(dir, 'root.hint'), '. 3600000 IN NS a.root-servers.test.\na.root-servers.test. 3600000 IN A 127.0.0.1\n')
  return await runNamed(dir, port, validatingResolverConf(port, dir, serverPort, stubZones, trustAnchors))
}
