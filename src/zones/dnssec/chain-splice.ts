import type { StoredRrset } from '../../store/store.ts'
import type { RrsetChange } from '../serial-bump.ts'
import { rrsetOf, sameRrset } from './signing.ts'

/**
 * Splicing names into and out of a stored denial chain (NSEC or NSEC3, RFC 4034 §4, RFC 5155
 * §7.1) without reading the rest of it: each record names the next, so only the changed names
 * and the records before them change.
 */

/** How a chain's records carry their link to the next name and their type bitmap. */
export interface ChainCodec {
  type: number
  /** The record's next name (its owner key, and the octets the record holds for it) and its bitmap. */
  parse: (rdata: Uint8Array) => { nextKey: string, link: Uint8Array, bitmap: Uint8Array }
  rdata: (link: Uint8Array, bitmap: Uint8Array) => Uint8Array
}

/** What the step reads of the store: chain records by owner key, and predecessors in owner key order. */
export interface ChainReader {
  /** The chain records at these owner keys (undefined when absent). */
  records: (keys: readonly string[]) => Promise<Array<StoredRrset | undefined>>
  /** For each key, the greatest owner key below it with a chain record, undefined when none. */
  preceding: (keys: readonly string[]) => Promise<Array<string | undefined>>
  /** The greatest owner key with a chain record (the chain wraps to it). */
  last: () => Promise<string | undefined>
}

/** One name of the chain as it is after the change: its record's bitmap, or undefined when it has none. */
export interface ChainEntry {
  key: string
  ownerName: string
  /** What the record before it holds as its next name. */
  link: Uint8Array
  bitmap: Uint8Array | undefined
}

interface Parsed { nextKey: string, link: Uint8Array, bitmap: Uint8Array }

/** What the record of one name becomes. */
interface Rewrite { ownerName: string, link: Uint8Array, bitmap: Uint8Array }

/**
 * The chain record changes that bring the stored chain to `entries` (every name whose record
 * comes, goes or changes its bitmap; names not listed keep theirs): a name added is linked
 * between the surviving record before it and that record's next name, a name removed is
 * unlinked from the record before it. Runs of removed names (linked to each other) are found
 * from their own next names, so one predecessor read serves a run; names added after the same
 * predecessor are linked in owner key order (around the end of the chain when it wraps).
 *
 * @param ttl - the TTL of every record written
 */
export async function spliceChain (reader: ChainReader, codec: ChainCodec, entries: readonly ChainEntry[], ttl: number): Promise<RrsetChange[]> {
  const stored = new Map<string, StoredRrset>()
  const parsed = new Map<string, Parsed>()
  const read = async (keys: readonly string[]): Promise<void> => {
    const missing = [...new Set(keys)].filter(k => !parsed.has(k))
    const found = await reader.records(missing)
    missing.forEach((k, i) => {
      const r = found[i]
      if (r === undefined) return
      stored.set(k, r)
      parsed.set(k, codec.parse(r.rdata[0]!))
    })
  }
  await read(entries.map(e => e.key))
  const added = entries.filter(e => e.bitmap !== undefined && !stored.has(e.key))
  const removed = new Set(entries.filter(e => e.bitmap === undefined && stored.has(e.key)).map(e => e.key))
  const rewrites = new Map<string, Rewrite>()
  for (const e of entries) {
    const was = parsed.get(e.key)
    if (e.bitmap !== undefined && was !== undefined) rewrites.set(e.key, { ownerName: e.ownerName, link: was.link, bitmap: e.bitmap })
  }

  if (added.length > 0 || removed.size > 0) {
    // Each run of removed records hangs from the surviving record before its first one.
    const linkedTo = new Set([...removed].map(k => parsed.get(k)!.nextKey))
    const heads = [...removed].filter(k => !linkedTo.has(k))
    const asked = [...heads, ...added.map(a => a.key)]
    const preceding = await reader.preceding(asked)
    let last: string | undefined
    const before = async (i: number): Promise<string> => {
      const p = preceding[i] ?? (last ??= await reader.last())
      if (p === undefined) throw new Error('a signed zone has no denial chain to change')
      return p
    }
    const runAnchor = new Map<string, string>()
    for (let i = 0; i < heads.length; i++) {
      const anchor = await before(i)
      for (let k = heads[i]!; removed.has(k) && !runAnchor.has(k); k = parsed.get(k)!.nextKey) runAnchor.set(k, anchor)
    }
    const followers = new Map<string, ChainEntry[]>()
    for (const anchor of new Set(runAnchor.values())) followers.set(anchor, [])
    for (let i = 0; i < added.length; i++) {
      const p = await before(heads.length + i)
      const anchor = runAnchor.get(p) ?? p
      const list = followers.get(anchor) ?? []
      list.push(added[i]!)
      followers.set(anchor, list)
    }
    await read([...followers.keys()])
    for (const [anchor, list] of followers) {
      const at = parsed.get(anchor)!
      // The surviving name after the anchor, and the octets that name it.
      let next: Parsed = at
      while (removed.has(next.nextKey)) next = parsed.get(next.nextKey)!
      list.sort((a, b) => circularOrder(anchor, a.key, b.key))
      const chain: Array<{ key: string, ownerName: string, bitmap: Uint8Array }> = [
        { key: anchor, ownerName: stored.get(anchor)!.ownerName, bitmap: rewrites.get(anchor)?.bitmap ?? at.bitmap },
        ...list.map(a => ({ key: a.key, ownerName: a.ownerName, bitmap: a.bitmap! }))
      ]
      chain.forEach((c, i) => {
        const link = i + 1 < chain.length ? list[i]!.link : next.link
        rewrites.set(c.key, { ownerName: c.ownerName, link, bitmap: c.bitmap })
      })
    }
  }

  const out: RrsetChange[] = []
  for (const [key, r] of rewrites) {
    const was = stored.get(key)
    const after = rrsetOf({ ownerKey: key, ownerName: r.ownerName }, codec.type, ttl, [codec.rdata(r.link, r.bitmap)])
    if (!sameRrset(was, after)) out.push({ ...(was === undefined ? {} : { before: was }), after })
  }
  for (const key of removed) out.push({ before: stored.get(key)! })
  return out
}

/** Order of keys after `anchor` going round the chain: those above it first, then from the start. */
function circularOrder (anchor: string, a: string, b: string): number {
  const wa = a > anchor ? 0 : 1
  const wb = b > anchor ? 0 : 1
  if (wa !== wb) return wa - wb
  return a < b ? -1 : a > b ? 1 : 0
}
