/**
 * Delegations below a zone signed through the API, all served by the one service: an insecure
 * delegation (NS and glue, no DS) to a child the service serves unsigned, and a secure one (a DS
 * rrset written through the rrsets API from the child's GET /zones/{z}/dnssec) to a child the
 * service also serves signed, the parent signed with NSEC, NSEC3 and NSEC3 with Opt-Out. With
 * only the parent's KSK as trust anchor, `delv` finds the insecure child's answers insecure (the parent proves there is no DS, RFC 4035 §5.2) and the
 * secure child's fully validated, through the DS; a validating BIND resolver whose only upstream
 * is the service resolves both children without SERVFAIL, AD set for the secure one only. The
 * child's DS at the parent's own apex is refused; the child's KSK rollover is followed by a new
 * DS put in the parent; a DS deleted makes the child insecure, never bogus.
 */
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { RRType } from '../../src/zone/rrtype.ts'
import { ask, delv, requireTools } from '../helpers/dnssec-zones.ts'
import { tempDir } from '../helpers/dnssec-tools.ts'
import { dig, eventually, startValidatingResolver } from '../helpers/named.ts'
import { apiKsks, apiTrustAnchors, serviceApi, startTestService, type ServiceApi, type TestService } from '../helpers/service.ts'
import { storeZone } from '../helpers/stored-zones.ts'

const skip = requireTools('delv', 'dig', 'named')
const PASSWORD = 'dnssec delegation password'
const PARENT = 'parent.test.'
const SECURE = `secure.${PARENT}`
const INSECURE = `insecure.${PARENT}`
const zoneText = (ns: string): string => `@ 3600 IN SOA ${ns} hostmaster 1 7200 3600 1209600 300
@ 3600 IN NS ${ns}
host 300 IN A 192.0.2.${ns === 'ns1' ? 1 : 2}
`

