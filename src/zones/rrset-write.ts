import { auditRecord, type Change } from '../audit/recorder.ts'
import { ZonalError } from '../errors/catalog.ts'
import type { RrsetWrite, StoredRrset } from '../store/store.ts'
import { profileDocument, validateProfile } from '../zone/pools/index.ts'
import { readSoa } from '../zone/rdata/soa.ts'
import { rdataToRecordText } from '../zone/record-text.ts'
import { RRType, typeName } from '../zone/rrtype.ts'
import { canonicalSortKey, parseName } from '../zone/name.ts'
import { changeCommentFrom, limitsOf, visibleZone, zoneNameFrom, type Caller, type ZoneDeps } from './context.ts'
import { checkZoneSize } from './limits.ts'
import { recordManualChanges } from '../traffic/manual.ts'
import { DEFAULT_RRSET_TTL, rdataFrom, ttlFrom, type ParsedRdata } from './rrset-input.ts'
import { applyRrsetPatch, patchOperations } from './rrset-patch.ts'
import { checkDeletable, checkPlacement, checkWritable, keysAbove } from './rrset-rules.ts'
import { targetIn, type RrsetPath, type RrsetTarget } from './rrset-target.ts'
import { bumpSerial, withSoaSerial } from './serial-bump.ts'
import { isDnssecType, UNSIGNABLE_POOLS } from './dnssec/types.ts'

/** The types the rrsets API may not write at a web-forwarded host (its A and AAAA are the forwards'; a CNAME would hide them). */
const FORWARD_GUARDED: ReadonlySet<number> = new Set([RRType.A, RRType.AAAA, RRType.CNAME])

/** The pools probes watch (their probes and states are forgotten with them). */
const PROBED_POOLS: ReadonlySet<string> = new Set(['SB_POOLS', 'TC_POOLS', 'SF_POOLS', 'SLB_POOLS'])

type Json = Record<string, unknown>

/** A JSON object body; anything else is refused. */
function bodyOf (input: unknown): Json {
  if (input === undefined || input === null) return {}
  if (typeof input !== 'object' || Array.isArray(input)) throw new ZonalError('INVALID_INPUT', 'the body must be a JSON object {ttl, rdata, profile}')
  return input as Json
}

/** A profile (as clients write it) validated against the rrset it belongs to; null for none. */
function poolOf (t: RrsetTarget, profile: unknown, rdataText: readonly string[]): Pick<StoredRrset, 'profile'> {
  if (profile === undefined || profile === null) return { profile: null }
  return { profile: validateProfile(t.type, profile, rdataText, t.ownerName).profile }
}

/** The stored profile as clients write it (for merges, JSON Patch documents and audit details). */
function parsedProfile (rrset: StoredRrset): Json | undefined {
  return rrset.profile === null ? undefined : profileDocument(rrset.profile)
}

function rrsetOf (t: RrsetTarget, ttl: number, rdata: ParsedRdata, pool: Pick<StoredRrset, 'profile'>): StoredRrset {
  return { ownerKey: t.ownerKey, ownerName: t.ownerName, type: t.type, ttl, rdata: rdata.wire, rdataText: rdata.text, ...pool }
}

const current = (r: StoredRrset): ParsedRdata => ({ wire: r.rdata, text: r.rdataText })

/**
 * New rdata with the stored wire form kept for every value written back exactly as GET shows it,
 * so a read-modify-write alters only what the client changed: a TXT record from a zone file or a
 * transfer keeps its own division into character-strings (a value given in the RFC 3597 form
 * sets its strings explicitly and is taken as given).
 */
function keepingStored (next: ParsedRdata, before: StoredRrset): ParsedRdata {
  const stored = new Map(before.rdataText.map((text, i) => [text, before.rdata[i]!]))
  const wire = next.wire.map((w, i) => {
    const given = next.given?.[i]
    return given === undefined ? w : stored.get(given) ?? w
  })
  return { wire, text: next.text }
}

function sameBytes (a: readonly Uint8Array[], b: readonly Uint8Array[]): boolean {
  return a.length === b.length && a.every((x, i) => Buffer.compare(x, b[i]!) === 0)
}

function same (a: StoredRrset, b: StoredRrset): boolean {
  return a.ttl === b.ttl && JSON.stringify(a.profile) === JSON.stringify(b.profile) && JSON.stringify(a.rdataText) === JSON.stringify(b.rdataText) && sameBytes(a.rdata, b.rdata)
}

