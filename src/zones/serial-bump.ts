import type { NewAuditRecord, RrsetWrite, Store, StoredRrset, Zone, ZoneChanges, ZoneWithAccount } from '../store/store.ts'
import { canonicalSortKey, parseName } from '../zone/name.ts'
import type { ZoneRecord } from '../zone/record.ts'
import { readSoa, soaSerialOffset } from '../zone/rdata/soa.ts'
import { rdataToRecordText } from '../zone/record-text.ts'
import { RRType } from '../zone/rrtype.ts'
import { nextSerial } from '../zone/serial.ts'
import { aliasDnssecChanges, type AliasSigning } from './dnssec/alias.ts'
import { dnssecChanges, type DnssecSigner } from './dnssec/resign.ts'
import { yieldToLoop } from '../util/yield.ts'

/** Rrsets of a large change (a zone signed whole) gone through between turns of the event loop. */
const YIELD_EVERY = 5000

/** Above this many rrset writes, a change writes them in batches before the serial bump's statement. */
const BATCHED_WRITES = 200

/** The zone's SOA rrset (at the apex), if it has one. */
export async function apexSoa (tx: Store, zone: Pick<Zone, 'id' | 'name'>): Promise<StoredRrset | undefined> {
  return await tx.rrsets.get(zone.id, canonicalSortKey(parseName(zone.name)), RRType.SOA)
}

/** SOA wire rdata with its serial set to `serial` (a copy). */
export function withSoaSerial (rdata: Uint8Array, serial: number): Uint8Array {
  const out = Uint8Array.from(rdata)
  new DataView(out.buffer).setUint32(soaSerialOffset(out), serial >>> 0)
  return out
}

/**
 * The one place a change of zone data ends: inside the change's transaction `tx`, after its
 * rrsets were written, move the SOA serial on (RFC 1982 serial arithmetic: today's `YYYYMMDDnn`
 * when that is ahead, else the serial + 1, wrapping at 2^32; see {@link nextSerial}), write it into
 * the SOA rrset (wire and text) and `zones.serial`, add `recordDelta` to `zones.record_count`, and
 * bump the zone's version and modification time (`zones.update`). `zone` must be the row read
 * with `lockById` in the same transaction, so concurrent changes of one zone take serials one
 * after another. Secondary zones (no SOA of their own yet) move only `zones.serial`.
 *
 * The records removed and added by `changed` (and the SOA's new serial) go into the zone change
 * journal under the new version, in the same transaction (IXFR out, other nodes' catch-up).
 * `known.soa` is the apex SOA rrset when the caller read it in this transaction after the lock
 * and did not change it (saves reading it again). `also` carries rrset writes of `changed` the
 * caller left to this call and its audit record: all of it is written by `zones.writeChange`.
 *
 * A signed zone (or one this change signs: `also.zone.dnssec_status`) is signed in the same
 * transaction: the DNSSEC rrsets the change needs (`dnssec/resign.ts`, with `also.dnssec`) are
 * written and journaled with it. Many writes (a whole zone signed) go in batches first. So are
 * its aliases' (`dnssec/alias.ts`): each alias's DNSSEC rrsets the change needs, written as the
 * alias's rows and journaled in the alias's journal with the same serials; unsigning the primary
 * removes them.
 *
 * @returns the updated zone row.
 */
export async function bumpSerial (tx: Store, zone: ZoneWithAccount, now: Date, recordDelta: number, changed: readonly RrsetChange[] = [], known?: { soa: StoredRrset | undefined }, also?: WrittenWithBump): Promise<Zone> {
  const soa = known === undefined ? await apexSoa(tx, zone) : known.soa
  const first = soa?.rdata[0]
  const current = first === undefined ? zone.serial : readSoa(first).serial
  const serial = nextSerial(current, now)
  const net = new Map<string, RrsetChange>()
  for (const c of changed) {
    const r = c.before ?? c.after
    if (r === undefined) continue
    const key = `${r.ownerKey}/${r.type}`
    const seen = net.get(key)
    net.set(key, seen === undefined ? c : { before: seen.before, after: c.after })
  }
  const writes = new Map<string, RrsetWrite>()
  for (const w of also?.rrsets ?? []) writes.set(`${w.ownerKey}/${w.type}`, w)
  if (soa !== undefined && first !== undefined) {
    const rdata = withSoaSerial(first, serial)
    const next = { ...soa, rdata: [rdata], rdataText: [rdataToRecordText(RRType.SOA, rdata)] }
    const key = `${soa.ownerKey}/${RRType.SOA}`
    writes.set(key, { ownerKey: soa.ownerKey, type: RRType.SOA, existed: true, rrset: next })
    net.set(key, { before: net.get(key)?.before ?? soa, after: next })
  }
  const signed = (also?.zone?.dnssec_status ?? zone.dnssec_status) === 'SIGNED'
  if (signed) {
    if (also?.dnssec === undefined) throw new Error(`a change of the signed zone ${zone.name} without its signer`)
    let merged = 0
    for (const c of await dnssecChanges(tx, zone, net, now, also.dnssec)) {
      if (++merged % YIELD_EVERY === 0) await yieldToLoop()
      const r = (c.after ?? c.before)!
      const key = `${r.ownerKey}/${r.type}`
      const before = net.has(key) ? net.get(key)!.before : c.before
      net.set(key, { ...(before === undefined ? {} : { before }), ...(c.after === undefined ? {} : { after: c.after }) })
      writes.set(key, { ownerKey: r.ownerKey, type: r.type, existed: writes.get(key)?.existed ?? c.before !== undefined, ...(c.after === undefined ? {} : { rrset: c.after }) })
    }
  }
  const aliases = await aliasDnssecChanges(tx, zone, net, now, also?.dnssec, signed)
  for (const a of aliases) await writeAliasSigning(tx, a, current, serial)
  const removed: ZoneRecord[] = []
  const added: ZoneRecord[] = []
  let diffed = 0
  for (const c of net.values()) {
    recordDiff(c, removed, added)
    if (++diffed % YIELD_EVERY === 0) await yieldToLoop()
  }
  let rrsets = [...writes.values()]
  if (rrsets.length > BATCHED_WRITES) {
    // A whole zone's signatures: deleted and inserted in batches, not one statement each.
    await tx.rrsets.deleteMany(zone.id, rrsets.filter(w => w.existed))
    await tx.rrsets.insertMany(zone.id, rrsets.flatMap(w => w.rrset === undefined ? [] : [w.rrset]))
    rrsets = []
  }
  // The rrset writes, the zone update, the journal entry and the audit record: one statement on PostgreSQL.
  return await tx.zones.writeChange(zone.id, {
    rrsets,
    zone: { ...also?.zone, serial, record_count: Number(zone.record_count) + recordDelta },
    journal: { serialFrom: current, serialTo: serial, reset: false, removed, added },
    ...(also?.audit === undefined ? {} : { audit: also.audit(serial) })
  })
}

