import { randomUUID } from 'node:crypto'
import { recordChange, type Actor } from '../audit/recorder.ts'
import { ZonalError } from '../errors/catalog.ts'
import type { DnssecPolicy, Store, Zone, ZoneWithAccount } from '../store/store.ts'
import { parseName } from '../zone/name.ts'
import { normalizeZone } from '../zone/checks/index.ts'
import type { ZoneRecord } from '../zone/record.ts'
import { renameRecord } from '../zone/rename.ts'
import { nextSerial } from '../zone/serial.ts'
import { changeCommentFrom, limitsOf, zoneFor, zoneNameFrom, type Caller, type ZoneDeps } from './context.ts'
import { checkZoneSize } from './limits.ts'
import { countRecords, readZoneRecords, toStoredRrsets } from './records.ts'
import { readSoa, soaSerialOffset } from '../zone/rdata/soa.ts'
import { bumpSerial, journalReset } from './serial-bump.ts'
import { isDnssecType } from './dnssec/types.ts'
import { openKey, type OpenKey } from './dnssec/keyring.ts'
import { nextEvent } from './dnssec/schedule.ts'
import { requestedState } from './secondary-transfer.ts'
import { RRType } from '../zone/rrtype.ts'

async function audit (tx: Store, actor: Actor, zone: ZoneWithAccount, changeType: string, changes: { name: string, from?: unknown, to?: unknown }[], comment: string | null): Promise<void> {
  await recordChange(tx, actor, {
    accountId: zone.account_id,
    accountName: zone.account_name,
    objectType: 'ZONE',
    changeType,
    object: zone.name,
    changes,
    changeComment: comment
  })
}

/**
 * Operation 2, `DELETE /zones/{zoneName}`: the zone and its records; a primary that still has
 * alias zones is refused.
 * @throws ZonalError ZONE_NOT_FOUND, PERMISSION_DENIED, ZONE_HAS_ALIASES
 */
export async function deleteZone (deps: ZoneDeps, caller: Caller, name: string, body: unknown): Promise<void> {
  const zone = await zoneFor(deps, caller, name, 'delete')
  const comment = changeCommentFrom(body)
  await deps.store.transaction(async (tx) => {
    // An alias's primary locked first: a change of the primary under way (which writes its aliases' DNSSEC rows) ends before.
    if (zone.original_zone_id !== null) await tx.zones.lockById(zone.original_zone_id)
    const aliases = await tx.zones.aliasesOf(zone.id)
    if (aliases.length > 0) throw new ZonalError('ZONE_HAS_ALIASES', aliases.map(a => a.name).join(', '))
    await tx.zones.deleteById(zone.id)
    await audit(tx, caller.actor, zone, 'DELETE', [{ name: 'zone', from: zone.zone_type }], comment)
  })
}

/**
 * Operation 5, `POST /zones/{zoneName}/convert`: a secondary becomes a primary with the data it
 * holds; its primary name servers and transfer state are dropped.
 * @throws ZonalError ZONE_NOT_FOUND, PERMISSION_DENIED, ZONE_CONVERSION_INVALID, ZONE_SUSPENDED
 */
export async function convertZone (deps: ZoneDeps, caller: Caller, name: string, body: unknown): Promise<Zone> {
  const zone = await zoneFor(deps, caller, name, 'write')
  if (zone.zone_type !== 'SECONDARY') throw new ZonalError('ZONE_CONVERSION_INVALID', zone.zone_type, 'PRIMARY')
  if (zone.status === 'SUSPENDED') throw new ZonalError('ZONE_SUSPENDED')
  const comment = changeCommentFrom(body)
  return await deps.store.transaction(async (tx) => {
    const updated = await tx.zones.update(zone.id, {
      zone_type: 'PRIMARY',
      settings: { primaries: [], transfer: null, notificationEmail: null, restrictList: [], notify: [] }
    })
    await audit(tx, caller.actor, zone, 'CONVERT', [{ name: 'type', from: 'SECONDARY', to: 'PRIMARY' }], comment)
    return updated
  })
}

/**
 * The primary's DNSSEC policy and keys (those still in its zone) copied as the zone's own, for
 * an alias becoming a primary; undefined when the primary is not signed any more.
 */
