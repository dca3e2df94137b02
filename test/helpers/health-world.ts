import assert from 'node:assert/strict'
import { eventually, freeDnsPort, startNamed, type Named } from './named.ts'
import { runProcess } from './process.ts'
import type { ServiceApi } from './service.ts'

/**
 * A DNS world on loopback for health checks. The nameservers of the zones checked are all asked
 * on one port (`ZONAL_HEALTH_NS_PORT`), each on its own loopback address:
 *
 * - 127.0.0.1, BIND `named`, authoritative for the root, the made-up TLD `test.` and `ext.test.`:
 *   `test.` holds the addresses of `ns1.zonal.test.` (127.0.0.3), `ns2.zonal.test.` (127.0.0.4)
 *   and `ns.ext.test.` (127.0.0.1, this server) and a delegation for each zone of `delegations`;
 *   `ext.test.` the "external" targets: `mail.ext.test.` A, `alias.ext.test.` CNAME to it,
 *   `ip.ext.test.` A. A zone delegated to `ns.ext.test.` is lame there (this server only refers);
 * - 127.0.0.3 and 127.0.0.4: left for the service's own DNS (`ZONAL_DNS_HOST`), the zones' nameservers;
 * - 127.0.0.1 on a port of its own, a recursive `named` (root hints at 127.0.0.1, queries sent
 *   to the world's port), for `ZONAL_RESOLVERS`.
 *
 * BIND listens only on addresses an interface has (127.0.0.1 here), Node's sockets on any of
 * 127.0.0.0/8: so the one BIND server, and the service on two more addresses. Nothing leaves
 * the machine: the resolver's only root is 127.0.0.1.
 */
export interface HealthWorld {
  port: number
  resolver: string
  /** The environment the service needs in this world. */
  env: Record<string, string>
  /**
   * Change the parent zone `test.` by dynamic update (`nsupdate`, RFC 2136): `update` lines such
   * as `update add healthy.test. 3600 IN DS …` (DS records a registrar would publish).
   * @throws Error with nsupdate's output when the update fails
   */
  updateParent (updates: readonly string[]): Promise<void>
  stop (): Promise<void>
}

export const WORLD = {
  root: '127.0.0.1',
  ns1: '127.0.0.3',
  ns2: '127.0.0.4',
  ext: '127.0.0.1'
} as const

const SOA = '@ 3600 IN SOA a.root.test. hostmaster.root.test. 1 7200 3600 1209600 3600'

/**
 * Start the world. `delegations` maps a zone (`healthy.test.`) to the NS names its parent
 * (`test.`) lists for it.
 */
export async function startHealthWorld (delegations: Record<string, string[]>): Promise<HealthWorld> {
  const port = await freeDnsPort()
  const resolverPort = await freeDnsPort()
  const started: Named[] = []
  try {
    const tld = [
      '$ORIGIN test.',
      SOA,
      '@ IN NS a.root.test.',
      `a.root IN A ${WORLD.root}`,
      `ns1.zonal IN A ${WORLD.ns1}`,
      `ns2.zonal IN A ${WORLD.ns2}`,
      'ext IN NS ns.ext.test.',
      `ns.ext IN A ${WORLD.ext}`,
      ...Object.entries(delegations).flatMap(([zone, ns]) => ns.map(n => `${zone} IN NS ${n}`))
    ].join('\n') + '\n'
    const root = ['$ORIGIN .', SOA.replace('@', '.'), '. IN NS a.root.test.', 'test. IN NS a.root.test.', `a.root.test. IN A ${WORLD.root}`].join('\n') + '\n'
    const ext = [
      '$ORIGIN ext.test.',
      SOA,
      '@ IN NS ns.ext.test.',
      `ns IN A ${WORLD.ext}`,
      'mail IN A 192.0.2.25',
      'alias IN CNAME mail.ext.test.',
      'ip IN A 192.0.2.26'
    ].join('\n') + '\n'
    started.push(await startNamed({
      port,
      files: { 'root.zone': root, 'test.zone': tld, 'ext.zone': ext },
      // `test.` takes dynamic updates from loopback (the DS records of a test).
      body: Object.entries({ '.': 'root', 'test.': 'test', 'ext.test.': 'ext' }).map(([zone, file]) => `zone "${zone}" { type primary; file "$DIR/${file}.zone";${zone === 'test.' ? ' allow-update { 127.0.0.1; };' : ''} };`).join('\n')
    }))
    started.push(await startNamed({
      port: resolverPort,
      recursion: true,
      // `port`: the port the resolver sends its queries to (every server of the world listens on it).
      options: `port ${port}; allow-recursion { 127.0.0.0/8; }; allow-query-cache { 127.0.0.0/8; }; qname-minimization off; max-cache-ttl 1; max-ncache-ttl 1;`,
      files: { 'root.hint': `. 3600000 IN NS a.root.test.\na.root.test. 3600000 IN A ${WORLD.root}\n` },
      body: 'zone "." { type hint; file "$DIR/root.hint"; };'
    }))
  } catch (err) {
    for (const n of started) await n.stop()
    throw err
  }
  return {
    port,
    resolver: `127.0.0.1:${resolverPort}`,
    env: {
      ZONAL_DNS_HOST: `${WORLD.ns1},${WORLD.ns2}`,
      ZONAL_DNS_PORT: String(port),
      ZONAL_RESOLVERS: `127.0.0.1:${resolverPort}`,
      ZONAL_HEALTH_NS_PORT: String(port),
      ZONAL_NAMESERVERS: 'ns1.zonal.test.,ns2.zonal.test.'
    },
    async updateParent (updates) {
      const r = await runProcess('nsupdate', [], { input: `server ${WORLD.root} ${port}\nzone test.\n${updates.join('\n')}\nsend\n` })
      if (r.code !== 0) throw new Error(`nsupdate failed (${r.code}): ${r.stdout}${r.stderr}`)
    },
    async stop () {
      for (const n of started.reverse()) await n.stop()
    }
  }
}

/** A health report as the API returns it (checks by category, each with its results). */
export type HealthReport = any

/**
 * Run a zone's health check as the API does (`POST /v1/zones/{zone}/healthchecks`, 202 and a
 * Location naming the report's version) and return the report once it is no longer IN_PROGRESS.
 */
export async function runHealthCheck (api: ServiceApi, zone: string): Promise<HealthReport> {
  const res = await api('POST', `/v1/zones/${zone}/healthchecks`, {})
  assert.equal(res.status, 202, await res.clone().text())
  const location = res.headers.get('location')!
  assert.match(location, new RegExp(`^/v1/zones/${zone.replace(/\./g, '\\.')}/healthchecks/\\d{4}-\\d{2}-\\d{2}-\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$`))
  let report: HealthReport
  await eventually(async () => {
    report = await (await api('GET', location)).json()
    return report.state !== 'IN_PROGRESS'
  }, 30_000, `the check of ${zone}`)
  return report
}

/** The result named `name` of a report's `category`. */
export function healthResult (report: HealthReport, category: string, name: string): HealthReport {
  const c = report.checks.find((x: HealthReport) => x.category === category)
  assert.ok(c !== undefined, `no category ${category}`)
  const r = c.results.find((x: HealthReport) => x.name === name)
  assert.ok(r !== undefined, `no result "${name}" in ${category}: ${c.results.map((x: HealthReport) => x.name).join(' | ')}`)
  return r
}
