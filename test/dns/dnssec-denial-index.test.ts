/**
 * The pieces the DNSSEC answer path finds denial records with: the NSEC3 hash (RFC 5155 §5,
 * checked against the RFC's own Appendix A values), and the canonical order of the NSEC and
 * NSEC3 owners of a `ZoneData` (which owner matches or covers a name, kept right as records
 * change).
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { CanonicalOwners } from '../../src/dns/index/canonical-owners.ts'
import { ZoneData } from '../../src/dns/index/zone-data.ts'
import { hashedOwner, nsec3Hash, readNsec3Params } from '../../src/dns/answer/nsec3-hash.ts'
import { fromWireKey, nameToString, parseName } from '../../src/zone/name.ts'
import { encodeBase32Hex } from '../../src/zone/rdata/fields.ts'
import { parseZoneText } from '../../src/zonefile/parser.ts'
import type { ZoneRecord } from '../../src/zone/record.ts'
import { RRType } from '../../src/zone/rrtype.ts'

const params = { algorithm: 1, iterations: 12, salt: Uint8Array.from([0xaa, 0xbb, 0xcc, 0xdd]) }

describe('nsec3Hash', () => {
  it('hashes names as RFC 5155 Appendix A lists them (salt aabbccdd, 12 iterations)', () => {
    const expected: [string, string][] = [
      ['example.', '0p9mhaveqvm6t7vbl5lop2u3t2rp3tom'],
      ['a.example.', '35mthgpgcu1qg68fab165klnsnk3dpvl'],
      ['ai.example.', 'gjeqe526plbf1g8mklp59enfd789njgi'],
      ['ns1.example.', '2t7b4g4vsa5smi47k61mv5bv1a22bojr'],
      ['*.w.example.', 'r53bq7cc2uvmubfu5ocmm6pers9tk9en'],
      ['xx.example.', 't644ebqk9bibcna874givr6joj62mlhv']
    ]
    for (const [name, hash] of expected) assert.equal(encodeBase32Hex(nsec3Hash(parseName(name), params)).toLowerCase(), hash, name)
  })

  it('ignores the case of the name', () => {
    assert.deepEqual(nsec3Hash(parseName('A.EXAMPLE.'), params), nsec3Hash(parseName('a.example.'), params))
  })

  it('makes the owner name of the NSEC3 record: the hash as one label before the zone', () => {
    assert.equal(nameToString(hashedOwner(parseName('a.example.'), parseName('example.'), params)).toLowerCase(), '35mthgpgcu1qg68fab165klnsnk3dpvl.example.')
  })

  it('reads the parameters from NSEC3PARAM and NSEC3 rdata', () => {
    const p = readNsec3Params(Uint8Array.from([1, 0, 0, 12, 4, 0xaa, 0xbb, 0xcc, 0xdd]))
    assert.deepEqual({ ...p, salt: [...p.salt] }, { algorithm: 1, iterations: 12, salt: [0xaa, 0xbb, 0xcc, 0xdd] })
  })
})

describe('CanonicalOwners', () => {
  const owners = ['example.', 'a.example.', 'z.a.example.', 'YLJE.example.', '*.z.example.', 'z.example.', '\\001.z.example.'].map(n => parseName(n))
  const sorted = new CanonicalOwners(owners)
  const at = (name: string): string => {
    const r = sorted.atOrBefore(parseName(name))!
    return `${nameToString(fromWireKey(r.key))}${r.exact ? ' =' : ''}`
  }

  it('finds the owner equal to a name, in any case', () => {
    assert.equal(at('yljE.Example.'), 'ylje.example. =')
    assert.equal(at('example.'), 'example. =')
  })

  it('finds the owner before a name in canonical order (RFC 4034 §6.1)', () => {
    assert.equal(at('b.example.'), 'z.a.example.')
    assert.equal(at('a.a.example.'), 'a.example.')
    // A name sorts before its children, which sort before its next sibling.
    assert.equal(at('zz.example.'), '*.z.example.')
    assert.equal(at('y.z.example.'), '*.z.example.')
    assert.equal(at('+.z.example.'), '*.z.example.')
    assert.equal(at('\\000.z.example.'), 'z.example.')
  })

  it('wraps around before the first owner (the chain is a ring)', () => {
    assert.equal(at('com.'), '*.z.example.')
  })
})

describe('ZoneData.canonicalOwners', () => {
  const rr = (text: string): ZoneRecord => parseZoneText(text + '\n', { origin: parseName('example.org.'), includes: 'refuse' }).records[0]!
  it('lists the owners of a type, image and overlay together, and follows changes', () => {
    const origin = parseName('example.org.')
    const zone = new ZoneData(origin, 1, 1, 2)
    for (const t of ['@ 300 IN NSEC a NS SOA RRSIG NSEC', 'a 300 IN NSEC c A RRSIG NSEC', 'c 300 IN NSEC @ A RRSIG NSEC', 'c 300 IN A 192.0.2.1']) zone.add(rr(t))
    zone.seal()
    const names = (): string[] => {
      const o = zone.canonicalOwners(RRType.NSEC)
      return ['example.org.', 'a.example.org.', 'b.example.org.', 'c.example.org.', 'd.example.org.'].map(n => {
        const r = o.atOrBefore(parseName(n))!
        return nameToString(fromWireKey(r.key)) + (r.exact ? '=' : '')
      })
    }
    assert.deepEqual(names(), ['example.org.=', 'a.example.org.=', 'a.example.org.', 'c.example.org.=', 'c.example.org.'])
    zone.add(rr('b 300 IN NSEC c A RRSIG NSEC'))
    assert.deepEqual(names(), ['example.org.=', 'a.example.org.=', 'b.example.org.=', 'c.example.org.=', 'c.example.org.'])
    assert.ok(zone.remove(rr('c 300 IN NSEC @ A RRSIG NSEC')))
    assert.deepEqual(names(), ['example.org.=', 'a.example.org.=', 'b.example.org.=', 'b.example.org.', 'b.example.org.'])
    // Many more changes fold the overlay into a new image; the owners stay right.
    for (let i = 0; i < 40; i++) zone.add(rr(`x${i} 300 IN A 192.0.2.${i}`))
    assert.ok(zone.imageGeneration > 0)
    assert.deepEqual(names(), ['example.org.=', 'a.example.org.=', 'b.example.org.=', 'b.example.org.', 'b.example.org.'])
  })
})
