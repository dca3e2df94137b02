import type { WireName } from '../../zone/name.ts'
import type { ServedRrset } from '../index/zone-data.ts'

/**
 * Where the next answer of a ROUND_ROBIN rrset starts. In one thread, the rrset's own position
 * (`ServedRrset.next`). When several threads answer (DNS workers, each with its own copy of the
 * zone's nodes), a table of counters in shared memory, indexed by a hash of the owner (lower
 * case) and type, advanced atomically: each answer, whichever worker gives it, starts one record
 * further. Two rrsets whose hashes meet share a counter: each still rotates, by the answers of both.
 */
const SLOTS = 1 << 16

let shared: Int32Array | undefined

/** A table of counters for {@link shareRotation}, made once and given to every answering thread. */
export function rotationBuffer (): SharedArrayBuffer {
  return new SharedArrayBuffer(SLOTS * 4)
}

/** Take positions from the shared table (in each thread that answers). */
export function shareRotation (buffer: SharedArrayBuffer): void {
  shared = new Int32Array(buffer)
}

/** The index of the record the next answer of `rrset` (at `owner`, of `type`) starts with. */
export function nextStart (owner: WireName, type: number, rrset: ServedRrset): number {
  return nextTurn(owner, type, rrset) % rrset.rdata.length
}

/**
 * The turn of the next answer at (`owner`, `type`): a counter moved by one per answer, by every
 * thread that answers (the shared table), else held by `holder` (an rrset, a served pool).
 */
export function nextTurn (owner: WireName, type: number, holder: { next?: number }): number {
  if (shared === undefined) {
    const turn = holder.next ?? 0
    holder.next = (turn + 1) >>> 0
    return turn
  }
  // FNV-1a over the owner's octets, ASCII letters lower-cased, then the type.
  let h = 0x811c9dc5
  for (let i = 0; i < owner.length; i++) {
    let c = owner[i]!
    if (c >= 0x41 && c <= 0x5a) c |= 0x20
    h = Math.imul(h ^ c, 0x01000193)
  }
  h = Math.imul(h ^ type, 0x01000193)
  return Atomics.add(shared, h & (SLOTS - 1), 1) >>> 0
}
