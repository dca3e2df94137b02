import { recordChange, type Actor, type Change } from '../audit/recorder.ts'
import { ZonalError } from '../errors/catalog.ts'
import type { TaskRow, ZoneRow } from '../store/schema.ts'
import type { Store, StoredRrset, Zone, ZoneSnapshot, ZoneWithAccount } from '../store/store.ts'
import { formatRdata } from '../zone/rdata/index.ts'
import { readSoa } from '../zone/rdata/soa.ts'
import { nextSerial } from '../zone/serial.ts'
import { zoneFor, type Caller, type ZoneDeps } from './context.ts'
import { apexSoa, journalReset, withSoaSerial } from './serial-bump.ts'
import { hostRecordChanges } from './web-forward-records.ts'
import { RRType } from '../zone/rrtype.ts'

/** The task kinds of a snapshot and of a restore (background work, answered 202 + X-Task-Id). */
export const SNAPSHOT_ZONE = 'snapshot-zone'
export const RESTORE_ZONE = 'restore-zone'

/** Input of a snapshot or restore task: the zone, and who asked (for the audit record). */
export interface SnapshotTaskPayload {
  zoneId: string
  actor: Actor
}

const SOA = 6

/**
 * Why a zone cannot have a snapshot or be restored (the real API's rules: primary zones only;
 * not alias, secondary, suspended or signed zones), or undefined when it can.
 */
function ineligibility (zone: Pick<ZoneRow, 'zone_type' | 'status' | 'dnssec_status'>): string | undefined {
  if (zone.zone_type !== 'PRIMARY') return `Snapshot and restore support primary zones only; it is ${zone.zone_type === 'ALIAS' ? 'an alias' : 'a secondary'} zone.`
  if (zone.status === 'SUSPENDED') return 'It is suspended.'
  if (zone.dnssec_status === 'SIGNED') return 'It is signed.'
  return undefined
}

function checkEligible (zone: ZoneWithAccount, operation: 'snapshot' | 'restore'): void {
  const why = ineligibility(zone)
  if (why !== undefined) throw new ZonalError(operation === 'snapshot' ? 'ZONE_NOT_ELIGIBLE_SNAPSHOT' : 'ZONE_NOT_ELIGIBLE_RESTORE', zone.name, why)
}

async function createTask (deps: ZoneDeps, caller: Caller, zone: ZoneWithAccount, kind: string): Promise<TaskRow> {
  const payload: SnapshotTaskPayload = { zoneId: zone.id, actor: caller.actor }
  return await deps.store.tasks.create({ accountId: zone.account_id, userId: caller.principal.userId, kind, message: 'Pending', payload })
}

/**
 * `POST /zones/{zoneName}/snapshot`: check the zone (write permission, eligible), then create the
 * task that takes the snapshot ({@link takeSnapshot}).
 * @throws ZonalError ZONE_NOT_FOUND (1801), PERMISSION_DENIED, ZONE_NOT_ELIGIBLE_SNAPSHOT (370002)
 */
export async function requestSnapshot (deps: ZoneDeps, caller: Caller, name: string): Promise<TaskRow> {
  const zone = await zoneFor(deps, caller, name, 'write')
  checkEligible(zone, 'snapshot')
  return await createTask(deps, caller, zone, SNAPSHOT_ZONE)
}

/**
 * `POST /zones/{zoneName}/restore`: check the zone (write permission, eligible, has a snapshot),
 * then create the task that restores it ({@link restoreSnapshot}).
 * @throws ZonalError ZONE_NOT_FOUND (1801), PERMISSION_DENIED, ZONE_NOT_ELIGIBLE_RESTORE (370002),
 *   SNAPSHOT_NOT_FOUND (70002)
 */
export async function requestRestore (deps: ZoneDeps, caller: Caller, name: string): Promise<TaskRow> {
  const zone = await zoneFor(deps, caller, name, 'write')
  checkEligible(zone, 'restore')
  if (await deps.store.snapshots.find(zone.id) === undefined) throw new ZonalError('SNAPSHOT_NOT_FOUND')
  return await createTask(deps, caller, zone, RESTORE_ZONE)
}

