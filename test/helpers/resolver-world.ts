import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freeDnsPort, runNamed, startNamed, type Named } from './named.ts'

/**
 * "The world outside" on loopback, for the checks that ask recursive resolvers (the dangling DNS
 * report): an authoritative `named` holding test zones (the "external" targets under `ext-test.`,
 * and any other zone a test gives), and a recursive `named` that forwards every question to it
 * (`forward only`; zones a test names, such as one the service under test serves, to their own
 * loopback port). A name under no zone held anywhere gets REFUSED from the authoritative, so
 * SERVFAIL from the recursive. Nothing leaves the machine: every forwarder is 127.0.0.1, the
 * recursive sends from 127.0.0.1, and its root hints name 127.0.0.1 only.
 */

/** The "external" zone: names that exist, chains that end well, in NXDOMAIN, or loop. */
export const EXT_TEST_ZONE = `$ORIGIN ext-test.
$TTL 300
@        IN SOA ns.ext-test. hostmaster.ext-test. 1 3600 600 86400 60
@        IN NS  ns
ns       IN A   127.0.0.1
exists   IN A   192.0.2.1
exists6  IN AAAA 2001:db8::1
onlytxt  IN TXT "a name with no address still exists"
good1    IN CNAME good2
good2    IN CNAME exists
hop1     IN CNAME hop2
hop2     IN CNAME gone
loop1    IN CNAME loop2
loop2    IN CNAME loop1
`

export interface ResolverWorld {
  authoritative: Named
  /** The recursive resolver's port on 127.0.0.1. */
  recursivePort: number
  /** `ZONAL_RESOLVERS` for the service: the recursive resolver. */
  resolvers: string
  /** Everything the recursive named logged so far. */
  recursiveLog (): string
  stop (): Promise<void>
}

export interface ResolverWorldOptions {
  /** More zones for the authoritative, by name (with the final dot), as zone file text. */
  zones?: Record<string, string>
  /** Zones the recursive forwards to another loopback port instead (the service's own DNS port). */
  forwardZones?: Record<string, number>
}

function zoneStatements (zones: Record<string, string>): { body: string, files: Record<string, string> } {
  const files: Record<string, string> = {}
  let body = ''
  Object.entries(zones).forEach(([name, text], i) => {
    files[`zone${i}.db`] = text
    body += `zone "${name}" { type primary; file "$DIR/zone${i}.db"; };\n`
  })
  return { body, files }
}

/** The recursive resolver's configuration: recursion for loopback, everything forwarded to loopback ports. */
export function recursiveConf (port: number, dir: string, authoritativePort: number, forwardZones: Record<string, number>): string {
  const ports = [authoritativePort, ...Object.values(forwardZones)]
  if (ports.some(p => !Number.isInteger(p) || p < 1 || p > 65535)) throw new Error('forwarders are loopback ports')
  const zones = Object.entries(forwardZones)
    .map(([name, p]) => `zone "${name}" { type forward; forward only; forwarders { 127.0.0.1 port ${p}; }; };`).join('\n')
  return `options {
  directory "${dir}";
  listen-on port ${port} { 127.0.0.1; };
  listen-on-v6 { none; };
  recursion yes;
  allow-recursion { 127.0.0.1; };
  allow-query { 127.0.0.1; };
  forward only;
  forwarders { 127.0.0.1 port ${authoritativePort}; };
  query-source address 127.0.0.1;
  dnssec-validation no;
  notify no;
  pid-file none;
  session-keyfile "${join(dir, 'session.key')}";
};
controls { };
zone "." { type hint; file "root.hint"; };
${zones}
`
}

/** Start the authoritative and the recursive `named` (both on free loopback ports). */
export async function startResolverWorld (opts: ResolverWorldOptions = {}): Promise<ResolverWorld> {
  const { body, files } = zoneStatements({ 'ext-test.': EXT_TEST_ZONE, ...opts.zones })
  const authoritative = await startNamed({ body, files })
  const dir = mkdtempSync(join(tmpdir(), 'zonal-recursive-'))
  try {
    const port = await freeDnsPort()
    writeFileSync(join(dir, 'root.hint'), '. 3600000 IN NS a.root-servers.test.\na.root-servers.test. 3600000 IN A 127.0.0.1\n')
    const recursive = await runNamed(dir, port, recursiveConf(port, dir, authoritative.port, opts.forwardZones ?? {}))
    return {
      authoritative,
      recursivePort: port,
      resolvers: `127.0.0.1:${port}`,
      recursiveLog: recursive.log,
      async stop () {
        await recursive.stop()
        await authoritative.stop()
      }
    }
  } catch (err) {
    await authoritative.stop()
    rmSync(dir, { recursive: true, force: true })
    throw err
  }
}
