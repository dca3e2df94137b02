/**
 * Web forwards end to end, as `npm start` runs them: forwards created through the API (the first
 * as the official Python client's `create_web_forward` sends it), their hosts asked with `dig` at
 * the service's DNS port (the forwarding server's address), then the service's own forwarding
 * server asked over loopback with each host in the Host header: the exact redirect (status,
 * Location with the path and parameters each relative type carries over), header rules by
 * priority, the framed page escaped; a deleted forward answers 404 there and NXDOMAIN in DNS.
 */
import assert from 'node:assert/strict'
import { request } from 'node:http'
import { after, before, describe, it } from 'node:test'
import { startService, type RunningService } from '../../src/cli/serve.ts'
import { loadConfig } from '../../src/config/config.ts'
import { RRType } from '../../src/zone/rrtype.ts'
import { ask, requireTools } from '../helpers/dnssec-zones.ts'
import { dig, eventually } from '../helpers/named.ts'
import { serviceApi, startTestService, type ServiceApi, type TestService } from '../helpers/service.ts'
import { storeZone } from '../helpers/stored-zones.ts'

const skip = requireTools('dig')
const PASSWORD = 'web forward e2e password'
const ZONE = 'park.test.'
const RECORDS = `@ 3600 IN SOA ns1 hostmaster 1 7200 3600 1209600 300
@ 3600 IN NS ns1
ns1 3600 IN A 127.0.0.1
`

interface Answer { status: number, location: string | undefined, body: string, type: string | undefined, csp: string | undefined }

