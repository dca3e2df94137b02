import { auditRecord } from '../../audit/recorder.ts'
import { ZonalError } from '../../errors/catalog.ts'
import type { DnssecKey, DnssecKeyChanges, DnssecPolicy, NewAuditRecord, Store } from '../../store/store.ts'
import { dnskeyRdatas } from '../../zone/dnssec/zone-signer.ts'
import { canonicalSortKey, parseName } from '../../zone/name.ts'
import { RRType } from '../../zone/rrtype.ts'
import { bumpSerial } from '../serial-bump.ts'
import { zoneFor, type Caller, type ZoneDeps } from '../context.ts'
import { newKey, openKey, type OpenKey } from './keyring.ts'
import { nextEventAt } from './schedule.ts'
import type { SignedZone } from './sign-off-thread.ts'
import type { DnssecDeps } from './sign-zone.ts'
import { rrsetOf, signingKeysOf } from './signing.ts'
import type { Actor } from '../../audit/recorder.ts'

/** Time allowed for a change to reach every name server of the zone (secondaries by NOTIFY and IXFR). */
export const PROPAGATION_SECONDS = 3600

/**
 * The TTL assumed of the DS records at the parent (a day, as most top-level domains give them):
 * resolvers may hold the old DS that long after the parent took the new one.
 */
export const PARENT_DS_TTL_SECONDS = 86_400

/**
 * When the old KSK of a double-signature rollover started at `t` (ms) leaves the zone, RFC 6781
 * §4.1.2: the parent may take the new DS once the new DNSKEY rrset has reached every cache (the
 * DNSKEY TTL plus propagation); resolvers then hold the old DS until its TTL at the parent has
 * passed (plus propagation at the parent), and need the old key until then.
 */
export function kskLeavesAt (policy: Pick<DnssecPolicy, 'dnskeyTtl'>, t: number): number {
  return t + (policy.dnskeyTtl + PROPAGATION_SECONDS + PARENT_DS_TTL_SECONDS + PROPAGATION_SECONDS) * 1000
}

const DAY_MS = 86_400_000

/** What moving a zone's keys on does: key rows to add, stored keys to change. */
export interface KeySteps {
  add: Array<{ role: 'KSK' | 'ZSK', state: 'PUBLISHED' | 'ACTIVE', activeAt: string }>
  change: Array<{ id: string, changes: DnssecKeyChanges }>
  /** What happened, for the audit log ("ZSK 12345 published" …). */
  notes: string[]
}

/** Whether a key is part of a rollover under way (a successor published, or leaving at a set time). */
function rolling (k: DnssecKey): boolean {
  return k.state === 'PUBLISHED' || k.state === 'RETIRED' || (k.state === 'ACTIVE' && (k.retiredAt !== null || k.removedAt !== null))
}

const iso = (ms: number): string => new Date(ms).toISOString()

/**
 * The key steps due at `now` (RFC 6781 §4.1): a ZSK rolls by pre-publication (the new key
 * published, active once the DNSKEY rrset's TTL and propagation have passed, the old one then
 * retired and removed once the zone's longest TTL and propagation have passed, so no cached
 * signature is left without its key); a KSK by double signature (the new key active at once,
 * signing the DNSKEY rrset beside the old one, which is removed once the parent's DS can have
 * changed and the old DS left the caches, {@link kskLeavesAt}). A scheduled rollover starts when
 * a key has been active for the policy's frequency.
 *
 * @param maxTtl the longest TTL of the zone's rrsets (seconds)
 */
