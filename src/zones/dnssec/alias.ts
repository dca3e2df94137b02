import type { Store, WireRrset, Zone } from '../../store/store.ts'
import { canonicalSortKey, nameToString, parseName, type WireName } from '../../zone/name.ts'
import { renameRecord, renameUnder } from '../../zone/rename.ts'
import type { RrsetChange } from '../serial-bump.ts'
import { RRType } from '../../zone/rrtype.ts'
import { openKey } from './keyring.ts'
import { dnssecChanges, storedDnssecRrsets, type DnssecSigner, type OwnerType, type RecordSource } from './resign.ts'
import { rrsetKey } from './signing.ts'
import { DNSSEC_TYPES, isDnssecType } from './types.ts'

/**
 * Alias zones carry the signing of their primary, under their own name (docs/decisions.md
 * "DNSSEC: alias zones"): the primary's keys (a DNSKEY's rdata does not depend on the owner; the
 * alias's DS is computed with the alias's name), the alias's own RRSIGs over the primary's
 * rrsets renamed as the DNS serves them (`renameRecord`, as `serving/zone-sync.ts`), and its own
 * denial chain. The alias's DNSSEC rrsets are rows of the alias zone (its only rows), changed in
 * the transaction of each change of the primary (`bumpSerial`) and journaled in the alias's own
 * journal with the primary's serials.
 */

/** Names and keys of a primary and its alias, to move rows from one to the other. */
interface Move {
  from: WireName
  to: WireName
  fromKey: string
  toKey: string
}

function moveOf (primary: Pick<Zone, 'name'>, alias: Pick<Zone, 'name'>): Move {
  const from = parseName(primary.name)
  const to = parseName(alias.name)
  return { from, to, fromKey: canonicalSortKey(from), toKey: canonicalSortKey(to) }
}

/**
 * The primary's owner key of an owner key under the alias: `canonicalSortKey` puts the origin's
 * labels first, so a name under the alias has the alias origin's key followed by the same
 * relative part as under the primary.
 */
function primaryKey (m: Move, ownerKey: string): string {
  return ownerKey.startsWith(m.toKey) ? m.fromKey + ownerKey.slice(m.toKey.length) : ownerKey
}

/** A row of the primary as the alias serves it: owner and in-zone names in rdata moved under the alias. */
function renamedRow<T extends WireRrset> (m: Move, r: T): T {
  const owner = parseName(r.ownerName)
  const moved = renameUnder(owner, m.from, m.to)
  const rdata = r.rdata.map(d => renameRecord({ owner, type: r.type, ttl: r.ttl, rdata: d }, m.from, m.to).rdata)
  return { ...r, ownerKey: canonicalSortKey(moved), ownerName: nameToString(moved), rdata, ...('rdataText' in r ? { rdataText: [] } : {}) }
}

/** A cursor under the alias moved under the primary. */
function primaryCursor (m: Move, after: { ownerKey: string, type: number } | undefined): { ownerKey: string, type: number } | undefined {
  return after === undefined ? undefined : { ownerKey: primaryKey(m, after.ownerKey), type: after.type }
}

/** An owner and type of the primary's as the alias's. */
function renamedOwnerType (m: Move, r: OwnerType): OwnerType {
  const moved = renameUnder(parseName(r.ownerName), m.from, m.to)
  return { ownerKey: canonicalSortKey(moved), ownerName: nameToString(moved), type: r.type }
}

/**
 * Pages of the primary's rows (`read`, from a cursor under the primary) without its DNSSEC rows,
 * renamed, filled up to `limit` (a short page means the end).
 */
async function recordPage (m: Move, limit: number, after: { ownerKey: string, type: number } | undefined, read: (limit: number, cursor?: { ownerKey: string, type: number }) => Promise<WireRrset[]>): Promise<WireRrset[]> {
  const out: WireRrset[] = []
  let cursor = primaryCursor(m, after)
  for (;;) {
    const page = await read(limit, cursor)
    for (const w of page) {
      if (out.length === limit) return out
      if (!isDnssecType(w.type)) out.push(renamedRow(m, w))
    }
    if (page.length < limit || out.length === limit) return out
    const last = page[page.length - 1]!
    cursor = { ownerKey: last.ownerKey, type: last.type }
  }
}

