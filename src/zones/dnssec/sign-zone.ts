import { auditRecord, diffFields, type Actor, type Change } from '../../audit/recorder.ts'
import { ZonalError } from '../../errors/catalog.ts'
import type { TaskRow } from '../../store/schema.ts'
import type { DnssecKey, DnssecPolicy, Store, ZoneWithAccount } from '../../store/store.ts'
import { bumpSerial, type RrsetChange } from '../serial-bump.ts'
import { zoneFor, type Caller, type ZoneDeps } from '../context.ts'
import { newKey, openKey, type OpenKey } from './keyring.ts'
import { policyChange, requestedPolicy } from './policy.ts'
import { storedDnssecRrsets } from './resign.ts'
import { signZoneOffThread, type SignedZone } from './sign-off-thread.ts'
import { nextEvent } from './schedule.ts'
import { DNSSEC_TYPES, UNSIGNABLE_POOLS } from './types.ts'
import { policyDocument } from './view.ts'

/** The task kind of a signing change run in the background. */
export const DNSSEC_TASK = 'dnssec-zone'

/**
 * Zones with more records than this are signed, re-signed and unsigned by a background task (202
 * + X-Task-Id): signing costs about one signature per rrset and owner (about 30 µs each with
 * ECDSA P-256), so 10,000 records take a few hundred milliseconds, which a request may wait for.
 */
export const DNSSEC_SYNC_MAX_RECORDS = 10_000

/** What a signing request does. */
export type DnssecOperation = 'SIGN' | 'RESIGN' | 'UNSIGN'

/** The input of a signing task: the zone, what to do, with which policy, who asked and why. */
export interface DnssecTaskPayload {
  zoneId: string
  operation: DnssecOperation
  policy: DnssecPolicy | null
  actor: Actor
  comment: string | null
}

/** The outcome of a signing request: done now, or a task running it. */
export type DnssecOutcome = { done: true, zone: string } | { done: false, task: TaskRow }

/** What signing needs from the zone use cases: the store, the key box, the clock. */
export type DnssecDeps = Pick<ZoneDeps, 'store' | 'secrets' | 'clock'>

/** `changeComment` of a signing request: at most 512 characters, no colon (the real API's rule). */
export function dnssecComment (body: unknown): string | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    if (body === undefined || body === null) return null
    throw new ZonalError('INVALID_INPUT', 'the body must be a JSON object')
  }
  const c = (body as { changeComment?: unknown }).changeComment
  if (c === undefined || c === null) return null
  if (typeof c !== 'string') throw new ZonalError('INVALID_INPUT', 'changeComment must be a string')
  if (c.length > 512) throw new ZonalError('INVALID_INPUT', 'changeComment must be at most 512 characters')
  if (c.includes(':')) throw new ZonalError('INVALID_INPUT', 'changeComment must not contain a colon (:)')
  return c === '' ? null : c
}

/**
 * Why the zone cannot be signed now, as the error to answer: an alias (230000), suspended (1813),
 * not a primary, holding pools a signature cannot cover, or holding DNSSEC records of its own
 * (a zone uploaded or transferred signed: unsign it at its source or remove them first).
 */
async function checkSignable (store: Store, zone: ZoneWithAccount): Promise<void> {
  if (zone.zone_type === 'ALIAS') throw new ZonalError('ZONE_IS_ALIAS')
  if (zone.zone_type === 'SECONDARY') throw new ZonalError('DNSSEC_ZONE_NOT_ELIGIBLE', zone.name, 'it is a secondary zone (its primary name servers sign it)')
  if (zone.status === 'SUSPENDED') throw new ZonalError('ZONE_SUSPENDED')
  const pools = await store.rrsets.countPage({ zoneId: zone.id, kinds: { records: false, pools: [...UNSIGNABLE_POOLS] } })
  if (pools > 0) throw new ZonalError('DNSSEC_ZONE_NOT_ELIGIBLE', zone.name, 'it has SiteBacker, Traffic Controller, directional, simple failover or load balancing pools (advanced services do not currently allow for signed zones)')
  for (const type of DNSSEC_TYPES) {
    if (await store.rrsets.countPage({ zoneId: zone.id, type }) > 0) throw new ZonalError('DNSSEC_ZONE_NOT_ELIGIBLE', zone.name, 'it already holds DNSSEC records (DNSKEY, RRSIG, NSEC, NSEC3 or NSEC3PARAM) of its own')
  }
}

