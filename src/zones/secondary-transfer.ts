import { recordChange, type Actor } from '../audit/recorder.ts'
import { ZonalError } from '../errors/catalog.ts'
import type { Store, StoredRrset, Zone, ZoneWithAccount } from '../store/store.ts'
import { normalizeZone } from '../zone/checks/index.ts'
import { canonicalSortKey, nameToString, parseName } from '../zone/name.ts'
import { rdataToRecordText } from '../zone/record-text.ts'
import type { ZoneRecord } from '../zone/record.ts'
import type { TransferPhase, TransferState } from '../zone/settings.ts'
import { zoneFor, type Caller, type ZoneDeps } from './context.ts'
import { checkZoneSize, DEFAULT_ZONE_LIMITS } from './limits.ts'
import { countRecords, toStoredRrsets } from './records.ts'
import { journalReset } from './serial-bump.ts'

/** What a zone transfer brought (the transfer client's result, in the domain's terms). */
export type TransferredZone =
  | { kind: 'full', serial: number, records: ZoneRecord[] }
  | { kind: 'incremental', serial: number, steps: { serialFrom: number, serialTo: number, removed: ZoneRecord[], added: ZoneRecord[] }[] }
  | { kind: 'current', serial: number }

/**
 * The state of a secondary zone whose transfer was asked for (a new or changed secondary,
 * `POST …/transfer`; `full` for unsuspend, which wants the whole zone even with a copy), keeping
 * the last refresh times.
 */
export function requestedState (previous: TransferState | null, full = false): TransferState {
  return withPhase(previous, { kind: 'requested', full })
}

function withPhase (previous: TransferState | null, phase: TransferPhase): TransferState {
  return { ...previous, phase }
}

/** Whether the state asks for a transfer that has not started yet. */
export function transferRequested (state: TransferState | null): state is TransferState & { phase: { kind: 'requested' } } {
  return state?.phase.kind === 'requested'
}

/** The state after an attempt: its outcome, the attempt's time and when the next one is due. */
function outcome (phase: TransferPhase, now: Date, nextRefresh: Date | undefined): TransferState {
  return { phase, lastRefresh: now.toISOString(), ...(nextRefresh === undefined ? {} : { nextRefresh: nextRefresh.toISOString() }) }
}

/**
 * Operation 10, `POST /zones/{zoneName}/transfer`: ask for a transfer of a secondary zone from its
 * primaries now. The request is written to the zone (status IN_PROGRESS, "Zone transfer
 * requested"); the refresher of any node follows the zone and runs it.
 * @throws ZonalError ZONE_NOT_FOUND, PERMISSION_DENIED, ZONE_NOT_SECONDARY, ZONE_SUSPENDED
 */
export async function requestZoneTransfer (deps: ZoneDeps, caller: Caller, name: string): Promise<void> {
  const zone = await zoneFor(deps, caller, name, 'update')
  if (zone.zone_type !== 'SECONDARY') throw new ZonalError('ZONE_NOT_SECONDARY', zone.name)
  if (zone.status === 'SUSPENDED') throw new ZonalError('ZONE_SUSPENDED')
  await deps.store.transaction(async (tx) => {
    const locked = await lockSecondary(tx, zone.id)
    await tx.zones.update(zone.id, { settings: { transfer: requestedState(locked.settings.transfer) } })
  })
}

/** The actor of transfers the service makes on its own (refresh timers, NOTIFY). */
export const TRANSFER_ACTOR: Actor = { user: 'zonal', ipAddress: null }

async function lockSecondary (tx: Store, zoneId: string): Promise<ZoneWithAccount> {
  const zone = await tx.zones.lockById(zoneId)
  if (zone === undefined) throw new ZonalError('ZONE_NOT_FOUND')
  return zone
}

/** Rrsets keyed by owner key and type, for applying differences. */
function rrsetKey (ownerKey: string, type: number): string {
  return `${ownerKey}/${type}`
}

function sameRdata (a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i])
}

/**
 * Apply IXFR differences to the stored rrsets (RFC 1995 §4: each step's removals, then its
 * additions), in the caller's transaction; returns the record count change.
 */
async function applySteps (tx: Store, zoneId: string, steps: Extract<TransferredZone, { kind: 'incremental' }>['steps']): Promise<number> {
  const touched = new Map<string, StoredRrset | null>()
  const current = async (owner: Uint8Array, type: number): Promise<StoredRrset | null> => {
    const ownerKey = canonicalSortKey(owner)
    const key = rrsetKey(ownerKey, type)
    if (!touched.has(key)) touched.set(key, (await tx.rrsets.get(zoneId, ownerKey, type)) ?? null)
    return touched.get(key)!
  }
  let delta = 0
  for (const step of steps) {
    for (const r of step.removed) {
      const set = await current(r.owner, r.type)
      const at = set === null ? -1 : set.rdata.findIndex(d => sameRdata(d, r.rdata))
      if (set === null || at < 0) continue
      set.rdata.splice(at, 1)
      set.rdataText.splice(at, 1)
      delta--
    }
    for (const r of step.added) {
      const ownerKey = canonicalSortKey(r.owner)
      let set = await current(r.owner, r.type)
      if (set === null) {
        set = { ownerKey, ownerName: nameToString(r.owner), type: r.type, ttl: r.ttl, rdata: [], rdataText: [], profile: null }
        touched.set(rrsetKey(ownerKey, r.type), set)
      }
      set.ttl = r.ttl
      if (set.rdata.some(d => sameRdata(d, r.rdata))) continue
      set.rdata.push(r.rdata)
      set.rdataText.push(rdataToRecordText(r.type, r.rdata))
      delta++
    }
  }
  for (const set of touched.values()) {
    if (set === null) continue
    if (set.rdata.length === 0) await tx.rrsets.delete(zoneId, set.ownerKey, set.type)
    else await tx.rrsets.replace(zoneId, set)
  }
  return delta
}

