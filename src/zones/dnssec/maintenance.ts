import type { SecretBox } from '../../auth/secrets.ts'
import type { Store } from '../../store/store.ts'
import { RRType } from '../../zone/rrtype.ts'
import type { Clock } from '../../util/time.ts'
import { PeriodicJob } from '../../util/periodic-job.ts'
import { bumpSerial } from '../serial-bump.ts'
import { openKey, type OpenKey } from './keyring.ts'
import { applyKeySteps, keyStepsDue, newKeysOf, type KeySteps } from './rollover.ts'
import { signZoneOffThread, type SignedZone } from './sign-off-thread.ts'
import { nextEventAt, REFRESH_FRACTION } from './schedule.ts'
import { coveredType, rrsigExpiration } from './signing.ts'

/** How often the job looks for signed zones with something due (five minutes). */
export const MAINTENANCE_INTERVAL_MS = 5 * 60_000
/** Zones looked at per run (the most overdue first). */
export const ZONES_PER_RUN = 50
/** Rrsets whose signatures one change refreshes: a bounded transaction, never stalling the zone. */
export const REFRESH_BATCH = 2000

const ACTOR = { user: 'system', ipAddress: null }

export interface DnssecMaintenanceOptions {
  store: Store
  secrets: SecretBox
  /** The time the job reads (tests set it). */
  clock: Clock
  logger: { info: (obj: object, msg: string) => void, warn: (obj: object, msg: string) => void }
  intervalMs?: number
}

/** What one zone's turn did. */
export interface ZoneMaintenance {
  /** Key steps taken ("ZSK 12345 active" …). */
  steps: string[]
  /** Rrsets whose signatures were made again. */
  refreshed: number
}

/**
 * The RRSIGs of the zone, their expirations and the longest TTL they cover (RFC 4034 §3.1.4:
 * the original TTL): read a page of RRSIG rrsets at a time.
 */
async function signatureState (tx: Store, zoneId: string): Promise<{ expiring: Array<{ ownerKey: string, type: number, expiration: number }>, maxTtl: number }> {
  const expiring: Array<{ ownerKey: string, type: number, expiration: number }> = []
  let maxTtl = 0
  for (let offset = 0; ; offset += 1000) {
    const page = await tx.rrsets.listPage({ zoneId, type: RRType.RRSIG, sort: 'OWNER', reverse: false, offset, limit: 1000 })
    for (const set of page) {
      for (const d of set.rdata) {
        expiring.push({ ownerKey: set.ownerKey, type: coveredType(d), expiration: rrsigExpiration(d) })
        maxTtl = Math.max(maxTtl, new DataView(d.buffer, d.byteOffset, d.byteLength).getUint32(4))
      }
    }
    if (page.length < 1000) return { expiring, maxTtl }
  }
}

/** Key steps made ready before their transaction: the keys they add and the zone signed with the keys they leave. */
export interface PreparedKeySteps {
  steps: KeySteps
  added: OpenKey[]
  signed: SignedZone
}

/**
 * The key steps due on a zone at `now`, prepared outside any transaction: the keys they add
 * generated, and the zone signed in a worker thread with the keys as the steps leave them (every
 * signature is made again when the keys change). Undefined when nothing is due.
 */
export async function prepareKeySteps (store: Store, secrets: SecretBox, zoneId: string, now: Date): Promise<PreparedKeySteps | undefined> {
  const zone = await store.zones.findById(zoneId)
  const state = await store.dnssec.find(zoneId)
  if (zone === undefined || state === undefined || zone.dnssec_status !== 'SIGNED' || zone.status !== 'ACTIVE') return undefined
  const rows = await store.dnssec.keys(zoneId)
  const { maxTtl } = await signatureState(store, zoneId)
  const steps = keyStepsDue(rows, state.policy, now, Math.max(maxTtl, state.policy.dnskeyTtl))
  if (steps.add.length === 0 && steps.change.length === 0) return undefined
  const added = newKeysOf(zoneId, steps, state.policy, secrets, now)
  const after = rows.map(row => ({ row: { ...row, ...steps.change.find(c => c.id === row.id)?.changes }, key: openKey(row, secrets).key }))
  const signed = await signZoneOffThread(store, zoneId, [...after, ...added], state.policy, Math.floor(now.getTime() / 1000))
  return signed === undefined || signed.version !== zone.version ? undefined : { steps, added, signed }
}

/** Whether two sets of key steps are the same (the same keys to add, the same changes). */
function sameSteps (a: KeySteps, b: KeySteps): boolean {
  return JSON.stringify([a.add, a.change]) === JSON.stringify([b.add, b.change])
}

/**
 * The rrsets whose signatures expire by `limit`, the most urgent first, at most
 * {@link REFRESH_BATCH}; and the first expiration left (past the limit or the batch).
 */
function dueOf (expiring: Array<{ ownerKey: string, type: number, expiration: number }>, limit: number): { due: Map<string, { ownerKey: string, type: number }>, rest: number | undefined } {
  expiring.sort((a, b) => a.expiration - b.expiration)
  const due = new Map<string, { ownerKey: string, type: number }>()
  for (const e of expiring) {
    const key = `${e.ownerKey}/${e.type}`
    if (due.has(key)) continue
    if (e.expiration > limit || due.size >= REFRESH_BATCH) return { due, rest: e.expiration }
    due.set(key, { ownerKey: e.ownerKey, type: e.type })
  }
  return { due, rest: undefined }
}