/**
 * `POST /zones/{zone}/dnssec` (sign), `PUT`/`PATCH` (re-sign, a new `dnssecPolicy` applied) and
 * `DELETE` (unsign): the checks, then the change now, or as a task for a zone of more than
 * {@link DNSSEC_SYNC_MAX_RECORDS} records.
 *
 * @throws ZonalError ZONE_NOT_FOUND (1801), PERMISSION_DENIED, INVALID_INPUT (changeComment, body),
 *   DNSSEC_POLICY_INVALID (the field named), ZONE_IS_ALIAS, ZONE_SUSPENDED, DNSSEC_ZONE_NOT_ELIGIBLE,
 *   DNSSEC_ZONE_ALREADY_SIGNED (180002, POST), DNSSEC_ZONE_NOT_SIGNED (180001, PUT/PATCH/DELETE)
 */
export async function requestDnssec (deps: ZoneDeps, caller: Caller, name: string, method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', body: unknown): Promise<DnssecOutcome> {
  const zone = await zoneFor(deps, caller, name, 'update')
  // An alias is signed with its primary (dnssec/alias.ts): refused whatever its status.
  if (zone.zone_type === 'ALIAS') throw new ZonalError('ZONE_IS_ALIAS')
  const comment = dnssecComment(body)
  let operation: DnssecOperation
  let policy: DnssecPolicy | null = null
  if (method === 'POST') {
    policy = requestedPolicy(body, 'POST', undefined)
    if (zone.dnssec_status === 'SIGNED') throw new ZonalError('DNSSEC_ZONE_ALREADY_SIGNED')
    await checkSignable(deps.store, zone)
    operation = 'SIGN'
  } else {
    if (zone.dnssec_status !== 'SIGNED') throw new ZonalError('DNSSEC_ZONE_NOT_SIGNED')
    if (method === 'DELETE') operation = 'UNSIGN'
    else {
      policy = requestedPolicy(body, method, (await deps.store.dnssec.find(zone.id))?.policy)
      if (zone.status === 'SUSPENDED') throw new ZonalError('ZONE_SUSPENDED')
      operation = 'RESIGN'
    }
  }
  const payload: DnssecTaskPayload = { zoneId: zone.id, operation, policy, actor: caller.actor, comment }
  if (Number(zone.record_count) > DNSSEC_SYNC_MAX_RECORDS) {
    const task = await deps.store.tasks.create({ accountId: zone.account_id, userId: caller.principal.userId, kind: DNSSEC_TASK, message: 'Pending', payload })
    return { done: false, task }
  }
  await runDnssec(deps, payload)
  return { done: true, zone: zone.name }
}

const KSK_AND_ZSK = ['KSK', 'ZSK'] as const

/** New active keys of the zone under the request's policy, made before the transaction (RSA takes a while). */
function prepareSigning (deps: DnssecDeps, p: DnssecTaskPayload & { policy: DnssecPolicy }, now: Date): PreparedSigning {
  const at = now.toISOString()
  return { policy: p.policy, keys: KSK_AND_ZSK.map(role => newKey(p.zoneId, role, p.policy, deps.secrets, 'ACTIVE', { createdAt: at, publishedAt: at, activeAt: at })) }
}

/** A signing change prepared before its transaction: the new keys, and the zone signed off the main thread. */
export interface PreparedSigning {
  policy: DnssecPolicy
  /** New keys (a sign, or a re-sign with another algorithm); undefined: the zone's stored keys. */
  keys?: OpenKey[]
  /** The zone's DNSSEC rrsets signed from its records at `version` (used only if the zone is still at it). */
  signed?: SignedZone
}

