import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { CONFIG_VARIABLES, ConfigError, loadConfig } from '../../src/config/config.ts'

/** Variables the test helpers read; documented in the README but not part of the service. */
const TEST_ONLY_VARIABLES = new Set(['ZONAL_TEST_PG_URL', 'ZONAL_TEST_REQUIRE_PG', 'ZONAL_TEST_CLIENTS_DIR', 'ZONAL_TEST_FUZZ_SEED', 'ZONAL_TEST_CHROMIUM', 'ZONAL_TEST_REQUIRE_BROWSER'])

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')

function throwsNaming (env: Record<string, string>, name: string): void {
  assert.throws(() => loadConfig(env), (err: unknown) => {
    assert.ok(err instanceof ConfigError, `expected a ConfigError, got ${String(err)}`)
    assert.match(err.message, new RegExp(name))
    return true
  })
}

describe('loadConfig', () => {
  it('uses the defaults for an empty environment', () => {
    const config = loadConfig({})
    assert.equal(config.databaseUrl, 'sqlite:./data/zonal.db')
    assert.equal(config.httpPort, 8080)
    assert.equal(config.httpHost, '127.0.0.1')
    assert.equal(config.dnsPort, 1053)
    assert.equal(config.adminAccount, 'default')
    assert.equal(config.adminUsername, 'admin')
    assert.equal(config.adminPassword, undefined)
  })

  it('accepts port 0 (pick a free port)', () => {
    assert.equal(loadConfig({ ZONAL_HTTP_PORT: '0' }).httpPort, 0)
  })

  it('rejects a port that is not a number, naming the variable', () => {
    throwsNaming({ ZONAL_HTTP_PORT: 'abc' }, 'ZONAL_HTTP_PORT')
  })

  it('rejects a port out of range, naming the variable', () => {
    throwsNaming({ ZONAL_HTTP_PORT: '70000' }, 'ZONAL_HTTP_PORT')
  })

  it('rejects an unknown log level', () => {
    throwsNaming({ ZONAL_LOG_LEVEL: 'loud' }, 'ZONAL_LOG_LEVEL')
  })

  it('reads ZONAL_ANALYTICS as on (the default) or off, and nothing else', () => {
    assert.equal(loadConfig({}).analytics, true)
    assert.equal(loadConfig({ ZONAL_ANALYTICS: 'on' }).analytics, true)
    assert.equal(loadConfig({ ZONAL_ANALYTICS: ' OFF ' }).analytics, false)
    for (const value of ['0', 'false', 'no']) throwsNaming({ ZONAL_ANALYTICS: value }, 'ZONAL_ANALYTICS')
  })

  it('splits ZONAL_NAMESERVERS on commas', () => {
    assert.deepEqual(loadConfig({ ZONAL_NAMESERVERS: 'a.,b.' }).nameservers, ['a.', 'b.'])
  })

  it('reads ZONAL_DNS_HOST as a list of IPv4 and IPv6 addresses', () => {
    assert.deepEqual(loadConfig({}).dnsHosts, ['127.0.0.1'])
    assert.deepEqual(loadConfig({ ZONAL_DNS_HOST: ' 127.0.0.1 , ::1 ' }).dnsHosts, ['127.0.0.1', '::1'])
    assert.deepEqual(loadConfig({ ZONAL_DNS_HOST: '0.0.0.0,::' }).dnsHosts, ['0.0.0.0', '::'])
  })

  it('rejects DNS hosts that are not addresses, empty entries and repeats, naming the variable', () => {
    for (const value of ['localhost', '127.0.0.1,,::1', '127.0.0.1,', '127.0.0.1:53', '[::1]', '127.0.0.1,127.0.0.1']) {
      throwsNaming({ ZONAL_DNS_HOST: value }, 'ZONAL_DNS_HOST')
    }
  })

  it('reads the DNS TCP limits, with RFC 7766 minded defaults', () => {
    const defaults = loadConfig({})
    assert.equal(defaults.dnsTcpIdleSeconds, 10)
    assert.equal(defaults.dnsTcpMaxConnections, 1000)
    const set = loadConfig({ ZONAL_DNS_TCP_IDLE_SECONDS: '3', ZONAL_DNS_TCP_MAX_CONNECTIONS: '50' })
    assert.deepEqual([set.dnsTcpIdleSeconds, set.dnsTcpMaxConnections], [3, 50])
    throwsNaming({ ZONAL_DNS_TCP_IDLE_SECONDS: '0' }, 'ZONAL_DNS_TCP_IDLE_SECONDS')
    throwsNaming({ ZONAL_DNS_TCP_MAX_CONNECTIONS: '0' }, 'ZONAL_DNS_TCP_MAX_CONNECTIONS')
  })

  it('reads response rate limiting: on by default with loopback exempt, 0 turns it off, none exempts nobody', () => {
    const defaults = loadConfig({})
    assert.deepEqual([defaults.dnsRrl, defaults.dnsRrlSlip, defaults.dnsRrlExempt], [20, 2, ['127.0.0.0/8', '::1/128']])
    assert.equal(loadConfig({ ZONAL_DNS_RRL: '0' }).dnsRrl, 0)
    assert.deepEqual(loadConfig({ ZONAL_DNS_RRL_EXEMPT: 'none' }).dnsRrlExempt, [])
    assert.deepEqual(loadConfig({ ZONAL_DNS_RRL_EXEMPT: '192.0.2.0/24, 2001:db8::/32,198.51.100.7' }).dnsRrlExempt, ['192.0.2.0/24', '2001:db8::/32', '198.51.100.7'])
    throwsNaming({ ZONAL_DNS_RRL: '-1' }, 'ZONAL_DNS_RRL')
    throwsNaming({ ZONAL_DNS_RRL_SLIP: '11' }, 'ZONAL_DNS_RRL_SLIP')
    for (const value of ['192.0.2.0/33', 'example.org', '192.0.2.0/24,,::1', '::1/']) {
      throwsNaming({ ZONAL_DNS_RRL_EXEMPT: value }, 'ZONAL_DNS_RRL_EXEMPT')
    }
  })

  it('reads the zone size limits, with their defaults, refusing values that are not whole numbers in range', () => {
    const defaults = loadConfig({})
    assert.deepEqual([defaults.zoneMaxRecords, defaults.generateMaxRecords, defaults.uploadSyncMaxRecords], [500_000, 65_536, 10_000])
    const set = loadConfig({ ZONAL_ZONE_MAX_RECORDS: '2000000', ZONAL_GENERATE_MAX_RECORDS: '0', ZONAL_UPLOAD_SYNC_MAX_RECORDS: '500' })
    assert.deepEqual([set.zoneMaxRecords, set.generateMaxRecords, set.uploadSyncMaxRecords], [2_000_000, 0, 500])
    throwsNaming({ ZONAL_ZONE_MAX_RECORDS: '1e6' }, 'ZONAL_ZONE_MAX_RECORDS')
    throwsNaming({ ZONAL_ZONE_MAX_RECORDS: '10' }, 'ZONAL_ZONE_MAX_RECORDS')
    throwsNaming({ ZONAL_GENERATE_MAX_RECORDS: '-1' }, 'ZONAL_GENERATE_MAX_RECORDS')
    throwsNaming({ ZONAL_UPLOAD_SYNC_MAX_RECORDS: 'many' }, 'ZONAL_UPLOAD_SYNC_MAX_RECORDS')
  })

  it('reads ZONAL_DNS_UDP_BATCH: batched UDP by default, 0 for node:dgram', () => {
    assert.equal(loadConfig({}).dnsUdpBatch, true)
    assert.equal(loadConfig({ ZONAL_DNS_UDP_BATCH: '0' }).dnsUdpBatch, false)
    assert.equal(loadConfig({ ZONAL_DNS_UDP_BATCH: '1' }).dnsUdpBatch, true)
    throwsNaming({ ZONAL_DNS_UDP_BATCH: 'yes' }, 'ZONAL_DNS_UDP_BATCH')
  })

  it('reads the client counts bound and the GeoIP files: the shipped database by default, none, or files that exist', () => {
    const defaults = loadConfig({})
    assert.deepEqual([defaults.analyticsMaxClients, defaults.geoipDatabases], [100_000, 'shipped'])
    assert.equal(loadConfig({}).analyticsHostsFlushSeconds, 30)
    assert.equal(loadConfig({ ZONAL_ANALYTICS_HOSTS_FLUSH_SECONDS: '2' }).analyticsHostsFlushSeconds, 2)
    throwsNaming({ ZONAL_ANALYTICS_HOSTS_FLUSH_SECONDS: '0' }, 'ZONAL_ANALYTICS_HOSTS_FLUSH_SECONDS')
    assert.equal(loadConfig({ ZONAL_ANALYTICS_MAX_CLIENTS: '5' }).analyticsMaxClients, 5)
    throwsNaming({ ZONAL_ANALYTICS_MAX_CLIENTS: '0' }, 'ZONAL_ANALYTICS_MAX_CLIENTS')
    assert.deepEqual(loadConfig({ ZONAL_GEOIP_DB: 'none' }).geoipDatabases, [])
    const here = new URL(import.meta.url).pathname
    assert.deepEqual(loadConfig({ ZONAL_GEOIP_DB: ` ${here} ` }).geoipDatabases, [here])
    throwsNaming({ ZONAL_GEOIP_DB: `${here},/no/such/file.mmdb` }, 'ZONAL_GEOIP_DB')
  })
})

