import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import {
  NameError,
  ROOT,
  canonicalSortKey,
  compareNames,
  isSubdomain,
  labelCount,
  lowerName,
  nameFromSortKey,
  nameEquals,
  nameKey,
  nameToString,
  normalizeZoneName,
  parentName,
  parseName,
  relativeName,
  wireNameLength,
  type NameProblemCode
} from '../../src/zone/name.ts'

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')
const origin = parseName('example.org.')

function throwsCode (fn: () => unknown, code: NameProblemCode): void {
  assert.throws(fn, (err: unknown) => err instanceof NameError && err.code === code)
}

describe('parseName', () => {
  it('writes the uncompressed wire form (RFC 1035 §3.1)', () => {
    assert.equal(hex(parseName('www.example.org.')), '03777777076578616d706c65036f726700')
    assert.equal(hex(parseName('.')), '00')
    assert.equal(parseName('.'), ROOT)
    assert.equal(hex(parseName('a.')), '016100')
  })

  it('keeps case', () => {
    assert.equal(hex(parseName('WwW.Example.')), '03577757074578616d706c6500')
  })

  it('reads \\. as a dot inside a label and \\DDD as an octet', () => {
    assert.equal(hex(parseName('a\\.b.example.')), '03612e62076578616d706c6500')
    assert.equal(hex(parseName('\\000\\255\\032.')), '0300ff2000')
    assert.equal(hex(parseName('\\\\.')), '015c00')
    assert.equal(hex(parseName('\\065.')), '014100')
  })

  it('refuses bad escapes', () => {
    throwsCode(() => parseName('a\\'), 'NAME_BAD_ESCAPE')
    throwsCode(() => parseName('\\25.'), 'NAME_BAD_ESCAPE')
    throwsCode(() => parseName('\\2x5.'), 'NAME_BAD_ESCAPE')
    throwsCode(() => parseName('\\256.'), 'NAME_BAD_ESCAPE')
  })

  it('refuses empty names and empty labels', () => {
    throwsCode(() => parseName(''), 'NAME_EMPTY')
    throwsCode(() => parseName('a..example.'), 'NAME_EMPTY_LABEL')
    throwsCode(() => parseName('.example.'), 'NAME_EMPTY_LABEL')
    throwsCode(() => parseName('..'), 'NAME_EMPTY_LABEL')
  })

  it('takes a 63-octet label and refuses a 64-octet one', () => {
    const wire = parseName('a'.repeat(63) + '.')
    assert.equal(wire.length, 65)
    assert.equal(wire[0], 63)
    throwsCode(() => parseName('a'.repeat(64) + '.'), 'NAME_LABEL_TOO_LONG')
    // Escapes count as the octets they stand for.
    assert.equal(parseName('\\046'.repeat(63) + '.').length, 65)
    throwsCode(() => parseName('\\046'.repeat(64) + '.'), 'NAME_LABEL_TOO_LONG')
  })

  it('takes a 255-octet name and refuses a 256-octet one', () => {
    const head = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.`
    // 1 + 63 three times, then 1 + 61 and the root octet: 192 + 62 + 1 = 255.
    const max = parseName(`${head}${'d'.repeat(61)}.`)
    assert.equal(max.length, 255)
    assert.equal(nameToString(max), `${head}${'d'.repeat(61)}.`)
    throwsCode(() => parseName(`${head}${'d'.repeat(62)}.`), 'NAME_TOO_LONG')
    assert.equal(wireNameLength(max, 0), 255)
  })

  it('applies the length limit to relative names with their origin', () => {
    const o = parseName(`${'b'.repeat(63)}.${'c'.repeat(63)}.`) // 129 octets
    assert.equal(parseName(`${'a'.repeat(63)}.${'d'.repeat(61)}`, o).length, 255)
    throwsCode(() => parseName(`${'a'.repeat(63)}.${'d'.repeat(62)}`, o), 'NAME_TOO_LONG')
  })

  it('completes relative names with the origin and reads @ as the origin', () => {
    assert.equal(hex(parseName('www', origin)), hex(parseName('www.example.org.')))
    assert.equal(hex(parseName('a.b', origin)), hex(parseName('a.b.example.org.')))
    assert.equal(parseName('@', origin), origin)
    assert.equal(hex(parseName('www.', origin)), '0377777700')
  })

  it('refuses relative names and @ without an origin', () => {
    throwsCode(() => parseName('www'), 'NAME_RELATIVE_WITHOUT_ORIGIN')
    throwsCode(() => parseName('@'), 'NAME_RELATIVE_WITHOUT_ORIGIN')
  })

  it('takes non-ASCII text as its UTF-8 octets', () => {
    assert.equal(hex(parseName('é.')), '02c3a900')
  })
})

describe('nameToString', () => {
  it('writes escapes for special and non-printing octets', () => {
    assert.equal(nameToString(Uint8Array.from([3, 0x61, 0x2e, 0x62, 0])), 'a\\.b.')
    assert.equal(nameToString(Uint8Array.from([3, 0x00, 0xff, 0x20, 0])), '\\000\\255\\032.')
    assert.equal(nameToString(Uint8Array.from([6, 0x22, 0x28, 0x29, 0x3b, 0x40, 0x24, 0])), '\\"\\(\\)\\;\\@\\$.')
    assert.equal(nameToString(Uint8Array.from([1, 0x5c, 0])), '\\\\.')
    assert.equal(nameToString(ROOT), '.')
  })

  it('round-trips through parseName', () => {
    for (const text of ['www.example.org.', 'a\\.b.example.', '\\000\\255.', '*.example.', 'Mixed.Case.', '\\@.\\$.', '_sip._udp.example.org.']) {
      assert.equal(nameToString(parseName(text)), text)
    }
  })
})

describe('case', () => {
  it('keeps case but compares and keys without it (RFC 4343)', () => {
    const a = parseName('WWW.Example.ORG.')
    const b = parseName('www.example.org.')
    assert.notEqual(hex(a), hex(b))
    assert.equal(nameEquals(a, b), true)
    assert.equal(nameKey(a), 'www.example.org.')
    assert.equal(nameKey(a), nameKey(b))
    assert.equal(hex(lowerName(a)), hex(b))
    assert.equal(nameEquals(a, parseName('www.example.net.')), false)
    assert.equal(nameEquals(parseName('a.'), parseName('aa.')), false)
  })
})

describe('compareNames', () => {
  // RFC 4034 §6.1, in canonical order.
  const ordered = ['example.', 'a.example.', 'yljkjljk.a.example.', 'Z.a.example.', 'zABC.a.EXAMPLE.', 'z.example.', '\\001.z.example.', '*.z.example.', '\\200.z.example.']

  it('orders the RFC 4034 §6.1 example', () => {
    const names = ordered.map(n => parseName(n))
    const shuffled = [...names].reverse()
    shuffled.push(shuffled.shift()!)
    const sorted = shuffled.sort(compareNames).map(nameToString)
    assert.deepEqual(sorted, ordered)
    for (let i = 1; i < names.length; i++) assert.ok(compareNames(names[i - 1]!, names[i]!) < 0, `${ordered[i - 1]} < ${ordered[i]}`)
  })

  it('gives canonicalSortKey the same order', () => {
    const keys = ordered.map(n => canonicalSortKey(parseName(n)))
    assert.deepEqual([...keys].sort(), keys)
    assert.equal(new Set(keys).size, keys.length)
  })

  it('reads a canonicalSortKey back into its name, lower-cased', () => {
    for (const n of [...ordered, 'A.Example.', '.', '\\000.*.example.']) {
      assert.equal(nameToString(nameFromSortKey(canonicalSortKey(parseName(n)))), nameToString(lowerName(parseName(n))))
    }
  })

  it('treats names equal ignoring case as equal', () => {
    assert.equal(compareNames(parseName('A.Example.'), parseName('a.example.')), 0)
    assert.equal(canonicalSortKey(parseName('A.Example.')), canonicalSortKey(parseName('a.example.')))
    assert.equal(compareNames(ROOT, parseName('example.')) < 0, true)
  })
})

describe('isSubdomain', () => {
  const example = parseName('example.')

  it('is true for the name itself and names below it', () => {
    assert.equal(isSubdomain(example, example), true)
    assert.equal(isSubdomain(parseName('a.b.EXAMPLE.'), example), true)
    assert.equal(isSubdomain(example, ROOT), true)
  })

  it('stops at label boundaries', () => {
    assert.equal(isSubdomain(parseName('bexample.'), example), false)
    assert.equal(isSubdomain(parseName('a.bexample.'), example), false)
    assert.equal(isSubdomain(example, parseName('a.example.')), false)
  })
})

describe('relativeName, parentName, labelCount', () => {
  it('writes names relative to the origin', () => {
    assert.equal(relativeName(origin, origin), '@')
    assert.equal(relativeName(parseName('WWW.Example.Org.'), origin), 'WWW')
    assert.equal(relativeName(parseName('a.b.example.org.'), origin), 'a.b')
    assert.equal(relativeName(parseName('a\\.b.example.org.'), origin), 'a\\.b')
    assert.equal(relativeName(parseName('example.net.'), origin), 'example.net.')
    assert.equal(relativeName(parseName('bexample.org.'), parseName('example.org.')), 'bexample.org.')
    assert.equal(relativeName(parseName('xexample.org.'), parseName('mple.org.')), 'xexample.org.')
    assert.equal(relativeName(parseName('a.'), ROOT), 'a.')
  })

  it('strips leading labels and counts labels', () => {
    assert.equal(nameToString(parentName(parseName('a.b.example.'))), 'b.example.')
    assert.equal(nameToString(parentName(parseName('a.b.example.'), 3)), '.')
    assert.equal(labelCount(parseName('a.b.example.')), 3)
    assert.equal(labelCount(ROOT), 0)
  })
})

describe('wireNameLength', () => {
  it('measures names and refuses truncated or compressed ones', () => {
    const w = parseName('www.example.')
    assert.equal(wireNameLength(Uint8Array.from([9, 9, ...w]), 2), w.length)
    throwsCode(() => wireNameLength(w.subarray(0, 5), 0), 'NAME_TOO_LONG')
    throwsCode(() => wireNameLength(Uint8Array.from([0xc0, 0x0c]), 0), 'NAME_LABEL_TOO_LONG')
    throwsCode(() => wireNameLength(w, 0, 4), 'NAME_TOO_LONG')
  })
})

describe('normalizeZoneName', () => {
  it('adds the trailing dot and lower-cases', () => {
    assert.equal(normalizeZoneName('Example.ORG'), 'example.org.')
    assert.equal(normalizeZoneName('example.org.'), 'example.org.')
    assert.equal(normalizeZoneName('  example.org  '), 'example.org.')
  })

  it('tells an escaped final dot from the one that ends the name', () => {
    assert.equal(normalizeZoneName('a\\.'), 'a\\..')
    assert.equal(normalizeZoneName('a\\\\.'), 'a\\\\.')
    assert.equal(normalizeZoneName('A\\.b'), 'a\\.b.')
  })

  it('takes %2F and / for RFC 2317 classless reverse zones', () => {
    assert.equal(normalizeZoneName('0%2F24.2.0.192.in-addr.arpa'), '0/24.2.0.192.in-addr.arpa.')
    assert.equal(normalizeZoneName('0%2f24.2.0.192.IN-ADDR.ARPA.'), '0/24.2.0.192.in-addr.arpa.')
    assert.equal(normalizeZoneName('0/24.2.0.192.in-addr.arpa.'), '0/24.2.0.192.in-addr.arpa.')
  })

  it('refuses what is not a domain name, with the NameError code', () => {
    throwsCode(() => normalizeZoneName(''), 'NAME_EMPTY')
    throwsCode(() => normalizeZoneName('.'), 'NAME_EMPTY')
    throwsCode(() => normalizeZoneName('a..org'), 'NAME_EMPTY_LABEL')
    throwsCode(() => normalizeZoneName('a'.repeat(64) + '.org'), 'NAME_LABEL_TOO_LONG')
    throwsCode(() => normalizeZoneName(`${'a.'.repeat(127)}org`), 'NAME_TOO_LONG')
    throwsCode(() => normalizeZoneName('bad\\'), 'NAME_BAD_ESCAPE')
  })
})
