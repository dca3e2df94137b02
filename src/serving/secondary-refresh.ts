import type { SecretBox } from '../auth/secrets.ts'
import type { TsigKey } from '../dns/wire/tsig.ts'
import type { Store, ZoneVersion } from '../store/store.ts'
import { canonicalSortKey, parseName, type WireName } from '../zone/name.ts'
import { readSoa } from '../zone/rdata/soa.ts'
import { endpointTarget, formatEndpoint } from '../zone/settings.ts'
import { applyTransfer, markTransferStarted, recordTransferFailure, transferRequested, type TransferredZone } from '../zones/secondary-transfer.ts'
import { tsigKeyOf } from '../zones/tsig-key.ts'
import { RRType } from '../zone/rrtype.ts'

/** One primary to transfer from: its address as configured, where to connect, its key. */
export interface PrimarySource {
  /** As configured (`nameServerIp1`'s `ip`), for status messages and audit records. */
  label: string
  host: string
  port: number
  key?: TsigKey
}

/** A failed transfer from one primary, with the reason for the status and the audit record. */
export interface TransferAttemptError {
  source: PrimarySource
  message: string
}

/**
 * Fetch a zone from one primary: IXFR from `serial` when given (else AXFR). Rejects with an Error
 * whose message is the reason (connection refused, timeout, TSIG failure, REFUSED …).
 */
export type TransferFn = (zone: WireName, source: PrimarySource, serial: number | undefined, signal: AbortSignal) => Promise<TransferredZone>

export interface RefreshLogger {
  info (obj: object, msg: string): void
  warn (obj: object, msg: string): void
  error (obj: object, msg: string): void
}

export interface SecondaryRefreshOptions {
  store: Store
  transfer: TransferFn
  secrets: SecretBox
  logger: RefreshLogger
  clock?: () => Date
  /** Transfers running at once from one primary address. */
  perPrimary?: number
  /** Transfers running at once in all. */
  concurrency?: number
  /** Told when a zone expires (stops answering, SERVFAIL) or comes back after a transfer. */
  onExpired?: (zoneId: string, expired: boolean) => void
  /** Records a zone may hold (`ZONAL_ZONE_MAX_RECORDS`): a transfer bringing more fails and changes nothing. */
  maxRecords?: number
}

/** SOA timers used before a zone has an SOA of its own (RFC 1035 §3.3.13 meanings). */
const DEFAULT_TIMERS = { refresh: 3600, retry: 60, expire: 604_800 }

interface Scheduled {
  zoneId: string
  due: number
  /** When the zone last transferred (or confirmed its serial) successfully; epoch ms. */
  lastSuccess?: number
  running: boolean
  /** Asked again while running: run once more when done. */
  again: boolean
  expired: boolean
}

/**
 * Refreshes SECONDARY zones from their primaries (RFC 1034 §4.3.5, RFC 1996): one timer for all
 * zones (the earliest due), a transfer when a zone is due — at once for a new zone, then every
 * SOA refresh interval, after a failure every retry interval — and at once when asked (NOTIFY
 * from a primary, `POST /zones/{zone}/transfer`, a changed primary list). Primaries are tried in
 * order; IXFR when the zone has a copy. A zone that has not refreshed for its SOA expire time
 * is reported expired (it answers SERVFAIL) until a transfer succeeds. Suspended zones are
 * skipped. Transfers per primary address and in all are limited.
 */
export class SecondaryRefresher {
  private readonly zones = new Map<string, Scheduled>()
  private timer: NodeJS.Timeout | undefined
  private readonly running = new Map<string, number>()
  /** Zones waiting for a free slot on their first primary, by address. */
  private readonly waiting = new Map<string, Scheduled[]>()
  private active = 0
  private stopped = false
  private readonly abort = new AbortController()
  private readonly inFlight = new Set<Promise<void>>()
  private readonly clock: () => Date
  private stopWatch: (() => Promise<void>) | undefined
  private rescanTimer: NodeJS.Timeout | undefined

  private readonly opts: SecondaryRefreshOptions

  constructor (opts: SecondaryRefreshOptions) {
    this.opts = opts
    this.clock = opts.clock ?? (() => new Date())
  }

  /**
   * Schedule every ACTIVE secondary zone (each is checked at once), then follow zone changes: new
   * and changed secondaries, transfer requests written by any node, suspensions, deletions.
   */
  async start (): Promise<void> {
    try {
      this.stopWatch = await this.opts.store.watchZones(id => this.followSoon(id), () => this.rescanSoon())
    } catch (err) {
      this.opts.logger.error({ err }, 'zone change notifications unavailable; secondary zones are rescanned every minute')
      this.rescanTimer = setInterval(() => this.rescanSoon(), 60_000)
      this.rescanTimer.unref()
    }
    for (const z of await this.opts.store.zones.versions()) this.track(z, true)
    this.arm()
  }

