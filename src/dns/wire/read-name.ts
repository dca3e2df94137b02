import { WireError } from '../../zone/rdata/bytes.ts'

const MAX_NAME = 255
const MAX_HOPS = 64

/**
 * Read a possibly compressed name (RFC 1035 §4.1.4) at `offset` of a message. Pointers must
 * point backwards (so a loop is impossible) and at most 64 are followed; labels are at most 63
 * octets and the name at most 255.
 *
 * @returns the uncompressed wire name and the offset after the name in the message.
 * @throws WireError for truncated data, forward or looping pointers, reserved label types.
 */
const SCRATCH = new Uint8Array(MAX_NAME)

export function readName (msg: Uint8Array, offset: number): { name: Uint8Array, next: number } {
  const out = SCRATCH
  let len = 0
  let pos = offset
  let next = -1
  let hops = 0
  let lowest = offset
  for (;;) {
    if (pos >= msg.length) throw new WireError('name runs past the end of the message')
    const b = msg[pos]!
    if (b === 0) {
      out[len++] = 0
      if (next < 0) next = pos + 1
      break
    }
    const kind = b & 0xc0
    if (kind === 0xc0) {
      if (pos + 1 >= msg.length) throw new WireError('compression pointer runs past the end of the message')
      const target = ((b & 0x3f) << 8) | msg[pos + 1]!
      if (next < 0) next = pos + 2
      // Only backwards, strictly before every label read so far: no loops.
      if (target >= lowest) throw new WireError('compression pointer does not point backwards')
      if (++hops > MAX_HOPS) throw new WireError('too many compression pointers')
      pos = target
      lowest = target
      continue
    }
    if (kind !== 0) throw new WireError('reserved label type')
    if (len + b + 1 + 1 > MAX_NAME) throw new WireError('name longer than 255 octets')
    if (pos + 1 + b > msg.length) throw new WireError('label runs past the end of the message')
    out.set(msg.subarray(pos, pos + 1 + b), len)
    len += b + 1
    pos += b + 1
  }
  return { name: out.slice(0, len), next }
}