/** The audit detail of a change: rdata, ttl and profile, each when it was there or changed. */
function auditChanges (before: StoredRrset | undefined, after: StoredRrset | undefined): Change[] {
  const fields = (r: StoredRrset | undefined): Json => r === undefined ? {} : { rdata: r.rdataText, ttl: r.ttl, profile: parsedProfile(r) }
  const a = fields(before)
  const b = fields(after)
  const out: Change[] = []
  for (const name of ['rdata', 'ttl', 'profile']) {
    if (a[name] === undefined && b[name] === undefined) continue
    if (JSON.stringify(a[name]) === JSON.stringify(b[name])) continue
    out.push({ name, ...(a[name] === undefined ? {} : { from: a[name] }), ...(b[name] === undefined ? {} : { to: b[name] }) })
  }
  return out
}

/**
 * The audit object type of an rrset change: the record type (`A`, `TXT` …), or for a pool the
 * pool kind (`RD_POOL`, `SB_POOL` …, from the profile after the change, else before it), so the
 * audit log's `object_type` filter tells pools from plain records.
 */
function auditObjectType (type: number, before: StoredRrset | undefined, after: StoredRrset | undefined): string {
  const kind = [after, before].map(r => r?.profile?.kind).find(k => k !== undefined)
  return kind === undefined ? typeName(type) : kind.replace(/S$/, '')
}

/** What a write does once its zone is locked and its rrset named: its comment and its decision. */
interface Plan {
  comment: string | null
  /** The rrset's new value given the current one (undefined deletes it). */
  decide: (current: StoredRrset | undefined) => StoredRrset | undefined
}

/**
 * Run one rrset change as one transaction (DESIGN.md "Data model"): look the zone up and lock its
 * row in one statement (fresh type, status, serial, record count), check what a lookup outside
 * the transaction checked, in its order (1801, 403, the type and owner, the zone writable, then
 * the request's own checks in `plan`), read the rrset, let the plan decide its new value, check
 * the zone rules and the zone's record limit (`ZONAL_ZONE_MAX_RECORDS`, from the locked row's
 * count), and hand the write, the audit record and the serial bump ({@link bumpSerial})
 * to the store together. A change that changes nothing writes nothing. The SOA's serial is the
 * service's: the one given is replaced by the current one, then bumped.
 */
async function change (deps: ZoneDeps, caller: Caller, path: RrsetPath, plan: (t: RrsetTarget) => Plan): Promise<RrsetTarget> {
  const zoneName = zoneNameFrom(path.zoneName)
  return await deps.store.transaction(async (tx) => {
    const zone = visibleZone(caller, await tx.zones.lockByName(zoneName, caller.principal.scope('read')), 'update')
    const t = targetIn(zone, path)
    checkWritable(zone)
    // A signed zone's DNSSEC records are the signer's (src/zones/dnssec/).
    if (zone.dnssec_status === 'SIGNED' && isDnssecType(t.type)) throw new ZonalError('DNSSEC_RECORDS_READ_ONLY', typeName(t.type))
    // A web-forwarded host's address records are its forwards' (zones/web-forwards.ts).
    if (FORWARD_GUARDED.has(t.type)) {
      const forwards = await tx.webForwards.countAtHost(zone.id, t.ownerKey)
      if (forwards > 0) throw new ZonalError('RRSET_FORWARDED_HOST', t.ownerName, forwards, typeName(t.type))
    }
    const { comment, decide } = plan(t)
    // The rrset, the apex SOA the serial bump reads (unless the rrset is that SOA) and what the
    // placement rules read (the types at the owner, DNAMEs above it): one statement.
    const soaKey = { ownerKey: canonicalSortKey(parseName(zone.name)), type: RRType.SOA }
    const soaKnown = t.type !== RRType.SOA || t.ownerKey !== soaKey.ownerKey
    const read = await tx.rrsets.readForChange(zone.id, soaKnown ? [{ ownerKey: t.ownerKey, type: t.type }, soaKey] : [{ ownerKey: t.ownerKey, type: t.type }], t.ownerKey, keysAbove(t))
    const [before, soa] = read.rrsets
    let after = decide(before)
    if (after !== undefined && t.type === RRType.SOA && before?.rdata[0] !== undefined && after.rdata.length === 1) {
      const rdata = withSoaSerial(after.rdata[0]!, readSoa(before.rdata[0]).serial)
      after = { ...after, rdata: [rdata], rdataText: [rdataToRecordText(RRType.SOA, rdata)] }
    }
    if (before === undefined && after === undefined) return t
    if (before !== undefined && after !== undefined && same(before, after)) return t
    // A signed zone serves signed answers: no pool whose answers are a subset of its rrset.
    if (zone.dnssec_status === 'SIGNED' && after?.profile != null && UNSIGNABLE_POOLS.has(after.profile.kind)) throw new ZonalError('DNSSEC_POOL_NOT_ALLOWED', after.profile.kind, zone.name)
    // The zone row's count (locked, so current) plus what this change adds: no scan of the zone.
    const delta = (after?.rdata.length ?? 0) - (before?.rdata.length ?? 0)
    if (delta > 0) checkZoneSize(Number(zone.record_count) + delta, limitsOf(deps))
    if (after === undefined) checkDeletable(t.origin, t.owner, t.type)
    else await checkPlacement(tx, { zoneId: zone.id, origin: t.origin, owner: t.owner, ownerKey: t.ownerKey, type: t.type, count: after.rdata.length }, read)
    const write: RrsetWrite = { ownerKey: t.ownerKey, type: t.type, existed: before !== undefined, ...(after === undefined ? {} : { rrset: after }) }
    // A change of the apex SOA itself is written here, on its own: the serial bump writes the
    // same row again. Any other write goes with the bump's (one statement on PostgreSQL).
    if (!soaKnown) {
      if (after === undefined) await tx.rrsets.delete(zone.id, t.ownerKey, t.type)
      else await tx.rrsets.replace(zone.id, after)
    }
    // A probed pool deleted, or turned into another kind of rrset, takes its probes and states along (traffic/).
    if (before?.profile != null && PROBED_POOLS.has(before.profile.kind) && before.profile.kind !== after?.profile?.kind) await tx.traffic.forgetPool(zone.id, t.ownerKey, t.type)
    // A forced state that changes what a record serves is a failover event (reason Manual).
    if (before?.profile != null && PROBED_POOLS.has(before.profile.kind)) await recordManualChanges(tx, zone, before, after, deps.clock().toISOString(), caller.actor.user)
    const written = after
    await bumpSerial(tx, zone, deps.clock(), delta, [{ before, after }], soaKnown ? { soa } : undefined, {
      rrsets: soaKnown ? [write] : [],
      dnssec: { secrets: deps.secrets },
      audit: (serial) => auditRecord(caller.actor, {
        accountId: zone.account_id,
        accountName: zone.account_name,
        objectType: auditObjectType(t.type, before, written),
        changeType: before === undefined ? 'ADD' : written === undefined ? 'DELETE' : 'MODIFY',
        object: t.ownerName,
        parent: zone.name,
        changes: auditChanges(before, written !== undefined && t.type === RRType.SOA
          ? { ...written, rdataText: [rdataToRecordText(RRType.SOA, withSoaSerial(written.rdata[0]!, serial))] }
          : written),
        changeComment: comment
      })
    })
    return t
  })
}