  async stop (): Promise<void> {
    this.stopped = true
    if (this.timer !== undefined) clearTimeout(this.timer)
    if (this.rescanTimer !== undefined) clearInterval(this.rescanTimer)
    await this.stopWatch?.()
    this.abort.abort()
    await Promise.allSettled([...this.inFlight])
  }

  private followSoon (zoneId: string): void {
    const done = this.follow(zoneId).catch((err: unknown) => this.opts.logger.error({ err, zone: zoneId }, 'following a zone failed')).finally(() => this.inFlight.delete(done))
    this.inFlight.add(done)
  }

  private rescanSoon (): void {
    const done = this.rescan().catch((err: unknown) => this.opts.logger.error({ err }, 'secondary zone rescan failed')).finally(() => this.inFlight.delete(done))
    this.inFlight.add(done)
  }

  /** Compare every zone (another process wrote; a notification may have been missed). */
  private async rescan (): Promise<void> {
    const zones = await this.opts.store.zones.versions()
    const ids = new Set(zones.map(z => z.id))
    for (const id of [...this.zones.keys()]) if (!ids.has(id)) this.forget(id)
    for (const z of zones) if (z.zone_type === 'SECONDARY') await this.follow(z.id)
  }

  /** Transfer the zone now (NOTIFY, a transfer request, a new zone). */
  request (zoneId: string): void {
    const z = this.zones.get(zoneId) ?? { zoneId, due: 0, running: false, again: false, expired: false }
    this.zones.set(zoneId, z)
    if (z.running) z.again = true
    z.due = 0
    this.arm()
  }

  /**
   * Follow a zone's row after a change: start, stop or keep refreshing it, and run a transfer
   * that was asked for (the zone's transfer state is `requested`).
   */
  async follow (zoneId: string): Promise<void> {
    if (this.stopped) return
    const row = await this.opts.store.zones.findById(zoneId)
    if (row === undefined) this.forget(zoneId)
    else {
      this.track(row, false)
      const asked = transferRequested(row.settings.transfer)
      if (this.zones.has(zoneId) && asked && this.zones.get(zoneId)?.running !== true) this.request(zoneId)
    }
    this.arm()
  }

  /** Whether the zone is expired (for tests and status). */
  expired (zoneId: string): boolean {
    return this.zones.get(zoneId)?.expired === true
  }

  private track (z: ZoneVersion, atStart: boolean): void {
    if (z.zone_type !== 'SECONDARY' || z.status !== 'ACTIVE') {
      this.forget(z.id)
      return
    }
    // A zone served before a restart counts as refreshed at start (its expiry runs from there).
    if (!this.zones.has(z.id)) this.zones.set(z.id, { zoneId: z.id, due: atStart ? this.now() : 0, running: false, again: false, expired: false, ...(atStart ? { lastSuccess: this.now() } : {}) })
  }

  private forget (zoneId: string): void {
    const z = this.zones.get(zoneId)
    if (z === undefined) return
    this.zones.delete(zoneId)
    if (z.expired) this.opts.onExpired?.(zoneId, false)
  }

  private now (): number {
    return this.clock().getTime()
  }

  /** One timer: at the earliest due zone. */
  private arm (): void {
    if (this.stopped || this.active >= (this.opts.concurrency ?? 16)) return
    if (this.timer !== undefined) clearTimeout(this.timer)
    let earliest = Infinity
    for (const z of this.zones.values()) if (!z.running && z.due < earliest) earliest = z.due
    if (earliest === Infinity) return
    this.timer = setTimeout(() => this.runDue(), Math.max(0, Math.min(earliest - this.now(), 2 ** 31 - 1)))
    this.timer.unref()
  }

  private runDue (): void {
    const now = this.now()
    for (const z of this.zones.values()) {
      if (z.running || z.due > now) continue
      if (this.active >= (this.opts.concurrency ?? 16)) break
      const done = this.refresh(z).finally(() => this.inFlight.delete(done))
      this.inFlight.add(done)
    }
    this.arm()
  }

