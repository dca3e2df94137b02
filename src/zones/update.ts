import fastJsonPatch from 'fast-json-patch'
import type { Operation } from 'fast-json-patch'
import { diffFields, recordChange } from '../audit/recorder.ts'
import { ZonalError } from '../errors/catalog.ts'
import type { Zone, ZoneWithAccount } from '../store/store.ts'
import type { SealedSecret, ZoneSettings } from '../zone/settings.ts'
import { changeCommentFrom, zoneFor, type Caller, type ZoneDeps } from './context.ts'
import { primaryFlags, primarySection, primarySettings, restrictListOf, secondarySection, secondarySettings } from './create.ts'
import { notifyDocument, primaryNameServersDocument, restrictListDocument, tsigDocument, type SecretView } from './sections.ts'

type Json = Record<string, unknown>

/** Audit details never carry TSIG secrets. */
const REDACTED: SecretView = () => '<secret>'

/**
 * The settings an update may change, in the API's spelling (what audit details compare and JSON
 * Patch edits): a primary's transfer settings and flag, a secondary's primaries and email.
 */
function settingsDocument (type: Zone['zone_type'], s: ZoneSettings, secret: SecretView): Json {
  if (type === 'PRIMARY') {
    return {
      restrictIPList: restrictListDocument(s.restrictList),
      tsig: s.tsig === null ? null : tsigDocument(s.tsig, secret),
      notifyAddresses: notifyDocument(s.notify),
      valimailMonitor: s.valimailMonitor
    }
  }
  return { primaryNameServers: primaryNameServersDocument(s.primaries, secret), notificationEmailAddress: s.notificationEmail }
}

/** Refuse updates of alias and suspended zones (spec rules 8, 9 and the state table). */
function checkUpdatable (zone: ZoneWithAccount): void {
  if (zone.zone_type === 'ALIAS') throw new ZonalError('ZONE_IS_ALIAS')
  if (zone.status === 'SUSPENDED') throw new ZonalError('ZONE_SUSPENDED')
}

type Mode = 'PUT' | 'PATCH' | 'JSON_PATCH'

/**
 * The settings a PUT (`replace`: what is left out is deleted), a PATCH (what is left out is kept)
 * or a JSON Patch (a PUT of the patched document, the email included) gives. A primary takes only
 * the primary section, a secondary only the secondary one; the other type's section is refused,
 * anything else ignored. `valimailMonitor` is kept unless given.
 */
function updatedSettings (deps: ZoneDeps, zone: ZoneWithAccount, body: Json, mode: Mode): Partial<ZoneSettings> {
  const replace = mode !== 'PATCH'
  if (zone.zone_type === 'PRIMARY') {
    if (secondarySection(body) !== undefined) throw new ZonalError('ZONE_SECTION_NOT_ALLOWED', 'primaryNameServers', 'primary')
    const section = primarySection(body) ?? {}
    const given = primarySettings(deps, section)
    if (replace) return { ...given, ...primaryFlags(section) }
    return {
      ...(restrictListOf(section) === undefined || restrictListOf(section) === null ? {} : { restrictList: given.restrictList }),
      ...('tsig' in section ? { tsig: given.tsig } : {}),
      ...(section.notifyAddresses === undefined || section.notifyAddresses === null ? {} : { notify: given.notify }),
      ...primaryFlags(section)
    }
  }
  const primary = primarySection(body)
  if (primary !== undefined && ['restrictIPList', 'restrictIpList', 'tsig', 'notifyAddresses'].some(k => k in primary)) {
    throw new ZonalError('ZONE_SECTION_NOT_ALLOWED', 'restrictIPList, tsig and notifyAddresses', 'secondary')
  }
  const section = secondarySection(body) ?? {}
  const out: Partial<ZoneSettings> = replace || section.primaryNameServers !== undefined ? secondarySettings(deps, section, zone.settings.transfer) : {}
  if (mode === 'PATCH' && typeof section.notificationEmailAddress === 'string') out.notificationEmail = section.notificationEmailAddress
  if (mode === 'JSON_PATCH') out.notificationEmail = typeof section.notificationEmailAddress === 'string' ? section.notificationEmailAddress : null
  return out
}

