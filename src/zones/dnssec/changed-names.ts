import type { WireRrset } from '../../store/store.ts'
import type { NameRole, ZoneName } from '../../zone/dnssec/zone-cuts.ts'
import { canonicalSortKey, nameFromSortKey, parseName, type WireName } from '../../zone/name.ts'
import { RRType } from '../../zone/rrtype.ts'
import type { RrsetChange } from '../serial-bump.ts'
import type { RecordSource } from './resign.ts'
import { rrsetKey } from './signing.ts'
import { isDnssecType } from './types.ts'

/** Rows read per statement while a subtree is read. */
const PAGE = 5000

/** Which side of a change: the zone as stored before it, or as it is after. */
export type Side = 'before' | 'after'

/** An owner of the zone as a change sees it: its types (DNSSEC types aside) before and after. */
export interface ChangedOwner {
  ownerKey: string
  owner: WireName
  ownerName: string
  before: Set<number>
  after: Set<number>
}

/**
 * The key of the parent of the name whose owner key is `key` (owner keys end each label with
 * '!': the parent's key is the key without its last label), undefined for the root.
 */
export function parentKey (key: string): string | undefined {
  if (key === '') return undefined
  return key.slice(0, key.lastIndexOf('!', key.length - 2) + 1)
}

/** The first owner key after every key of a subtree (descendants extend its key with hex digits and '!'). */
export function subtreeEnd (key: string): string {
  return key + '~'
}

/**
 * The owners a change of a signed zone touches, and what each is for DNSSEC before and after it
 * (RFC 4035 §2.2: apex, authoritative, delegation point, occluded), read from the store only at
 * those owners, their ancestors and the subtrees whose role the change moves (a delegation added
 * or removed), never the whole zone. The change's own rrsets (`net`) are laid over what is read,
 * whether the store holds them before or after the change.
 */
export class ChangedNames {
  readonly apexKey: string
  private readonly owners = new Map<string, ChangedOwner>()
  private readonly netTypes = new Map<string, Map<number, RrsetChange>>()
  /** Rrsets read with the subtrees, by {@link rrsetKey}: all of them, DNSSEC ones included. */
  private readonly subtreeRrsets = new Map<string, WireRrset>()
  private readonly subtrees: string[] = []
  private readonly roles = new Map<string, NameRole>()

  private readonly source: RecordSource
  readonly origin: WireName

  constructor (source: RecordSource, origin: WireName, net: ReadonlyMap<string, RrsetChange>) {
    this.source = source
    this.origin = origin
    this.apexKey = canonicalSortKey(origin)
    for (const c of net.values()) {
      const r = (c.after ?? c.before)!
      if (isDnssecType(r.type)) continue
      let types = this.netTypes.get(r.ownerKey)
      if (types === undefined) {
        types = new Map()
        this.netTypes.set(r.ownerKey, types)
      }
      types.set(r.type, c)
    }
  }

  /** The owner keys of the change's own rrsets (DNSSEC types aside). */
  changedOwnerKeys (): string[] {
    return [...this.netTypes.keys()]
  }

  /** The types of the change's own rrsets at `key`. */
  changedTypes (key: string): number[] {
    return [...(this.netTypes.get(key)?.keys() ?? [])]
  }

  /** The change of the rrset of `type` at `key`, if the change has one. */
  changeOf (key: string, type: number): RrsetChange | undefined {
    return this.netTypes.get(key)?.get(type)
  }

  /** The owners where a delegation came or went (NS added or removed below the apex): their subtrees change role. */
  cutsMoved (): string[] {
    const out: string[] = []
    for (const [key, types] of this.netTypes) {
      const ns = types.get(RRType.NS)
      if (ns !== undefined && key !== this.apexKey && (ns.before === undefined) !== (ns.after === undefined)) out.push(key)
    }
    return out
  }

  /** The owners loaded so far. */
  loaded (): IterableIterator<ChangedOwner> {
    return this.owners.values()
  }

  /** A loaded owner (every key passed to {@link load} or read in a subtree, and their ancestors). */
  get (key: string): ChangedOwner {
    const o = this.owners.get(key)
    if (o === undefined) throw new Error(`owner ${key} was not loaded`)
    return o
  }

  /** Whether an owner was loaded. */
  has (key: string): boolean {
    return this.owners.has(key)
  }

  /** The ancestors of an owner key strictly below the apex, nearest first. */
  ancestorKeys (key: string): string[] {
    const out: string[] = []
    for (let up = parentKey(key); up !== undefined && up.length > this.apexKey.length; up = parentKey(up)) out.push(up)
    return out
  }

  /**
   * Load the changed owners, every owner of the subtrees where a delegation came or went (with
   * their rrsets, for signing), and the ancestors of all of them up to the apex.
   */
  async loadChange (): Promise<void> {
    for (const cut of this.cutsMoved()) await this.loadSubtree(cut)
    const keys = new Set<string>(this.changedOwnerKeys())
    for (const o of [...this.owners.keys()]) keys.add(o)
    const wanted = new Set<string>()
    for (const k of keys) {
      wanted.add(k)
      for (const up of this.ancestorKeys(k)) wanted.add(up)
    }
    await this.load([...wanted])
  }