async function copySigning (tx: Store, deps: ZoneDeps, primaryId: string, zoneId: string): Promise<{ policy: DnssecPolicy, keys: OpenKey[] } | undefined> {
  const state = await tx.dnssec.find(primaryId)
  if (state === undefined) return undefined
  const now = deps.clock().toISOString()
  await tx.dnssec.save({ ...state, zoneId, signedAt: now, modifiedAt: now, nextEventAt: null })
  const keys: OpenKey[] = []
  for (const k of await tx.dnssec.keys(primaryId)) {
    if (k.state === 'REMOVED') continue
    const row = { ...k, id: randomUUID(), zoneId }
    await tx.dnssec.addKey(row)
    keys.push(openKey(row, deps.secrets))
  }
  return { policy: state.policy, keys }
}

/**
 * Operation 6, `POST /zones/{zoneName}/unalias`: the alias gets a copy of its primary's records
 * (renamed to the alias) and settings, and the link is removed. A signed alias stays signed: the
 * primary's policy and keys are copied as its own and it is signed whole as a primary.
 * @throws ZonalError ZONE_NOT_FOUND, PERMISSION_DENIED, ZONE_CONVERSION_INVALID, ZONE_UNALIAS_SUSPENDED,
 *   ZONE_TOO_MANY_RECORDS (the primary holds more than the limit now allows)
 */
export async function unaliasZone (deps: ZoneDeps, caller: Caller, name: string, body: unknown): Promise<Zone> {
  const zone = await zoneFor(deps, caller, name, 'unalias')
  if (zone.zone_type !== 'ALIAS') throw new ZonalError('ZONE_CONVERSION_INVALID', zone.zone_type, 'PRIMARY')
  if (zone.status === 'SUSPENDED') throw new ZonalError('ZONE_UNALIAS_SUSPENDED', zone.name)
  const comment = changeCommentFrom(body)
  const original = zone.original_zone_id === null ? undefined : await deps.store.zones.findById(zone.original_zone_id)
  const records: ZoneRecord[] = []
  if (original !== undefined) {
    checkZoneSize(Number(original.record_count), limitsOf(deps))
    const from = parseName(original.name)
    const to = parseName(zone.name)
    // A signed primary's DNSSEC records are its signer's, valid for its name only: not copied.
    const signed = original.dnssec_status === 'SIGNED'
    for await (const r of readZoneRecords(deps.store, original.id)) if (!signed || !isDnssecType(r.type)) records.push(renameRecord(r, from, to))
  }
  const rrsets = toStoredRrsets(normalizeZone(records, parseName(zone.name)).records)
  return await deps.store.transaction(async (tx) => {
    // The primary locked first: a change of it under way (which writes this alias's DNSSEC rows) ends before.
    if (original !== undefined) await tx.zones.lockById(original.id)
    await tx.rrsets.deleteAll(zone.id)
    await tx.rrsets.insertMany(zone.id, rrsets)
    const updated = await tx.zones.update(zone.id, {
      zone_type: 'PRIMARY',
      original_zone_id: null,
      record_count: countRecords(rrsets),
      serial: original?.serial ?? 0,
      settings: { restrictList: original?.settings.restrictList ?? [], tsig: original?.settings.tsig ?? null, notify: original?.settings.notify ?? [] }
    })
    await journalReset(tx, zone, updated)
    const changes = [{ name: 'type', from: 'ALIAS', to: 'PRIMARY' }, { name: 'originalZoneName', from: original?.name ?? null, to: null }]
    let result = updated
    if (zone.dnssec_status === 'SIGNED') {
      // A signed alias stays signed, with its primary's keys and policy copied as its own: the
      // DS records its parent holds (computed for its name) stay valid.
      const signed = original === undefined ? undefined : await copySigning(tx, deps, original.id, zone.id)
      if (signed === undefined) result = await tx.zones.update(zone.id, { dnssec_status: 'UNSIGNED' })
      else {
        result = await bumpSerial(tx, { ...zone, ...updated, account_name: zone.account_name }, deps.clock(), 0, [], undefined, { dnssec: { secrets: deps.secrets, whole: true, ...signed } })
        await tx.dnssec.schedule(zone.id, await nextEvent(tx, zone.id, signed.policy, deps.clock()))
      }
      changes.push({ name: 'dnssecStatus', from: 'SIGNED', to: signed === undefined ? 'UNSIGNED' : 'SIGNED' })
    }
    await audit(tx, caller.actor, zone, 'UNALIAS', changes, comment)
    return result
  })
}

