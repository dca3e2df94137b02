import assert from 'node:assert/strict'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import {
  RdataError,
  formatGeneric,
  formatRdata,
  parseRdata,
  parseTypeName,
  rdataType,
  RDATA_TYPES,
  registeredTypes,
  tokenize,
  typeLabel,
  typeName,
  validateRdata,
  wireProblem
} from '../../../src/zone/rdata/index.ts'
import type { RdataType } from '../../../src/zone/rdata/rdata-type.ts'
import { RRType } from '../../../src/zone/rrtype.ts'
import { fromHex, hex, origin } from '../../helpers/rdata.ts'

describe('type names', () => {
  it('names registered, other and unknown types', () => {
    assert.equal(typeName(1), 'A')
    assert.equal(typeName(257), 'CAA')
    assert.equal(typeName(10), 'NULL')
    assert.equal(typeName(255), 'ANY')
    assert.equal(typeName(65534), 'TYPE65534')
  })

  it('writes and reads the UltraDNS spelling "A (1)"', () => {
    assert.equal(typeLabel(1), 'A (1)')
    assert.equal(typeLabel(65534), 'TYPE65534 (65534)')
    assert.equal(parseTypeName('A (1)'), 1)
    assert.equal(parseTypeName('A(1)'), 1)
    assert.equal(parseTypeName(' MX (15) '), 15)
    assert.equal(parseTypeName('TYPE65534 (65534)'), 65534)
    for (const t of registeredTypes()) assert.equal(parseTypeName(typeLabel(t.type)), t.type, typeLabel(t.type))
  })

  it('reads mnemonics in any case, TYPEnnn and plain numbers (RFC 3597 §5)', () => {
    assert.equal(parseTypeName('a'), 1)
    assert.equal(parseTypeName('Aaaa'), 28)
    assert.equal(parseTypeName('nsap-ptr'), 23)
    assert.equal(parseTypeName('TYPE65534'), 65534)
    assert.equal(parseTypeName('type1'), 1)
    assert.equal(parseTypeName('65535'), 65535)
  })

  it('refuses names of no type and a wrong number in the UltraDNS spelling', () => {
    assert.equal(parseTypeName('B (1)'), undefined)
    assert.equal(parseTypeName('A (2)'), undefined)
    assert.equal(parseTypeName('TYPE65536'), undefined)
    assert.equal(parseTypeName('TYPE'), undefined)
    assert.equal(parseTypeName('NOPE'), undefined)
    assert.equal(parseTypeName(''), undefined)
  })
})

describe('registry', () => {
  it('lists registered types in ascending order, each once', () => {
    const numbers = registeredTypes().map(t => t.type)
    assert.deepEqual(numbers, [...numbers].sort((a, b) => a - b))
    assert.equal(new Set(numbers).size, numbers.length)
    for (const n of [1, 2, 5, 6, 12, 13, 15, 16, 17, 18, 28, 29, 33, 35, 36, 38, 39, 64, 65, 99, 256, 257]) assert.ok(rdataType(n) !== undefined, `type ${n}`)
  })

  it('lists every type module of src/zone/rdata/, each under its RRType mnemonic', async () => {
    const dir = fileURLToPath(new URL('../../../src/zone/rdata/', import.meta.url))
    const defined: RdataType[] = []
    for (const f of readdirSync(dir).filter(n => n.endsWith('.ts'))) {
      const mod = await import(join(dir, f)) as Record<string, unknown>
      for (const v of Object.values(mod)) {
        if (typeof v === 'object' && v !== null && 'mnemonic' in v && 'fields' in v) defined.push(v as RdataType)
      }
    }
    assert.ok(defined.length >= 42)
    for (const t of defined) {
      assert.equal(rdataType(t.type), t, `${t.mnemonic} is in RDATA_TYPES`)
      assert.equal(RRType[t.mnemonic.replace('-', '_') as keyof typeof RRType], t.type, t.mnemonic)
    }
    assert.equal(RDATA_TYPES.length, new Set(defined).size)
  })
})

describe('unknown types (RFC 3597)', () => {
  it('takes and writes only the generic form', () => {
    const wire = parseRdata(65534, tokenize('\\# 4 0a000001'), { origin })
    assert.equal(hex(wire), '0a000001')
    assert.equal(formatRdata(65534, wire), '\\# 4 0A000001')
    assert.equal(formatRdata(65534, new Uint8Array(0)), '\\# 0')
    assert.equal(hex(parseRdata(65534, tokenize('\\# 0'), { origin })), '')
    assert.throws(() => parseRdata(65534, tokenize('10.0.0.1'), { origin }), (err: unknown) =>
      err instanceof RdataError && /TYPE65534 rdata must be written in the generic form/.test(err.message))
    assert.throws(() => parseRdata(65534, tokenize('\\# 1'), { origin }), /length 1 does not match its 0 octets/)
    assert.throws(() => parseRdata(65534, tokenize('\\#'), { origin }), /needs a length/)
  })

  it('has no layout to check, only the 65535-octet limit', () => {
    assert.equal(wireProblem(65534, fromHex('ff')), undefined)
    assert.equal(wireProblem(65534, new Uint8Array(65536)), 'longer than 65535 octets')
    assert.deepEqual(validateRdata(65534, fromHex('ff')), [])
  })

  it('reads a quoted \\# as text, not as the generic marker', () => {
    assert.throws(() => parseRdata(1, tokenize('"\\#" 4 0a000001'), { origin }), /IPv4/)
  })

  it('writes uppercase hex', () => {
    assert.equal(formatGeneric(fromHex('abcdef')), '\\# 3 ABCDEF')
  })
})

describe('rdata length', () => {
  it('refuses presentation rdata over 65535 octets', () => {
    const long = Array.from({ length: 300 }, () => `"${'x'.repeat(255)}"`).join(' ')
    assert.throws(() => parseRdata(16, tokenize(long), { origin }), (err: unknown) => err instanceof RdataError && /65535 octets/.test(err.message))
  })
})