  /** Read the zone's primaries (with their keys) and SOA timers. */
  private async plan (zoneId: string): Promise<{ name: WireName, sources: PrimarySource[], serial: number | undefined, full: boolean, timers: typeof DEFAULT_TIMERS } | undefined> {
    const row = await this.opts.store.zones.findById(zoneId)
    if (row === undefined || row.zone_type !== 'SECONDARY' || row.status !== 'ACTIVE') return undefined
    const sources: PrimarySource[] = row.settings.primaries.map(s => ({
      label: formatEndpoint(s.endpoint),
      ...endpointTarget(s.endpoint),
      ...(s.key === undefined ? {} : { key: tsigKeyOf(s.key, this.opts.secrets) })
    }))
    const name = parseName(row.name)
    const soa = (await this.opts.store.rrsets.get(zoneId, canonicalSortKey(name), RRType.SOA))?.rdata[0]
    const fields = soa === undefined ? undefined : readSoa(soa)
    const transfer = row.settings.transfer
    return {
      name,
      sources,
      serial: fields?.serial,
      full: transferRequested(transfer) && transfer.phase.full,
      timers: fields === undefined ? DEFAULT_TIMERS : { refresh: fields.refresh, retry: fields.retry, expire: fields.expire }
    }
  }

  private async refresh (z: Scheduled): Promise<void> {
    z.running = true
    z.again = false
    this.active++
    const held: string[] = []
    try {
      const plan = await this.plan(z.zoneId)
      if (plan === undefined) {
        this.forget(z.zoneId)
        return
      }
      // A slot on the first primary, taken before anything else awaits (others may be checking
      // at the same time); without one the zone waits for that primary's next free slot.
      const perPrimary = this.opts.perPrimary ?? 4
      const first = plan.sources[0]
      if (first !== undefined) {
        if ((this.running.get(first.host) ?? 0) >= perPrimary) {
          z.due = Infinity
          const queue = this.waiting.get(first.host) ?? []
          queue.push(z)
          this.waiting.set(first.host, queue)
          return
        }
        this.running.set(first.host, (this.running.get(first.host) ?? 0) + 1)
        held.push(first.host)
      }
      await markTransferStarted(this.opts.store, z.zoneId)
      const failures: TransferAttemptError[] = []
      for (const [i, source] of plan.sources.entries()) {
        if (this.stopped) return
        if (i > 0) {
          this.running.set(source.host, (this.running.get(source.host) ?? 0) + 1)
          held.push(source.host)
        }
        try {
          const result = await this.opts.transfer(plan.name, source, plan.full ? undefined : plan.serial, this.abort.signal)
          const after = await this.plan(z.zoneId)
          const timers = after?.timers ?? plan.timers
          const now = this.clock()
          z.due = now.getTime() + timers.refresh * 1000
          z.lastSuccess = now.getTime()
          await applyTransfer(this.opts.store, z.zoneId, result, now, new Date(z.due), this.opts.maxRecords)
          if (z.expired) {
            z.expired = false
            this.opts.onExpired?.(z.zoneId, false)
          }
          return
        } catch (err) {
          // Every failed attempt is recorded (status and the failure report's audit record).
          const message = err instanceof Error ? err.message : String(err)
          failures.push({ source, message })
          this.opts.logger.warn({ zone: z.zoneId, primary: source.label, reason: message }, 'zone transfer failed')
          const now = this.clock()
          await recordTransferFailure(this.opts.store, z.zoneId, source.label, message, now, new Date(now.getTime() + plan.timers.retry * 1000))
        }
      }
      if (this.stopped) return
      const now = this.clock()
      z.due = now.getTime() + plan.timers.retry * 1000
      if (failures.length === 0) await recordTransferFailure(this.opts.store, z.zoneId, '', 'No primary name server configured', now, new Date(z.due))
      // RFC 1035 §3.3.13: past EXPIRE without a refresh, the zone is no longer authoritative.
      if (!z.expired && z.lastSuccess !== undefined && now.getTime() - z.lastSuccess >= plan.timers.expire * 1000) {
        z.expired = true
        this.opts.onExpired?.(z.zoneId, true)
      }
    } catch (err) {
      this.opts.logger.error({ err, zone: z.zoneId }, 'zone refresh failed')
      z.due = this.now() + DEFAULT_TIMERS.retry * 1000
    } finally {
      for (const host of held) {
        this.running.set(host, (this.running.get(host) ?? 1) - 1)
        // The primary has a free slot: the next zone waiting for it goes.
        const next = this.waiting.get(host)?.shift()
        if (next !== undefined && this.zones.get(next.zoneId) === next) next.due = 0
      }
      this.active--
      z.running = false
      if (z.again) z.due = 0
      this.arm()
    }
  }
}
