import { recordChange } from '../audit/recorder.ts'
import { ZonalError } from '../errors/catalog.ts'
import type { ZoneRow } from '../store/schema.ts'
import type { ZoneSectionColumn, ZoneWithAccount } from '../store/store.ts'
import { normalizeZone } from '../zone/checks/index.ts'
import { nameToString, parseName, type WireName } from '../zone/name.ts'
import { newZoneRecords } from '../zone/new-zone.ts'
import { readSoa, soaSerialOffset } from '../zone/rdata/soa.ts'
import type { ZoneProblem, ZoneRecord } from '../zone/record.ts'
import { renameRecord } from '../zone/rename.ts'
import { dateSerial } from '../zone/serial.ts'
import { parseZoneText } from '../zonefile/parser.ts'
import { changeCommentFrom, zoneNameFrom, type Caller, type ZoneDeps } from './context.ts'
import { countRecords, readZoneRecords, toStoredRrsets } from './records.ts'
import { parseNotifyAddresses, parsePrimaryNameServers, parseRestrictList, parseServerAddress, parseTsig } from './sections.ts'
import { requestedStatus } from './secondary-transfer.ts'

type Json = Record<string, unknown>

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

/** The stored JSON of the primary section's transfer settings; secrets sealed. */
export function primaryColumns (deps: ZoneDeps, section: Json): Partial<Pick<ZoneRow, ZoneSectionColumn>> {
  const tsig = parseTsig(section.tsig, 'tsig')
  return {
    restrict_ip_list: JSON.stringify(parseRestrictList(restrictListOf(section))),
    tsig: tsig === undefined ? null : JSON.stringify({ ...tsig, tsigKeyValue: deps.secrets.seal(tsig.tsigKeyValue) }),
    notify_addresses: JSON.stringify(parseNotifyAddresses(section.notifyAddresses))
  }
}

export function secondaryColumns (deps: ZoneDeps, section: Json): Partial<Pick<ZoneRow, ZoneSectionColumn>> {
  const servers = parsePrimaryNameServers(section.primaryNameServers)
  for (const s of Object.values(servers)) if (s.tsigKeyValue !== undefined) s.tsigKeyValue = deps.secrets.seal(s.tsigKeyValue)
  // A new or changed primary list takes effect at once: a transfer is asked for.
  return { primary_name_servers: JSON.stringify(servers), transfer_status: requestedStatus(null) }
}

/** Problems of an uploaded file as one 400 listing each with its line. */
function rejectProblems (problems: readonly ZoneProblem[]): void {
  const errors = problems.filter(p => p.severity === 'error')
  if (errors.length === 0) return
  throw ZonalError.many('ZONE_FILE_INVALID', errors.slice(0, 1000).map(p => `${p.line === undefined ? '' : `line ${p.line}: `}${p.code}: ${p.message}`))
}

