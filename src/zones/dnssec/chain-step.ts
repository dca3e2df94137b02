import type { Store } from '../../store/store.ts'
import type { NameRole } from '../../zone/dnssec/zone-cuts.ts'
import { nsec3Hash, nsec3OwnerName, nsec3Parameters, nsec3Rdata, nsec3Types, nsecRdata, nsecTypes, type DenialPolicy } from '../../zone/dnssec/denial.ts'
import { canonicalSortKey, nameToString, wireNameLength } from '../../zone/name.ts'
import { encodeTypeBitmap } from '../../zone/rdata/type-bitmap.ts'
import { RRType } from '../../zone/rrtype.ts'
import type { RrsetChange } from '../serial-bump.ts'
import { ChangedNames, parentKey, subtreeEnd } from './changed-names.ts'
import { spliceChain, type ChainCodec, type ChainEntry, type ChainReader } from './chain-splice.ts'
import type { RecordSource } from './resign.ts'

/**
 * Rows read by the first statement while the names below one are scanned for a member of the
 * NSEC3 chain (the first name usually is one), doubled for each next page up to {@link SCAN_PAGE_MAX}.
 */
const SCAN_PAGE = 8
const SCAN_PAGE_MAX = 1024

type Nsec3Policy = Extract<DenialPolicy, { kind: 'NSEC3' }>

/**
 * The denial chain records a change needs (RFC 4034 §4, RFC 5155 §7.1), found from the changed
 * names alone: each name whose membership or bitmap moves gets its record, and the records
 * before the names that join or leave are relinked ({@link spliceChain}). `names` must be loaded
 * ({@link ChangedNames.loadChange}).
 *
 * @param ttl - the denial TTL (the lesser of the SOA's TTL and MINIMUM, RFC 9077 §3.2)
 */
export async function chainChanges (tx: Store, zoneId: string, source: RecordSource, names: ChangedNames, denial: DenialPolicy, ttl: number): Promise<RrsetChange[]> {
  if (denial.kind === 'NSEC') return await spliceChain(readerOf(tx, zoneId, RRType.NSEC), nsecCodec(), nsecEntries(names), ttl)
  const entries = await nsec3Entries(source, names, denial)
  return await spliceChain(readerOf(tx, zoneId, RRType.NSEC3), nsec3Codec(names, denial), entries, ttl)
}

function readerOf (tx: Store, zoneId: string, type: number): ChainReader {
  return {
    records: async keys => await tx.rrsets.getMany(zoneId, keys.map(ownerKey => ({ ownerKey, type }))),
    preceding: async keys => await tx.rrsets.precedingOwners(zoneId, type, keys),
    last: async () => await tx.rrsets.lastOwnerOf(zoneId, type)
  }
}

function nsecCodec (): ChainCodec {
  return {
    type: RRType.NSEC,
    parse: rdata => {
      const link = rdata.subarray(0, wireNameLength(rdata, 0))
      return { nextKey: canonicalSortKey(link), link, bitmap: rdata.subarray(link.length) }
    },
    rdata: nsecRdata
  }
}

function nsec3Codec (names: ChangedNames, policy: Nsec3Policy): ChainCodec {
  const params = nsec3Parameters(policy.optOut ? 1 : 0, policy.iterations, policy.salt)
  return {
    type: RRType.NSEC3,
    parse: rdata => {
      const at = 5 + rdata[4]!
      const link = rdata.subarray(at + 1, at + 1 + rdata[at]!)
      return { nextKey: canonicalSortKey(nsec3OwnerName(link, names.origin)), link, bitmap: rdata.subarray(at + 1 + link.length) }
    },
    rdata: (link, bitmap) => nsec3Rdata(params, link, bitmap)
  }
}

/**
 * NSEC: every loaded owner that holds types and is not occluded is in the chain, with the
 * bitmap `denial.ts` gives its role; the others are not (empty non-terminals have no NSEC).
 */
function nsecEntries (names: ChangedNames): ChainEntry[] {
  const out: ChainEntry[] = []
  for (const o of names.loaded()) {
    const n = names.zoneName(o.ownerKey, 'after')
    const member = n.types.length > 0 && n.role !== 'occluded'
    out.push({ key: o.ownerKey, ownerName: o.ownerName, link: o.owner, bitmap: member ? encodeTypeBitmap(nsecTypes(n)) : undefined })
  }
  return out
}

