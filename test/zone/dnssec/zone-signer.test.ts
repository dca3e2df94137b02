/**
 * The whole-zone signer against BIND's `dnssec-verify` and Knot's `kzonecheck --dnssec on`: a
 * zone with delegations (with and without DS), glue, a wildcard, a CNAME, empty non-terminals
 * and mixed-case names, signed by `signZone` for each algorithm with NSEC, NSEC3 and NSEC3
 * Opt-Out, written with the project's zone file writer, must pass both; a corrupted signature
 * must fail both.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { nameEquals, nameToString, parseName } from '../../../src/zone/name.ts'
import { denialChain, type DenialPolicy } from '../../../src/zone/dnssec/denial.ts'
import { DnssecError } from '../../../src/zone/dnssec/errors.ts'
import { dnskeyRdata, dsRdata, generateKey, keyTagOf, type AlgorithmName } from '../../../src/zone/dnssec/keys.ts'
import { verifyRrsig } from '../../../src/zone/dnssec/sign.ts'
import { signatureWindow, signZone, type SigningPolicy } from '../../../src/zone/dnssec/zone-signer.ts'
import type { ZoneRecord } from '../../../src/zone/record.ts'
import { RRType } from '../../../src/zone/rrtype.ts'
import { parseZoneText } from '../../../src/zonefile/parser.ts'
import { dnssecVerify, kzonecheck, tempDir, writeZoneFile } from '../../helpers/dnssec-tools.ts'

const origin = parseName('example.org.')
const T = RRType

/** The zone: delegations with and without DS, glue, a wildcard, a CNAME, empty non-terminals. */
function zoneRecords (): ZoneRecord[] {
  const child = generateKey('KSK', 'ECDSAP256SHA256')
  const ds = Buffer.from(dsRdata(parseName('secure.example.org.'), dnskeyRdata(child), 2)).toString('hex')
  const text = `$TTL 3600
@            SOA   ns1.example.org. hostmaster.Example.ORG. 2024010101 7200 3600 1209600 300
@            NS    ns1.example.org.
@            NS    NS2.Example.Org.
@            MX    10 Mail.Example.ORG.
@            TXT   "v=spf1 -all"
ns1          A     192.0.2.1
NS2          AAAA  2001:db8::2
Mail         A     192.0.2.3
www          A     192.0.2.10
www          A     192.0.2.11
www          AAAA  2001:db8::10
alias        CNAME www.example.org.
*.wild       TXT   "wildcard"
*            MX    20 Mail.example.org.
a.b.c        A     192.0.2.20
_sip._tcp    SRV   0 5 5060 WWW.example.org.
secure       NS    ns.secure.example.org.
secure       DS    \\# 36 ${ds}
ns.secure    A     192.0.2.30
insecure     NS    ns.insecure.example.org.
insecure     NS    ns.example.net.
ns.insecure  A     192.0.2.40
deep.ns.insecure AAAA 2001:db8::40
sub.ent2     NS    ns.example.net.
x.sub.ent2   A     192.0.2.50
caa          CAA   0 issue "ca.example.net"
`
  const { records, problems } = parseZoneText(text, { origin, includes: 'refuse' })
  assert.deepEqual(problems, [])
  return records
}

const POLICY: Omit<SigningPolicy, 'denial'> = { dnskeyTtl: 3600, validitySeconds: 14 * 86400, jitterSeconds: 86400, inceptionOffsetSeconds: 3600 }
const DENIALS: Array<[string, DenialPolicy]> = [
  ['NSEC', { kind: 'NSEC' }],
  ['NSEC3', { kind: 'NSEC3', iterations: 0, salt: new Uint8Array(0), optOut: false }],
  ['NSEC3 Opt-Out with salt and iterations', { kind: 'NSEC3', iterations: 5, salt: Uint8Array.from([0xca, 0xfe]), optOut: true }]
]
const ALGORITHMS: AlgorithmName[] = ['ECDSAP256SHA256', 'ED25519', 'RSASHA256']

function keysFor (algorithm: AlgorithmName): { ksk: ReturnType<typeof generateKey>[], zsk: ReturnType<typeof generateKey>[] } {
  return { ksk: [generateKey('KSK', algorithm)], zsk: [generateKey('ZSK', algorithm, algorithm === 'RSASHA256' ? 1024 : undefined)] }
}

