/**
 * A signed zone held as a SECONDARY, served as transferred: BIND `named` is the primary of
 * zones signed by `dnssec-signzone` (NSEC, NSEC3, NSEC3 with Opt-Out; each with an insecure
 * delegation); Zonal, given the primary's
 * address through the API, transfers them and answers with the primary's DNSKEYs, signatures and
 * denial records. `delv`, with only the zone's KSK as trust anchor, validates positive, NXDOMAIN,
 * NODATA, wildcard and no-DS answers from Zonal; Zonal's AXFR out of the copy passes `dnssec-verify`;
 * once the zone is changed and signed again on the primary, named reloaded and its NOTIFY
 * received, the new data validates too.
 */
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { readSoa } from '../../src/zone/rdata/soa.ts'
import { RRType } from '../../src/zone/rrtype.ts'
import { ask, delv, removeSigned, requireTools, resignZone, signZone, trustAnchors, type SignedZone, type Signing } from '../helpers/dnssec-zones.ts'
import { dnssecToolsSkip, runTool, tempDir } from '../helpers/dnssec-tools.ts'
import { dig, eventually, freeDnsPort, startNamed, type Named } from '../helpers/named.ts'
import { serviceApi, startTestService, type ServiceApi, type TestService } from '../helpers/service.ts'

const skip = requireTools('delv', 'dig', 'named') || dnssecToolsSkip()
const PASSWORD = 'dnssec secondary password'
const ZONES: Array<{ origin: string, signing: Signing }> = [{ origin: 'nsec.test.', signing: 'nsec' }, { origin: 'nsec3.test.', signing: 'nsec3' }, { origin: 'optout.test.', signing: 'nsec3-optout' }]
const zoneText = (origin: string): string => `$ORIGIN ${origin}
$TTL 300
@       IN SOA  ns1 hostmaster 1 3600 600 1209600 300
@       IN NS   ns1
ns1     IN A    127.0.0.1
www     IN A    192.0.2.10
*.wild  IN A    192.0.2.20
mail    IN MX   10 www
sub     IN NS   ns.example.net.
`