describe('CONFIG_VARIABLES', () => {
  it('are each documented in the README', () => {
    for (const name of Object.keys(CONFIG_VARIABLES)) {
      assert.ok(readme.includes(`\`${name}\``), `README.md does not mention \`${name}\``)
    }
  })

  it('have a README table row with their default and meaning', () => {
    for (const [name, { default: fallback, description }] of Object.entries(CONFIG_VARIABLES)) {
      const shownDefault = /^\(.*\)$/.test(fallback) ? fallback : `\`${fallback}\``
      const row = `| \`${name}\` | ${shownDefault} | ${description.replace(/\|/g, '\\|')} |`
      assert.ok(readme.split('\n').includes(row), `README.md lacks the row: ${row}`)
    }
  })

  it('include every ZONAL_ variable the README names', () => {
    const named = new Set(readme.match(/\bZONAL_[A-Z0-9_]+\b/g) ?? [])
    for (const name of named) {
      assert.ok(name in CONFIG_VARIABLES || TEST_ONLY_VARIABLES.has(name), `README.md names ${name}, which the service does not read`)
    }
  })
})

describe('probe settings', () => {
  it('reads the probe region, intervals and switch', () => {
    const c = loadConfig({ ZONAL_PROBE_REGION: 'europe_west', ZONAL_SF_MONITOR_INTERVAL: '5', ZONAL_PROBE_MIN_INTERVAL: '2', ZONAL_PROBES: 'off', ZONAL_PROBE_CONCURRENCY: '3' })
    assert.deepEqual([c.probeRegion, c.sfMonitorIntervalSeconds, c.probeMinIntervalSeconds, c.probes, c.probeConcurrency], ['EUROPE_WEST', 5, 2, false, 3])
    const d = loadConfig({})
    assert.deepEqual([d.probeRegion, d.sfMonitorIntervalSeconds, d.probeMinIntervalSeconds, d.probes, d.probeConcurrency], ['NORTH_AMERICA_EAST', 60, 30, true, 16])
    assert.throws(() => loadConfig({ ZONAL_PROBE_REGION: 'north america' }), ConfigError)
    assert.throws(() => loadConfig({ ZONAL_PROBE_MIN_INTERVAL: '0' }), ConfigError)
  })
})