/**
 * `GET /zones/{zoneName}/snapshot`: the zone (read permission) and its snapshot, whose rrsets
 * {@link snapshotRrsets} reads page by page. A suspended zone's snapshot can be read; alias and
 * secondary zones never have one.
 * @throws ZonalError ZONE_NOT_FOUND (1801), ZONE_NOT_ELIGIBLE_SNAPSHOT (370002), SNAPSHOT_NOT_FOUND (70002)
 */
export async function readSnapshot (deps: ZoneDeps, caller: Caller, name: string): Promise<{ zone: ZoneWithAccount, snapshot: ZoneSnapshot }> {
  const zone = await zoneFor(deps, caller, name, 'read')
  if (zone.zone_type !== 'PRIMARY') checkEligible(zone, 'snapshot')
  const snapshot = await deps.store.snapshots.find(zone.id)
  if (snapshot === undefined) throw new ZonalError('SNAPSHOT_NOT_FOUND')
  return { zone, snapshot }
}

/** A snapshot's rrsets in canonical order, read `pageSize` at a time (never the whole zone at once). */
export async function * snapshotRrsets (store: Store, zoneId: string, pageSize = 1000): AsyncGenerator<StoredRrset[]> {
  let after: { ownerKey: string, type: number } | undefined
  for (;;) {
    const page = await store.snapshots.list(zoneId, pageSize, after)
    if (page.length > 0) yield page
    if (page.length < pageSize) return
    const last = page[page.length - 1]!
    after = { ownerKey: last.ownerKey, type: last.type }
  }
}

async function lockEligible (tx: Store, zoneId: string, operation: 'snapshot' | 'restore'): Promise<ZoneWithAccount> {
  const zone = await tx.zones.lockById(zoneId)
  if (zone === undefined) throw new ZonalError('ZONE_NOT_FOUND')
  checkEligible(zone, operation)
  return zone
}

async function currentSerial (tx: Store, zone: ZoneWithAccount): Promise<number> {
  const soa = (await apexSoa(tx, zone))?.rdata[0]
  return soa === undefined ? Number(zone.serial) : readSoa(soa).serial
}

/**
 * Take a zone's snapshot, replacing the one it had (UltraDNS keeps one per zone), in one
 * transaction with the zone row locked, so the copy is the zone at one point in time: its rrsets
 * copied inside the database, its serial and record count, and an audit record (object type
 * ZONE, change type SNAPSHOT).
 * @throws ZonalError ZONE_NOT_FOUND (deleted since the request), ZONE_NOT_ELIGIBLE_SNAPSHOT
 */
export async function takeSnapshot (store: Store, zoneId: string, actor: Actor, now: Date): Promise<{ zone: ZoneWithAccount, snapshot: ZoneSnapshot }> {
  return await store.transaction(async (tx) => {
    const zone = await lockEligible(tx, zoneId, 'snapshot')
    const previous = await tx.snapshots.find(zone.id)
    const snapshot = await tx.snapshots.take(zone.id, { serial: await currentSerial(tx, zone), recordCount: Number(zone.record_count), createdAt: now.toISOString() })
    await recordChange(tx, actor, {
      accountId: zone.account_id,
      accountName: zone.account_name,
      objectType: 'ZONE',
      changeType: 'SNAPSHOT',
      object: zone.name,
      changes: [{ name: 'snapshot', from: previous?.createdAt ?? null, to: snapshot.createdAt }],
      others: [{ name: 'serial', value: snapshot.serial }, { name: 'recordCount', value: snapshot.recordCount }]
    })
    return { zone, snapshot }
  })
}