/** Canonical order of rows: owner key, then type. */
function byOwnerAndType (a: WireRrset, b: WireRrset): number {
  return a.ownerKey < b.ownerKey ? -1 : a.ownerKey > b.ownerKey ? 1 : a.type - b.type
}

/**
 * The alias's records for its signing: its primary's rows (DNSSEC rows left out) read by owner
 * keys moved back under the primary, returned renamed under the alias; a subtree's rows merged
 * with the alias's own DNSSEC rows there.
 */
export function aliasRecords (tx: Store, primary: Pick<Zone, 'id' | 'name'>, alias: Pick<Zone, 'id' | 'name'>): RecordSource {
  const m = moveOf(primary, alias)
  return {
    zoneId: primary.id,
    listWire: async (limit, after) => await recordPage(m, limit, after, async (n, cursor) => await tx.rrsets.listWire(primary.id, n, cursor)),
    get: async (ownerKey, type) => {
      const r = await tx.rrsets.get(primary.id, primaryKey(m, ownerKey), type)
      return r === undefined ? undefined : renamedRow(m, r)
    },
    getMany: async (keys) => (await tx.rrsets.getMany(primary.id, keys.map(k => ({ ownerKey: primaryKey(m, k.ownerKey), type: k.type })))).map(r => r === undefined ? undefined : renamedRow(m, r)),
    ownerTypesAt: async (ownerKeys) => (await tx.rrsets.ownerTypesAt(primary.id, ownerKeys.map(k => primaryKey(m, k)), DNSSEC_TYPES)).map(r => renamedOwnerType(m, r)),
    ownerTypesBelow: async (ownerKey, limit, after) => (await tx.rrsets.ownerTypesBelow(primary.id, primaryKey(m, ownerKey), DNSSEC_TYPES, limit, primaryCursor(m, after))).map(r => renamedOwnerType(m, r)),
    listWireSubtree: async (ownerKey, limit, after) => {
      // Both streams from the cursor, each at most `limit`: the first `limit` of their merge are the subtree's next page.
      const records = await recordPage(m, limit, after, async (n, cursor) => await tx.rrsets.listWireSubtree(primary.id, primaryKey(m, ownerKey), n, cursor))
      const own = await tx.rrsets.listWireSubtree(alias.id, ownerKey, limit, after)
      return [...records, ...own].sort(byOwnerAndType).slice(0, limit)
    }
  }
}

/** A change of the primary's rrsets as the change of the alias's (DNSSEC rrsets left out: the alias has its own). */
export function renamedNet (primary: Pick<Zone, 'name'>, alias: Pick<Zone, 'name'>, net: ReadonlyMap<string, RrsetChange>): Map<string, RrsetChange> {
  const m = moveOf(primary, alias)
  const out = new Map<string, RrsetChange>()
  for (const c of net.values()) {
    const r = c.after ?? c.before
    if (r === undefined || isDnssecType(r.type)) continue
    const before = c.before === undefined ? undefined : renamedRow(m, c.before)
    const after = c.after === undefined ? undefined : renamedRow(m, c.after)
    out.set(rrsetKey((after ?? before)!.ownerKey, r.type), { ...(before === undefined ? {} : { before }), ...(after === undefined ? {} : { after }) })
  }
  return out
}

/** What a change of a primary does to one of its aliases: its DNSSEC rrsets changed, and its `dnssec_status`. */
export interface AliasSigning {
  alias: Zone
  changes: RrsetChange[]
  status: 'SIGNED' | 'UNSIGNED'
}