const now = Math.floor(Date.now() / 1000)

describe('signZone accepted by dnssec-verify and kzonecheck', () => {
  let tmp: ReturnType<typeof tempDir>
  before(() => { tmp = tempDir('zonal-signzone-') })
  after(() => tmp.remove())

  for (const algorithm of ALGORITHMS) {
    for (const [label, denial] of DENIALS) {
      it(`${algorithm} with ${label}`, () => {
        const records = zoneRecords()
        const signed = signZone(origin, records, keysFor(algorithm), { ...POLICY, denial }, now)
        const file = writeZoneFile(tmp.dir, origin, [...records, ...signed], `${algorithm}-${label.replace(/\W+/g, '-')}.zone`)
        const bind = dnssecVerify(origin, file)
        assert.equal(bind.status, 0, `dnssec-verify: ${bind.stdout}${bind.stderr}`)
        assert.match(bind.stdout + bind.stderr, /Zone fully signed/)
        const knot = kzonecheck(origin, file)
        assert.equal(knot.status, 0, `kzonecheck: ${knot.stdout}${knot.stderr}`)
      })
    }
  }

  it('is rejected by both tools when one signature is corrupted', () => {
    const records = zoneRecords()
    const signed = signZone(origin, records, keysFor('ECDSAP256SHA256'), { ...POLICY, denial: { kind: 'NSEC' } }, now)
    const i = signed.findIndex(r => r.type === T.RRSIG && (r.rdata[0]! << 8 | r.rdata[1]!) === T.A && nameToString(r.owner) === 'www.example.org.')
    assert.ok(i >= 0)
    const rdata = signed[i]!.rdata.slice()
    rdata[rdata.length - 10]! ^= 0x40
    signed[i] = { ...signed[i]!, rdata }
    const file = writeZoneFile(tmp.dir, origin, [...records, ...signed], 'corrupt.zone')
    assert.notEqual(dnssecVerify(origin, file).status, 0)
    assert.notEqual(kzonecheck(origin, file).status, 0)
  })
})