export function keyStepsDue (keys: readonly DnssecKey[], policy: DnssecPolicy, now: Date, maxTtl: number): KeySteps {
  const t = now.getTime()
  const steps: KeySteps = { add: [], change: [], notes: [] }
  const due = (at: string | null): boolean => at !== null && Date.parse(at) <= t
  const activation = t + (policy.dnskeyTtl + PROPAGATION_SECONDS) * 1000
  for (const k of keys) {
    if (k.state === 'PUBLISHED' && due(k.activeAt)) {
      steps.change.push({ id: k.id, changes: { state: 'ACTIVE' } })
      steps.notes.push(`${k.role} ${k.keyTag} active`)
      // Its predecessors retire now and leave when their signatures can no longer be cached.
      for (const old of keys) {
        if (old.role === k.role && old.state === 'ACTIVE' && old.id !== k.id) {
          steps.change.push({ id: old.id, changes: { state: 'RETIRED', retiredAt: now.toISOString(), removedAt: iso(t + (maxTtl + PROPAGATION_SECONDS) * 1000) } })
          steps.notes.push(`${old.role} ${old.keyTag} retired`)
        }
      }
    } else if ((k.state === 'RETIRED' || k.state === 'ACTIVE') && due(k.removedAt)) {
      steps.change.push({ id: k.id, changes: { state: 'REMOVED' } })
      steps.notes.push(`${k.role} ${k.keyTag} removed`)
    }
  }
  for (const role of ['ZSK', 'KSK'] as const) {
    const mine = keys.filter(k => k.role === role)
    if (mine.some(rolling)) continue
    const current = mine.find(k => k.state === 'ACTIVE' && k.activeAt !== null)
    const days = role === 'KSK' ? policy.kskRolloverDays : policy.zskRolloverDays
    if (current === undefined || Date.parse(current.activeAt!) + days * DAY_MS > t) continue
    if (role === 'ZSK') {
      steps.add.push({ role, state: 'PUBLISHED', activeAt: iso(activation) })
      steps.notes.push('ZSK rollover started (new key published)')
    } else {
      steps.add.push({ role, state: 'ACTIVE', activeAt: now.toISOString() })
      const leaves = iso(kskLeavesAt(policy, t))
      steps.change.push({ id: current.id, changes: { retiredAt: leaves, removedAt: leaves } })
      steps.notes.push(`KSK rollover started (old key ${current.keyTag} leaves at ${leaves})`)
    }
  }
  return steps
}

/** The keys `steps` add, generated under `policy` (their times from `now`). */
export function newKeysOf (zoneId: string, steps: KeySteps, policy: DnssecPolicy, secrets: DnssecDeps['secrets'], now: Date): OpenKey[] {
  return steps.add.map(a => newKey(zoneId, a.role, policy, secrets, a.state, { createdAt: now.toISOString(), publishedAt: now.toISOString(), activeAt: a.activeAt }))
}

/**
 * Apply key steps in the caller's transaction: new keys written, stored ones changed, and the
 * zone signed with the resulting keys, with the serial bump and one audit record; the zone's
 * next event rescheduled. Steps that change which ZSKs sign (a new ZSK active) sign the whole
 * zone again; the others (a key published or removed, a KSK added or leaving) change only the
 * DNSKEY rrset and its signatures. `prepared`: the keys
 * the steps add and the zone already signed with the resulting keys, at the zone's current
 * version (then only the SOA is signed here).
 *
 * @returns the keys added.
 */