describe('web forwards end to end: API, DNS and the forwarding server started with the service', { skip }, () => {
  let t: TestService
  let api: ServiceApi
  let dnsPort = 0
  let httpPort = 0
  let token = ''
  const guids = new Map<string, string>()

  /** One request to the service's forwarding server, for `host`, never following a redirect. */
  const get = async (host: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> => await new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: httpPort, method, path, headers: { Host: host, ...headers } }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { body += chunk })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, body, type: res.headers['content-type'], csp: String(res.headers['content-security-policy'] ?? '') }))
    })
    req.on('error', reject)
    req.end()
  })

  const create = async (body: Record<string, unknown>): Promise<string> => {
    const res = await api('POST', `/zones/${ZONE}/webforwards`, body)
    const text = await res.text()
    assert.equal(res.status, 201, text)
    const { guid } = JSON.parse(text) as { guid: string }
    guids.set(String(body.requestTo), guid)
    return guid
  }

  before(async () => {
    t = await startTestService(PASSWORD, { ZONAL_DNS_HOST: '127.0.0.1', ZONAL_DNS_WORKERS: '1', ZONAL_DNS_RRL: '0' })
    dnsPort = t.service.dns.port
    httpPort = t.service.forwards.server.httpPort
    api = await serviceApi(t.service, PASSWORD)
    const login = await fetch(`http://127.0.0.1:${t.service.httpPort}/v1/authorization/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password', username: 'admin', password: PASSWORD }) })
    token = (await login.json() as { accessToken: string }).accessToken
    await storeZone(t.service.store, 'default', ZONE, RECORDS)
    await t.service.dns.loaded
    await eventually(async () => (await ask(dnsPort, ZONE, 'SOA')).rcode === 0, 20_000, 'zone served')
  })
  after(async () => await t?.stop())

  it('creates a forward as the Python client sends it; dig answers its host with the forwarding server, which redirects it', async () => {
    assert.match(await dig(dnsPort, '+noall', '+comments', `www.${ZONE}`, 'A'), /status: NXDOMAIN/)
    const res = await fetch(`http://127.0.0.1:${t.service.httpPort}/v1/zones/${ZONE}/webforwards`, {
      method: 'POST',
      headers: { Accept: 'application/json', Authorization: `Bearer ${token}`, 'User-Agent': 'udns-python-rest-client-2.2.4', 'Content-Type': 'application/json' },
      body: JSON.stringify({ requestTo: 'www.park.test', defaultRedirectTo: 'https://brand.example', defaultForwardType: 'HTTP_301_REDIRECT' })
    })
    const text = await res.text()
    assert.equal(res.status, 201, text)
    guids.set('www.park.test', (JSON.parse(text) as { guid: string }).guid)

    assert.equal((await dig(dnsPort, '+short', `www.${ZONE}`, 'A')).trim(), '127.0.0.1')
    await eventually(async () => (await get('www.park.test', '/')).status === 301, 10_000, 'the forwarding server has the forward')
    const answer = await get('WWW.Park.Test:80', '/any/page?x=1')
    assert.equal(answer.status, 301)
    assert.equal(answer.location, 'https://brand.example/', 'no relative type: the target as it is')
    assert.equal((await get('www.park.test', '/', {}, 'HEAD')).body, '')
  })

  it('answers each redirect status with the path and parameters its relative type carries over, the most specific path first', async () => {
    await create({ requestTo: 'http://a.park.test', defaultRedirectTo: 'https://brand.example/base', defaultForwardType: 'HTTP_303_REDIRECT', relativeForwardType: 'PATH' })
    await create({ requestTo: 'a.park.test/shop', defaultRedirectTo: 'https://store.example/cart?src=park', defaultForwardType: 'HTTP_302_REDIRECT', relativeForwardType: 'PARAMETER' })
    await create({ requestTo: 'a.park.test/both', defaultRedirectTo: 'http://both.example:8080/in', defaultForwardType: 'HTTP_307_REDIRECT', relativeForwardType: 'PARAMETER_AND_PATH' })
    assert.equal((await dig(dnsPort, '+short', `a.${ZONE}`, 'A')).trim(), '127.0.0.1', 'three forwards of one host share its record')
    await eventually(async () => (await get('a.park.test', '/both')).status === 307, 10_000, 'the forwarding server has the forwards')

    const path = await get('a.park.test', '/docs/intro.html?lang=en')
    assert.deepEqual([path.status, path.location], [303, 'https://brand.example/base/docs/intro.html'])
    const parameter = await get('a.park.test', '/shop/item?id=7&c=2')
    assert.deepEqual([parameter.status, parameter.location], [302, 'https://store.example/cart?src=park&id=7&c=2'])
    const both = await get('a.park.test', '/both/x/y?q=z')
    assert.deepEqual([both.status, both.location], [307, 'http://both.example:8080/in/x/y?q=z'])
    const sibling = await get('a.park.test', '/shopping')
    assert.deepEqual([sibling.status, sibling.location], [303, 'https://brand.example/base/shopping'], '/shop does not cover /shopping')
  })

  it('chooses among advanced records by priority, on the headers their rules name', async () => {
    await create({
      requestTo: 'adv.park.test',
      defaultRedirectTo: 'https://default.example/',
      defaultForwardType: 'HTTP_302_REDIRECT',
      records: [
        { redirectTo: 'https://french.example/', forwardType: 'HTTP_301_REDIRECT', priority: 2, rules: [{ header: 'Accept-Language', matchCriteria: 'BEGINS_WITH', value: 'fr', caseInsensitive: true }] },
        { redirectTo: 'https://tools.example/', forwardType: 'HTTP_307_REDIRECT', priority: 1, rules: [{ header: 'User-Agent', matchCriteria: 'CONTAINS', value: 'curl', caseInsensitive: false }] }
      ]
    })
    await eventually(async () => (await get('adv.park.test', '/')).status === 302, 10_000, 'the forwarding server has the forward')
    const plain = await get('adv.park.test', '/', { 'User-Agent': 'Mozilla/5.0' })
    assert.deepEqual([plain.status, plain.location], [302, 'https://default.example/'])
    const french = await get('adv.park.test', '/', { 'User-Agent': 'Mozilla/5.0', 'Accept-Language': 'FR-ca,fr;q=0.8' })
    assert.deepEqual([french.status, french.location], [301, 'https://french.example/'])
    const both = await get('adv.park.test', '/', { 'User-Agent': 'curl/8.5', 'Accept-Language': 'fr' })
    assert.deepEqual([both.status, both.location], [307, 'https://tools.example/'], 'priority 1 before priority 2')
    const wrongCase = await get('adv.park.test', '/', { 'User-Agent': 'CURL/8.5' })
    assert.deepEqual([wrongCase.status, wrongCase.location], [302, 'https://default.example/'], 'a case-sensitive rule')
  })

  it('frames the target in a page that escapes it, and never fetches it', async () => {
    await create({ requestTo: 'frame.park.test', defaultRedirectTo: 'https://brand.example/p?a=1&b="2"&c=<x>', defaultForwardType: 'Framed' })
    await eventually(async () => (await get('frame.park.test', '/')).status === 200, 10_000, 'the forwarding server has the forward')
    const page = await get('frame.park.test', '/')
    assert.equal(page.location, undefined)
    assert.match(page.type ?? '', /^text\/html/)
    assert.match(page.body, /<iframe[^>]* src="https:\/\/brand\.example\/p\?a=1&amp;b=(%22|&quot;)2(%22|&quot;)&amp;c=(%3Cx%3E|&lt;x&gt;)"/)
    assert.doesNotMatch(page.body, /<x>|"2"/)
    assert.match(page.csp ?? '', /frame-src https:\/\/brand\.example/)
  })

  it('answers 404 for a host it does not forward, and after a forward is deleted: DNS answers NXDOMAIN again', async () => {
    const unknown = await get('nothing.park.test', '/')
    assert.equal(unknown.status, 404)
    const guid = guids.get('www.park.test')
    const res = await fetch(`http://127.0.0.1:${t.service.httpPort}/v1/zones/${ZONE}/webforwards/${guid}`, { method: 'DELETE', headers: { Authorization: `Bearer ${token}` } })
    assert.equal(res.status, 204)
    await eventually(async () => (await ask(dnsPort, `www.${ZONE}`, 'A')).answers.every(r => r.type !== RRType.A), 10_000, 'www no longer answered')
    assert.match(await dig(dnsPort, '+noall', '+comments', `www.${ZONE}`, 'A'), /status: NXDOMAIN/)
    await eventually(async () => (await get('www.park.test', '/')).status === 404, 10_000, 'the forwarding server dropped the forward')
    assert.equal((await get('a.park.test', '/x')).status, 303, 'the other hosts still forwarded')
  })
})

