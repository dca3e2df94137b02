import { ZoneIndex } from '../dns/index/zone-index.ts'
import type { Client } from '../dns/server/handle-query.ts'
import type { CaptureTarget } from './dns-worker-protocol.ts'
import { listenAll, probePort, type BoundAddress, type Listeners } from '../dns/server/listeners.ts'
import { ResponseRateLimiter, type RateLimitOptions } from '../dns/server/rate-limiter.ts'
import { DEFAULT_TCP_LIMITS, type TcpLimits } from '../dns/server/tcp-pool.ts'
import { transferHandler } from '../dns/server/transfer-handler.ts'
import type { SecretBox } from '../auth/secrets.ts'
import { RRType } from '../zone/rrtype.ts'
import { sendNotify } from '../dns/notify/sender.ts'
import type { ZoneData } from '../dns/index/zone-data.ts'
import { isIPv6 } from 'node:net'
import type { Store } from '../store/store.ts'
import { ZoneSync, type SyncLogger, type ZoneFeed } from './zone-sync.ts'
import { DnsBindError, DnsWorkers } from './dns-workers.ts'
import { loadUdpBatch } from '../dns/server/udp-batch.ts'
import { sameDown, setGeoLocator, type ServedPool } from '../dns/answer/pools.ts'
import { compileDir } from '../zone/pools/dir-match.ts'
import type { PoolRecordStates } from '../zone/pools/health.ts'
import { nameEquals, nameToString, parseName, wireKey } from '../zone/name.ts'
import { renameUnder } from '../zone/rename.ts'
import { geoLocator, readGeoDatabases } from './geo-locator.ts'

export interface DnsService {
  /** The main thread's index (the zone sync's); DNS workers each hold a copy that follows it. */
  index: ZoneIndex
  /** The port bound (the same for every address, UDP and TCP). */
  port: number
  /** The addresses served, each over UDP and TCP. */
  addresses: BoundAddress[]
  /** Resolves when every zone has been loaded once (and, with workers, is served by all of them). */
  loaded: Promise<void>
  /** The zone sync (expiry marks, zone ids of served data). */
  sync: ZoneSync
  /** The DNS worker threads; undefined when DNS is answered on the main thread. */
  workers: DnsWorkers | undefined
  /** Resolves when the changes reported so far are applied and served by every listener. */
  settled (): Promise<void>
  /** Resolves once the queries answered so far have reached `capture` (workers hand theirs over). */
  flushCapture (): Promise<void>
  /**
   * The health of one pool's records as probes judged it (`traffic/`): the pool answers by it at
   * once, in every DNS thread (its zone's cached replies dropped), and keeps it across reloads.
   * A record not in `states.health` counts as UP. Nothing is read from the database.
   */
  setPoolHealth (states: PoolRecordStates): void
  close (): Promise<void>
}

export interface DnsServiceOptions {
  /** IPv4 or IPv6 addresses, each served over UDP and TCP on `port`. */
  hosts: readonly string[]
  port: number
  /**
   * DNS worker threads (each with its own sockets on the shared port); 0 answers on the main
   * thread, beside the API. Default 0.
   */
  workers?: number
  /** The node name captured queries carry (`ZONAL_NODE_NAME`). */
  node?: string
  /** TCP idle timeout, connection limit and per-client limit (RFC 7766 §6.2.3 defaults when absent). */
  tcp?: TcpLimits
  /** UDP response rate limiting; off when absent or at 0 responses per second. */
  rateLimit?: RateLimitOptions
  logger: SyncLogger & { warn (obj: object, msg: string): void }
  /** Told of every query answered (the analytics capture). */
  capture?: CaptureTarget
  /** Told of every NOTIFY accepted for a secondary zone from one of its primaries. */
  onNotify?: (zone: ZoneData, client: Client, serial: number | undefined) => void
  secrets: SecretBox
  /**
   * UDP through the batched socket (recvmmsg/sendmmsg, native/udp-batch) when its addon loads,
   * else through `node:dgram` (logged once); false always uses `node:dgram`. Default true.
   */
  udpBatch?: boolean
  /**
   * MMDB files (`ZONAL_GEOIP_DB`) that place the clients of directional pools' geo groups; read
   * into memory shared by every DNS thread when the first such pool is served. None: geo groups
   * match nobody (IP groups and the default record still answer).
   */
  geoip?: readonly string[]
}

/** Tries at a port free everywhere when the workers bind port 0's pick and lose it meanwhile. */
const WORKER_PORT_ATTEMPTS = 10

