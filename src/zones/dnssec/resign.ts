import type { SecretBox } from '../../auth/secrets.ts'
import type { DnssecPolicy, Store, StoredRrset, WireRrset, Zone } from '../../store/store.ts'
import { signRrset } from '../../zone/dnssec/sign.ts'
import type { ZoneName } from '../../zone/dnssec/zone-cuts.ts'
import { signatureWindow, signZone, type SigningPolicy } from '../../zone/dnssec/zone-signer.ts'
import { canonicalSortKey, parseName, type WireName } from '../../zone/name.ts'
import type { ZoneRecord } from '../../zone/record.ts'
import { RRType } from '../../zone/rrtype.ts'
import type { RrsetChange } from '../serial-bump.ts'
import { openKey, type OpenKey } from './keyring.ts'
import { coveredType, denialTtl, rrsigOriginalTtl, groupRrsets, rrsetKey, rrsetOf, sameRrset, signingKeysOf, signingPolicyOf } from './signing.ts'
import { ChangedNames } from './changed-names.ts'
import { chainChanges } from './chain-step.ts'
import { DNSSEC_TYPES, isDnssecType } from './types.ts'
import { yieldToLoop } from '../../util/yield.ts'

/** What signing a change needs besides the store: the box the private keys are sealed in, and how much to sign. */
export interface DnssecSigner {
  secrets: SecretBox
  /**
   * Sign the whole zone again (sign, re-sign, a policy or key change): every DNSSEC record of the
   * zone computed afresh and compared with the stored ones. Otherwise only what the change touched.
   */
  whole?: boolean
  /** The policy to sign with instead of the stored one (a re-sign changing it writes it itself). */
  policy?: DnssecPolicy
  /** The keys to sign with instead of the stored ones (already opened). */
  keys?: readonly OpenKey[]
  /** Rrsets (any type, DNSKEY included) whose signatures are made again though they did not change: the refresh before expiry. */
  refresh?: ReadonlyArray<{ ownerKey: string, type: number }>
  /**
   * With `whole`: the zone's DNSSEC rrsets already signed from its records as they are (by
   * `signPackedZone`, off the request's thread, with the same keys and policy). Only the new SOA
   * is signed again here; when the change holds anything else, the zone is signed afresh instead.
   */
  signed?: ReadonlyMap<string, StoredRrset>
  /** Per alias id, the rrsets of that alias (any type) whose signatures are made again (`dnssec/alias.ts`). */
  aliasRefresh?: ReadonlyMap<string, ReadonlyArray<{ ownerKey: string, type: number }>>
}

/**
 * Where a change's zone records (every type but the DNSSEC ones) are read: the zone's own rows
 * ({@link ownRecords}), or an alias's primary's moved under the alias's name (`dnssec/alias.ts`).
 * The zone's DNSSEC rows are always read from the zone itself.
 */
export interface RecordSource {
  /** The zone whose rows are read (the zone itself for its own records). */
  zoneId: string
  /** The rrsets in canonical order, a page at a time after `after` (DNSSEC rows only when they are the zone's own). */
  listWire (limit: number, after?: { ownerKey: string, type: number }): Promise<WireRrset[]>
  get (ownerKey: string, type: number): Promise<StoredRrset | undefined>
  getMany (keys: ReadonlyArray<{ ownerKey: string, type: number }>): Promise<Array<StoredRrset | undefined>>
  /** The owner and type of the records at `ownerKeys` (DNSSEC types aside), as `rrsets.ownerTypesAt`. */
  ownerTypesAt (ownerKeys: readonly string[]): Promise<OwnerType[]>
  /** The owner and type of the records strictly below `ownerKey` (DNSSEC types aside), a page after a position, as `rrsets.ownerTypesBelow`. */
  ownerTypesBelow (ownerKey: string, limit: number, after?: { ownerKey: string, type: number }): Promise<OwnerType[]>
  /** The rrsets at `ownerKey` and below, a page after a position in canonical order: the records from the source, the DNSSEC rows from the zone. */
  listWireSubtree (ownerKey: string, limit: number, after?: { ownerKey: string, type: number }): Promise<WireRrset[]>
}

/** An owner and one type it holds. */
export interface OwnerType { ownerKey: string, ownerName: string, type: number }