/** The 70005 check: the body names at least one of `fields`. Runs before the zone is looked up (notes §5). */
function requireAny (body: Json, fields: readonly string[]): void {
  if (fields.every(f => body[f] === undefined)) throw new ZonalError('RRSET_FIELDS_REQUIRED')
}

/**
 * `POST /zones/{zoneName}/rrsets/{rrType}/{ownerName}` with `{ttl?, rdata, profile?}`: a new
 * rrset (ttl 86400 when not given, UltraDNS's default).
 *
 * @returns where the new rrset lives (for the `Location` header).
 * @throws ZonalError RRSET_FIELDS_REQUIRED (70005, before the zone is looked up), ZONE_NOT_FOUND
 *   (1801), PERMISSION_DENIED, ZONE_IS_ALIAS (230000), ZONE_IS_SECONDARY (53001), ZONE_SUSPENDED
 *   (1813), FIELD_REQUIRED (55001 `rdata`), INVALID_INPUT (53005: type, owner, ttl, rdata, zone
 *   rules), RRSET_DUPLICATE_RDATA (450001), RRSET_ALREADY_EXISTS (2111), RRSET_FORWARDED_HOST (53005: A, AAAA or CNAME of a web-forwarded host), ZONE_TOO_MANY_RECORDS
 *   (53005, the zone would go over `ZONAL_ZONE_MAX_RECORDS`), the profile errors of
 *   `validateProfile` (70004, 70007, 70008, 110004 …).
 */
export async function createRrset (deps: ZoneDeps, caller: Caller, zoneName: string, rrType: string, ownerName: string, input: unknown): Promise<RrsetTarget> {
  const body = bodyOf(input)
  requireAny(body, ['rdata', 'profile'])
  return await change(deps, caller, { zoneName, rrType, ownerName }, (t) => {
    const comment = changeCommentFrom(body)
    if (body.rdata === undefined) throw new ZonalError('FIELD_REQUIRED', 'rdata')
    const ttl = body.ttl === undefined ? DEFAULT_RRSET_TTL : ttlFrom(body.ttl)
    const rdata = rdataFrom(t.type, body.rdata, t.origin)
    const next = rrsetOf(t, ttl, rdata, poolOf(t, body.profile, rdata.text))
    return {
      comment,
      decide: (before) => {
        if (before !== undefined) throw new ZonalError('RRSET_ALREADY_EXISTS', t.type)
        return next
      }
    }
  })
}