/**
 * Write the settings that differ from the zone's, with one audit record, in one transaction. An
 * update that changes nothing writes nothing: no audit record, no new version. A secondary's
 * transfer is asked for again only when its primaries changed.
 */
async function apply (deps: ZoneDeps, caller: Caller, zone: ZoneWithAccount, wanted: Partial<ZoneSettings>, comment: string | null): Promise<Zone> {
  const after: ZoneSettings = { ...zone.settings, ...wanted }
  const documents = (view: SecretView): [Json, Json] => [settingsDocument(zone.zone_type, zone.settings, view), settingsDocument(zone.zone_type, after, view)]
  // Compared with the secrets opened: the same secret sealed again is no change.
  const [a, b] = documents((v: SealedSecret) => deps.secrets.open(v))
  if (JSON.stringify(a) === JSON.stringify(b)) return zone
  const { transfer, ...settings } = wanted
  const primariesChanged = JSON.stringify(a.primaryNameServers) !== JSON.stringify(b.primaryNameServers)
  const [before, afterRedacted] = documents(REDACTED)
  return await deps.store.transaction(async (tx) => {
    const updated = await tx.zones.update(zone.id, { settings: { ...settings, ...(primariesChanged && transfer !== undefined ? { transfer } : {}) } })
    await recordChange(tx, caller.actor, {
      accountId: zone.account_id,
      accountName: zone.account_name,
      objectType: 'ZONE',
      changeType: 'MODIFY',
      object: zone.name,
      changes: diffFields(before, afterRedacted),
      changeComment: comment
    })
    return updated
  })
}

/**
 * Operations 8 and 9: `PUT` (full replace of the type's section) and `PATCH` (merge).
 * @throws ZonalError ZONE_NOT_FOUND, PERMISSION_DENIED, ZONE_IS_ALIAS (230000), ZONE_SUSPENDED,
 *   ZONE_SECTION_NOT_ALLOWED and the section validation errors.
 */
export async function updateZone (deps: ZoneDeps, caller: Caller, name: string, input: unknown, mode: 'PUT' | 'PATCH'): Promise<Zone> {
  const body = typeof input === 'object' && input !== null && !Array.isArray(input) ? input as Json : {}
  const zone = await zoneFor(deps, caller, name, 'update')
  checkUpdatable(zone)
  const comment = changeCommentFrom(body)
  return await apply(deps, caller, zone, updatedSettings(deps, zone, body, mode), comment)
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
export async function jsonPatchZone (deps: ZoneDeps, caller: Caller, name: string, input: unknown): Promise<Zone> {
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
  const current = settingsDocument(zone.zone_type, zone.settings, (v: SealedSecret) => deps.secrets.open(v))
  const document: Json = zone.zone_type === 'PRIMARY'
    ? { restrictIpList: current.restrictIPList, tsig: current.tsig ?? undefined, notifyAddresses: current.notifyAddresses }
    : { primaryNameServers: current.primaryNameServers, notificationEmailAddress: current.notificationEmailAddress ?? undefined }
  let patched: Json
  try {
    patched = fastJsonPatch.applyPatch(structuredClone(document), ops.map(o => o.path.startsWith('/restrictIPList') ? { ...o, path: o.path.replace('/restrictIPList', '/restrictIpList') } : o), true, false, true).newDocument
  } catch (err) {
    throw new ZonalError('JSON_PATCH_FAILED', (err as Error).message.split('\n')[0] ?? 'invalid operation')
  }
  const body: Json = zone.zone_type === 'PRIMARY'
    ? { primaryCreateInfo: { restrictIPList: patched.restrictIpList, tsig: patched.tsig, notifyAddresses: patched.notifyAddresses } }
    : { secondaryCreateInfo: { primaryNameServers: patched.primaryNameServers, notificationEmailAddress: patched.notificationEmailAddress } }
  return await apply(deps, caller, zone, updatedSettings(deps, zone, body, 'JSON_PATCH'), null)
}