/** The zone's own rows as the {@link RecordSource} of its changes. */
export function ownRecords (tx: Store, zoneId: string): RecordSource {
  return {
    zoneId,
    listWire: async (limit, after) => await tx.rrsets.listWire(zoneId, limit, after),
    get: async (ownerKey, type) => await tx.rrsets.get(zoneId, ownerKey, type),
    getMany: async (keys) => await tx.rrsets.getMany(zoneId, keys),
    ownerTypesAt: async (ownerKeys) => await tx.rrsets.ownerTypesAt(zoneId, ownerKeys, DNSSEC_TYPES),
    ownerTypesBelow: async (ownerKey, limit, after) => await tx.rrsets.ownerTypesBelow(zoneId, ownerKey, DNSSEC_TYPES, limit, after),
    listWireSubtree: async (ownerKey, limit, after) => await tx.rrsets.listWireSubtree(zoneId, ownerKey, limit, after)
  }
}

/** Rrsets read per statement while a whole zone is read. */
const PAGE = 5000

/**
 * The DNSSEC rrsets a change of a signed zone needs, as changes (stored before, new after) for
 * {@link bumpSerial} to write with it in its transaction. `net` holds every rrset the change
 * touches, the apex SOA with its new serial among them; the store may hold them before or after
 * the change (both are handled: the change's own values are laid over what is read).
 *
 * Incrementally: new signatures (by every active ZSK) over each changed authoritative rrset and
 * the new SOA, the signatures of removed rrsets dropped, all in the RRSIG rrset of their owner;
 * a delegation added or removed re-signs its subtree for its new role (read by its owner key
 * range, not the zone: occluded names lose their signatures, names no longer below a cut are
 * signed); and when rrsets appeared or went, the denial chain spliced where the changed names
 * join or leave it (`chain-step.ts`), only the NSEC/NSEC3 rrsets that differ written and signed.
 * A change of the denial TTL (SOA TTL or MINIMUM) signs the whole zone instead.
 *
 * `source` is where the zone's records are read (an alias's: its primary's, renamed); its DNSSEC
 * rows are read from `zone` itself.
 *
 * @throws Error when the zone has no DNSSEC row or a key cannot be opened (another `ZONAL_SECRET_KEY`).
 */
export async function dnssecChanges (tx: Store, zone: Pick<Zone, 'id' | 'name'>, net: ReadonlyMap<string, RrsetChange>, now: Date, signer: DnssecSigner, source: RecordSource = ownRecords(tx, zone.id)): Promise<RrsetChange[]> {
  const policy = signer.policy ?? (await tx.dnssec.find(zone.id))?.policy
  if (policy === undefined) throw new Error(`zone ${zone.name} is signed but has no DNSSEC policy`)
  const keys = signer.keys ?? (await tx.dnssec.keys(zone.id)).map(k => openKey(k, signer.secrets))
  const origin = parseName(zone.name)
  const at = Math.floor(now.getTime() / 1000)
  const signing = signingPolicyOf(policy)
  const apexKey = canonicalSortKey(origin)
  if (signer.whole === true && signer.signed !== undefined && source.zoneId === zone.id && onlySerialMoved(net, apexKey)) return await precomputedChanges(tx, zone.id, origin, net, signer.signed, keys, signing, at)
  if (signer.whole === true || needsWhole(net, apexKey)) return await wholeChanges(tx, zone.id, origin, net, keys, signing, at, source)
  return await incrementalChanges(tx, zone.id, origin, net, keys, signing, at, signer.refresh ?? [], source)
}

/**
 * Whether a change alters the denial TTL (SOA TTL or MINIMUM): every NSEC/NSEC3 record of the
 * zone takes the new TTL and is signed again, which is the whole chain (kept as the whole-zone
 * path: the other rrsets' signatures are made again with it, a cost of the same order).
 */
function needsWhole (net: ReadonlyMap<string, RrsetChange>, apexKey: string): boolean {
  const soa = net.get(rrsetKey(apexKey, RRType.SOA))
  return soa?.before !== undefined && soa.after !== undefined && denialTtl(soa.before) !== denialTtl(soa.after)
}

