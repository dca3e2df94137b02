/**
 * DNSSEC through the whole service as users run it: a zone signed through the API is answered
 * signed by the service's DNS, and BIND's `delv`, with only the zone's KSK (from GET
 * /zones/{z}/dnssec) as its trust anchor, validates positive, CNAME, wildcard, NODATA and
 * NXDOMAIN answers; after a change through the rrsets API (whose IXFR carries the new
 * signatures and chain), after moving from NSEC to NSEC3, and
 * in an AXFR of the signed zone (`dnssec-verify`, `kzonecheck`); a validating BIND resolver
 * resolves through the service with AD set. An alias of the signed zone is served signed under
 * its own name: delv, with only the alias's DS from GET /zones/{alias}/dnssec as trust anchor,
 * validates its positive, CNAME, NODATA and NXDOMAIN answers with NSEC, after a change of the
 * primary (whose IXFR of the alias carries the alias's new signatures and chain) and with NSEC3,
 * and `dnssec-verify` accepts its AXFR. Unsigning leaves answers (the alias's too) without
 * DNSSEC records.
 */
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Message } from '../../src/dns/wire/message.ts'
import { readSoa } from '../../src/zone/rdata/soa.ts'
import { RRType } from '../../src/zone/rrtype.ts'
import { ask, delv, requireTools } from '../helpers/dnssec-zones.ts'
import { dnssecToolsSkip, runTool } from '../helpers/dnssec-tools.ts'
import { dig, eventually, startValidatingResolver } from '../helpers/named.ts'
import { apiTrustAnchors, serviceApi, startTestService, type ServiceApi, type TestService } from '../helpers/service.ts'
import { storeZone } from '../helpers/stored-zones.ts'

const skip = requireTools('delv', 'dig') || dnssecToolsSkip()
const PASSWORD = 'dnssec service password'
const ZONE = 'signed.test.'
const ALIAS = 'alias.test.'
const RECORDS = `@ 3600 IN SOA ns1 hostmaster 1 7200 3600 1209600 300
@ 3600 IN NS ns1
ns1 3600 IN A 127.0.0.1
www 300 IN A 192.0.2.10
www 300 IN AAAA 2001:db8::10
mail 3600 IN MX 10 www
alias 300 IN CNAME www
*.wild 300 IN A 192.0.2.20
deep.empty.nonterminal 300 IN TXT "under empty non-terminals"
`