/**
 * Restore a zone from its snapshot, in one transaction like any change of zone data: the zone's
 * rrsets replaced by the snapshot's (inside the database), the SOA serial moved on from the
 * zone's current one (not the snapshot's, so secondaries see a newer zone), the record count set,
 * a reset entry in the change journal (IXFR from an earlier serial gets the whole zone; the DNS
 * index reloads the zone and NOTIFY follows the commit) and an audit record (object type ZONE,
 * change type RESTORE). Only records are restored; the zone's transfer settings stay as they are.
 * @throws ZonalError ZONE_NOT_FOUND, ZONE_NOT_ELIGIBLE_RESTORE, SNAPSHOT_NOT_FOUND
 */
export async function restoreSnapshot (store: Store, zoneId: string, actor: Actor, now: Date, forwardAddresses: readonly string[] = DEFAULT_RESTORE_FORWARD_ADDRESSES): Promise<{ zone: Zone, snapshot: ZoneSnapshot }> {
  return await store.transaction(async (tx) => {
    const zone = await lockEligible(tx, zoneId, 'restore')
    const snapshot = await tx.snapshots.find(zone.id)
    if (snapshot === undefined) throw new ZonalError('SNAPSHOT_NOT_FOUND')
    const from = await currentSerial(tx, zone)
    await tx.snapshots.restore(zone.id)
    const forwarded = await keepForwardedHosts(tx, zone, forwardAddresses)
    const serial = nextSerial(from, now)
    const soa = await apexSoa(tx, zone)
    if (soa?.rdata[0] !== undefined) {
      const rdata = withSoaSerial(soa.rdata[0], serial)
      await tx.rrsets.replace(zone.id, { ...soa, rdata: [rdata], rdataText: [formatRdata(SOA, rdata)] })
    }
    const updated = await tx.zones.update(zone.id, { serial, record_count: snapshot.recordCount + forwarded.delta })
    await journalReset(tx, { id: zone.id, serial: from }, updated)
    await recordChange(tx, actor, {
      accountId: zone.account_id,
      accountName: zone.account_name,
      objectType: 'ZONE',
      changeType: 'RESTORE',
      object: zone.name,
      changes: [{ name: 'serial', from, to: serial }, { name: 'recordCount', from: Number(zone.record_count), to: snapshot.recordCount + forwarded.delta }, ...forwarded.audit],
      others: [{ name: 'snapshot', value: snapshot.createdAt }]
    })
    return { zone: updated, snapshot }
  })
}

/** The forwarding server's address when the task runner is given none (`ZONAL_FORWARD_ADDRESSES`' default). */
const DEFAULT_RESTORE_FORWARD_ADDRESSES: readonly string[] = ['127.0.0.1']

/**
 * After a restore, the hosts of the zone's web forwards (which a snapshot does not hold: they
 * stay as they are) answer the forwarding server again: their A and AAAA records are written
 * over whatever the snapshot had there. A snapshot with a CNAME at such a host cannot be
 * restored beside its forwards (the names would answer both).
 * @throws ZonalError WEB_FORWARD_RESTORE_CONFLICT
 */
async function keepForwardedHosts (tx: Store, zone: ZoneWithAccount, addresses: readonly string[]): Promise<{ delta: number, audit: Change[] }> {
  const forwards = await tx.webForwards.list(zone.id)
  if (forwards.length === 0) return { delta: 0, audit: [] }
  const hosts = [...new Map(forwards.map(f => [f.ownerKey, f])).values()]
  const cnames = await tx.rrsets.getMany(zone.id, hosts.map(h => ({ ownerKey: h.ownerKey, type: RRType.CNAME })))
  const clash = hosts.filter((_, i) => cnames[i] !== undefined).map(h => `${h.host}.`)
  if (clash.length > 0) throw new ZonalError('WEB_FORWARD_RESTORE_CONFLICT', clash.join(', '))
  const records = await hostRecordChanges(tx, zone, hosts, addresses)
  for (const w of records.writes) {
    if (w.rrset !== undefined) await tx.rrsets.replace(zone.id, w.rrset)
    else await tx.rrsets.delete(zone.id, w.ownerKey, w.type)
  }
  return { delta: records.delta, audit: records.audit }
}