describe('web forwards when the forwarding server\'s addresses change: the next start points the forwarded hosts at the new ones', { skip }, () => {
  it('rewrites the hosts\' A and AAAA records once, audited, and leaves zones already in line alone', async () => {
    const t = await startTestService(PASSWORD, { ZONAL_DNS_HOST: '127.0.0.1', ZONAL_DNS_WORKERS: '1', ZONAL_DNS_RRL: '0' })
    let later: RunningService | undefined
    try {
      const api = await serviceApi(t.service, PASSWORD)
      await storeZone(t.service.store, 'default', ZONE, RECORDS)
      await storeZone(t.service.store, 'default', 'quiet.test.', RECORDS)
      const made = await api('POST', `/zones/${ZONE}/webforwards`, { requestTo: 'www.park.test', defaultRedirectTo: 'https://brand.example', defaultForwardType: 'HTTP_301_REDIRECT' })
      assert.equal(made.status, 201, await made.text())
      const serialOf = async (store: RunningService['store'], zone: string): Promise<number | undefined> =>
        (await store.zones.findByName(zone, { accountIds: (await store.accounts.list()).map(a => a.id) }))?.serial
      const quietSerial = await serialOf(t.service.store, 'quiet.test.')
      await t.service.close()

      const start = async (addresses: string): Promise<RunningService> => await startService(loadConfig({
        ZONAL_DATABASE_URL: t.db.url,
        ZONAL_HTTP_PORT: '0',
        ZONAL_FORWARD_HTTP_PORT: '0',
        ZONAL_DNS_PORT: '0',
        ZONAL_DNS_HOST: '127.0.0.1',
        ZONAL_DNS_WORKERS: '1',
        ZONAL_DNS_RRL: '0',
        ZONAL_LOG_LEVEL: 'silent',
        ZONAL_GEOIP_DB: 'none',
        ZONAL_PROBES: 'off',
        ZONAL_FORWARD_ADDRESSES: addresses
      }))
      later = await start('127.0.0.2,::1')
      await later.forwards.readdressed
      const port = later.dns.port
      await eventually(async () => (await dig(port, '+short', `www.${ZONE}`, 'A')).trim() === '127.0.0.2', 10_000, 'the new address answered')
      assert.equal((await dig(port, '+short', `www.${ZONE}`, 'AAAA')).trim(), '::1')
      const audit = (await later.store.audit.recent(100, 'MODIFY')).filter(r => r.object_type === 'WEB_FORWARD' && r.user_name === 'system')
      assert.equal(audit.length, 1, JSON.stringify(audit))
      assert.equal(await serialOf(later.store, 'quiet.test.'), quietSerial, 'a zone without forwards is not touched')
      const serial = await serialOf(later.store, ZONE)
      await later.close()

      later = await start('127.0.0.2,::1')
      await later.forwards.readdressed
      assert.equal(await serialOf(later.store, ZONE), serial, 'a zone already in line is not touched')
    } finally {
      await later?.close()
      await t.stop()
    }
  })
})
