import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { nameToString, parseName } from '../../../src/zone/name.ts'
import { denialChain, nsec3Hash, nsec3OwnerName } from '../../../src/zone/dnssec/denial.ts'
import { DnssecError } from '../../../src/zone/dnssec/errors.ts'
import { formatRdata } from '../../../src/zone/rdata/index.ts'
import { RRType } from '../../../src/zone/rrtype.ts'
import type { ZoneRecord } from '../../../src/zone/record.ts'
import { encodeBase32Hex } from '../../../src/zone/rdata/fields.ts'
import { runTool } from '../../helpers/dnssec-tools.ts'

const origin = parseName('example.org.')
const T = RRType

/** Owners with their types, relative to example.org. (`@` the apex). */
function names (spec: Record<string, number[]>): Array<{ owner: Uint8Array, types: number[] }> {
  return Object.entries(spec).map(([owner, types]) => ({ owner: parseName(owner, origin), types }))
}

/** The chain as "owner type rdata" lines. */
function lines (records: readonly ZoneRecord[]): string[] {
  return records.map(r => `${nameToString(r.owner)} ${r.ttl} ${r.type === T.NSEC ? 'NSEC' : r.type === T.NSEC3 ? 'NSEC3' : 'NSEC3PARAM'} ${formatRdata(r.type, r.rdata)}`)
}

const ZONE = names({
  '@': [T.SOA, T.NS, T.MX],
  ns1: [T.A],
  Www: [T.A, T.AAAA],
  '*.wild': [T.TXT],
  'a.b.c': [T.A],
  secure: [T.NS, T.DS],
  'ns.secure': [T.A],
  insecure: [T.NS],
  'deep.glue.insecure': [T.AAAA],
  'sub.ent2': [T.NS],
  alias: [T.CNAME, T.RRSIG, T.NSEC]
})

describe('nsec3Hash (RFC 5155 §5)', () => {
  it('gives the hashes of RFC 5155 Appendix A (salt AABBCCDD, 12 iterations)', () => {
    const salt = Uint8Array.from([0xaa, 0xbb, 0xcc, 0xdd])
    const expected: Record<string, string> = {
      'example.': '0p9mhaveqvm6t7vbl5lop2u3t2rp3tom',
      'a.example.': '35mthgpgcu1qg68fab165klnsnk3dpvl',
      'ai.example.': 'gjeqe526plbf1g8mklp59enfd789njgi',
      'ns1.example.': '2t7b4g4vsa5smi47k61mv5bv1a22bojr',
      'ns2.example.': 'q04jkcevqvmu85r014c7dkba38o0ji5r',
      'w.example.': 'k8udemvp1j2f7eg6jebps17vp3n8i58h',
      '*.w.example.': 'r53bq7cc2uvmubfu5ocmm6pers9tk9en',
      'x.w.example.': 'b4um86eghhds6nea196smvmlo4ors995',
      'y.w.example.': 'ji6neoaepv8b5o6k4ev33abha8ht9fgc',
      'x.y.w.example.': '2vptu5timamqttgl4luu9kg21e0aor3s',
      'xx.example.': 't644ebqk9bibcna874givr6joj62mlhv',
      'X.Y.W.EXAMPLE.': '2vptu5timamqttgl4luu9kg21e0aor3s'
    }
    for (const [name, hash] of Object.entries(expected)) {
      const h = nsec3Hash(parseName(name), salt, 12)
      assert.equal(h.length, 20)
      assert.equal(encodeBase32Hex(h).toLowerCase(), hash, name)
    }
  })

  it('agrees with BIND nsec3hash for no salt and 0 iterations (RFC 9276)', () => {
    for (const name of ['example.org.', 'www.example.org.', '*.wild.example.org.']) {
      const r = runTool('nsec3hash', ['-', '1', '0', name])
      assert.equal(r.status, 0, r.stderr)
      assert.equal(encodeBase32Hex(nsec3Hash(parseName(name), new Uint8Array(0), 0)), r.stdout.split(' ')[0], name)
    }
  })

  it('names the NSEC3 owner with the lower-case base32hex label under the origin', () => {
    const hash = nsec3Hash(parseName('example.'), Uint8Array.from([0xaa, 0xbb, 0xcc, 0xdd]), 12)
    assert.equal(nameToString(nsec3OwnerName(hash, parseName('example.'))), '0p9mhaveqvm6t7vbl5lop2u3t2rp3tom.example.')
  })
})

