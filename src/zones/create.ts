import { recordChange } from '../audit/recorder.ts'
import { ZonalError } from '../errors/catalog.ts'
import type { ZoneRow } from '../store/schema.ts'
import type { Store, Zone, ZoneWithAccount } from '../store/store.ts'
import { normalizeZone } from '../zone/checks/index.ts'
import { isSubdomain, nameKey, nameToString, parentName, parseName, type WireName } from '../zone/name.ts'
import { newZoneRecords } from '../zone/new-zone.ts'
import { readSoa, soaSerialOffset } from '../zone/rdata/soa.ts'
import type { ZoneRecord } from '../zone/record.ts'
import { renameRecord } from '../zone/rename.ts'
import { dateSerial } from '../zone/serial.ts'
import { endpointTarget, formatEndpoint, type ZoneSettings } from '../zone/settings.ts'
import { changeCommentFrom, limitsOf, zoneNameFrom, type Caller, type ZoneDeps } from './context.ts'
import { checkZoneSize } from './limits.ts'
import { countRecords, readZoneRecords, toStoredRrsets } from './records.ts'
import { isDnssecType } from './dnssec/types.ts'
import { newAliasSigning } from './dnssec/alias.ts'
import { DNSSEC_SYNC_MAX_RECORDS, DNSSEC_TASK, type DnssecTaskPayload } from './dnssec/sign-zone.ts'
import { apexSoa, writeAliasSigning } from './serial-bump.ts'
import { parseNotifyAddresses, parsePrimaryNameServers, parsePrimaryServer, parseRestrictList, parseTsig } from './sections.ts'
import { requestedState } from './secondary-transfer.ts'
import { tsigKeyOf } from './tsig-key.ts'
import { unpackRrsets } from './packed-rrsets.ts'
import { packUploadOffThread, type PackedUpload } from './upload-records.ts'
import { RRType } from '../zone/rrtype.ts'

type Json = Record<string, unknown>

/** Rrsets of an upload unpacked and inserted at a time (the insert lets the event loop run between its batches). */
const INSERT_CHUNK = 4000

const ZONE_TYPES = ['PRIMARY', 'SECONDARY', 'ALIAS'] as const
const CREATE_TYPES = ['NEW', 'COPY', 'TRANSFER', 'UPLOAD'] as const

function obj (v: unknown): Json | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? v as Json : undefined
}

/** The primary section under either spelling the API uses (`primaryCreateInfo`, `createPrimaryInfo`). */
export function primarySection (body: Json): Json | undefined {
  return obj(body.primaryCreateInfo) ?? obj(body.createPrimaryInfo)
}

export function secondarySection (body: Json): Json | undefined {
  return obj(body.secondaryCreateInfo) ?? obj(body.createSecondaryInfo)
}

/** `restrictIPList` (create, PUT, PATCH) or `restrictIpList` (GET, JSON Patch paths). */
export function restrictListOf (section: Json): unknown {
  return section.restrictIPList ?? section.restrictIpList
}

/** The transfer settings of a primary section (restrict list, TSIG key sealed, notify targets). */
export function primarySettings (deps: ZoneDeps, section: Json): Pick<ZoneSettings, 'restrictList' | 'tsig' | 'notify'> {
  return {
    restrictList: parseRestrictList(restrictListOf(section)),
    tsig: parseTsig(section.tsig, deps.secrets, 'tsig'),
    notify: parseNotifyAddresses(section.notifyAddresses)
  }
}

/**
 * The flags a primary section may set (`valimailMonitor`, which octoDNS sends on create and
 * PATCH); those left out are not in the result.
 *
 * @throws ZonalError INVALID_INPUT (53005) for a value that is not true or false.
 */
export function primaryFlags (section: Json): Partial<Pick<ZoneSettings, 'valimailMonitor'>> {
  const v = section.valimailMonitor
  if (v === undefined || v === null) return {}
  if (typeof v !== 'boolean') throw new ZonalError('INVALID_INPUT', 'primaryCreateInfo.valimailMonitor must be true or false')
  return { valimailMonitor: v }
}