/** The zone changed after it was signed off the main thread: sign it again. */
class ZoneMovedOn extends Error {}

/** Times a large zone is signed again off the main thread when it changed meanwhile, before it is signed inside the transaction. */
const PRECOMPUTE_TRIES = 3

/**
 * Run a signing change in one transaction (the request's, or its task's): the zone locked and
 * checked again, the keys and policy written, the DNSSEC rrsets written (or removed) with the
 * SOA serial bump that journals them (`bumpSerial`), `dnssec_status` set, one audit record.
 * `prepared` carries what was done before the transaction ({@link runDnssecTask}); without it,
 * the keys are made and the zone signed here.
 *
 * @returns the zone's name and what was done, for the task's message.
 */
export async function runDnssec (deps: DnssecDeps, p: DnssecTaskPayload, prepared?: PreparedSigning): Promise<{ zone: string, records: number }> {
  const now = deps.clock()
  if (prepared === undefined && p.operation !== 'UNSIGN' && p.policy !== null) prepared = prepareSigning(deps, { ...p, policy: p.policy }, now)
  return await deps.store.transaction(async (tx) => {
    const zone = await tx.zones.lockById(p.zoneId)
    if (zone === undefined) throw new ZonalError('ZONE_NOT_FOUND')
    if (prepared?.signed !== undefined && prepared.signed.version !== zone.version) throw new ZoneMovedOn()
    const audit = (changes: Change[]) => (_serial: number) => auditRecord(p.actor, {
      accountId: zone.account_id, accountName: zone.account_name, objectType: 'DNSSEC', changeType: p.operation, object: zone.name, parent: zone.name, changes, changeComment: p.comment
    })
    if (p.operation === 'UNSIGN') {
      if (zone.dnssec_status !== 'SIGNED') throw new ZonalError('DNSSEC_ZONE_NOT_SIGNED')
      const removed = [...(await storedDnssecRrsets(tx, zone.id)).values()]
      await tx.dnssec.deleteKeys(zone.id)
      await tx.dnssec.delete(zone.id)
      await bumpSerial(tx, zone, now, 0, removed.map(before => ({ before })), undefined, {
        rrsets: removed.map(r => ({ ownerKey: r.ownerKey, type: r.type, existed: true })),
        zone: { dnssec_status: 'UNSIGNED' },
        audit: audit([{ name: 'dnssecStatus', from: 'SIGNED', to: 'UNSIGNED' }])
      })
      return { zone: zone.name, records: Number(zone.record_count) }
    }
    if (prepared === undefined) throw new Error('a signing change without its policy')
    const { policy } = prepared
    const fresh = prepared.keys
    let keys: OpenKey[]
    const changes: Change[] = []
    if (p.operation === 'SIGN') {
      if (zone.dnssec_status === 'SIGNED') throw new ZonalError('DNSSEC_ZONE_ALREADY_SIGNED')
      await checkSignable(tx, zone)
      if (fresh === undefined) throw new Error('a zone signed without new keys')
      keys = fresh
      for (const k of keys) await tx.dnssec.addKey(k.row)
      changes.push({ name: 'dnssecStatus', from: 'UNSIGNED', to: 'SIGNED' })
      await tx.dnssec.save({ zoneId: zone.id, policy, signedAt: now.toISOString(), modifiedAt: now.toISOString(), nextEventAt: null })
    } else {
      if (zone.dnssec_status !== 'SIGNED') throw new ZonalError('DNSSEC_ZONE_NOT_SIGNED')
      const state = await tx.dnssec.find(zone.id)
      if (state === undefined) throw new Error(`zone ${zone.name} is signed but has no DNSSEC policy`)
      const stored = await tx.dnssec.keys(zone.id)
      if (policyChange(state.policy, policy).newKeys) {
        // Another algorithm: the old keys go at once (the parent's DS must be replaced; GET shows the new ones).
        if (fresh === undefined) throw new Error('a zone signed with another algorithm without new keys')
        for (const k of stored) await tx.dnssec.updateKey(k.id, { state: 'REMOVED', removedAt: now.toISOString() })
        keys = fresh
        for (const k of keys) await tx.dnssec.addKey(k.row)
        changes.push({ name: 'keys', from: describeKeys(stored), to: describeKeys(keys.map(k => k.row)) })
      } else {
        keys = stored.map(k => openKey(k, deps.secrets))
      }
      changes.push(...diffFields(policyDocument(state.policy), policyDocument(policy)).map(c => ({ ...c, name: `dnssecPolicy.${c.name}` })))
      await tx.dnssec.save({ ...state, policy, modifiedAt: now.toISOString() })
    }
    await bumpSerial(tx, zone, now, 0, [], undefined, {
      zone: { dnssec_status: 'SIGNED' },
      dnssec: { secrets: deps.secrets, whole: true, policy, keys, ...(prepared.signed === undefined ? {} : { signed: prepared.signed.rrsets }) },
      audit: audit(changes)
    })
    await tx.dnssec.schedule(zone.id, await nextEvent(tx, zone.id, policy, now))
    return { zone: zone.name, records: Number(zone.record_count) }
  })
}