/**
 * Start `count` DNS workers on one port. With port 0 a free port is picked first (no shared
 * socket may pick it: see `probePort`); if another program takes it before the workers bind,
 * another is picked. The rate limit and the TCP connection limit are shared out between the
 * workers (the kernel spreads clients over them), so together they keep the configured limits;
 * the per-client TCP limit is counted in a table all workers share.
 */
async function startWorkers (opts: DnsServiceOptions, count: number, index: ZoneIndex, created: (workers: DnsWorkers) => void): Promise<DnsWorkers> {
  const rate = opts.rateLimit === undefined || opts.rateLimit.responsesPerSecond === 0
    ? undefined
    : { responsesPerSecond: Math.ceil(opts.rateLimit.responsesPerSecond / count), slip: opts.rateLimit.slip, exempt: [...opts.rateLimit.exempt], ...(opts.rateLimit.maxEntries === undefined ? {} : { maxEntries: opts.rateLimit.maxEntries }) }
  const tcp = opts.tcp ?? DEFAULT_TCP_LIMITS
  for (let attempt = 1; ; attempt++) {
    const port = await probePort(opts.hosts, opts.port)
    const workers = new DnsWorkers({
      count,
      hosts: [...opts.hosts],
      port,
      tcp: { idleMs: tcp.idleMs, maxConnections: Math.max(1, Math.ceil(tcp.maxConnections / count)), maxPerClient: tcp.maxPerClient ?? DEFAULT_TCP_LIMITS.maxPerClient },
      ...(rate === undefined ? {} : { rateLimit: rate }),
      ...(opts.capture === undefined ? {} : { capture: opts.capture }),
      node: opts.node ?? '',
      udpBatch: opts.udpBatch ?? true,
      index,
      ...(opts.onNotify === undefined ? {} : { onNotify: opts.onNotify }),
      logger: opts.logger
    })
    // The feed goes to these workers from now on: they start with the zones served so far.
    created(workers)
    try {
      await workers.start()
      return workers
    } catch (err) {
      if (opts.port === 0 && attempt < WORKER_PORT_ATTEMPTS && err instanceof DnsBindError && err.code === 'EADDRINUSE') continue
      throw err
    }
  }
}

/**
 * The authoritative DNS server: UDP and TCP listeners on every address, all on one port (port 0
 * picks a port free on all of them for both), answering from the in-memory index that
 * `ZoneSync` keeps in step with the store. With `workers` > 0 the listeners and the answer path
 * run in that many worker threads, each following the zone sync's changes, so nothing the main
 * thread does (API requests, uploads, exports) holds up an answer. Zones load in the background;
 * until a zone is loaded it is REFUSED.
 */