/** The primaries of a secondary section; a new or changed list asks for a transfer at once. */
export function secondarySettings (deps: ZoneDeps, section: Json, previous: ZoneSettings['transfer'] = null): Pick<ZoneSettings, 'primaries' | 'transfer'> {
  return { primaries: parsePrimaryNameServers(section.primaryNameServers, deps.secrets), transfer: requestedState(previous) }
}

/**
 * A new alias of a signed primary is signed with it (`dnssec/alias.ts`), in the creation's
 * transaction, the primary locked so that no change of it is signed without the alias. A primary
 * of more than `DNSSEC_SYNC_MAX_RECORDS` records is signed again by a task instead (its aliases
 * with it), as signing it through the API is.
 */
async function signAlias (deps: ZoneDeps, caller: Caller, tx: Store, primaryId: string, alias: Zone, now: Date, comment: string | null): Promise<void> {
  const primary = await tx.zones.lockById(primaryId)
  if (primary === undefined || primary.dnssec_status !== 'SIGNED') return
  if (Number(primary.record_count) > DNSSEC_SYNC_MAX_RECORDS) {
    const state = await tx.dnssec.find(primary.id)
    if (state === undefined) return
    const payload: DnssecTaskPayload = { zoneId: primary.id, operation: 'RESIGN', policy: state.policy, actor: caller.actor, comment }
    await tx.tasks.create({ accountId: primary.account_id, userId: caller.principal.userId, kind: DNSSEC_TASK, message: 'Pending', payload })
    return
  }
  const soa = await apexSoa(tx, primary)
  const serial = soa?.rdata[0] === undefined ? primary.serial : readSoa(soa.rdata[0]).serial
  await writeAliasSigning(tx, await newAliasSigning(tx, primary, alias, now, deps.secrets), serial, serial, true)
}

/** A primary zone of the caller's accounts with `readable` permission, for COPY and ALIAS. */
async function originalPrimary (deps: ZoneDeps, caller: Caller, name: unknown, field: string, accountId?: string): Promise<ZoneWithAccount> {
  if (typeof name !== 'string' || name === '') throw new ZonalError('FIELD_REQUIRED', field)
  const zone = await deps.store.zones.findByName(zoneNameFrom(name), caller.principal.scope('read'))
  if (zone === undefined || zone.zone_type !== 'PRIMARY' || (accountId !== undefined && zone.account_id !== accountId)) {
    throw new ZonalError('ZONE_ORIGINAL_NOT_PRIMARY', zoneNameFrom(name))
  }
  return zone
}

/**
 * Refuse a name that is taken: a zone of that name in any account (1802), or a zone of another
 * account below or above it (1891: `sub.their-zone.test.` would let one account publish names in
 * another's domain). Checked before any work and again in the transaction that creates the zone;
 * zones inside one account may nest (delegations).
 *
 * @throws ZonalError ZONE_ALREADY_EXISTS, ZONE_OVERLAPS_OTHER_ACCOUNT
 */
export async function refuseTakenName (store: Store, origin: WireName, name: string, accountId: string): Promise<void> {
  if (await store.zones.exists(name)) throw new ZonalError('ZONE_ALREADY_EXISTS')
  const ancestors: string[] = []
  for (let up = parentName(origin); up.length > 1; up = parentName(up)) ancestors.push(nameKey(up))
  for (const other of await store.zones.othersAround(name, ancestors, accountId, 64)) {
    const wire = parseName(other.name)
    if (isSubdomain(wire, origin) || isSubdomain(origin, wire)) throw new ZonalError('ZONE_OVERLAPS_OTHER_ACCOUNT', name)
  }
}

/** The serial of the SOA among records (0 when there is none). */
function soaSerial (records: readonly ZoneRecord[]): number {
  const soa = records.find(r => r.type === RRType.SOA)
  return soa === undefined ? 0 : readSoa(soa.rdata).serial
}

/** Set the serial of the SOA record (COPY starts the copy at today's serial). */
function withSerial (r: ZoneRecord, serial: number): ZoneRecord {
  if (r.type !== 6) return r
  const rdata = Uint8Array.from(r.rdata)
  new DataView(rdata.buffer).setUint32(soaSerialOffset(rdata), serial >>> 0)
  return { ...r, rdata }
}