/**
 * A signing change of a large zone, as its task runs it (`reportProgress`: the task's message and
 * fraction): the records read and the zone signed in a worker thread before the transaction,
 * which then writes the result, so neither the API's event loop nor the zone's lock waits for the
 * signing. A zone changed meanwhile is read and signed again (at most {@link PRECOMPUTE_TRIES}
 * times, then inside the transaction). Unsigning only deletes, in the transaction.
 */
export async function runDnssecTask (deps: DnssecDeps, p: DnssecTaskPayload, reportProgress: (message: string, fraction: number) => Promise<void>): Promise<{ zone: string, records: number }> {
  if (p.operation === 'UNSIGN' || p.policy === null) return await runDnssec(deps, p)
  const policy = p.policy
  const prepared = prepareSigning(deps, { ...p, policy }, deps.clock())
  for (let attempt = 0; attempt < PRECOMPUTE_TRIES; attempt++) {
    const zone = await deps.store.zones.findById(p.zoneId)
    if (zone === undefined) throw new ZonalError('ZONE_NOT_FOUND')
    // The keys the transaction will sign with: new ones, or the stored ones when a re-sign keeps the algorithm.
    const state = p.operation === 'RESIGN' ? await deps.store.dnssec.find(zone.id) : undefined
    const keys = state === undefined || policyChange(state.policy, policy).newKeys ? prepared.keys! : (await deps.store.dnssec.keys(zone.id)).map(k => openKey(k, deps.secrets))
    await reportProgress(`Reading the ${zone.record_count} records of ${zone.name}`, 0.05)
    const at = Math.floor(deps.clock().getTime() / 1000)
    const signed = await signZoneOffThread(deps.store, zone.id, keys, policy, at, async (rrsets) => { await reportProgress(`Signing ${rrsets} rrsets of ${zone.name}`, 0.2) })
    if (signed === undefined) throw new ZonalError('ZONE_NOT_FOUND')
    await reportProgress(`Writing ${signed.rrsets.size} signed rrsets of ${zone.name}`, 0.8)
    try {
      return await runDnssec(deps, p, { ...prepared, signed })
    } catch (err) {
      if (!(err instanceof ZoneMovedOn)) throw err
    }
  }
  return await runDnssec(deps, p, prepared)
}

/** The keys as the audit log shows them: role, algorithm and key tag (never key material). */
function describeKeys (keys: readonly DnssecKey[]): string[] {
  return keys.filter(k => k.state !== 'REMOVED').map(k => `${k.role} ${k.algorithm} ${k.keyTag}`)
}

export type { RrsetChange }
