import { WireError } from './bytes.ts'
import type { Field } from './fields.ts'
import { parseTypeName, typeName } from '../rrtype.ts'
import { RdataError } from './tokens.ts'

/**
 * The type bit maps field of NSEC (RFC 4034 §4.1.2) and NSEC3 (RFC 5155 §3.2.1): the types
 * present at a name, as windows of up to 256 types, each a window number, a length octet and a
 * bitmap in which the most significant bit of the first octet is type `window * 256`.
 */

/**
 * Encode a set of types as windows (RFC 4034 §4.1.2): windows in increasing order, windows
 * without types left out, and each bitmap cut after its last non-zero octet. Duplicates are
 * ignored and order does not matter.
 *
 * @param types - type numbers, 0 to 65535
 * @returns the wire bytes (empty for no types)
 */
export function encodeTypeBitmap (types: readonly number[]): Uint8Array {
  const sorted = [...new Set(types)].sort((a, b) => a - b)
  const out: number[] = []
  let i = 0
  while (i < sorted.length) {
    const window = sorted[i]! >> 8
    const bitmap = new Uint8Array(32)
    let last = 0
    for (; i < sorted.length && sorted[i]! >> 8 === window; i++) {
      const low = sorted[i]! & 0xff
      bitmap[low >> 3]! |= 0x80 >> (low & 7)
      last = low >> 3
    }
    out.push(window, last + 1, ...bitmap.subarray(0, last + 1))
  }
  return Uint8Array.from(out)
}

/**
 * Decode type bit maps, checking them as BIND does (and RFC 4034 §4.1.2 asks): windows in
 * strictly increasing order, bitmap lengths 1 to 32, no trailing zero octet, nothing left over.
 *
 * @param bytes - the field's wire bytes (possibly empty)
 * @returns type numbers in increasing order
 * @throws WireError when the bitmaps are malformed
 */
export function decodeTypeBitmap (bytes: Uint8Array): number[] {
  const types: number[] = []
  let lastWindow = -1
  let i = 0
  while (i < bytes.length) {
    if (i + 2 > bytes.length) throw new WireError('type bit map: window header runs past the end')
    const window = bytes[i]!
    const len = bytes[i + 1]!
    i += 2
    if (window <= lastWindow) throw new WireError(`type bit map: window ${window} out of order`)
    if (len < 1 || len > 32) throw new WireError(`type bit map: window ${window} has bitmap length ${len} (must be 1 to 32)`)
    if (i + len > bytes.length) throw new WireError(`type bit map: window ${window} runs past the end`)
    if (bytes[i + len - 1] === 0) throw new WireError(`type bit map: window ${window} ends with a zero octet`)
    for (let k = 0; k < len; k++) {
      const b = bytes[i + k]!
      for (let bit = 0; bit < 8; bit++) if ((b & (0x80 >> bit)) !== 0) types.push(window * 256 + k * 8 + bit)
    }
    lastWindow = window
    i += len
  }
  return types
}

/**
 * The type bit maps field: the remaining tokens are type mnemonics or `TYPEnnn` (RFC 3597 §5;
 * a bare number is refused, as BIND refuses it), written as mnemonics in type order.
 *
 * @param label - field name used in reasons
 * @param options.allowEmpty - whether no types at all is allowed (default true: NSEC3 of an empty non-terminal, RFC 5155 §7.1)
 * @returns a field whose parse throws RdataError for unknown mnemonics
 */
export function typeBitmap (label: string, { allowEmpty = true } = {}): Field {
  return {
    label,
    parse: (r, _c, w) => {
      const types = r.rest().map((t) => {
        const n = t.quoted || /^\d+$/.test(t.text) ? undefined : parseTypeName(t.text)
        if (n === undefined) throw new RdataError(`${label}: "${t.text}" is not a type mnemonic or TYPEnnn`)
        return n
      })
      if (types.length === 0 && !allowEmpty) throw new RdataError(`missing ${label}`)
      w.bytes(encodeTypeBitmap(types))
    },
    format: (r) => decodeTypeBitmap(r.rest()).map(typeName).join(' '),
    skip: (r) => {
      if (r.remaining === 0 && !allowEmpty) throw new WireError(`${label} is empty`)
      decodeTypeBitmap(r.rest())
    }
  }
}