/**
 * Operation 1 of the spec, `POST /zones`: a primary (NEW, COPY, UPLOAD), a secondary (its
 * primary name servers stored; transfers come with the secondary feature) or an alias, with
 * its records, in one transaction with its audit record.
 *
 * @throws ZonalError FIELD_REQUIRED (55001), ZONE_TYPE_INVALID, ZONE_CREATE_TYPE_INVALID,
 *   ZONE_NAME_INVALID, ZONE_ALREADY_EXISTS, ZONE_OVERLAPS_OTHER_ACCOUNT, PERMISSION_DENIED,
 *   ZONE_ORIGINAL_NOT_PRIMARY, ZONE_FILE_REQUIRED, ZONE_FILE_INVALID, ZONE_FILE_GENERATE_TOO_MANY,
 *   ZONE_TOO_MANY_RECORDS (an upload, the original of a copy or a transfer over
 *   `ZONAL_ZONE_MAX_RECORDS`, checked before the records are read or written), and the section
 *   errors (1200xx, 53002).
 */
export async function createZone (deps: ZoneDeps, caller: Caller, input: unknown, file?: string): Promise<Zone> {
  const body = obj(input) ?? {}
  const props = obj(body.properties)
  if (props === undefined) throw new ZonalError('FIELD_REQUIRED', 'properties')
  if (typeof props.name !== 'string' || props.name.trim() === '') throw new ZonalError('FIELD_REQUIRED', 'properties.name')
  const name = zoneNameFrom(props.name)
  if (typeof props.type !== 'string' || props.type === '') throw new ZonalError('FIELD_REQUIRED', 'properties.type')
  const type = props.type.toUpperCase() as ZoneRow['zone_type']
  if (!(ZONE_TYPES as readonly string[]).includes(type)) throw new ZonalError('ZONE_TYPE_INVALID')
  const comment = changeCommentFrom(body)

  const creatable = caller.principal.memberships.filter(m => caller.principal.can(m.accountId, 'create'))
  let membership
  if (typeof props.accountName === 'string' && props.accountName !== '') {
    membership = caller.principal.membership(props.accountName)
    if (membership === undefined || !caller.principal.can(membership.accountId, 'create')) {
      throw new ZonalError('PERMISSION_DENIED', `create zones in account ${props.accountName}`)
    }
  } else if (creatable.length === 1) {
    membership = creatable[0]!
  } else {
    throw new ZonalError('FIELD_REQUIRED', 'properties.accountName')
  }
  const origin = parseName(name)
  const now = deps.clock()
  // Checked before any work (parse, copy, transfer), and again in the transaction that creates it.
  await refuseTakenName(deps.store, origin, name, membership.accountId)
  const limits = limitsOf(deps)

  let records: ZoneRecord[] = []
  let uploaded: PackedUpload | undefined
  let settings: Partial<ZoneSettings> = {}
  let originalZoneId: string | null = null
  let detail = type as string
  if (type === 'PRIMARY') {
    const info = primarySection(body)
    if (info === undefined) throw new ZonalError('FIELD_REQUIRED', 'primaryCreateInfo')
    const createType = typeof info.createType === 'string' ? info.createType.toUpperCase() : undefined
    if (createType === undefined || createType === '') throw new ZonalError('FIELD_REQUIRED', 'primaryCreateInfo.createType')
    if (!(CREATE_TYPES as readonly string[]).includes(createType)) throw new ZonalError('ZONE_CREATE_TYPE_INVALID')
    detail = `PRIMARY ${createType}`
    settings = { ...primarySettings(deps, info), ...primaryFlags(info) }
    if (createType === 'NEW') {
      records = newZoneRecords(origin, deps.nameservers, now)
    } else if (createType === 'UPLOAD') {
      if (file === undefined) throw new ZonalError('ZONE_FILE_REQUIRED')
      // Parsed, checked and grouped in a worker thread (the API's event loop keeps answering).
      // The size limits are checked first, on a count of the file's entries (nothing expanded).
      uploaded = await packUploadOffThread(file, name, { zoneMaxRecords: limits.zoneMaxRecords, generateMaxRecords: limits.generateMaxRecords })
    } else if (createType === 'COPY') {
      const original = await originalPrimary(deps, caller, info.originalZoneName, 'primaryCreateInfo.originalZoneName')
      checkZoneSize(Number(original.record_count), limits)
      const from = parseName(original.name)
      // A signed original's DNSSEC records are its signer's, valid for its name only: not copied.
      const signed = original.dnssec_status === 'SIGNED'
      for await (const r of readZoneRecords(deps.store, original.id)) if (!signed || !isDnssecType(r.type)) records.push(withSerial(renameRecord(r, from, origin), dateSerial(now)))
      detail += ` of ${original.name}`
    } else {
      // TRANSFER: a one-time copy by AXFR from `nameServer` {ip, tsigKey?, tsigKeyValue?, tsigAlgorithm?}.
      if (deps.transferZone === undefined) throw new ZonalError('ZONE_CREATE_TYPE_UNAVAILABLE', createType)
      if (info.nameServer === undefined || info.nameServer === null) throw new ZonalError('FIELD_REQUIRED', 'primaryCreateInfo.nameServer')
      const server = parsePrimaryServer(info.nameServer, 'nameServer', 'primaryCreateInfo.nameServer', deps.secrets)
      const label = formatEndpoint(server.endpoint)
      let got
      try {
        // The transfer stops as soon as the primary sends more than the zone may hold (and its closing SOA).
        got = await deps.transferZone(origin, { ...endpointTarget(server.endpoint), ...(server.key === undefined ? {} : { key: tsigKeyOf(server.key, deps.secrets) }) }, { maxRecords: limits.zoneMaxRecords + 1 })
      } catch (err) {
        // The transfer stopped at the limit (TransferError 'too large'): the zone is too large, not the primary at fault.
        if ((err as { reason?: unknown }).reason === 'too large') throw new ZonalError('ZONE_TOO_MANY_RECORDS', `more than ${limits.zoneMaxRecords}`, limits.zoneMaxRecords)
        throw new ZonalError('ZONE_TRANSFER_FAILED', label, err instanceof Error ? err.message : String(err))
      }
      if (got.kind !== 'full') throw new ZonalError('ZONE_TRANSFER_FAILED', label, 'the name server did not send the whole zone')
      checkZoneSize(got.records.length, limits)
      records = got.records
      detail += ` from ${label}`
    }
  } else if (type === 'SECONDARY') {
    const info = secondarySection(body)
    if (info === undefined) throw new ZonalError('FIELD_REQUIRED', 'secondaryCreateInfo')
    settings = secondarySettings(deps, info)
    if (typeof info.notificationEmailAddress === 'string') settings.notificationEmail = info.notificationEmailAddress
  } else {
    const info = obj(body.aliasCreateInfo)
    const original = await originalPrimary(deps, caller, info?.originalZoneName, 'aliasCreateInfo.originalZoneName', membership.accountId)
    originalZoneId = original.id
    detail = `ALIAS of ${original.name}`
  }

  // A name taken since the check above fails here or at the insert (unique name), with nothing written.
  const rrsets = uploaded === undefined ? toStoredRrsets(normalizeZone(records, origin).records) : []
  const account = membership
  const packed = uploaded
  return await deps.store.transaction(async (tx) => {
    await refuseTakenName(tx, origin, name, account.accountId)
    const zone = await tx.zones.create({
      accountId: account.accountId,
      accountNameKey: account.accountName.toLowerCase(),
      name,
      type,
      originalZoneId,
      serial: packed?.serial ?? soaSerial(records),
      recordCount: packed?.recordCount ?? countRecords(rrsets),
      settings
    })
    if (packed === undefined) await tx.rrsets.insertMany(zone.id, rrsets)
    else for (const chunk of unpackRrsets(packed.bytes, INSERT_CHUNK)) await tx.rrsets.insertMany(zone.id, chunk)
    if (originalZoneId !== null) await signAlias(deps, caller, tx, originalZoneId, zone, now, comment)
    await recordChange(tx, caller.actor, {
      accountId: account.accountId,
      accountName: account.accountName,
      objectType: 'ZONE',
      changeType: 'ADD',
      object: nameToString(origin),
      changes: [{ name: 'zone', to: detail }],
      changeComment: comment
    })
    return zone
  })
}
