import { loadConfig } from '../../src/config/config.ts'
import { startService, type RunningService } from '../../src/cli/serve.ts'
import { freshDatabase, type EngineCase, type TestDatabase } from './engines.ts'

export interface TestService {
  service: RunningService
  db: TestDatabase
  /** Close the service (if still open) and drop its database. */
  stop (): Promise<void>
}

/**
 * The whole service as `npm start` runs it (HTTP API, DNS, tasks) on a fresh database (SQLite
 * unless `engine` says otherwise), listening on free loopback ports, with `admin`'s password
 * `adminPassword`; `env` adds or overrides ZONAL_ variables (ZONAL_DATABASE_URL: another node
 * on an existing database). Client addresses are placed nowhere
 * (`ZONAL_GEOIP_DB=none`: the shipped database takes about 135 MB a process) unless `env` asks
 * for a database. Pools are not probed (`ZONAL_PROBES=off`: a test's pools may hold addresses
 * outside loopback) unless `env` turns probes on, for pools of loopback targets only.
 */
export async function startTestService (adminPassword: string, env: Record<string, string> = {}, engine: EngineCase['name'] = 'sqlite'): Promise<TestService> {
  const db = await freshDatabase(engine)
  const service = await startService(loadConfig({
    ZONAL_DATABASE_URL: db.url,
    ZONAL_HTTP_PORT: '0',
    ZONAL_FORWARD_HTTP_PORT: '0',
    ZONAL_DNS_PORT: '0',
    ZONAL_ADMIN_PASSWORD: adminPassword,
    ZONAL_LOG_LEVEL: 'silent',
    ZONAL_GEOIP_DB: 'none',
    ZONAL_PROBES: 'off',
    ...env
  }))
  return {
    service,
    db,
    async stop () {
      await service.close()
      await db.drop()
    }
  }
}

/** A request to a test service's API as a logged-in user: method, path, JSON body. */
export type ServiceApi = (method: string, path: string, body?: unknown) => Promise<Response>

/**
 * Log in to the service as `username` (admin by default) with the password grant and return a
 * function sending requests with its bearer token.
 */
export async function serviceApi (service: RunningService, password: string, username = 'admin'): Promise<ServiceApi> {
  const base = `http://127.0.0.1:${service.httpPort}`
  const login = await fetch(`${base}/authorization/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password', username, password }) })
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${await login.text()}`)
  const { accessToken } = await login.json() as { accessToken: string }
  return async (method, path, body) => await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${accessToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
}

/** A signed zone's KSKs as GET /zones/{z}/dnssec lists them: DNSKEY record text and DS records. */
export interface ApiKsk { keyId: number, dnsKeyRecord: string, dsRecords: string[] }

/** The zone's KSKs from GET /zones/{z}/dnssec (what a user gives a resolver or the parent). */
export async function apiKsks (api: ServiceApi, zone: string): Promise<ApiKsk[]> {
  const res = await api('GET', `/zones/${zone}/dnssec`)
  if (res.status !== 200) throw new Error(`GET /zones/${zone}/dnssec: ${res.status} ${await res.text()}`)
  const info = await res.json() as { keys: Array<ApiKsk & { type: string }> }
  return info.keys.filter(k => k.type === 'KSK')
}

/** A `trust-anchors` statement (named.conf, delv's `-a`) holding the zone's KSKs from GET /zones/{z}/dnssec as static keys. */
export async function apiTrustAnchors (api: ServiceApi, zone: string): Promise<string> {
  const lines = (await apiKsks(api, zone)).map(k => {
    const [flags, protocol, algorithm, ...key] = k.dnsKeyRecord.split(/\s+/).slice(4)
    return `  "${zone}" static-key ${flags} ${protocol} ${algorithm} "${key.join('')}";`
  })
  return `trust-anchors {\n${lines.join('\n')}\n};\n`
}
