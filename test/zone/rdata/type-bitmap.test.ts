import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { WireError } from '../../../src/zone/rdata/bytes.ts'
import { decodeTypeBitmap, encodeTypeBitmap } from '../../../src/zone/rdata/type-bitmap.ts'
import { fromHex, hex } from '../../helpers/rdata.ts'
import '../../../src/zone/rdata/index.ts'

// A 1, MX 15, RRSIG 46, NSEC 47 | CAA 257 | TYPE1234 | TYPE65534 (wire as BIND writes it).
const TYPES = [1, 15, 46, 47, 257, 1234, 65534]
const BITMAP = '0006 400100000003' + '0101 40' + '041b' + '00'.repeat(26) + '20' + 'ff20' + '00'.repeat(31) + '02'

describe('type bit maps (RFC 4034 §4.1.2)', () => {
  it('encodes types in several windows, each cut after its last non-zero octet', () => {
    assert.equal(hex(encodeTypeBitmap(TYPES)), BITMAP.replace(/ /g, ''))
    assert.deepEqual(decodeTypeBitmap(fromHex(BITMAP)), TYPES)
  })

  it('ignores order and duplicates', () => {
    assert.equal(hex(encodeTypeBitmap([65534, 47, 1, 1234, 15, 257, 46, 1, 47])), BITMAP.replace(/ /g, ''))
  })

  it('encodes the first and last type of a window and no types at all', () => {
    assert.equal(hex(encodeTypeBitmap([0])), '000180')
    assert.equal(hex(encodeTypeBitmap([255])), '0020' + '00'.repeat(31) + '01')
    assert.equal(hex(encodeTypeBitmap([256, 65535])), '010180' + 'ff20' + '00'.repeat(31) + '01')
    assert.equal(hex(encodeTypeBitmap([])), '')
    assert.deepEqual(decodeTypeBitmap(new Uint8Array(0)), [])
    for (const types of [[0], [255], [256, 65535], [1, 2, 3, 4, 5, 6, 7, 8, 9], Array.from({ length: 256 }, (_, i) => i * 256 + 7)]) {
      assert.deepEqual(decodeTypeBitmap(encodeTypeBitmap(types)), types)
    }
  })

  it('refuses malformed bitmaps as BIND does', () => {
    const bad: Array<[string, RegExp]> = [
      ['00', /window header runs past the end/],
      ['000140 0001', /window 0 out of order/],
      ['010140 000140', /window 0 out of order/],
      ['0000', /bitmap length 0/],
      ['0021' + '01'.repeat(33), /bitmap length 33/],
      ['000240', /runs past the end/],
      ['00024000', /ends with a zero octet/]
    ]
    for (const [data, reason] of bad) {
      assert.throws(() => decodeTypeBitmap(fromHex(data)), (err: unknown) => err instanceof WireError && reason.test(err.message), data)
    }
  })
})