export async function startDns (store: Store, opts: DnsServiceOptions): Promise<DnsService> {
  const index = new ZoneIndex()
  const count = opts.workers ?? 0
  let udpBatch = opts.udpBatch ?? true
  if (udpBatch) {
    const batch = loadUdpBatch()
    if ('error' in batch) opts.logger.warn({ reason: batch.error }, 'DNS over UDP reads one datagram at a time (node:dgram): the batched socket is not available')
    udpBatch = 'addon' in batch
  }
  let listeners: Listeners | undefined
  let workers: DnsWorkers | undefined
  // Pending NOTIFY retries stop when the service closes.
  const stopping = new AbortController()
  const notifyZone = (zone: ZoneData): void => {
    const soa = zone.apex?.rrsets.get(RRType.SOA)
    if (soa === undefined) return
    const record = { name: zone.origin, type: RRType.SOA, class: 1, ttl: soa.ttl, rdata: soa.rdata[0]! }
    for (const target of zone.notify) {
      sendNotify(record, target, { signal: stopping.signal }).then((acked) => {
        if (!acked && !stopping.signal.aborted) opts.logger.warn({ zone: nameToString(zone.origin), target }, 'NOTIFY not acknowledged')
      }, (err: unknown) => opts.logger.warn({ err, target }, 'NOTIFY failed'))
    }
  }
  // With workers, the zones load while the workers start (each takes what is loaded when it
  // starts, then the feed); without, once the listeners are bound.
  let feedTo: DnsWorkers | undefined
  const feed: ZoneFeed = {
    zoneServed: data => feedTo?.zoneServed(data),
    zoneApplied: (data, steps) => feedTo?.zoneApplied(data, steps),
    zoneSettings: data => feedTo?.zoneSettings(data),
    zoneDropped: origin => feedTo?.zoneDropped(origin),
    zonePool: (data, key, pool) => feedTo?.zonePool(data, key, pool)
  }
  // Pool health by zone id and `wireKey(owner)/type`: the records judged DOWN (sorted).
  const poolHealth = new Map<string, Map<string, string[]>>()
  // The GeoIP databases, read once the first directional pool with geo groups is served.
  let geoDatabases: SharedArrayBuffer[] | undefined
  let geoReading: Promise<void> | undefined
  const onPool = (pool: ServedPool): void => {
    const files = opts.geoip ?? []
    if (geoReading !== undefined || files.length === 0 || pool.profile.kind !== 'DIR_POOLS' || !compileDir(pool.profile).usesGeo) return
    geoReading = readGeoDatabases(files).then((databases) => {
      geoDatabases = databases
      setGeoLocator(geoLocator(databases))
      feedTo?.geoDatabases(databases)
      opts.logger.info({ files, bytes: databases.reduce((n, d) => n + d.byteLength, 0) }, 'GeoIP databases read for directional pools')
    }, (err: unknown) => opts.logger.error({ err, files }, 'GeoIP databases could not be read: directional pools place no client by country'))
  }
  const sync = new ZoneSync(store, index, opts.logger, opts.secrets, {
    onSerialChange: notifyZone,
    ...(count > 0 ? { feed } : {}),
    poolHealth: (zoneId, key) => poolHealth.get(zoneId)?.get(key) ?? [],
    onPool
  })
  let started: Promise<void> | undefined
  if (count > 0) {
    started = sync.start()
    // Its failure is reported through `loaded`, or not at all when the workers fail first.
    started.catch(() => {})
    try {
      workers = await startWorkers({ ...opts, udpBatch }, count, index, (w) => {
        feedTo = w
        if (geoDatabases !== undefined) w.geoDatabases(geoDatabases)
      })
    } catch (err) {
      await sync.stop()
      throw err
    }
  } else {
    const onError = (err: unknown): void => opts.logger.warn({ err }, 'DNS request failed')
    const handler = { index, capture: opts.capture, onNotify: opts.onNotify }
    const rateLimiter = opts.rateLimit === undefined || opts.rateLimit.responsesPerSecond === 0 ? undefined : new ResponseRateLimiter(opts.rateLimit)
    listeners = await listenAll(handler, onError, { hosts: opts.hosts, port: opts.port, tcp: opts.tcp, rateLimiter, transfer: transferHandler(index, onError, opts.capture), udpBatch })
    started = sync.start()
  }
  const port = listeners?.port ?? workers!.port
  const settled = async (): Promise<void> => {
    await sync.settled()
    await geoReading
    await workers?.settled()
  }
  const loaded = started.then(settled)
  loaded.catch((err: unknown) => opts.logger.error({ err }, 'initial zone load failed'))
  return {
    index,
    port,
    addresses: opts.hosts.map(host => ({ address: host, port, family: isIPv6(host) ? 'IPv6' : 'IPv4' })),
    loaded,
    sync,
    workers,
    settled,
    async flushCapture () {
      await workers?.flushCapture()
    },
    setPoolHealth (states) {
      const owner = parseName(states.owner)
      const key = `${wireKey(owner)}/${states.type}`
      const down = [...states.health].filter(([, h]) => h === 'DOWN').map(([rdata]) => rdata).sort()
      const byKey = poolHealth.get(states.zoneId) ?? new Map<string, string[]>()
      if (down.length > 0) byKey.set(key, down)
      else byKey.delete(key)
      if (byKey.size > 0) poolHealth.set(states.zoneId, byKey)
      else poolHealth.delete(states.zoneId)
      // The zone and its aliases, each under its own origin.
      for (const { data, sourceOrigin } of sync.servedFrom(states.zoneId)) {
        const servedKey = nameEquals(data.origin, sourceOrigin) ? key : `${wireKey(renameUnder(owner, sourceOrigin, data.origin))}/${states.type}`
        const pool = data.pools.get(servedKey)
        if (pool === undefined || sameDown(pool.down, down)) continue
        const next: ServedPool = { profile: pool.profile, text: pool.text, wire: pool.wire, records: pool.records, down, key: pool.key }
        data.setPool(servedKey, next)
        feedTo?.zonePool(data, servedKey, next)
      }
    },
    async close () {
      stopping.abort()
      await sync.stop()
      await listeners?.close()
      await workers?.close()
    }
  }
}