describe('web forwarding settings', () => {
  it('defaults to HTTP on 127.0.0.1:8081, HTTPS on 8443 only with certificates, and the HTTP host as the forwarded hosts\' address', () => {
    const c = loadConfig({})
    assert.deepEqual([c.forwardHttpHost, c.forwardHttpPort, c.forwardHttpsPort, c.forwardCertDir, c.forwardMaxPerClient, c.forwardAddresses], ['127.0.0.1', 8081, 8443, undefined, 64, ['127.0.0.1']])
    assert.deepEqual(loadConfig({ ZONAL_FORWARD_HTTP_HOST: '::1' }).forwardAddresses, ['::1'])
    assert.deepEqual(loadConfig({ ZONAL_FORWARD_HTTP_HOST: '0.0.0.0' }).forwardAddresses, ['127.0.0.1'], 'a wildcard address is not one clients reach')
    assert.deepEqual(loadConfig({ ZONAL_FORWARD_HTTP_HOST: 'localhost' }).forwardAddresses, ['127.0.0.1'])
  })

  it('reads the ports, the certificate folder, the per-client limit and the addresses, refusing bad ones by name', () => {
    const folder = new URL('.', import.meta.url).pathname
    const c = loadConfig({ ZONAL_FORWARD_HTTP_HOST: '::', ZONAL_FORWARD_HTTP_PORT: '0', ZONAL_FORWARD_HTTPS_PORT: '443', ZONAL_FORWARD_CERT_DIR: ` ${folder} `, ZONAL_FORWARD_ADDRESSES: '192.0.2.10, 2001:db8::10' })
    assert.deepEqual([c.forwardHttpHost, c.forwardHttpPort, c.forwardHttpsPort, c.forwardCertDir, c.forwardAddresses], ['::', 0, 443, folder, ['192.0.2.10', '2001:db8::10']])
    throwsNaming({ ZONAL_FORWARD_ADDRESSES: 'forwarder.example.org' }, 'ZONAL_FORWARD_ADDRESSES')
    throwsNaming({ ZONAL_FORWARD_ADDRESSES: '192.0.2.10,192.0.2.10' }, 'ZONAL_FORWARD_ADDRESSES')
    throwsNaming({ ZONAL_FORWARD_HTTP_PORT: '65536' }, 'ZONAL_FORWARD_HTTP_PORT')
    throwsNaming({ ZONAL_FORWARD_HTTPS_PORT: 'https' }, 'ZONAL_FORWARD_HTTPS_PORT')
    throwsNaming({ ZONAL_FORWARD_CERT_DIR: '/no/such/folder' }, 'ZONAL_FORWARD_CERT_DIR')
    assert.equal(loadConfig({ ZONAL_FORWARD_MAX_PER_CLIENT: '0' }).forwardMaxPerClient, 0)
    assert.equal(loadConfig({ ZONAL_FORWARD_MAX_PER_CLIENT: '500' }).forwardMaxPerClient, 500)
    throwsNaming({ ZONAL_FORWARD_MAX_PER_CLIENT: '-1' }, 'ZONAL_FORWARD_MAX_PER_CLIENT')
    throwsNaming({ ZONAL_FORWARD_MAX_PER_CLIENT: 'many' }, 'ZONAL_FORWARD_MAX_PER_CLIENT')
    throwsNaming({ ZONAL_FORWARD_CERT_DIR: new URL(import.meta.url).pathname }, 'ZONAL_FORWARD_CERT_DIR')
  })
})