for (const securityType of ['NSEC', 'NSEC3', 'NSEC3_OPT_OUT'] as const) {
  describe(`delegations below a zone signed through the API (${securityType}): secure and insecure children`, { skip }, () => {
    let t: TestService
    let api: ServiceApi
    let port = 0
    let tmp: ReturnType<typeof tempDir>
    let anchorFile = ''

    before(async () => {
      tmp = tempDir('zonal-dnssec-delegation-')
      t = await startTestService(PASSWORD, { ZONAL_DNS_HOST: '127.0.0.1', ZONAL_DNS_WORKERS: '1', ZONAL_DNS_RRL: '0' })
      port = t.service.dns.port
      api = await serviceApi(t.service, PASSWORD)
      await storeZone(t.service.store, 'default', PARENT, `${zoneText('ns1')}ns1 3600 IN A 127.0.0.1
www 300 IN A 192.0.2.10
insecure 3600 IN NS ns.insecure
ns.insecure 3600 IN A 127.0.0.1
secure 3600 IN NS ns.secure
ns.secure 3600 IN A 127.0.0.1
`)
      await storeZone(t.service.store, 'default', INSECURE, `${zoneText('ns')}ns 3600 IN A 127.0.0.1\n`)
      await storeZone(t.service.store, 'default', SECURE, `${zoneText('ns')}ns 3600 IN A 127.0.0.1\n`.replace('192.0.2.2', '192.0.2.3'))
      await t.service.dns.loaded
      assert.equal((await api('POST', `/zones/${SECURE}/dnssec`, {})).status, 201)
      assert.equal((await api('POST', `/zones/${PARENT}/dnssec`, { dnssecPolicy: { securityType } })).status, 201)
      const [childKsk] = await apiKsks(api, SECURE)
      const ds = childKsk!.dsRecords.find(d => d.split(' ')[2] === '2')!
      const res = await api('POST', `/zones/${PARENT}/rrsets/DS/secure`, { ttl: 3600, rdata: [ds] })
      assert.equal(res.status, 201, await res.text())
      await eventually(async () => (await ask(port, SECURE, 'DS')).answers.some(r => r.type === RRType.DS), 20_000, 'the DS served')
      anchorFile = join(tmp.dir, 'anchor')
      writeFileSync(anchorFile, await apiTrustAnchors(api, PARENT))
    })
    after(async () => {
      await t?.stop()
      tmp?.remove()
    })

    it('answers the DS of each child from the parent: signed DS rrset for the secure one, a signed proof of no DS for the insecure one', async () => {
      const secure = await ask(port, SECURE, 'DS')
      assert.equal(secure.rcode, 0)
      assert.deepEqual(secure.answers.map(r => r.type).sort(), [RRType.DS, RRType.RRSIG])
      const insecure = await ask(port, INSECURE, 'DS')
      assert.equal(insecure.rcode, 0)
      assert.equal(insecure.answers.length, 0)
      assert.ok(insecure.authority.some(r => r.type === (securityType === 'NSEC' ? RRType.NSEC : RRType.NSEC3)), 'the denial of the DS')
      assert.ok(insecure.authority.some(r => r.type === RRType.SOA), 'the parent\'s SOA')
    })

    it('is validated by delv from the parent\'s KSK: the insecure child unsigned (not bogus), the secure child fully validated', async () => {
      const insecure = await delv(port, anchorFile, PARENT, `host.${INSECURE}`, 'A')
      assert.match(insecure, /; unsigned answer/, insecure)
      assert.match(insecure, /192\.0\.2\.2/, insecure)
      const secure = await delv(port, anchorFile, PARENT, `host.${SECURE}`, 'A')
      assert.match(secure, /; fully validated/, secure)
      assert.match(secure, /192\.0\.2\.3/, secure)
      const missing = await delv(port, anchorFile, PARENT, `none.${SECURE}`, 'A')
      assert.match(missing, /; negative response, fully validated/, missing)
      assert.match(await delv(port, anchorFile, PARENT, `www.${PARENT}`, 'A'), /; fully validated/)
    })

    it('refuses the child\'s DS at the parent\'s own apex (written there, a validating resolver failed names below it)', async () => {
      const [childKsk] = await apiKsks(api, SECURE)
      const res = await api('POST', `/zones/${PARENT}/rrsets/DS/@`, { ttl: 3600, rdata: [childKsk!.dsRecords[1]] })
      assert.equal(res.status, 400)
      assert.match(await res.text(), /ZONE_DS_AT_APEX/)
    })

    it('is resolved by a validating BIND resolver whose only upstream is the service: no SERVFAIL, AD for the secure child only', async () => {
      const resolver = await startValidatingResolver(port, [PARENT], await apiTrustAnchors(api, PARENT))
      try {
        const secure = await dig(resolver.port, '+dnssec', '+time=5', `host.${SECURE}`, 'A')
        assert.match(secure, /status: NOERROR/, secure)
        assert.match(secure, / flags:[^;]* ad[ ;]/, secure)
        assert.match(secure, /192\.0\.2\.3/, secure)
        const insecure = await dig(resolver.port, '+dnssec', '+time=5', `host.${INSECURE}`, 'A')
        assert.match(insecure, /status: NOERROR/, insecure)
        assert.doesNotMatch(insecure, / flags:[^;]* ad[ ;]/, insecure)
        assert.match(insecure, /192\.0\.2\.2/, insecure)
        const nx = await dig(resolver.port, '+dnssec', '+time=5', `none.${SECURE}`, 'A')
        assert.match(nx, /status: NXDOMAIN/, nx)
        assert.match(nx, / flags:[^;]* ad[ ;]/, nx)
      } finally {
        await resolver.stop()
      }
    })

    it('follows the secure child\'s KSK rollover: with the new DS put in the parent, the child validates', async () => {
      const res = await api('POST', `/zones/${SECURE}/dnssec/kskrollover`, {})
      assert.equal(res.status, 200, await res.clone().text())
      const newDs = (await res.json() as { dsRecords: string[] }).dsRecords.find(d => d.split(' ')[2] === '2')!
      const put = await api('PUT', `/zones/${PARENT}/rrsets/DS/secure`, { ttl: 3600, rdata: [newDs] })
      assert.equal(put.status, 200, await put.text())
      await eventually(async () => (await ask(port, SECURE, 'DS')).answers.some(r => r.type === RRType.DS && Buffer.from(r.rdata.subarray(4)).toString('hex').toUpperCase() === newDs.split(' ')[3]), 20_000, 'the new DS served')
      const secure = await delv(port, anchorFile, PARENT, `host.${SECURE}`, 'A')
      assert.match(secure, /; fully validated/, secure)
    })

    it('makes the secure child insecure when its DS is deleted: its answers unsigned, not bogus', async () => {
      assert.equal((await api('DELETE', `/zones/${PARENT}/rrsets/DS/secure`)).status, 204)
      await eventually(async () => (await ask(port, SECURE, 'DS')).answers.length === 0, 20_000, 'the DS gone')
      const insecure = await delv(port, anchorFile, PARENT, `host.${SECURE}`, 'A')
      assert.match(insecure, /; unsigned answer/, insecure)
      assert.match(insecure, /192\.0\.2\.3/, insecure)
    })
  })
}