describe('signZone', () => {
  const keys = keysFor('ED25519')
  const policy: SigningPolicy = { ...POLICY, denial: { kind: 'NSEC' } }

  it('makes DNSKEY, the chain and an RRSIG per ZSK over authoritative rrsets only', () => {
    const records = zoneRecords()
    const two = { ksk: keys.ksk, zsk: [...keys.zsk, generateKey('ZSK', 'ED25519')], publishedOnly: [generateKey('ZSK', 'ED25519')] }
    const signed = signZone(origin, records, two, policy, now)
    const dnskeys = signed.filter(r => r.type === T.DNSKEY)
    assert.equal(dnskeys.length, 4)
    assert.ok(dnskeys.every(r => nameEquals(r.owner, origin) && r.ttl === 3600))
    const sigs = (owner: string, type: number): ZoneRecord[] => signed.filter(r => r.type === T.RRSIG && nameToString(r.owner).toLowerCase() === owner && (r.rdata[0]! << 8 | r.rdata[1]!) === type)
    // DNSKEY by the KSK only; everything else by both ZSKs, none by the pre-published key.
    assert.equal(sigs('example.org.', T.DNSKEY).length, 1)
    assert.equal(sigs('example.org.', T.SOA).length, 2)
    assert.equal(sigs('www.example.org.', T.A).length, 2)
    assert.equal(sigs('secure.example.org.', T.DS).length, 2)
    assert.equal(sigs('secure.example.org.', T.NS).length, 0, 'delegation NS is not signed')
    assert.equal(sigs('ns.secure.example.org.', T.A).length, 0, 'glue is not signed')
    assert.equal(sigs('deep.ns.insecure.example.org.', T.AAAA).length, 0, 'occluded data is not signed')
    assert.equal(sigs('insecure.example.org.', T.NSEC).length, 2, 'the NSEC at a delegation is signed')
    const published = dnskeyRdata(two.publishedOnly[0]!)
    assert.ok(signed.filter(r => r.type === T.RRSIG).every(r => !verifyRrsigBy(r, published)))
    // Every signature verifies against the DNSKEY set, the RRSIG TTL being the rrset's.
    const www = records.filter(r => nameToString(r.owner) === 'www.example.org.' && r.type === T.A)
    for (const s of sigs('www.example.org.', T.A)) {
      assert.equal(s.ttl, 3600)
      assert.ok(dnskeys.some(k => verifyRrsig(s.owner, T.A, 3600, www.map(r => r.rdata), s.rdata, k.rdata, now)))
    }
  })

  it('gives the denial records the lesser of the SOA TTL and MINIMUM (RFC 9077)', () => {
    const signed = signZone(origin, zoneRecords(), keys, policy, now)
    assert.ok(signed.filter(r => r.type === T.NSEC).every(r => r.ttl === 300))
    const lowTtl = zoneRecords().map(r => r.type === T.SOA ? { ...r, ttl: 120 } : r)
    assert.ok(signZone(origin, lowTtl, keys, policy, now).filter(r => r.type === T.NSEC).every(r => r.ttl === 120))
  })

  it('ignores DNSSEC records given with the zone and makes the same chain as denialChain', () => {
    const records = zoneRecords()
    const first = signZone(origin, records, keys, policy, now)
    const again = signZone(origin, [...records, ...first], keys, policy, now)
    assert.equal(again.length, first.length)
    const chain = again.filter(r => r.type === T.NSEC)
    const names = new Map<string, { owner: Uint8Array, types: number[] }>()
    for (const r of records) {
      const k = nameToString(r.owner).toLowerCase()
      names.set(k, { owner: r.owner, types: [...(names.get(k)?.types ?? []), r.type] })
    }
    assert.deepEqual(chain, denialChain(origin, [...names.values()], { kind: 'NSEC' }, 300))
  })

  it('refuses a zone without an SOA, and policies it cannot follow', () => {
    const noSoa = zoneRecords().filter(r => r.type !== T.SOA)
    assert.throws(() => signZone(origin, noSoa, keys, policy, now), (e: unknown) => e instanceof DnssecError && e.code === 'DNSSEC_NO_SOA')
    const bad = (p: Partial<SigningPolicy>, k = keys): void => {
      assert.throws(() => signZone(origin, zoneRecords(), k, { ...policy, ...p }, now), (e: unknown) => e instanceof DnssecError && e.code === 'DNSSEC_BAD_POLICY')
    }
    bad({ jitterSeconds: 14 * 86400 })
    bad({ validitySeconds: -1 })
    bad({ dnskeyTtl: 1.5 })
    bad({}, { ksk: [], zsk: keys.zsk })
    bad({}, { ksk: keys.ksk, zsk: [] })
  })
})

describe('signatureWindow', () => {
  const policy: SigningPolicy = { ...POLICY, denial: { kind: 'NSEC' } }

  it('starts inceptionOffsetSeconds before now and ends within the jitter before now + validity', () => {
    const w = signatureWindow(policy, now, parseName('www.example.org.'), T.A)
    assert.equal(w.inception, now - 3600)
    assert.ok(w.expiration <= now + 14 * 86400 && w.expiration >= now + 13 * 86400)
  })

  it('is stable per owner (any case) and type, and spreads owners over the jitter', () => {
    const a = signatureWindow(policy, now, parseName('www.example.org.'), T.A)
    assert.deepEqual(signatureWindow(policy, now, parseName('WWW.Example.org.'), T.A), a)
    const expirations = new Set<number>()
    for (let i = 0; i < 200; i++) expirations.add(signatureWindow(policy, now, parseName(`h${i}.example.org.`), T.A).expiration)
    assert.ok(expirations.size > 190, `only ${expirations.size} distinct expirations`)
    const spread = Math.max(...expirations) - Math.min(...expirations)
    assert.ok(spread > 86400 * 0.9, `spread ${spread} s`)
    assert.notEqual(signatureWindow(policy, now, parseName('www.example.org.'), T.AAAA).expiration, a.expiration)
  })

  it('has no jitter when jitterSeconds is 0', () => {
    assert.equal(signatureWindow({ ...policy, jitterSeconds: 0 }, now, parseName('x.example.org.'), T.A).expiration, now + 14 * 86400)
  })
})

/** Whether an RRSIG record carries the key tag of this DNSKEY (and so was made with it). */
function verifyRrsigBy (sig: ZoneRecord, dnskey: Uint8Array): boolean {
  return ((sig.rdata[16]! << 8) | sig.rdata[17]!) === keyTagOf(dnskey)
}