/** The types signed at a name (RFC 4035 §2.2): all of them at the apex and authoritative names, DS at a delegation, none below a cut. */
function signedTypes (n: ZoneName): Set<number> {
  if (n.role === 'occluded') return new Set()
  if (n.role === 'delegation') return new Set(n.types.filter(t => t === RRType.DS))
  return new Set(n.types)
}

/** The stored rrsets of `type` at owners: from the subtrees `names` read where it read them, else in one statement. */
async function storedRrsets (tx: Store, zoneId: string, names: ChangedNames, ownerKeys: readonly string[], type: number): Promise<Array<StoredRrset | undefined>> {
  const out: Array<StoredRrset | undefined> = []
  const ask: number[] = []
  ownerKeys.forEach((key, i) => {
    const known = names.storedRrset(key, type)
    if (known === undefined) ask.push(i)
    out.push(known === undefined || known === null ? undefined : { ...known, rdataText: [] })
  })
  const found = ask.length === 0 ? [] : await tx.rrsets.getMany(zoneId, ask.map(i => ({ ownerKey: ownerKeys[i]!, type })))
  ask.forEach((i, j) => { out[i] = found[j] })
  return out
}

/** Whether a change holds nothing but the apex SOA, its denial TTL kept (a serial bump). */
function onlySerialMoved (net: ReadonlyMap<string, RrsetChange>, apexKey: string): boolean {
  for (const { before, after } of net.values()) {
    const r = after ?? before
    if (r === undefined || r.type !== RRType.SOA || r.ownerKey !== apexKey || before === undefined || after === undefined || denialTtl(before) !== denialTtl(after)) return false
  }
  return true
}

/**
 * The DNSSEC rrsets signed before the transaction (`signed`) with the SOA of this change signed
 * again (its serial moved since), and the differences from the stored ones.
 */
async function precomputedChanges (tx: Store, zoneId: string, origin: WireName, net: ReadonlyMap<string, RrsetChange>, signed: ReadonlyMap<string, StoredRrset>, keys: readonly OpenKey[], signing: SigningPolicy, at: number): Promise<RrsetChange[]> {
  const next = new Map(signed)
  const zsks = keys.filter(k => k.row.role === 'ZSK' && k.row.state === 'ACTIVE').map(k => k.key)
  for (const { after: soa } of net.values()) {
    if (soa === undefined) continue
    const key = rrsetKey(soa.ownerKey, RRType.RRSIG)
    const sigs = next.get(key)
    const window = signatureWindow(signing, at, origin, RRType.SOA)
    const fresh = zsks.map(k => signRrset(origin, origin, RRType.SOA, soa.ttl, soa.rdata, k, window))
    next.set(key, rrsetOf(soa, RRType.RRSIG, Math.min(sigs?.ttl ?? soa.ttl, soa.ttl), [...(sigs?.rdata ?? []).filter(d => coveredType(d) !== RRType.SOA), ...fresh]))
  }
  return differences(await storedDnssecRrsets(tx, zoneId), next)
}

/** Every DNSSEC rrset the zone holds (read a page at a time, the event loop let run between pages). */
export async function storedDnssecRrsets (tx: Store, zoneId: string): Promise<Map<string, StoredRrset>> {
  const out = new Map<string, StoredRrset>()
  let after: { ownerKey: string, type: number } | undefined
  for (;;) {
    const page = await tx.rrsets.listWire(zoneId, PAGE, after)
    for (const w of page) if (isDnssecType(w.type)) out.set(rrsetKey(w.ownerKey, w.type), { ...w, rdataText: [] })
    if (page.length < PAGE) return out
    const last = page[page.length - 1]!
    after = { ownerKey: last.ownerKey, type: last.type }
    await yieldToLoop()
  }
}

/** The change of each rrset whose new value differs from the stored one. */
function differences (stored: ReadonlyMap<string, StoredRrset>, next: ReadonlyMap<string, StoredRrset>): RrsetChange[] {
  const out: RrsetChange[] = []
  for (const [key, after] of next) {
    const before = stored.get(key)
    if (!sameRrset(before, after)) out.push({ ...(before === undefined ? {} : { before }), after })
  }
  for (const [key, before] of stored) if (!next.has(key)) out.push({ before })
  return out
}

