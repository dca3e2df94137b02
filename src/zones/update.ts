import fastJsonPatch from 'fast-json-patch'
import type { Operation } from 'fast-json-patch'
import { diffFields, recordChange } from '../audit/recorder.ts'
import { ZonalError } from '../errors/catalog.ts'
import type { ZoneRow } from '../store/schema.ts'
import type { ZoneChanges, ZoneWithAccount } from '../store/store.ts'
import { changeCommentFrom, zoneFor, type Caller, type ZoneDeps } from './context.ts'
import { primaryColumns, primarySection, restrictListOf, secondaryColumns, secondarySection } from './create.ts'
import { zoneSections } from './view.ts'

type Json = Record<string, unknown>

/** The zone's transfer settings as the API spells them, secrets in clear (for diffs and merges). */
function currentPrimary (deps: ZoneDeps, zone: ZoneWithAccount): Json {
  const s = zoneSections(zone, deps.secrets, true)
  return { restrictIPList: s.restrictIpList, tsig: s.tsig ?? null, notifyAddresses: s.notifyAddresses }
}

function currentSecondary (deps: ZoneDeps, zone: ZoneWithAccount): Json {
  const s = zoneSections(zone, deps.secrets, true)
  return { primaryNameServers: { nameServerIpList: s.primaryNameServers ?? {} }, notificationEmailAddress: zone.notification_email }
}

/** Refuse updates of alias and suspended zones (spec rules 8, 9 and the state table). */
function checkUpdatable (zone: ZoneWithAccount): void {
  if (zone.zone_type === 'ALIAS') throw new ZonalError('ZONE_IS_ALIAS')
  if (zone.status === 'SUSPENDED') throw new ZonalError('ZONE_SUSPENDED')
}

/**
 * The new section values for a zone from a PUT (`replace`: what is left out is deleted) or a
 * PATCH (what is left out is kept). A primary takes only the primary section, a secondary only
 * the secondary one; the other type's section is refused, anything else ignored.
 */
function sectionChanges (deps: ZoneDeps, zone: ZoneWithAccount, body: Json, replace: boolean): { changes: ZoneChanges, before: Json, after: Json } {
  if (zone.zone_type === 'PRIMARY') {
    if (secondarySection(body) !== undefined) throw new ZonalError('ZONE_SECTION_NOT_ALLOWED', 'primaryNameServers', 'primary')
    const section = primarySection(body) ?? {}
    const before = currentPrimary(deps, zone)
    const merged: Json = replace
      ? { restrictIPList: restrictListOf(section), tsig: section.tsig, notifyAddresses: section.notifyAddresses }
      : {
          restrictIPList: restrictListOf(section) ?? before.restrictIPList,
          tsig: 'tsig' in section ? section.tsig : before.tsig,
          notifyAddresses: section.notifyAddresses ?? before.notifyAddresses
        }
    const changes = primaryColumns(deps, merged)
    return { changes, before, after: currentPrimary(deps, { ...zone, ...changes }) }
  }
  const primary = primarySection(body)
  if (primary !== undefined && ['restrictIPList', 'restrictIpList', 'tsig', 'notifyAddresses'].some(k => k in primary)) {
    throw new ZonalError('ZONE_SECTION_NOT_ALLOWED', 'restrictIPList, tsig and notifyAddresses', 'secondary')
  }
  const section = secondarySection(body) ?? {}
  const before = currentSecondary(deps, zone)
  const servers = section.primaryNameServers ?? (replace ? undefined : before.primaryNameServers)
  const changes: ZoneChanges = secondaryColumns(deps, { primaryNameServers: servers })
  if (!replace && typeof section.notificationEmailAddress === 'string') changes.notification_email = section.notificationEmailAddress
  return { changes, before, after: currentSecondary(deps, { ...zone, ...changes }) }
}

async function apply (deps: ZoneDeps, caller: Caller, zone: ZoneWithAccount, changes: ZoneChanges, before: Json, after: Json, comment: string | null): Promise<ZoneRow> {
  return await deps.store.transaction(async (tx) => {
    const updated = await tx.zones.update(zone.id, changes)
    await recordChange(tx, caller.actor, {
      accountId: zone.account_id,
      accountName: zone.account_name,
      objectType: 'ZONE',
      changeType: 'MODIFY',
      object: zone.name,
      changes: diffFields(redact(before), redact(after)),
      changeComment: comment
    })
    return updated
  })
}