describe('denialChain NSEC (RFC 4034 §4, RFC 4035 §2.3)', () => {
  it('chains authoritative names and delegations in canonical order, back to the apex', () => {
    assert.deepEqual(lines(denialChain(origin, ZONE, { kind: 'NSEC' }, 300)), [
      'example.org. 300 NSEC alias.example.org. NS SOA MX RRSIG NSEC DNSKEY',
      'alias.example.org. 300 NSEC a.b.c.example.org. CNAME RRSIG NSEC',
      'a.b.c.example.org. 300 NSEC sub.ent2.example.org. A RRSIG NSEC',
      'sub.ent2.example.org. 300 NSEC insecure.example.org. NS RRSIG NSEC',
      // A delegation lists NS (and DS) only; the glue below it has no NSEC.
      'insecure.example.org. 300 NSEC ns1.example.org. NS RRSIG NSEC',
      'ns1.example.org. 300 NSEC secure.example.org. A RRSIG NSEC',
      'secure.example.org. 300 NSEC *.wild.example.org. NS DS RRSIG NSEC',
      '*.wild.example.org. 300 NSEC Www.example.org. TXT RRSIG NSEC',
      'Www.example.org. 300 NSEC example.org. A AAAA RRSIG NSEC'
    ])
  })

  it('merges owners that differ in case, drops names outside the zone and without types', () => {
    const chain = denialChain(origin, [
      ...names({ '@': [T.SOA, T.NS], x: [T.A], y: [] }),
      { owner: parseName('X.example.org.'), types: [T.TXT] },
      { owner: parseName('other.test.'), types: [T.A] }
    ], { kind: 'NSEC' }, 60)
    assert.deepEqual(lines(chain), [
      'example.org. 60 NSEC x.example.org. NS SOA RRSIG NSEC DNSKEY',
      'x.example.org. 60 NSEC example.org. A TXT RRSIG NSEC'
    ])
  })

  it('refuses a zone without records at its apex', () => {
    assert.throws(() => denialChain(origin, names({ www: [T.A] }), { kind: 'NSEC' }, 60), (e: unknown) => e instanceof DnssecError && e.code === 'DNSSEC_NO_SOA')
  })
})

describe('denialChain NSEC3 (RFC 5155 §7.1)', () => {
  const hashOf = (name: string, salt = new Uint8Array(0), iterations = 0): string => encodeBase32Hex(nsec3Hash(parseName(name, origin), salt, iterations)).toLowerCase()

  /** Original name → bitmap text, found by hashing the candidates. */
  function byName (records: readonly ZoneRecord[], candidates: string[], salt = new Uint8Array(0), iterations = 0): Map<string, string> {
    const out = new Map<string, string>()
    for (const r of records) {
      if (r.type !== T.NSEC3) continue
      const label = nameToString(r.owner).split('.')[0]!
      const name = candidates.find(c => hashOf(c, salt, iterations) === label)
      assert.ok(name !== undefined, `NSEC3 ${label} is not the hash of any expected name`)
      out.set(name, formatRdata(T.NSEC3, r.rdata).split(' ').slice(5).join(' '))
    }
    return out
  }

  it('hashes every authoritative name, delegation and empty non-terminal, with their bitmaps', () => {
    const records = denialChain(origin, ZONE, { kind: 'NSEC3', iterations: 0, salt: new Uint8Array(0), optOut: false }, 300)
    const found = byName(records, ['@', 'ns1', 'www', '*.wild', 'wild', 'a.b.c', 'b.c', 'c', 'secure', 'insecure', 'sub.ent2', 'ent2', 'alias'])
    assert.deepEqual(Object.fromEntries(found), {
      '@': 'NS SOA MX RRSIG DNSKEY NSEC3PARAM',
      ns1: 'A RRSIG',
      www: 'A AAAA RRSIG',
      '*.wild': 'TXT RRSIG',
      wild: '',
      'a.b.c': 'A RRSIG',
      'b.c': '',
      c: '',
      secure: 'NS DS RRSIG',
      insecure: 'NS',
      'sub.ent2': 'NS',
      ent2: '',
      alias: 'CNAME RRSIG'
    })
    // Hash order, each naming the next, the last the first.
    const nsec3 = records.filter(r => r.type === T.NSEC3)
    const owners = nsec3.map(r => nameToString(r.owner).split('.')[0]!.toUpperCase())
    assert.deepEqual(owners, [...owners].sort())
    nsec3.forEach((r, i) => {
      assert.equal(formatRdata(T.NSEC3, r.rdata).split(' ')[4], owners[(i + 1) % owners.length])
      assert.equal(r.rdata[1], 0, 'no Opt-Out flag')
      assert.equal(r.ttl, 300)
    })
    const param = records.filter(r => r.type === T.NSEC3PARAM)
    assert.deepEqual(lines(param), ['example.org. 300 NSEC3PARAM 1 0 0 -'])
  })

  it('with Opt-Out leaves unsigned delegations and the non-terminals only they need out', () => {
    const salt = Uint8Array.from([0xab, 0xcd])
    const records = denialChain(origin, ZONE, { kind: 'NSEC3', iterations: 5, salt, optOut: true }, 300)
    const found = byName(records, ['@', 'ns1', 'www', '*.wild', 'wild', 'a.b.c', 'b.c', 'c', 'secure', 'alias'], salt, 5)
    assert.equal(found.size, 10)
    assert.equal(found.get('secure'), 'NS DS RRSIG')
    for (const r of records.filter(r => r.type === T.NSEC3)) assert.equal(r.rdata[1], 1, 'Opt-Out flag set')
    // RFC 5155 §4.1.2: NSEC3PARAM flags stay 0.
    assert.deepEqual(lines(records.filter(r => r.type === T.NSEC3PARAM)), ['example.org. 300 NSEC3PARAM 1 0 5 ABCD'])
  })

  it('refuses iterations over 2500 and salts over 255 octets', () => {
    const bad = (iterations: number, salt: Uint8Array): void => {
      assert.throws(() => denialChain(origin, ZONE, { kind: 'NSEC3', iterations, salt, optOut: false }, 300), (e: unknown) => e instanceof DnssecError && e.code === 'DNSSEC_BAD_POLICY')
    }
    bad(2501, new Uint8Array(0))
    bad(-1, new Uint8Array(0))
    bad(0, new Uint8Array(256))
  })
})