/**
 * Every DNSSEC record of the zone computed from its records after the change (`signZone`), and
 * the differences from the stored ones.
 */
async function wholeChanges (tx: Store, zoneId: string, origin: WireName, net: ReadonlyMap<string, RrsetChange>, keys: readonly OpenKey[], signing: SigningPolicy, at: number, source: RecordSource): Promise<RrsetChange[]> {
  const records: ZoneRecord[] = []
  const stored = new Map<string, StoredRrset>()
  const seen = new Set<string>()
  const add = (r: Pick<StoredRrset, 'ownerName' | 'type' | 'ttl' | 'rdata'>): void => {
    const owner = parseName(r.ownerName)
    for (const rdata of r.rdata) records.push({ owner, type: r.type, ttl: r.ttl, rdata })
  }
  let after: { ownerKey: string, type: number } | undefined
  for (;;) {
    const page = await source.listWire(PAGE, after)
    for (const w of page) {
      const key = rrsetKey(w.ownerKey, w.type)
      if (isDnssecType(w.type)) {
        stored.set(key, { ...w, rdataText: [] })
        continue
      }
      seen.add(key)
      const changed = net.get(key)
      if (changed === undefined) add(w)
      else if (changed.after !== undefined) add(changed.after)
    }
    if (page.length < PAGE) break
    const last = page[page.length - 1]!
    after = { ownerKey: last.ownerKey, type: last.type }
  }
  for (const [key, c] of net) if (!seen.has(key) && c.after !== undefined && !isDnssecType(c.after.type)) add(c.after)
  // Records read elsewhere (an alias's primary): the zone's stored DNSSEC rows read from the zone.
  after = undefined
  while (source.zoneId !== zoneId) {
    const page = await tx.rrsets.listWire(zoneId, PAGE, after)
    for (const w of page) if (isDnssecType(w.type)) stored.set(rrsetKey(w.ownerKey, w.type), { ...w, rdataText: [] })
    if (page.length < PAGE) break
    const last = page[page.length - 1]!
    after = { ownerKey: last.ownerKey, type: last.type }
  }
  const signed = signZone(origin, records, signingKeysOf(keys), signing, at)
  return differences(stored, groupRrsets(signed))
}

/** Rrsets by key: DNSSEC rows from the zone, the others from `source` (two statements). */
async function readSplit (tx: Store, zoneId: string, source: RecordSource, keys: ReadonlyArray<{ ownerKey: string, type: number }>): Promise<Array<StoredRrset | undefined>> {
  const own = keys.filter(k => isDnssecType(k.type))
  const rest = keys.filter(k => !isDnssecType(k.type))
  const found = new Map<string, StoredRrset | undefined>()
  const got = [own.length === 0 ? [] : await tx.rrsets.getMany(zoneId, own), rest.length === 0 ? [] : await source.getMany(rest)]
  ;[own, rest].forEach((list, j) => list.forEach((k, i) => found.set(rrsetKey(k.ownerKey, k.type), got[j]![i])))
  return keys.map(k => found.get(rrsetKey(k.ownerKey, k.type)))
}

/** What a change of one owner's RRSIG rrset does: the covered types whose signatures go, and the new ones. */
interface OwnerSignatures {
  owner: WireName
  ownerName: string
  ownerKey: string
  drop: Set<number>
  add: Uint8Array[]
}

