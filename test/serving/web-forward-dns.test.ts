/**
 * Web forwards in DNS, through the whole service as users run it: a forward created through the
 * API (requests shaped as the official Python client sends them) makes the service's DNS answer
 * the forwarding server's addresses for its host (A and AAAA, `ZONAL_FORWARD_ADDRESSES`), asked
 * with `dig`; a host with a CNAME or A records of its own is refused; deleting the host's last
 * forward restores the answers dig gave before (NXDOMAIN for a new name, NODATA beside the
 * host's other records); AXFR carries the records (they are the zone's); in a signed zone they
 * are signed and delv validates them.
 */
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { RRType } from '../../src/zone/rrtype.ts'
import { ask, delv, requireTools } from '../helpers/dnssec-zones.ts'
import { dnssecToolsSkip } from '../helpers/dnssec-tools.ts'
import { dig, eventually } from '../helpers/named.ts'
import { apiTrustAnchors, serviceApi, startTestService, type ServiceApi, type TestService } from '../helpers/service.ts'
import { storeZone } from '../helpers/stored-zones.ts'

const skip = requireTools('dig', 'delv') || dnssecToolsSkip()
const PASSWORD = 'web forward dns password'
const ZONE = 'fwd.test.'
const RECORDS = `@ 3600 IN SOA ns1 hostmaster 1 7200 3600 1209600 300
@ 3600 IN NS ns1
ns1 3600 IN A 127.0.0.1
www 300 IN A 192.0.2.10
alias 300 IN CNAME www
mail 3600 IN MX 10 www
`