/**
 * `PUT` (full replace) and `PATCH` (merge) of an existing rrset. PUT: the rdata and profile given
 * replace the stored ones and a profile left out is removed; a PUT without rdata keeps the rdata
 * (so a profile alone can be set, as the Python client's `edit_rrset_rdata` does). PATCH: each of
 * ttl, rdata and profile given replaces the stored one, `profile: null` removes it. Both keep the
 * TTL when none is given. A kept profile is validated again against new rdata.
 *
 * @throws ZonalError RRSET_FIELDS_REQUIRED (70005: PUT without rdata and profile, PATCH without
 *   ttl, rdata and profile; before the zone is looked up), RRSET_NOT_FOUND (70002), and the
 *   errors of {@link createRrset} but 2111.
 */
export async function updateRrset (deps: ZoneDeps, caller: Caller, zoneName: string, rrType: string, ownerName: string, input: unknown, mode: 'PUT' | 'PATCH'): Promise<void> {
  const body = bodyOf(input)
  requireAny(body, mode === 'PUT' ? ['rdata', 'profile'] : ['rdata', 'profile', 'ttl'])
  await change(deps, caller, { zoneName, rrType, ownerName }, (t) => {
    const comment = changeCommentFrom(body)
    const ttl = body.ttl === undefined ? undefined : ttlFrom(body.ttl)
    const rdata = body.rdata === undefined ? undefined : rdataFrom(t.type, body.rdata, t.origin)
    return {
      comment,
      decide: (before) => {
        if (before === undefined) throw new ZonalError('RRSET_NOT_FOUND')
        const values = rdata === undefined ? current(before) : keepingStored(rdata, before)
        const profile = mode === 'PUT' || body.profile !== undefined ? body.profile : parsedProfile(before)
        return rrsetOf(t, ttl ?? before.ttl, values, poolOf(t, profile, values.text))
      }
    }
  })
}

/**
 * `PATCH` with `Content-Type: application/json-patch+json`: RFC 6902 operations on the rrset
 * document `{ttl, rdata, profile?}`, rdata strings also addressable field by field
 * (`/rdata/0/1`; see `rrset-patch.ts`). The result is validated as a PUT of the whole document.
 * No changeComment (the body is the list of operations).
 *
 * @throws ZonalError JSON_PATCH_INVALID (170003), JSON_PATCH_UNSUPPORTED_OP (170004) and
 *   JSON_PATCH_FAILED (170001), then the errors of {@link updateRrset}.
 */
export async function jsonPatchRrset (deps: ZoneDeps, caller: Caller, zoneName: string, rrType: string, ownerName: string, input: unknown): Promise<void> {
  const ops = patchOperations(input)
  await change(deps, caller, { zoneName, rrType, ownerName }, (t) => ({
    comment: null,
    decide: (before) => {
      if (before === undefined) throw new ZonalError('RRSET_NOT_FOUND')
      const doc = applyRrsetPatch(t.type, { ttl: before.ttl, rdata: before.rdataText, ...(before.profile === null ? {} : { profile: parsedProfile(before) }) }, ops)
      if (doc.ttl === undefined) throw new ZonalError('FIELD_REQUIRED', 'ttl')
      if (doc.rdata === undefined) throw new ZonalError('FIELD_REQUIRED', 'rdata')
      const values = keepingStored(rdataFrom(t.type, doc.rdata, t.origin), before)
      return rrsetOf(t, ttlFrom(doc.ttl), values, poolOf(t, doc.profile, values.text))
    }
  }))
}

/**
 * `DELETE /zones/{zoneName}/rrsets/{rrType}/{ownerName}`; the body may carry a changeComment.
 *
 * @throws ZonalError ZONE_NOT_FOUND, PERMISSION_DENIED, ZONE_IS_ALIAS, ZONE_IS_SECONDARY,
 *   ZONE_SUSPENDED, INVALID_INPUT (the SOA and the apex NS rrset cannot be deleted),
 *   RRSET_NOT_FOUND (70002).
 */
export async function deleteRrset (deps: ZoneDeps, caller: Caller, zoneName: string, rrType: string, ownerName: string, input: unknown): Promise<void> {
  await change(deps, caller, { zoneName, rrType, ownerName }, (t) => {
    const comment = changeCommentFrom(input)
    checkDeletable(t.origin, t.owner, t.type)
    return {
      comment,
      decide: (before) => {
        if (before === undefined) throw new ZonalError('RRSET_NOT_FOUND')
        return undefined
      }
    }
  })
}