/** Audit details never carry TSIG secrets. */
function redact (section: Json): Json {
  return JSON.parse(JSON.stringify(section, (key, value: unknown) => key === 'tsigKeyValue' ? '<secret>' : value)) as Json
}

/**
 * Operations 8 and 9: `PUT` (full replace of the type's section) and `PATCH` (merge).
 * @throws ZonalError ZONE_NOT_FOUND, PERMISSION_DENIED, ZONE_IS_ALIAS (230000), ZONE_SUSPENDED,
 *   ZONE_SECTION_NOT_ALLOWED and the section validation errors.
 */
export async function updateZone (deps: ZoneDeps, caller: Caller, name: string, input: unknown, mode: 'PUT' | 'PATCH'): Promise<ZoneRow> {
  const body = typeof input === 'object' && input !== null && !Array.isArray(input) ? input as Json : {}
  const zone = await zoneFor(deps, caller, name, 'update')
  checkUpdatable(zone)
  const comment = changeCommentFrom(body)
  const { changes, before, after } = sectionChanges(deps, zone, body, mode === 'PUT')
  return await apply(deps, caller, zone, changes, before, after, comment)
}

const PATCHABLE = new Set(['restrictIpList', 'restrictIPList', 'tsig', 'notifyAddresses', 'primaryNameServers', 'notificationEmailAddress'])
const OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test'])

/**
 * `PATCH` with `Content-Type: application/json-patch+json` (RFC 6902) on the zone's sections as
 * GET spells them (`/restrictIpList/0/endIP`, `/tsig/tsigKeyName`, `/primaryNameServers/…`);
 * the result is validated like a PUT of those sections.
 *
 * @throws ZonalError JSON_PATCH_INVALID (170003), JSON_PATCH_UNSUPPORTED_OP (170004),
 *   JSON_PATCH_FAILED (170001), and the errors of {@link updateZone}.
 */
export async function jsonPatchZone (deps: ZoneDeps, caller: Caller, name: string, input: unknown): Promise<ZoneRow> {
  if (!Array.isArray(input) || input.length === 0) throw new ZonalError('JSON_PATCH_INVALID', 'The body must be a non-empty list of operations.')
  const zone = await zoneFor(deps, caller, name, 'update')
  checkUpdatable(zone)
  const ops = input as Operation[]
  for (const op of ops) {
    if (typeof op !== 'object' || op === null || typeof op.op !== 'string' || typeof op.path !== 'string') {
      throw new ZonalError('JSON_PATCH_INVALID', 'Each operation needs "op" and "path".')
    }
    if (!OPS.has(op.op)) throw new ZonalError('JSON_PATCH_UNSUPPORTED_OP', op.op)
    const top = op.path.split('/')[1] ?? ''
    if (!PATCHABLE.has(top)) throw new ZonalError('JSON_PATCH_FAILED', `path ${op.path} cannot be patched`)
  }
  const before = zone.zone_type === 'PRIMARY' ? currentPrimary(deps, zone) : currentSecondary(deps, zone)
  const document: Json = zone.zone_type === 'PRIMARY'
    ? { restrictIpList: before.restrictIPList, tsig: before.tsig ?? undefined, notifyAddresses: before.notifyAddresses }
    : { ...before, notificationEmailAddress: before.notificationEmailAddress ?? undefined }
  let patched: Json
  try {
    patched = fastJsonPatch.applyPatch(structuredClone(document), ops.map(o => o.path.startsWith('/restrictIPList') ? { ...o, path: o.path.replace('/restrictIPList', '/restrictIpList') } : o), true, false, true).newDocument
  } catch (err) {
    throw new ZonalError('JSON_PATCH_FAILED', (err as Error).message.split('\n')[0] ?? 'invalid operation')
  }
  const body: Json = zone.zone_type === 'PRIMARY'
    ? { primaryCreateInfo: { restrictIPList: patched.restrictIpList, tsig: patched.tsig, notifyAddresses: patched.notifyAddresses } }
    : { secondaryCreateInfo: { primaryNameServers: patched.primaryNameServers } }
  const { changes, after } = sectionChanges(deps, zone, body, true)
  if (zone.zone_type === 'SECONDARY') changes.notification_email = typeof patched.notificationEmailAddress === 'string' ? patched.notificationEmailAddress : null
  return await apply(deps, caller, zone, changes, before, after, null)
}