describe('web forwards in DNS: the forwarded host answers the forwarding server, and answers as before once its forwards are gone', { skip }, () => {
  let t: TestService
  let api: ServiceApi
  let port = 0
  let token = ''
  let dir = ''

  /** dig's header, flags and answer for a question, the message id blanked (what two answers can be compared on). */
  const answer = async (name: string, type: string): Promise<string> =>
    (await dig(port, '+noall', '+comments', '+answer', '+nocookie', name, type)).replace(/id: \d+/, 'id: N')
  /** A request as the official Python client sends it: /v1, its headers, its JSON body. */
  const python = async (method: string, path: string, body?: unknown): Promise<Response> => await fetch(`http://127.0.0.1:${t.service.httpPort}/v1${path}`, {
    method,
    headers: { Accept: 'application/json', Authorization: `Bearer ${token}`, 'User-Agent': 'udns-python-rest-client-2.2.4', 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const servedA = async (name: string, want: boolean): Promise<void> => {
    await eventually(async () => (await ask(port, name, 'A')).answers.some(r => r.type === RRType.A) === want, 20_000, `${name} A ${want ? '' : 'no longer '}served`)
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'zonal-web-forward-dns-'))
    t = await startTestService(PASSWORD, { ZONAL_DNS_HOST: '127.0.0.1', ZONAL_DNS_WORKERS: '1', ZONAL_DNS_RRL: '0', ZONAL_FORWARD_ADDRESSES: '127.0.0.1,::1' })
    port = t.service.dns.port
    api = await serviceApi(t.service, PASSWORD)
    const login = await fetch(`http://127.0.0.1:${t.service.httpPort}/v1/authorization/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password', username: 'admin', password: PASSWORD }) })
    token = (await login.json() as { accessToken: string }).accessToken
    await storeZone(t.service.store, 'default', ZONE, RECORDS)
    await t.service.dns.loaded
    await eventually(async () => (await ask(port, ZONE, 'SOA')).rcode === 0, 20_000, 'zone served')
    const opened = await api('PATCH', `/zones/${ZONE}`, { primaryCreateInfo: { restrictIPList: [{ singleIP: '127.0.0.1' }] } })
    assert.ok(opened.status === 200 || opened.status === 204, `${opened.status} ${await opened.text()}`)
  })
  after(async () => {
    await t?.stop()
    if (dir !== '') rmSync(dir, { recursive: true, force: true })
  })

  it('answers the forwarding server\'s A and AAAA for a forwarded host, in AXFR too, and the previous answers once its last forward is deleted', async () => {
    const before = {
      shopA: await answer(`shop.${ZONE}`, 'A'),
      shopAAAA: await answer(`shop.${ZONE}`, 'AAAA'),
      mailA: await answer(`mail.${ZONE}`, 'A'),
      mailMX: await answer(`mail.${ZONE}`, 'MX')
    }
    assert.match(before.shopA, /status: NXDOMAIN/)
    assert.match(before.mailA, /status: NOERROR/)
    assert.doesNotMatch(before.mailA, /IN\s+A\s/)

    const guids: string[] = []
    for (const body of [
      { requestTo: `shop.${ZONE.slice(0, -1)}`, defaultRedirectTo: 'https://shop.example.net/', defaultForwardType: 'HTTP_301_REDIRECT' },
      { requestTo: `shop.${ZONE.slice(0, -1)}/sale`, defaultRedirectTo: 'https://shop.example.net/sale', defaultForwardType: 'HTTP_302_REDIRECT' },
      { requestTo: `mail.${ZONE.slice(0, -1)}`, defaultRedirectTo: 'https://webmail.example.net/', defaultForwardType: 'Framed' }
    ]) {
      const res = await python('POST', `/zones/${ZONE.slice(0, -1)}/webforwards`, body)
      assert.equal(res.status, 201, await res.clone().text())
      guids.push((await res.json() as { guid: string }).guid)
    }
    await servedA(`shop.${ZONE}`, true)
    await servedA(`mail.${ZONE}`, true)
    assert.match(await dig(port, '+short', `shop.${ZONE}`, 'A'), /^127\.0\.0\.1\n$/)
    assert.match(await dig(port, '+short', `shop.${ZONE}`, 'AAAA'), /^::1\n$/)
    assert.match(await dig(port, '+short', `mail.${ZONE}`, 'A'), /^127\.0\.0\.1\n$/)
    assert.equal(await answer(`mail.${ZONE}`, 'MX'), before.mailMX, 'the host\'s other records answer as before')
    const axfr = await dig(port, '+nocookie', ZONE, 'AXFR')
    assert.match(axfr, /^shop\.fwd\.test\.\s+300\s+IN\s+A\s+127\.0\.0\.1$/m)
    assert.match(axfr, /^shop\.fwd\.test\.\s+300\s+IN\s+AAAA\s+::1$/m)

    // The host keeps its records while one of its forwards is left.
    assert.equal((await python('DELETE', `/zones/${ZONE.slice(0, -1)}/webforwards/${guids[0]!}`)).status, 204)
    assert.match(await dig(port, '+short', `shop.${ZONE}`, 'A'), /^127\.0\.0\.1\n$/)
    assert.equal((await python('DELETE', `/zones/${ZONE.slice(0, -1)}/webforwards/${guids[1]!}`)).status, 204)
    assert.equal((await python('DELETE', `/zones/${ZONE.slice(0, -1)}/webforwards/${guids[2]!}`)).status, 204)
    await servedA(`shop.${ZONE}`, false)
    await servedA(`mail.${ZONE}`, false)
    assert.equal(await answer(`shop.${ZONE}`, 'A'), before.shopA)
    assert.equal(await answer(`shop.${ZONE}`, 'AAAA'), before.shopAAAA)
    assert.equal(await answer(`mail.${ZONE}`, 'A'), before.mailA)
    assert.equal(await answer(`mail.${ZONE}`, 'MX'), before.mailMX)
  })

  it('refuses a host with a CNAME or A records of its own, and leaves its answers alone', async () => {
    const alias = await answer(`alias.${ZONE}`, 'A')
    const cname = await python('POST', `/zones/${ZONE.slice(0, -1)}/webforwards`, { requestTo: `alias.${ZONE.slice(0, -1)}`, defaultRedirectTo: 'https://example.net/', defaultForwardType: 'HTTP_301_REDIRECT' })
    assert.equal(cname.status, 400)
    assert.match((await cname.json() as Array<{ errorMessage: string }>)[0]!.errorMessage, /already has CNAME records that no web forward wrote/)
    const a = await python('POST', `/zones/${ZONE.slice(0, -1)}/webforwards`, { requestTo: `www.${ZONE.slice(0, -1)}`, defaultRedirectTo: 'https://example.net/', defaultForwardType: 'HTTP_301_REDIRECT' })
    assert.equal(a.status, 400)
    assert.match((await a.json() as Array<{ errorMessage: string }>)[0]!.errorMessage, /already has A records that no web forward wrote/)
    assert.equal(await answer(`alias.${ZONE}`, 'A'), alias)
    assert.match(await dig(port, '+short', `www.${ZONE}`, 'A'), /^192\.0\.2\.10\n$/)
  })

  it('signs a signed zone\'s forward records: delv validates the forwarded host\'s A', async () => {
    assert.equal((await api('POST', `/zones/${ZONE}/dnssec`, {})).status, 201)
    await eventually(async () => (await ask(port, ZONE, 'DNSKEY')).answers.some(r => r.type === RRType.DNSKEY), 20_000, 'DNSKEY served')
    const res = await python('POST', `/zones/${ZONE.slice(0, -1)}/webforwards`, { requestTo: `signed.${ZONE.slice(0, -1)}`, defaultRedirectTo: 'https://example.net/', defaultForwardType: 'HTTP_307_REDIRECT' })
    assert.equal(res.status, 201, await res.text())
    await servedA(`signed.${ZONE}`, true)
    const file = join(dir, 'anchor')
    writeFileSync(file, await apiTrustAnchors(api, ZONE))
    const out = await delv(port, file, ZONE, `signed.${ZONE}`, 'A')
    assert.match(out, /; fully validated/, out)
    assert.match(out, /signed\.fwd\.test\.\s+300\s+IN\s+A\s+127\.0\.0\.1/)
  })
})