describe('DNSSEC through the service: signed by the API, validated by delv', { skip }, () => {
  let t: TestService
  let api: ServiceApi
  let dir = ''
  let port = 0
  /** The zone's KSK as delv's trust anchor (from the API's GET, as a user would give it to a resolver). */
  const anchor = async (zone = ZONE): Promise<string> => {
    const file = join(dir, `anchor-${Date.now()}`)
    writeFileSync(file, await apiTrustAnchors(api, zone))
    return file
  }
  /** The alias's KSK's SHA-256 DS from the API's GET (computed for the alias's name) as delv's trust anchor. */
  const dsAnchor = async (zone: string): Promise<string> => {
    const res = await api('GET', `/zones/${zone}/dnssec`)
    assert.equal(res.status, 200)
    const info = await res.json() as { status: string, keys: Array<{ type: string, dsRecords?: string[] }> }
    assert.equal(info.status, 'SIGNED')
    const [tag, algorithm, digestType, digest] = info.keys.find(k => k.type === 'KSK')!.dsRecords!.find(d => d.split(' ')[2] === '2')!.split(' ')
    const file = join(dir, `ds-anchor-${Date.now()}`)
    writeFileSync(file, `trust-anchors {\n  "${zone}" static-ds ${tag} ${algorithm} ${digestType} "${digest}";\n};\n`)
    return file
  }
  /** Wait until the service answers `name type` as `ready` says (a change reaches the DNS index asynchronously). */
  const served = async (name: string, type: string, ready: (m: Message) => boolean): Promise<void> => {
    await eventually(async () => ready(await ask(port, name, type)), 20_000, `${name} ${type} served`)
  }
  const validated = async (file: string, name: string, type: string, negative = false, root = ZONE): Promise<string> => {
    const out = await delv(port, file, root, name, type)
    assert.match(out, negative ? /; negative response, fully validated/ : /; fully validated/, `${name} ${type}:\n${out}`)
    return out
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'zonal-dnssec-service-'))
    t = await startTestService(PASSWORD, { ZONAL_DNS_HOST: '127.0.0.1', ZONAL_DNS_WORKERS: '1', ZONAL_DNS_RRL: '0' })
    port = t.service.dns.port
    api = await serviceApi(t.service, PASSWORD)
    await storeZone(t.service.store, 'default', ZONE, RECORDS)
    await t.service.dns.loaded
    await served(ZONE, 'SOA', m => m.rcode === 0 && m.answers.length === 1)
    // Transfers go to the zone's restrict list only: open it to loopback (a change of settings, not of records).
    const opened = await api('PATCH', `/zones/${ZONE}`, { primaryCreateInfo: { restrictIPList: [{ singleIP: '127.0.0.1' }] } })
    assert.ok(opened.status === 200 || opened.status === 204, `${opened.status} ${await opened.text()}`)
  })
  after(async () => {
    await t?.stop()
    if (dir !== '') rmSync(dir, { recursive: true, force: true })
  })

  it('signs the zone (POST), whose answers delv validates: positive, CNAME, wildcard, NODATA, NXDOMAIN, an empty non-terminal', async () => {
    assert.equal((await api('POST', `/zones/${ZONE}/dnssec`, {})).status, 201)
    await served(ZONE, 'DNSKEY', m => m.answers.some(r => r.type === RRType.DNSKEY))
    const file = await anchor()
    assert.match(await validated(file, `www.${ZONE}`, 'A'), /192\.0\.2\.10/)
    await validated(file, `alias.${ZONE}`, 'A')
    assert.match(await validated(file, `anything.wild.${ZONE}`, 'A'), /192\.0\.2\.20/)
    await validated(file, `www.${ZONE}`, 'TXT', true)
    await validated(file, `nothing.${ZONE}`, 'A', true)
    await validated(file, `empty.nonterminal.${ZONE}`, 'A', true)
    // Without DO the answers carry no DNSSEC record.
    const plain = await ask(port, `www.${ZONE}`, 'A', { dnssecOk: false })
    assert.equal([...plain.answers, ...plain.authority, ...plain.additional].some(r => r.type === RRType.RRSIG), false)
  })

  it('serves an alias of the signed zone signed under its own name: delv validates its answers (NSEC) with the alias\'s DS from GET as trust anchor', async () => {
    const res = await api('POST', '/zones', { properties: { name: ALIAS, accountName: 'default', type: 'ALIAS' }, aliasCreateInfo: { originalZoneName: ZONE } })
    assert.equal(res.status, 201, await res.text())
    // Transfers of the alias go to its own restrict list (an alias's settings are not edited through the API).
    const alias = (await t.service.store.zones.findByName(ALIAS, { accountIds: [(await t.service.store.accounts.findByName('default'))!.id] }))!
    await t.service.store.zones.update(alias.id, { settings: { restrictList: [{ first: '127.0.0.1', last: '127.0.0.1', comment: '' }] } })
    await served(ALIAS, 'DNSKEY', m => m.answers.some(r => r.type === RRType.DNSKEY))
    const file = await dsAnchor(ALIAS)
    assert.match(await validated(file, `www.${ALIAS}`, 'A', false, ALIAS), /192\.0\.2\.10/)
    assert.match(await validated(file, `alias.${ALIAS}`, 'A', false, ALIAS), /www\.alias\.test\./)
    assert.match(await validated(file, `anything.wild.${ALIAS}`, 'A', false, ALIAS), /192\.0\.2\.20/)
    await validated(file, `www.${ALIAS}`, 'TXT', true, ALIAS)
    await validated(file, `nothing.${ALIAS}`, 'A', true, ALIAS)
    await validated(file, `empty.nonterminal.${ALIAS}`, 'A', true, ALIAS)
  })

  it('re-signs a change made through the rrsets API: the new address validates, the NXDOMAIN around a new name too; IXFR carries the new signatures', async () => {
    const file = await anchor()
    const soa = (await ask(port, ZONE, 'SOA')).answers.find(r => r.type === RRType.SOA)!
    const before = readSoa(soa.rdata).serial
    assert.equal((await api('PUT', `/zones/${ZONE}/rrsets/A/www`, { ttl: 300, rdata: ['192.0.2.11'] })).status, 200)
    assert.equal((await api('POST', `/zones/${ZONE}/rrsets/A/new`, { ttl: 300, rdata: ['192.0.2.12'] })).status, 201)
    await served(`new.${ZONE}`, 'A', m => m.answers.some(r => r.type === RRType.A))
    await served(`www.${ZONE}`, 'A', m => m.answers.some(r => r.type === RRType.A && r.rdata[3] === 11))
    assert.match(await validated(file, `www.${ZONE}`, 'A'), /192\.0\.2\.11/)
    assert.match(await validated(file, `new.${ZONE}`, 'A'), /192\.0\.2\.12/)
    await validated(file, `nex.${ZONE}`, 'A', true)
    await validated(file, `newer.${ZONE}`, 'A', true)
    // The change as IXFR sends it (RFC 1995): incremental, the new address and its signature among the additions.
    const ixfr = (await dig(port, ZONE, `IXFR=${before}`)).split('\n').filter(l => l !== '' && !l.startsWith(';'))
    assert.ok(ixfr.some(l => new RegExp(`\\sSOA\\s.*\\s${before}\\s`).test(l)), `an incremental transfer from ${before}:\n${ixfr.join('\n')}`)
    assert.ok(ixfr.some(l => /^www\.signed\.test\.\s.*\sA\s+192\.0\.2\.11$/.test(l)), ixfr.join('\n'))
    assert.ok(ixfr.some(l => /^www\.signed\.test\.\s.*\sRRSIG\s+A\s/.test(l)), `the new signature over www A:\n${ixfr.join('\n')}`)
    assert.ok(ixfr.some(l => /^new\.signed\.test\.\s.*\sNSEC\s/.test(l)), `the chain's new NSEC:\n${ixfr.join('\n')}`)

    // The alias follows: its own signatures and chain, validated with its DS; its IXFR carries them.
    await served(`new.${ALIAS}`, 'A', m => m.answers.some(r => r.type === RRType.A))
    await served(`www.${ALIAS}`, 'A', m => m.answers.some(r => r.type === RRType.A && r.rdata[3] === 11))
    const aliasFile = await dsAnchor(ALIAS)
    assert.match(await validated(aliasFile, `www.${ALIAS}`, 'A', false, ALIAS), /192\.0\.2\.11/)
    assert.match(await validated(aliasFile, `new.${ALIAS}`, 'A', false, ALIAS), /192\.0\.2\.12/)
    await validated(aliasFile, `nex.${ALIAS}`, 'A', true, ALIAS)
    await validated(aliasFile, `newer.${ALIAS}`, 'A', true, ALIAS)
    const aliasIxfr = (await dig(port, ALIAS, `IXFR=${before}`)).split('\n').filter(l => l !== '' && !l.startsWith(';'))
    assert.ok(aliasIxfr.some(l => new RegExp(`\\sSOA\\s.*\\s${before}\\s`).test(l)), `an incremental transfer of the alias from ${before}:\n${aliasIxfr.join('\n')}`)
    assert.ok(aliasIxfr.some(l => /^www\.alias\.test\.\s.*\sA\s+192\.0\.2\.11$/.test(l)), aliasIxfr.join('\n'))
    assert.ok(aliasIxfr.some(l => /^www\.alias\.test\.\s.*\sRRSIG\s+A\s/.test(l)), `the alias's new signature over www A:\n${aliasIxfr.join('\n')}`)
    assert.ok(aliasIxfr.some(l => /^new\.alias\.test\.\s.*\sNSEC\s/.test(l)), `the alias chain's new NSEC:\n${aliasIxfr.join('\n')}`)
    assert.ok(!aliasIxfr.some(l => /^\S*signed\.test\.\s/.test(l)), `no record of the primary's names in the alias's IXFR:\n${aliasIxfr.join('\n')}`)
  })

  it('moves to NSEC3 (PATCH dnssecPolicy), whose denials validate; an AXFR of the signed zone passes dnssec-verify and kzonecheck', async () => {
    const res = await api('PATCH', `/zones/${ZONE}/dnssec`, { dnssecPolicy: { securityType: 'NSEC3' } })
    assert.ok(res.status === 200 || res.status === 202, `${res.status} ${await res.text()}`)
    await served(`nothing.${ZONE}`, 'A', m => m.authority.some(r => r.type === RRType.NSEC3))
    const file = await anchor()
    await validated(file, `nothing.${ZONE}`, 'A', true)
    await validated(file, `www.${ZONE}`, 'TXT', true)
    assert.match(await validated(file, `www.${ZONE}`, 'A'), /192\.0\.2\.11/)
    let axfr = ''
    await eventually(async () => {
      axfr = await dig(port, ZONE, 'AXFR', '+onesoa')
      return /\sDNSKEY\s/.test(axfr)
    }, 20_000, 'the AXFR allowed')
    const zoneFile = join(dir, 'axfr.zone')
    writeFileSync(zoneFile, axfr.split('\n').filter(l => l !== '' && !l.startsWith(';')).join('\n') + '\n')
    const verify = runTool('dnssec-verify', ['-o', ZONE, zoneFile])
    assert.equal(verify.status, 0, verify.stdout + verify.stderr)
    const knot = runTool('kzonecheck', ['--dnssec', 'on', '-o', ZONE, zoneFile])
    assert.equal(knot.status, 0, knot.stdout + knot.stderr)

    // The alias moved to NSEC3 with its primary: its denials validate, its AXFR verifies.
    await served(`nothing.${ALIAS}`, 'A', m => m.authority.some(r => r.type === RRType.NSEC3))
    const aliasFile = await dsAnchor(ALIAS)
    await validated(aliasFile, `nothing.${ALIAS}`, 'A', true, ALIAS)
    await validated(aliasFile, `www.${ALIAS}`, 'TXT', true, ALIAS)
    await validated(aliasFile, `empty.nonterminal.${ALIAS}`, 'A', true, ALIAS)
    assert.match(await validated(aliasFile, `www.${ALIAS}`, 'A', false, ALIAS), /192\.0\.2\.11/)
    assert.match(await validated(aliasFile, `anything.wild.${ALIAS}`, 'A', false, ALIAS), /192\.0\.2\.20/)
    const aliasAxfr = await dig(port, ALIAS, 'AXFR', '+onesoa')
    assert.match(aliasAxfr, /\sNSEC3PARAM\s/)
    const aliasZoneFile = join(dir, 'alias-axfr.zone')
    writeFileSync(aliasZoneFile, aliasAxfr.split('\n').filter(l => l !== '' && !l.startsWith(';')).join('\n') + '\n')
    const aliasVerify = runTool('dnssec-verify', ['-o', ALIAS, aliasZoneFile])
    assert.equal(aliasVerify.status, 0, aliasVerify.stdout + aliasVerify.stderr)
  })

  it('is resolved by a validating BIND resolver whose only upstream is the service and only trust anchor the KSK from GET: AD set, no SERVFAIL', async () => {
    const resolver = await startValidatingResolver(port, [ZONE], await apiTrustAnchors(api, ZONE))
    try {
      const wrong: string[] = []
      for (const [name, type, status, answered] of [[`www.${ZONE}`, 'A', 'NOERROR', true], [`anything.wild.${ZONE}`, 'A', 'NOERROR', true], [`alias.${ZONE}`, 'A', 'NOERROR', true], [`www.${ZONE}`, 'TXT', 'NOERROR', false], [`nothing.${ZONE}`, 'A', 'NXDOMAIN', false]] as const) {
        const out = await dig(resolver.port, '+dnssec', '+time=5', name, type)
        const ok = out.includes(`status: ${status}`) && / flags:[^;]* ad[ ;]/.test(out) && /ANSWER: 0,/.test(out) !== answered
        if (!ok) wrong.push(`${name} ${type}:\n${out}`)
      }
      assert.deepEqual(wrong, [])
    } finally {
      await resolver.stop()
    }
  })

  it('unsigns (DELETE): no DNSKEY, no signature, no denial record is served any more', async () => {
    assert.equal((await api('DELETE', `/zones/${ZONE}/dnssec`)).status, 204)
    await served(ZONE, 'DNSKEY', m => m.answers.length === 0)
    const www = await ask(port, `www.${ZONE}`, 'A')
    assert.equal(www.answers.some(r => r.type === RRType.RRSIG), false)
    const nx = await ask(port, `nothing.${ZONE}`, 'A')
    assert.equal(nx.authority.some(r => r.type === RRType.NSEC3 || r.type === RRType.NSEC || r.type === RRType.RRSIG), false)
    // Its alias too.
    await served(ALIAS, 'DNSKEY', m => m.answers.length === 0)
    const aliasWww = await ask(port, `www.${ALIAS}`, 'A')
    assert.ok(aliasWww.answers.some(r => r.type === RRType.A))
    assert.equal(aliasWww.answers.some(r => r.type === RRType.RRSIG), false)
    const aliasNx = await ask(port, `nothing.${ALIAS}`, 'A')
    assert.equal(aliasNx.authority.some(r => r.type === RRType.NSEC3 || r.type === RRType.NSEC || r.type === RRType.RRSIG), false)
  })
})