  /** Load owners by key (those not loaded yet): their stored types, the change laid over them. */
  async load (keys: readonly string[]): Promise<void> {
    const missing = keys.filter(k => !this.owners.has(k))
    if (missing.length === 0) return
    const stored = new Map<string, { ownerName: string, types: number[] }>()
    for (const r of await this.source.ownerTypesAt(missing)) {
      const entry = stored.get(r.ownerKey) ?? { ownerName: r.ownerName, types: [] }
      entry.types.push(r.type)
      stored.set(r.ownerKey, entry)
    }
    for (const k of missing) this.add(k, stored.get(k)?.ownerName, stored.get(k)?.types ?? [])
  }

  private add (key: string, storedName: string | undefined, storedTypes: readonly number[]): ChangedOwner {
    const changes = this.netTypes.get(key)
    const first = changes?.values().next().value
    const ownerName = storedName ?? (first === undefined ? undefined : (first.after ?? first.before)!.ownerName)
    const owner = ownerName === undefined ? nameFromSortKey(key) : parseName(ownerName)
    const before = new Set(storedTypes)
    const after = new Set(storedTypes)
    for (const [type, c] of changes ?? []) {
      if (c.before === undefined) before.delete(type)
      else before.add(type)
      if (c.after === undefined) after.delete(type)
      else after.add(type)
    }
    const o: ChangedOwner = { ownerKey: key, owner, ownerName: ownerName ?? '', before, after }
    this.owners.set(key, o)
    return o
  }

  /** Every rrset at `key` and below it, read a page at a time: their owners loaded, the rrsets kept for {@link storedRrset}. */
  private async loadSubtree (key: string): Promise<void> {
    if (this.subtrees.some(s => key.startsWith(s))) return
    this.subtrees.push(key)
    const types = new Map<string, { ownerName: string, types: number[] }>()
    let after: { ownerKey: string, type: number } | undefined
    for (;;) {
      const page = await this.source.listWireSubtree(key, PAGE, after)
      for (const r of page) {
        this.subtreeRrsets.set(rrsetKey(r.ownerKey, r.type), r)
        const entry = types.get(r.ownerKey) ?? { ownerName: r.ownerName, types: [] }
        if (!isDnssecType(r.type)) entry.types.push(r.type)
        types.set(r.ownerKey, entry)
      }
      if (page.length < PAGE) break
      const last = page[page.length - 1]!
      after = { ownerKey: last.ownerKey, type: last.type }
    }
    // Owners of the change in the subtree that the store does not hold yet.
    for (const k of this.netTypes.keys()) if (k.startsWith(key) && !types.has(k)) types.set(k, { ownerName: '', types: [] })
    for (const [k, t] of types) {
      if (!this.owners.has(k)) this.add(k, t.ownerName === '' ? undefined : t.ownerName, t.types)
      // Empty non-terminals of the subtree: nothing stored there.
      for (let up = parentKey(k); up !== undefined && up.length > key.length; up = parentKey(up)) if (!this.owners.has(up)) this.add(up, undefined, [])
    }
    if (!this.owners.has(key)) this.add(key, undefined, [])
  }

  /** Whether the subtree of `key` was read whole (so a missing rrset there is absent). */
  private inSubtree (key: string): boolean {
    return this.subtrees.some(s => key.startsWith(s))
  }

  /**
   * The stored rrset of `type` at `key` as read with its subtree; null when the subtree was read
   * and holds none, undefined when it was not read (ask the store).
   */
  storedRrset (key: string, type: number): WireRrset | null | undefined {
    const r = this.subtreeRrsets.get(rrsetKey(key, type))
    if (r !== undefined) return r
    return this.inSubtree(key) ? null : undefined
  }

  /** The rrsets at a subtree owner with the change laid over them (what signing it needs). */
  rrsetAfter (key: string, type: number): Pick<WireRrset, 'ownerKey' | 'ownerName' | 'type' | 'ttl' | 'rdata'> | undefined {
    const c = this.changeOf(key, type)
    if (c !== undefined) return c.after
    return this.storedRrset(key, type) ?? undefined
  }

  /**
   * What a loaded owner is on one side of the change (RFC 4035 §2.2): the apex; occluded below a
   * name holding NS (the nearest cut hides everything beneath it, delegations too); a
   * delegation point when it holds NS itself; else authoritative. Its ancestors must be loaded.
   */
  role (key: string, side: Side): NameRole {
    const memo = `${side}/${key}`
    const known = this.roles.get(memo)
    if (known !== undefined) return known
    let role: NameRole
    if (key === this.apexKey) role = 'apex'
    else if (this.ancestorKeys(key).some(up => this.owners.get(up)?.[side].has(RRType.NS) === true)) role = 'occluded'
    else role = this.get(key)[side].has(RRType.NS) ? 'delegation' : 'authoritative'
    this.roles.set(memo, role)
    return role
  }

  /** The owner as `zoneNames` would classify it on one side (types ascending). */
  zoneName (key: string, side: Side): ZoneName {
    const o = this.get(key)
    return { owner: o.owner, types: [...o[side]].sort((a, b) => a - b), role: this.role(key, side), order: '' }
  }
}