describe('a signed zone held as a secondary of BIND, served as transferred', { skip }, () => {
  let t: TestService
  let api: ServiceApi
  let named: Named
  let port = 0
  let tmp: ReturnType<typeof tempDir>
  const signed = new Map<string, SignedZone>()

  const serial = async (zone: string): Promise<number | undefined> => {
    const soa = (await ask(port, zone, 'SOA')).answers.find(r => r.type === RRType.SOA)
    return soa === undefined ? undefined : readSoa(soa.rdata).serial
  }
  const anchorFile = (zone: SignedZone): string => {
    const file = join(tmp.dir, `anchor-${zone.origin}`)
    writeFileSync(file, trustAnchors([zone]))
    return file
  }
  const validated = async (zone: SignedZone, name: string, type: string, negative = false): Promise<string> => {
    const out = await delv(port, anchorFile(zone), zone.origin, name, type)
    assert.match(out, negative ? /; negative response, fully validated/ : /; fully validated/, `${name} ${type}:\n${out}`)
    return out
  }

  before(async () => {
    tmp = tempDir('zonal-dnssec-secondary-')
    const dnsPort = await freeDnsPort()
    t = await startTestService(PASSWORD, { ZONAL_DNS_HOST: '127.0.0.1', ZONAL_DNS_PORT: String(dnsPort), ZONAL_DNS_WORKERS: '1', ZONAL_DNS_RRL: '0' })
    port = t.service.dns.port
    api = await serviceApi(t.service, PASSWORD)
    for (const { origin, signing } of ZONES) signed.set(origin, await signZone(origin, zoneText(origin), signing))
    named = await startNamed({
      notifyPorts: [dnsPort],
      files: Object.fromEntries([...signed.values()].map(z => [`${z.origin}db`, z.text])),
      body: [...signed.values()].map(z => `zone "${z.origin}" { type primary; file "$DIR/${z.origin}db"; allow-transfer { 127.0.0.1; }; };`).join('\n')
    })
    for (const { origin } of ZONES) {
      const res = await api('POST', '/zones', { properties: { name: origin, type: 'SECONDARY' }, secondaryCreateInfo: { primaryNameServers: { nameServerIpList: { nameServerIp1: { ip: `127.0.0.1:${named.port}` } } } } })
      assert.equal(res.status, 201, await res.text())
    }
    for (const { origin } of ZONES) await eventually(async () => (await serial(origin)) === 1, 20_000, `${origin} transferred`)
  })
  after(async () => {
    await t?.stop()
    await named?.stop()
    for (const z of signed.values()) removeSigned(z)
    tmp?.remove()
  })

  for (const { origin, signing } of ZONES) {
    it(`${signing}: delv validates Zonal's answers from the copy: positive, wildcard, NODATA, NXDOMAIN, no DS at a delegation`, async () => {
      const zone = signed.get(origin)!
      assert.match(await validated(zone, `www.${origin}`, 'A'), /192\.0\.2\.10/)
      if (signing === 'nsec3-optout') {
        // The NSEC3 covering the next closer name has Opt-Out: an unsigned delegation could be there, so
        // a validator cannot trust the expansion (RFC 5155 §6, §8.8); delv gets the same from BIND serving this zone.
        const wild = await delv(port, anchorFile(zone), origin, `any.wild.${origin}`, 'A')
        assert.match(wild, /; unsigned answer\n.*192\.0\.2\.20/, wild)
      } else assert.match(await validated(zone, `any.wild.${origin}`, 'A'), /192\.0\.2\.20/)
      await validated(zone, `www.${origin}`, 'TXT', true)
      await validated(zone, `nothing.${origin}`, 'A', true)
      await validated(zone, `sub.${origin}`, 'DS', true)
    })

    it(`${signing}: Zonal's AXFR out of the copy passes dnssec-verify`, async () => {
      // Secondaries have no restrict list in the API; open transfers of the copy to loopback in its settings.
      const account = (await t.service.store.accounts.findByName('default'))!
      const zone = (await t.service.store.zones.findByName(origin, { accountIds: [account.id] }))!
      await t.service.store.zones.update(zone.id, { settings: { restrictList: [{ first: '127.0.0.1', last: '127.0.0.1', comment: 'this test' }] } })
      let axfr = ''
      await eventually(async () => {
        axfr = await dig(port, origin, 'AXFR', '+onesoa')
        return /\sDNSKEY\s/.test(axfr)
      }, 20_000, `the AXFR of ${origin} allowed`)
      const file = join(tmp.dir, `axfr-${origin}zone`)
      writeFileSync(file, axfr.split('\n').filter(l => l !== '' && !l.startsWith(';')).join('\n') + '\n')
      const verify = runTool('dnssec-verify', ['-o', origin, file])
      assert.equal(verify.status, 0, verify.stdout + verify.stderr)
    })

    it(`${signing}: takes the zone changed and signed again on the primary (reload, NOTIFY), whose new data validates`, async () => {
      const zone = await resignZone(signed.get(origin)!, 'new 300 IN A 192.0.2.30\nwww 300 IN TXT "now there"', signing)
      signed.set(origin, zone)
      writeFileSync(join(named.dir, `${origin}db`), zone.text)
      const from = named.log().length
      named.reload()
      await named.waitForLog(new RegExp(`zone ${origin.slice(0, -1).replaceAll('.', '\\.')}/IN: loaded serial 2`), 20_000, from)
      await eventually(async () => (await serial(origin)) === 2, 20_000, `${origin} serial 2 transferred after NOTIFY`)
      assert.match(await validated(zone, `new.${origin}`, 'A'), /192\.0\.2\.30/)
      assert.match(await validated(zone, `www.${origin}`, 'TXT'), /now there/)
      await validated(zone, `nothing.${origin}`, 'A', true)
      await validated(zone, `www.${origin}`, 'AAAA', true)
    })
  }
})