/**
 * An alias's DNSSEC rrsets changed with its primary's change: written (in batches when many), the
 * alias's `dnssec_status` set, and journaled in the alias's journal with the primary's serials
 * (the alias serves its primary's SOA); with `reset`, journaled as a wholesale replacement
 * (a new alias signed whole).
 */
export async function writeAliasSigning (tx: Store, a: AliasSigning, serialFrom: number, serialTo: number, reset = false): Promise<void> {
  const removed: ZoneRecord[] = []
  const added: ZoneRecord[] = []
  for (const c of a.changes) recordDiff(c, removed, added)
  let rrsets: RrsetWrite[] = a.changes.map(c => {
    const r = (c.after ?? c.before)!
    return { ownerKey: r.ownerKey, type: r.type, existed: c.before !== undefined, ...(c.after === undefined ? {} : { rrset: c.after }) }
  })
  if (rrsets.length > BATCHED_WRITES) {
    await tx.rrsets.deleteMany(a.alias.id, rrsets.filter(w => w.existed))
    await tx.rrsets.insertMany(a.alias.id, rrsets.flatMap(w => w.rrset === undefined ? [] : [w.rrset]))
    rrsets = []
  }
  await tx.zones.writeChange(a.alias.id, { rrsets, zone: { dnssec_status: a.status }, journal: reset ? { serialFrom, serialTo, reset } : { serialFrom, serialTo, reset, removed, added } })
}

/** What a change hands {@link bumpSerial} to write with the serial bump (in the same statement where the engine can). */
export interface WrittenWithBump {
  /** Writes of rrsets among its `changed` not made yet (never the apex SOA: the bump writes that). */
  rrsets?: readonly RrsetWrite[]
  /** The change's audit record, given the new serial. */
  audit?: (serial: number) => NewAuditRecord
  /** Other columns of the zone the change sets (signing and unsigning set `dnssec_status`). */
  zone?: Pick<ZoneChanges, 'dnssec_status'>
  /** How to sign the change when the zone is signed (required then). */
  dnssec?: DnssecSigner
}

/** One rrset before and after a change (undefined: absent). */
export interface RrsetChange {
  before?: StoredRrset
  after?: StoredRrset
}

function recordsOf (r: StoredRrset, rdata: readonly Uint8Array[] = r.rdata): ZoneRecord[] {
  const owner = parseName(r.ownerName)
  return rdata.map(d => ({ owner, type: r.type, ttl: r.ttl, rdata: d }))
}

/**
 * The records an rrset change removes and adds: the rdata that went and came, or the whole rrset
 * both ways when its TTL changed (every record of an rrset has the rrset's TTL) or its pool
 * profile did (so whoever applies the step reads the rrset's new answer order).
 */
function recordDiff (c: RrsetChange, removed: ZoneRecord[], added: ZoneRecord[]): void {
  const { before, after } = c
  if (before === undefined || after === undefined || before.ttl !== after.ttl || before.profile !== after.profile) {
    if (before !== undefined) removed.push(...recordsOf(before))
    if (after !== undefined) added.push(...recordsOf(after))
    return
  }
  const key = (d: Uint8Array): string => Buffer.from(d.buffer, d.byteOffset, d.byteLength).toString('latin1')
  const had = new Set(before.rdata.map(key))
  const has = new Set(after.rdata.map(key))
  removed.push(...recordsOf(before, before.rdata.filter(d => !has.has(key(d)))))
  added.push(...recordsOf(after, after.rdata.filter(d => !had.has(key(d)))))
}

/**
 * Journal a wholesale replacement of a zone's records (unalias, a new copy of the zone): whoever
 * follows the journal reloads the zone, and IXFR from an earlier serial is answered with the
 * whole zone.
 */
export async function journalReset (tx: Store, zone: Pick<Zone, 'id' | 'serial'>, updated: Pick<Zone, 'version' | 'serial'>): Promise<void> {
  await tx.zoneChanges.append(zone.id, { version: updated.version, serialFrom: zone.serial, serialTo: updated.serial, reset: true })
}