/**
 * NSEC3: each loaded owner and ancestor hashed. A name is in the chain when it holds types and
 * is authoritative (a delegation: with Opt-Out only with DS), or when it is an empty
 * non-terminal with such a name below it (RFC 5155 §7.1); the names are taken deepest first so
 * a member found below a name answers for all its ancestors, and only a name with no known
 * member below scans the store's names beneath it.
 */
async function nsec3Entries (source: RecordSource, names: ChangedNames, policy: Nsec3Policy): Promise<ChainEntry[]> {
  const leadsToMember = new Set<string>()
  const found = (key: string): void => {
    for (let up = parentKey(key); up !== undefined && !leadsToMember.has(up); up = parentKey(up)) leadsToMember.add(up)
  }
  const owners = [...names.loaded()].sort((a, b) => (a.ownerKey < b.ownerKey ? 1 : a.ownerKey > b.ownerKey ? -1 : 0))
  const out: ChainEntry[] = []
  for (const o of owners) {
    const n = names.zoneName(o.ownerKey, 'after')
    let member: boolean
    let bitmapTypes: number[] = []
    if (n.types.length > 0 && directMember(n.role, n.types, policy)) {
      member = true
      bitmapTypes = nsec3Types(n)
    } else if (n.role === 'authoritative' && n.types.length === 0) {
      member = leadsToMember.has(o.ownerKey) || await memberBelow(source, names, o.ownerKey, policy)
    } else {
      member = false
    }
    if (member) found(o.ownerKey)
    const hash = nsec3Hash(o.owner, policy.salt, policy.iterations)
    const owner = nsec3OwnerName(hash, names.origin)
    out.push({ key: canonicalSortKey(owner), ownerName: nameToString(owner), link: hash, bitmap: member ? encodeTypeBitmap(bitmapTypes) : undefined })
  }
  return out
}

/** Whether a name with types is hashed for itself: the apex and authoritative names, delegations (with Opt-Out only with DS). */
function directMember (role: NameRole, types: readonly number[], policy: Nsec3Policy): boolean {
  if (role === 'apex' || role === 'authoritative') return true
  return role === 'delegation' && (!policy.optOut || types.includes(RRType.DS))
}

/**
 * Whether a name (authoritative, holding nothing) has a member of the NSEC3 chain below it: the
 * stored names beneath it read a page at a time in canonical order (the change laid over them),
 * the subtree of each delegation met skipped, stopping at the first member.
 */
async function memberBelow (source: RecordSource, names: ChangedNames, key: string, policy: Nsec3Policy): Promise<boolean> {
  const cuts = [...names.loaded()].filter(o => o.ownerKey.startsWith(key) && names.role(o.ownerKey, 'after') === 'delegation').map(o => o.ownerKey)
  // An owner once all its types are read: a member, or where the scan goes on from.
  const verdict = (o: { key: string, types: number[] }): { member: true } | { member: false, skipTo?: string } => {
    const cut = cuts.find(c => o.key.startsWith(c) && o.key !== c)
    if (cut !== undefined) return { member: false, skipTo: subtreeEnd(cut) }
    const types = names.has(o.key) ? [...names.get(o.key).after] : o.types
    if (types.length === 0) return { member: false }
    if (!types.includes(RRType.NS) || directMember('delegation', types, policy)) return { member: true }
    return { member: false, skipTo: subtreeEnd(o.key) }
  }
  let after: { ownerKey: string, type: number } | undefined
  let current: { key: string, types: number[] } | undefined
  for (let size = SCAN_PAGE; ; size = Math.min(size * 2, SCAN_PAGE_MAX)) {
    const page = await source.ownerTypesBelow(key, size, after)
    let skipTo: string | undefined
    for (const r of page) {
      if (current !== undefined && r.ownerKey !== current.key) {
        const v = verdict(current)
        if (v.member) return true
        current = undefined
        if (v.skipTo !== undefined) {
          skipTo = v.skipTo
          break
        }
      }
      current ??= { key: r.ownerKey, types: [] }
      current.types.push(r.type)
    }
    if (skipTo !== undefined) {
      after = { ownerKey: skipTo, type: 0 }
      continue
    }
    if (page.length < size) return current !== undefined && verdict(current).member
    const last = page[page.length - 1]!
    after = { ownerKey: last.ownerKey, type: last.type }
  }
}