/**
 * Operation 7, `POST /zones/{zoneName}/suspend`: Owner, Administrators and DNSAdministrators only
 * (the `suspend` permission). The zone stays readable; updates are refused and it is not served.
 * @throws ZonalError ZONE_NOT_FOUND, PERMISSION_DENIED, ZONE_ALREADY_SUSPENDED
 */
export async function suspendZone (deps: ZoneDeps, caller: Caller, name: string, body: unknown): Promise<Zone> {
  const zone = await zoneFor(deps, caller, name, 'suspend')
  if (zone.status === 'SUSPENDED') throw new ZonalError('ZONE_ALREADY_SUSPENDED')
  const comment = changeCommentFrom(body)
  return await deps.store.transaction(async (tx) => {
    const updated = await tx.zones.update(zone.id, { status: 'SUSPENDED' })
    await audit(tx, caller.actor, zone, 'SUSPEND', [{ name: 'status', from: 'ACTIVE', to: 'SUSPENDED' }], comment)
    return updated
  })
}

/**
 * The support-only reverse of suspend (no API endpoint; `zonal zone unsuspend`): the zone is
 * active again and, for a primary, its SOA serial is incremented so secondaries pick it up.
 * @throws ZonalError ZONE_NOT_FOUND, ZONE_NOT_SUSPENDED
 */
export async function unsuspendZone (deps: ZoneDeps, actor: Actor, name: string): Promise<Zone> {
  const all = (await deps.store.accounts.list()).map(a => a.id)
  const zone = await deps.store.zones.findByName(zoneNameFrom(name), { accountIds: all })
  if (zone === undefined) throw new ZonalError('ZONE_NOT_FOUND')
  if (zone.status !== 'SUSPENDED') throw new ZonalError('ZONE_NOT_SUSPENDED')
  return await deps.store.transaction(async (tx) => {
    let serial = zone.serial
    if (zone.zone_type === 'PRIMARY' && zone.dnssec_status === 'SIGNED') {
      // A signed zone: the serial moves through bumpSerial, which signs the new SOA (and journals it).
      const active = await tx.zones.update(zone.id, { status: 'ACTIVE' })
      await journalReset(tx, zone, active)
      const updated = await bumpSerial(tx, { ...zone, ...active, account_name: zone.account_name }, deps.clock(), 0, [], undefined, { dnssec: { secrets: deps.secrets } })
      await audit(tx, actor, zone, 'UNSUSPEND', [{ name: 'status', from: 'SUSPENDED', to: 'ACTIVE' }, { name: 'serial', from: zone.serial, to: updated.serial }], null)
      return updated
    }
    if (zone.zone_type === 'PRIMARY') {
      const apex = (await tx.rrsets.list(zone.id, 8)).find(r => r.type === RRType.SOA)
      if (apex !== undefined && apex.rdata[0] !== undefined) {
        const rdata = Uint8Array.from(apex.rdata[0])
        serial = nextSerial(readSoa(rdata).serial, deps.clock())
        new DataView(rdata.buffer).setUint32(soaSerialOffset(rdata), serial)
        const owner = parseName(apex.ownerName)
        const [rrset] = toStoredRrsets([{ owner, type: RRType.SOA, ttl: apex.ttl, rdata }])
        await tx.rrsets.replace(zone.id, rrset!)
      }
    }
    // A secondary asks its primaries for the whole zone again (spec: unsuspend transition).
    const updated = await tx.zones.update(zone.id, { status: 'ACTIVE', serial, ...(zone.zone_type === 'SECONDARY' ? { settings: { transfer: requestedState(zone.settings.transfer, true) } } : {}) })
    await journalReset(tx, zone, updated)
    await audit(tx, actor, zone, 'UNSUSPEND', [{ name: 'status', from: 'SUSPENDED', to: 'ACTIVE' }, { name: 'serial', from: zone.serial, to: serial }], null)
    return updated
  })
}