/**
 * Make a transfer's result the zone's data, in one transaction (issue 7: the served copy switches
 * only when the whole transfer arrived and validated; the caller validated it): a full copy
 * replaces every rrset (journalled as a reset), IXFR differences are applied and journalled as
 * they came, an up-to-date answer changes nothing but the status. The status becomes SUCCESSFUL.
 *
 * A zone that would hold more than `maxRecords` records is refused before anything is written:
 * the zone keeps the data it had, and the caller records the failure (status FAILED, the reason
 * in the transfer failure report).
 *
 * @throws ZonalError ZONE_NOT_FOUND when the zone went away meanwhile, ZONE_TOO_MANY_RECORDS.
 */
export async function applyTransfer (store: Store, zoneId: string, transferred: TransferredZone, now: Date, nextRefresh: Date | undefined, maxRecords = DEFAULT_ZONE_LIMITS.zoneMaxRecords): Promise<Zone> {
  return await store.transaction(async (tx) => {
    const zone = await lockSecondary(tx, zoneId)
    const transfer = outcome({ kind: 'succeeded', serial: transferred.serial, changed: transferred.kind !== 'current' }, now, nextRefresh)
    if (transferred.kind === 'current') return await tx.zones.update(zoneId, { settings: { transfer } })
    if (transferred.kind === 'full') {
      const origin = parseName(zone.name)
      checkZoneSize(transferred.records.length, { zoneMaxRecords: maxRecords })
      const rrsets = toStoredRrsets(normalizeZone(transferred.records, origin).records)
      await tx.rrsets.deleteAll(zoneId)
      await tx.rrsets.insertMany(zoneId, rrsets)
      const updated = await tx.zones.update(zoneId, { serial: transferred.serial, record_count: countRecords(rrsets), settings: { transfer } })
      await journalReset(tx, zone, updated)
      await transferred_(tx, zone, zone.serial, transferred.serial, 'AXFR')
      return updated
    }
    // The differences are applied in this transaction: a zone grown past the limit rolls back.
    const delta = await applySteps(tx, zoneId, transferred.steps)
    checkZoneSize(Number(zone.record_count) + delta, { zoneMaxRecords: maxRecords })
    let updated: Zone = zone
    for (const step of transferred.steps) {
      updated = await tx.zones.update(zoneId, { serial: step.serialTo })
      await tx.zoneChanges.append(zoneId, { version: updated.version, serialFrom: step.serialFrom, serialTo: step.serialTo, reset: false, removed: step.removed, added: step.added })
    }
    await transferred_(tx, zone, zone.serial, transferred.serial, 'IXFR')
    return await tx.zones.update(zoneId, { record_count: Number(zone.record_count) + delta, settings: { transfer } })
  })
}

/** The audit record of a transfer that changed the zone (changeType ZONE_TRANSFER). */
async function transferred_ (tx: Store, zone: ZoneWithAccount, from: number, to: number, kind: 'AXFR' | 'IXFR'): Promise<void> {
  await recordChange(tx, TRANSFER_ACTOR, {
    accountId: zone.account_id,
    accountName: zone.account_name,
    objectType: 'ZONE',
    changeType: 'ZONE_TRANSFER',
    object: zone.name,
    changes: [{ name: 'serial', from, to }],
    others: [{ name: 'transfer', value: kind }]
  })
}

/** Mark a transfer as started (`IN_PROGRESS`), keeping the last refresh time. */
export async function markTransferStarted (store: Store, zoneId: string): Promise<void> {
  await store.transaction(async (tx) => {
    const zone = await lockSecondary(tx, zoneId)
    await tx.zones.update(zoneId, { settings: { transfer: withPhase(zone.settings.transfer, { kind: 'running' }) } })
  })
}

/**
 * Record a failed transfer: the status becomes FAILED with the reason, and an audit record
 * (objectType PRIMARY_NAMESERVER, changeType ZONE_TRANSFER_FAILURE, the primary's address as
 * object, the zone as parent, detail.others `[{name: "reason", value}]`) is written in the same
 * transaction, for the spec's transfer failure report. `lastRefresh` is the time of the attempt.
 */
export async function recordTransferFailure (store: Store, zoneId: string, primary: string, reason: string, now: Date, nextRefresh: Date | undefined): Promise<void> {
  await store.transaction(async (tx) => {
    const zone = await lockSecondary(tx, zoneId)
    await tx.zones.update(zoneId, { settings: { transfer: outcome({ kind: 'failed', reason }, now, nextRefresh) } })
    await recordChange(tx, TRANSFER_ACTOR, {
      accountId: zone.account_id,
      accountName: zone.account_name,
      objectType: 'PRIMARY_NAMESERVER',
      changeType: 'ZONE_TRANSFER_FAILURE',
      object: primary,
      parent: zone.name,
      others: [{ name: 'reason', value: reason }]
    })
  })
}