async function incrementalChanges (tx: Store, zoneId: string, origin: WireName, net: ReadonlyMap<string, RrsetChange>, keys: readonly OpenKey[], signing: SigningPolicy, at: number, refresh: ReadonlyArray<{ ownerKey: string, type: number }>, source: RecordSource): Promise<RrsetChange[]> {
  const zsks = keys.filter(k => k.row.role === 'ZSK' && k.row.state === 'ACTIVE').map(k => k.key)
  const ksks = keys.filter(k => k.row.role === 'KSK' && k.row.state === 'ACTIVE').map(k => k.key)
  const changes = [...net.values()].filter(c => !isDnssecType((c.after ?? c.before)!.type))
  const sigs = new Map<string, OwnerSignatures>()
  const plan = (r: Pick<StoredRrset, 'ownerKey' | 'ownerName'>, owner: WireName): OwnerSignatures => {
    let s = sigs.get(r.ownerKey)
    if (s === undefined) {
      s = { owner, ownerName: r.ownerName, ownerKey: r.ownerKey, drop: new Set(), add: [] }
      sigs.set(r.ownerKey, s)
    }
    return s
  }
  const sign = (s: OwnerSignatures, type: number, rrset: Pick<StoredRrset, 'ttl' | 'rdata'> | undefined): void => {
    s.drop.add(type)
    if (rrset === undefined) return
    const window = signatureWindow(signing, at, s.owner, type)
    // RFC 4035 §2.1: the DNSKEY rrset is signed by the KSKs, everything else by the ZSKs.
    for (const k of type === RRType.DNSKEY ? ksks : zsks) s.add.push(signRrset(origin, s.owner, type, rrset.ttl, rrset.rdata, k, window))
  }
  // Signatures refreshed: the rrsets as they are (none of them is in this change).
  const again = refresh.filter(r => !net.has(rrsetKey(r.ownerKey, r.type)))
  const current = again.length === 0 ? [] : source.zoneId === zoneId ? await tx.rrsets.getMany(zoneId, again) : await readSplit(tx, zoneId, source, again)
  current.forEach(r => { if (r !== undefined) sign(plan(r, parseName(r.ownerName)), r.type, r) })
  // A new DNSKEY rrset (a key step that leaves the signing ZSKs as they were): signed by the KSKs.
  for (const c of net.values()) if (c.after?.type === RRType.DNSKEY) sign(plan(c.after, origin), RRType.DNSKEY, c.after)

  // What each owner the change touches signs before and after it (its types, its role: a
  // delegation added or removed moves the role of its subtree), and the signatures that differ.
  const names = new ChangedNames(source, origin, net)
  await names.loadChange()
  for (const o of names.loaded()) {
    const was = signedTypes(names.zoneName(o.ownerKey, 'before'))
    const is = signedTypes(names.zoneName(o.ownerKey, 'after'))
    for (const type of new Set([...was, ...is, ...names.changedTypes(o.ownerKey)])) {
      const changed = names.changeOf(o.ownerKey, type) !== undefined
      if (!is.has(type)) {
        if (was.has(type) || changed) sign(plan(o, o.owner), type, undefined)
      } else if (changed || !was.has(type)) {
        const rrset = names.rrsetAfter(o.ownerKey, type)
        if (rrset === undefined) throw new Error(`the rrset ${o.ownerName} ${type} to sign was not read`)
        sign(plan(o, o.owner), type, rrset)
      }
    }
  }

  // The denial chain, when the change made or removed rrsets: only the records that move.
  const chain: RrsetChange[] = []
  if (changes.some(c => (c.before === undefined) !== (c.after === undefined))) {
    const apexKey = canonicalSortKey(origin)
    const soa = net.get(rrsetKey(apexKey, RRType.SOA))?.after ?? await source.get(apexKey, RRType.SOA)
    const ttl = soa === undefined ? 3600 : denialTtl(soa)
    for (const c of await chainChanges(tx, zoneId, source, names, signing.denial, ttl)) {
      chain.push(c)
      const r = (c.after ?? c.before)!
      sign(plan(r, parseName(r.ownerName)), r.type, c.after)
    }
  }

  // Each owner's RRSIG rrset: the signatures of the changed types replaced.
  const plans = [...sigs.values()]
  const storedSigs = await storedRrsets(tx, zoneId, names, plans.map(p => p.ownerKey), RRType.RRSIG)
  const sigChanges: RrsetChange[] = []
  plans.forEach((p, i) => {
    const was = storedSigs[i]
    const kept = (was?.rdata ?? []).filter(d => !p.drop.has(coveredType(d)))
    const rdata = [...kept, ...p.add]
    // The lowest TTL of the rrsets covered (each signature holds its rrset's, RFC 4034 §3.1.4), as groupRrsets makes it.
    const ttl = Math.min(...rdata.map(rrsigOriginalTtl))
    const next = rdata.length === 0 ? undefined : rrsetOf(p, RRType.RRSIG, ttl, rdata)
    if (!sameRrset(was, next)) sigChanges.push({ ...(was === undefined ? {} : { before: was }), ...(next === undefined ? {} : { after: next }) })
  })
  return [...chain, ...sigChanges]
}