export async function applyKeySteps (tx: Store, deps: DnssecDeps, zoneId: string, steps: KeySteps, actor: Actor, changeType: string, comment: string | null, now: Date, prepared?: { added: OpenKey[], signed: SignedZone }): Promise<DnssecKey[]> {
  const zone = await tx.zones.lockById(zoneId)
  if (zone === undefined) throw new ZonalError('ZONE_NOT_FOUND')
  const state = await tx.dnssec.find(zoneId)
  if (zone.dnssec_status !== 'SIGNED' || state === undefined) throw new ZonalError('DNSSEC_ZONE_NOT_SIGNED')
  const signingZsks = (rows: readonly DnssecKey[]): string => rows.filter(k => k.role === 'ZSK' && k.state === 'ACTIVE').map(k => k.id).sort().join()
  const zsksBefore = signingZsks(await tx.dnssec.keys(zoneId))
  const added = prepared?.added ?? newKeysOf(zoneId, steps, state.policy, deps.secrets, now)
  for (const k of added) await tx.dnssec.addKey(k.row)
  for (const c of steps.change) await tx.dnssec.updateKey(c.id, c.changes)
  const keys = (await tx.dnssec.keys(zoneId)).map(k => openKey(k, deps.secrets))
  const audit = (): NewAuditRecord => auditRecord(actor, { accountId: zone.account_id, accountName: zone.account_name, objectType: 'DNSSEC', changeType, object: zone.name, parent: zone.name, changes: steps.notes.map(n => ({ name: 'keys', to: n })), changeComment: comment })
  const keysOnly = signingZsks(keys.map(k => k.row)) === zsksBefore
  if (keysOnly) {
    // The ZSKs signing stay: only the DNSKEY rrset changes (a key published or removed, a KSK
    // added or leaving), signed again by the KSKs; every other signature stands.
    const apexKey = canonicalSortKey(parseName(zone.name))
    const stored = await tx.rrsets.get(zone.id, apexKey, RRType.DNSKEY)
    const dnskey = rrsetOf({ ownerKey: apexKey, ownerName: zone.name }, RRType.DNSKEY, state.policy.dnskeyTtl, dnskeyRdatas(signingKeysOf(keys)))
    await bumpSerial(tx, zone, now, 0, [{ ...(stored === undefined ? {} : { before: stored }), after: dnskey }], undefined, {
      rrsets: [{ ownerKey: apexKey, type: RRType.DNSKEY, existed: stored !== undefined, rrset: dnskey }],
      dnssec: { secrets: deps.secrets, policy: state.policy, keys },
      audit
    })
  } else {
    await bumpSerial(tx, zone, now, 0, [], undefined, {
      dnssec: { secrets: deps.secrets, whole: true, policy: state.policy, keys, ...(prepared === undefined ? {} : { signed: prepared.signed.rrsets }) },
      audit
    })
  }
  // Signed whole, every signature is new: the next key event is what comes due. After a DNSKEY
  // change only, the zone's other signatures may be near their expiry: looked at now.
  await tx.dnssec.schedule(zoneId, keysOnly ? now.toISOString() : nextEventAt(keys.map(k => k.row), state.policy, now), now.toISOString())
  return added.map(k => k.row)
}

/**
 * `POST /zones/{zone}/dnssec/kskrollover`: start a double-signature KSK rollover now (the new
 * KSK published and signing the DNSKEY rrset beside the old one, which leaves the zone after the
 * time {@link kskLeavesAt} gives, by the periodic job; the state is stored, so a restart goes on).
 *
 * @returns the new KSK (its DS records are what the parent zone needs).
 * @throws ZonalError ZONE_NOT_FOUND, PERMISSION_DENIED, ZONE_IS_ALIAS (230000), DNSSEC_ZONE_NOT_SIGNED (180001),
 *   ZONE_SUSPENDED, DNSSEC_ROLLOVER_IN_PROGRESS (a KSK or other keys are being rolled over)
 */
export async function startKskRollover (deps: ZoneDeps, caller: Caller, name: string, comment: string | null): Promise<{ zoneName: string, key: DnssecKey }> {
  const found = await zoneFor(deps, caller, name, 'update')
  if (found.zone_type === 'ALIAS') throw new ZonalError('ZONE_IS_ALIAS')
  if (found.dnssec_status !== 'SIGNED') throw new ZonalError('DNSSEC_ZONE_NOT_SIGNED')
  if (found.status === 'SUSPENDED') throw new ZonalError('ZONE_SUSPENDED')
  const now = deps.clock()
  return await deps.store.transaction(async (tx) => {
    const keys = await tx.dnssec.keys(found.id)
    const state = await tx.dnssec.find(found.id)
    if (state === undefined) throw new ZonalError('DNSSEC_ZONE_NOT_SIGNED')
    const busy = keys.find(rolling)
    if (busy !== undefined) throw new ZonalError('DNSSEC_ROLLOVER_IN_PROGRESS', found.name, `${busy.role} ${busy.keyTag} is ${busy.state === 'ACTIVE' ? 'leaving' : busy.state.toLowerCase()}`)
    const leaves = iso(kskLeavesAt(state.policy, now.getTime()))
    const steps: KeySteps = {
      add: [{ role: 'KSK', state: 'ACTIVE', activeAt: now.toISOString() }],
      change: keys.filter(k => k.role === 'KSK').map(k => ({ id: k.id, changes: { retiredAt: leaves, removedAt: leaves } })),
      notes: [`KSK rollover started (old keys leave at ${leaves})`]
    }
    const [key] = await applyKeySteps(tx, deps, found.id, steps, caller.actor, 'KSK_ROLLOVER', comment, now)
    return { zoneName: found.name, key: key! }
  })
}
