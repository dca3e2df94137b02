/**
 * Zonal as a secondary of BIND `named` (issue 7), through `npm start`'s service: a SECONDARY zone
 * created through the API is transferred at once (AXFR with TSIG) and served by our DNS; a change
 * on the primary (a dynamic update) reaches us through named's NOTIFY and an IXFR; with the
 * primary stopped, a requested transfer fails with a clear reason, the status says FAILED and the
 * failure report's audit record is written, while the last copy stays served.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { after, before, describe, it } from 'node:test'
import { loadConfig } from '../../../src/config/config.ts'
import { startService, type RunningService } from '../../../src/cli/serve.ts'
import { freshDatabase, type TestDatabase } from '../../helpers/engines.ts'
import { bindSkip, dig, eventually, freeDnsPort, startNamed, type Named } from '../../helpers/named.ts'

const skip = bindSkip('named', 'dig', 'nsupdate')
const SECRET = Buffer.from('a secret shared with the primary').toString('base64')
const ZONE = `$ORIGIN upstream.test.
$TTL 300
@     IN SOA ns1 hostmaster 2026010101 3600 1 604800 300
@     IN NS  ns1
ns1   IN A   192.0.2.53
www   IN A   192.0.2.80
`

async function errorCodeOf (res: Response): Promise<number | undefined> {
  return ((await res.json()) as { errorCode: number }[])[0]?.errorCode
}

describe('Zonal as a secondary of BIND named', { skip }, () => {
  let db: TestDatabase
  let service: RunningService
  let named: Named
  let base: string
  let headers: Record<string, string>

  const status = async (): Promise<Record<string, string>> =>
    (await (await fetch(`${base}/zones/upstream.test`, { headers })).json() as { transferStatusDetails: Record<string, string> }).transferStatusDetails

  before(async () => {
    db = await freshDatabase('sqlite')
    const dnsPort = await freeDnsPort()
    service = await startService(loadConfig({ ZONAL_DATABASE_URL: db.url, ZONAL_HTTP_PORT: '0', ZONAL_FORWARD_HTTP_PORT: '0', ZONAL_DNS_PORT: String(dnsPort), ZONAL_ADMIN_PASSWORD: 'admin password', ZONAL_LOG_LEVEL: 'silent' }))
    named = await startNamed({
      notifyPorts: [dnsPort],
      files: { 'upstream.db': ZONE, 'copyme.db': ZONE.replaceAll('upstream.test.', 'copyme.test.'), 'plain.db': ZONE.replaceAll('upstream.test.', 'plain.test.') },
      body: `key "xfr" { algorithm hmac-sha256; secret "${SECRET}"; };
zone "upstream.test." { type primary; file "$DIR/upstream.db"; allow-transfer { key "xfr"; }; allow-update { key "xfr"; }; };
zone "copyme.test." { type primary; file "$DIR/copyme.db"; allow-transfer { key "xfr"; }; };
zone "plain.test." { type primary; file "$DIR/plain.db"; allow-transfer { 127.0.0.1; }; };`
    })
    base = `http://127.0.0.1:${service.httpPort}`
    const token = await (await fetch(`${base}/authorization/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password', username: 'admin', password: 'admin password' }) })).json() as { accessToken: string }
    headers = { authorization: `Bearer ${token.accessToken}`, 'content-type': 'application/json' }
  })
  after(async () => {
    await service?.close()
    await named?.stop()
    await db?.drop()
  })

  it('transfers a new secondary zone at once (AXFR with TSIG) and serves it', async () => {
    const res = await fetch(`${base}/zones`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ properties: { name: 'upstream.test', type: 'SECONDARY' }, secondaryCreateInfo: { primaryNameServers: { nameServerIpList: { nameServerIp1: { ip: `127.0.0.1:${named.port}`, tsigKey: 'xfr', tsigKeyValue: SECRET, tsigAlgorithm: 'hmac-sha256' } } } } })
    })
    assert.equal(res.status, 201, await res.text())
    await eventually(async () => /192\.0\.2\.80/.test(await dig(service.dns.port, '+norec', '+short', 'www.upstream.test.', 'A')), 10_000, 'the zone served')
    const s = await status()
    assert.equal(s.lastRefreshStatus, 'SUCCESSFUL')
    assert.match(s.lastRefresh!, /^\d\d\/\d\d\/\d\d \d\d:\d\d:\d\d [AP]M GMT$/)
    assert.match(await dig(service.dns.port, '+norec', 'upstream.test.', 'SOA'), /flags: qr aa;/)
  })

  it('transfers a secondary without TSIG, and says why a wrong key fails', async () => {
    const secondary = async (name: string, server: Record<string, string>): Promise<void> => {
      const res = await fetch(`${base}/zones`, { method: 'POST', headers, body: JSON.stringify({ properties: { name, type: 'SECONDARY' }, secondaryCreateInfo: { primaryNameServers: { nameServerIpList: { nameServerIp1: { ip: `127.0.0.1:${named.port}`, ...server } } } } }) })
      assert.equal(res.status, 201, await res.text())
    }
    await secondary('plain.test', {})
    await eventually(async () => /192\.0\.2\.80/.test(await dig(service.dns.port, '+norec', '+short', 'www.plain.test.', 'A')), 10_000, 'the plain zone served')
    await secondary('copyme.test', { tsigKey: 'xfr', tsigKeyValue: Buffer.from('not the secret').toString('base64'), tsigAlgorithm: 'hmac-sha256' })
    const zoneStatus = async (): Promise<Record<string, string>> =>
      (await (await fetch(`${base}/zones/copyme.test`, { headers })).json() as { transferStatusDetails: Record<string, string> }).transferStatusDetails
    await eventually(async () => (await zoneStatus()).lastRefreshStatus === 'FAILED', 10_000, 'the failure recorded')
    assert.match((await zoneStatus()).lastRefreshStatusMessage!, /BADSIG|TSIG/)
    // Never transferred: SERVFAIL, not an answer.
    assert.match(await dig(service.dns.port, '+norec', 'www.copyme.test.', 'A'), /status: SERVFAIL/)
    assert.equal((await fetch(`${base}/zones/copyme.test`, { method: 'DELETE', headers })).status, 204)
  })

  it('takes a change on the primary after its NOTIFY, by IXFR', async () => {
    const script = join(named.dir, 'update.txt')
    writeFileSync(script, `server 127.0.0.1 ${named.port}\nzone upstream.test.\nupdate add new.upstream.test. 60 IN A 192.0.2.9\nsend\n`)
    await promisify(execFile)('nsupdate', ['-y', `hmac-sha256:xfr:${SECRET}`, script])
    await eventually(async () => /192\.0\.2\.9/.test(await dig(service.dns.port, '+norec', '+short', 'new.upstream.test.', 'A')), 10_000, 'the change served')
    const [transfer] = await service.store.audit.recent(1, 'ZONE_TRANSFER')
    assert.match(transfer!.detail, /IXFR/)
  })

  it('creates a PRIMARY zone as a one-time copy by AXFR (createType TRANSFER), and says why one fails', async () => {
    const create = async (name: string, nameServer: unknown): Promise<Response> => await fetch(`${base}/zones`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ properties: { name, type: 'PRIMARY' }, primaryCreateInfo: { createType: 'TRANSFER', nameServer } })
    })
    const source = (secret: string): unknown => ({ ip: `127.0.0.1:${named.port}`, tsigKey: 'xfr', tsigKeyValue: secret, tsigAlgorithm: 'hmac-sha256' })
    const wrong = await create('copyme.test', source(Buffer.from('not the secret').toString('base64')))
    assert.equal(wrong.status, 400)
    const [error] = await wrong.json() as { errorCode: number, errorMessage: string }[]
    assert.equal(error?.errorCode, 53002)
    assert.match(error!.errorMessage, /zone transfer from 127\.0\.0\.1:\d+ failed: .*(BADSIG|TSIG)/i)
    assert.equal(await errorCodeOf(await create('copyme.test', undefined)), 55001)
    const res = await create('copyme.test', source(SECRET))
    assert.equal(res.status, 201, await res.text())
    await eventually(async () => /192\.0\.2\.80/.test(await dig(service.dns.port, '+norec', '+short', 'www.copyme.test.', 'A')), 10_000, 'the copy served')
    const zone = await (await fetch(`${base}/zones/copyme.test`, { headers })).json() as { properties: { type: string, resourceRecordCount: number } }
    assert.equal(zone.properties.type, 'PRIMARY')
  })

  it('records a failed transfer from a stopped primary and keeps serving the last copy', async () => {
    await named.stop()
    const res = await fetch(`${base}/zones/upstream.test/transfer`, { method: 'POST', headers })
    assert.equal(res.status, 200)
    await eventually(async () => (await status()).lastRefreshStatus === 'FAILED', 15_000, 'the failure recorded')
    assert.match((await status()).lastRefreshStatusMessage!, /refused|closed|timed out|time/i)
    const [failure] = await service.store.audit.recent(1, 'ZONE_TRANSFER_FAILURE')
    assert.equal(failure?.object_type, 'PRIMARY_NAMESERVER')
    assert.equal(failure?.object, `127.0.0.1:${named.port}`)
    assert.equal(failure?.parent, 'upstream.test.')
    assert.match(await dig(service.dns.port, '+norec', '+short', 'www.upstream.test.', 'A'), /192\.0\.2\.80/)
  })
})