/**
 * One signed zone's turn, in one transaction: its key steps when some are due (`keyStepsDue`:
 * each signs the whole zone again, in a worker thread before the transaction when the zone does
 * not change meanwhile), else the signatures expiring within a quarter of the
 * validity made again, at most {@link REFRESH_BATCH} rrsets (the most urgent first; the rest at
 * the next run), through `bumpSerial` like any change (journal, IXFR, other nodes), with those of
 * its signed aliases (each alias's own expirations, refreshed in the same change). The zone's
 * next due time is written (the earliest of the zone's and its aliases').
 */
export async function maintainZone (store: Store, secrets: SecretBox, zoneId: string, now: Date): Promise<ZoneMaintenance> {
  const prepared = await prepareKeySteps(store, secrets, zoneId, now)
  return await store.transaction(async (tx) => {
    const zone = await tx.zones.lockById(zoneId)
    const state = await tx.dnssec.find(zoneId)
    if (zone === undefined || state === undefined || zone.dnssec_status !== 'SIGNED' || zone.status !== 'ACTIVE') return { steps: [], refreshed: 0 }
    const { policy } = state
    const rows = await tx.dnssec.keys(zoneId)
    const { expiring, maxTtl } = await signatureState(tx, zoneId)
    const steps = keyStepsDue(rows, policy, now, Math.max(maxTtl, policy.dnskeyTtl))
    if (steps.add.length > 0 || steps.change.length > 0) {
      // Signed before the transaction if the zone is still as it was then (the same version, so the same steps).
      const ready = prepared !== undefined && prepared.signed.version === zone.version && sameSteps(prepared.steps, steps) ? prepared : undefined
      await applyKeySteps(tx, { store: tx, secrets, clock: () => now }, zoneId, steps, ACTOR, 'KEY_ROLLOVER', null, now, ready)
      return { steps: steps.notes, refreshed: 0 }
    }
    const at = Math.floor(now.getTime() / 1000)
    const limit = at + policy.rrsigValidityDays * 86400 * REFRESH_FRACTION
    let { due, rest } = dueOf(expiring, limit)
    // The signed aliases' signatures (their owners' jitter differs from the primary's): refreshed
    // in the same change, which signs them with the primary's keys (dnssec/alias.ts).
    const aliasDue = new Map<string, Array<{ ownerKey: string, type: number }>>()
    for (const alias of await tx.zones.aliasesOf(zoneId)) {
      if (alias.dnssec_status !== 'SIGNED') continue
      const mine = dueOf((await signatureState(tx, alias.id)).expiring, limit)
      if (mine.due.size > 0) aliasDue.set(alias.id, [...mine.due.values()])
      if (mine.rest !== undefined) rest = Math.min(rest ?? Infinity, mine.rest)
    }
    if (due.size > 0 || aliasDue.size > 0) {
      const keys = rows.map(k => openKey(k, secrets))
      await bumpSerial(tx, zone, now, 0, [], undefined, { dnssec: { secrets, policy, keys, refresh: [...due.values()], aliasRefresh: aliasDue } })
    }
    const refreshed = due.size + [...aliasDue.values()].reduce((n, d) => n + d.length, 0)
    // More due than one batch: again at the next run; else when the earliest left (or made now) enters its last quarter.
    const earliest = Math.min(rest ?? Infinity, refreshed > 0 ? at + policy.rrsigValidityDays * 86400 * 0.9 : Infinity)
    const next = rest !== undefined && rest <= limit ? now.toISOString() : nextEventAt(rows, policy, now, Number.isFinite(earliest) ? earliest : undefined)
    await tx.dnssec.schedule(zoneId, next)
    return { steps: [], refreshed }
  })
}

/**
 * The periodic job keeping signed zones signed: every {@link MAINTENANCE_INTERVAL_MS}, the signed
 * zones whose next due time has come (`dnssec.due`, the most overdue first, {@link ZONES_PER_RUN}
 * a run), each in a transaction of its own ({@link maintainZone}), the event loop free between
 * zones. The state it moves (key states and times, the next due time) is stored, so a restart
 * or another node goes on where it stopped; two nodes serialise on the zone's row lock.
 */
export class DnssecMaintenance extends PeriodicJob {
  private readonly opts: DnssecMaintenanceOptions

  constructor (opts: DnssecMaintenanceOptions) {
    super(opts.intervalMs ?? MAINTENANCE_INTERVAL_MS)
    this.opts = opts
  }

  protected async once (): Promise<void> {
    const now = this.opts.clock()
    try {
      for (const zoneId of await this.opts.store.dnssec.due(now.toISOString(), ZONES_PER_RUN)) {
        try {
          const done = await maintainZone(this.opts.store, this.opts.secrets, zoneId, now)
          if (done.steps.length > 0 || done.refreshed > 0) this.opts.logger.info({ zoneId, ...done }, 'DNSSEC zone maintained')
        } catch (err) {
          this.opts.logger.warn({ err, zoneId }, 'DNSSEC maintenance of a zone failed (tried again at the next run)')
        }
        await new Promise(resolve => setImmediate(resolve))
      }
    } catch (err) {
      this.opts.logger.warn({ err }, 'DNSSEC maintenance failed (tried again at the next run)')
    }
  }
}