/** Records of an uploaded BIND file: `$INCLUDE` refused, every problem reported, warnings applied. */
export function uploadedRecords (text: string, origin: WireName): ZoneRecord[] {
  const parsed = parseZoneText(text, { origin, file: 'upload', includes: 'refuse' })
  rejectProblems(parsed.problems)
  const checked = normalizeZone(parsed.records, origin)
  rejectProblems(checked.problems)
  return checked.records
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

/** The serial of the SOA among records (0 when there is none). */
function soaSerial (records: readonly ZoneRecord[]): number {
  const soa = records.find(r => r.type === 6)
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
 *   ZONE_NAME_INVALID, ZONE_ALREADY_EXISTS, PERMISSION_DENIED, ZONE_ORIGINAL_NOT_PRIMARY,
 *   ZONE_FILE_REQUIRED, ZONE_FILE_INVALID, and the section errors (1200xx, 53002).
 */
export async function createZone (deps: ZoneDeps, caller: Caller, input: unknown, file?: string): Promise<ZoneRow> {
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

  let records: ZoneRecord[] = []
  let sections: Partial<Pick<ZoneRow, ZoneSectionColumn>> = {}
  let originalZoneId: string | null = null
  let detail = type as string
  if (type === 'PRIMARY') {
    const info = primarySection(body)
    if (info === undefined) throw new ZonalError('FIELD_REQUIRED', 'primaryCreateInfo')
    const createType = typeof info.createType === 'string' ? info.createType.toUpperCase() : undefined
    if (createType === undefined || createType === '') throw new ZonalError('FIELD_REQUIRED', 'primaryCreateInfo.createType')
    if (!(CREATE_TYPES as readonly string[]).includes(createType)) throw new ZonalError('ZONE_CREATE_TYPE_INVALID')
    detail = `PRIMARY ${createType}`
    sections = primaryColumns(deps, info)
    if (createType === 'NEW') {
      records = newZoneRecords(origin, deps.nameservers, now)
    } else if (createType === 'UPLOAD') {
      if (file === undefined) throw new ZonalError('ZONE_FILE_REQUIRED')
      records = uploadedRecords(file, origin)
    } else if (createType === 'COPY') {
      const original = await originalPrimary(deps, caller, info.originalZoneName, 'primaryCreateInfo.originalZoneName')
      const from = parseName(original.name)
      for await (const r of readZoneRecords(deps.store, original.id)) records.push(withSerial(renameRecord(r, from, origin), dateSerial(now)))
      detail += ` of ${original.name}`
    } else {
      // TRANSFER: a one-time copy by AXFR from `nameServer` {ip, tsigKey?, tsigKeyValue?, tsigAlgorithm?}.
      if (deps.transferZone === undefined) throw new ZonalError('ZONE_CREATE_TYPE_UNAVAILABLE', createType)
      if (info.nameServer === undefined || info.nameServer === null) throw new ZonalError('FIELD_REQUIRED', 'primaryCreateInfo.nameServer')
      const server = parsePrimaryNameServers({ nameServerIpList: { nameServerIp1: info.nameServer } }, 'primaryCreateInfo.nameServer').nameServerIp1!
      const address = parseServerAddress(server.ip)!
      const key = server.tsigKey === undefined || server.tsigKeyValue === undefined
        ? undefined
        : { name: parseName(server.tsigKey), algorithm: server.tsigAlgorithm ?? 'hmac-md5', secret: new Uint8Array(Buffer.from(server.tsigKeyValue, 'base64')) }
      let got
      try {
        got = await deps.transferZone(origin, { ...address, ...(key === undefined ? {} : { key }) })
      } catch (err) {
        throw new ZonalError('ZONE_TRANSFER_FAILED', server.ip, err instanceof Error ? err.message : String(err))
      }
      if (got.kind !== 'full') throw new ZonalError('ZONE_TRANSFER_FAILED', server.ip, 'the name server did not send the whole zone')
      records = got.records
      detail += ` from ${server.ip}`
    }
  } else if (type === 'SECONDARY') {
    const info = secondarySection(body)
    if (info === undefined) throw new ZonalError('FIELD_REQUIRED', 'secondaryCreateInfo')
    sections = secondaryColumns(deps, info)
    if (typeof info.notificationEmailAddress === 'string') sections.notification_email = info.notificationEmailAddress
  } else {
    const info = obj(body.aliasCreateInfo)
    const original = await originalPrimary(deps, caller, info?.originalZoneName, 'aliasCreateInfo.originalZoneName', membership.accountId)
    originalZoneId = original.id
    detail = `ALIAS of ${original.name}`
  }

  // An existing name fails the insert below (unique name): 1802, with nothing written.
  const rrsets = toStoredRrsets(normalizeZone(records, origin).records)
  const account = membership
  return await deps.store.transaction(async (tx) => {
    const zone = await tx.zones.create({
      accountId: account.accountId,
      accountNameKey: account.accountName.toLowerCase(),
      name,
      type,
      originalZoneId,
      serial: soaSerial(records),
      recordCount: countRecords(rrsets),
      sections
    })
    await tx.rrsets.insertMany(zone.id, rrsets)
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