/**
 * The DNSSEC changes of each alias of `primary` that a change of the primary needs, for
 * `bumpSerial` to write in its transaction: while the primary is signed (`signed`: after the
 * change), each alias's DNSSEC rrsets computed from `net` renamed under the alias, with the
 * primary's keys and policy (`signer`'s, else the stored ones), over the primary's records
 * renamed ({@link aliasRecords}); an alias not signed yet (created before, or unaliased and
 * aliased again) is signed whole. When the primary is unsigned, each signed alias's DNSSEC rows go.
 *
 * @param primary the primary's row, with its `dnssec_status` before the change
 * @throws Error when the primary is signed without a signer, or has no DNSSEC policy
 */
export async function aliasDnssecChanges (tx: Store, primary: Zone, net: ReadonlyMap<string, RrsetChange>, now: Date, signer: DnssecSigner | undefined, signed: boolean): Promise<AliasSigning[]> {
  if (!signed && primary.dnssec_status !== 'SIGNED') return []
  const aliases = await tx.zones.aliasesOf(primary.id)
  const out: AliasSigning[] = []
  let signing: DnssecSigner | undefined
  for (const alias of aliases) {
    if (!signed) {
      if (alias.dnssec_status === 'SIGNED') out.push({ alias, changes: [...(await storedDnssecRrsets(tx, alias.id)).values()].map(before => ({ before })), status: 'UNSIGNED' })
      continue
    }
    if (signer === undefined) throw new Error(`a change of the signed zone ${primary.name} without its signer`)
    if (signing === undefined) {
      const policy = signer.policy ?? (await tx.dnssec.find(primary.id))?.policy
      if (policy === undefined) throw new Error(`zone ${primary.name} is signed but has no DNSSEC policy`)
      signing = { secrets: signer.secrets, policy, keys: signer.keys ?? (await tx.dnssec.keys(primary.id)).map(k => openKey(k, signer.secrets)) }
    }
    const aliasNet = renamedNet(primary, alias, net)
    // A new DNSKEY rrset of the primary (a key step): the alias's too, the same keys at its apex.
    const dnskey = [...net.values()].find(c => c.after?.type === RRType.DNSKEY)?.after
    const keysChanged: RrsetChange[] = []
    if (dnskey !== undefined) {
      const after = renamedRow(moveOf(primary, alias), { ...dnskey, rdataText: [...dnskey.rdataText] })
      const before = await tx.rrsets.get(alias.id, after.ownerKey, RRType.DNSKEY)
      const change = { ...(before === undefined ? {} : { before }), after: { ...after, rdataText: dnskey.rdataText } }
      aliasNet.set(rrsetKey(after.ownerKey, RRType.DNSKEY), change)
      keysChanged.push(change)
    }
    const whole = signer.whole === true || alias.dnssec_status !== 'SIGNED'
    const changes = await dnssecChanges(tx, alias, aliasNet, now, { ...signing, whole, refresh: signer.aliasRefresh?.get(alias.id) ?? [] }, aliasRecords(tx, primary, alias))
    // Signed whole, the DNSKEY rrset is among the changes already.
    out.push({ alias, changes: whole ? changes : [...keysChanged, ...changes], status: 'SIGNED' })
  }
  return out
}

/**
 * A new alias of `primary` (locked by the caller, signed) signed whole with the primary's keys
 * and policy: its DNSSEC rrsets, for `writeAliasSigning` in the creation's transaction.
 *
 * @throws Error when the primary has no DNSSEC policy or a key cannot be opened
 */
export async function newAliasSigning (tx: Store, primary: Zone, alias: Zone, now: Date, secrets: DnssecSigner['secrets']): Promise<AliasSigning> {
  const policy = (await tx.dnssec.find(primary.id))?.policy
  if (policy === undefined) throw new Error(`zone ${primary.name} is signed but has no DNSSEC policy`)
  const keys = (await tx.dnssec.keys(primary.id)).map(k => openKey(k, secrets))
  const changes = await dnssecChanges(tx, alias, new Map(), now, { secrets, policy, keys, whole: true }, aliasRecords(tx, primary, alias))
  return { alias, changes, status: 'SIGNED' }
}
