import type { AddressInfo } from 'node:net'
import { hostname } from 'node:os'
import type { FastifyInstance } from 'fastify'
import { pino, type Logger } from 'pino'
import { buildApp } from '../app.ts'
import { AuthService } from '../auth/auth-service.ts'
import type { Config } from '../config/config.ts'
import { openStore } from '../store/open-store.ts'
import type { Store } from '../store/store.ts'
import { taskHandlers } from '../tasks/jobs/index.ts'
import { TaskRunner } from '../tasks/runner.ts'
import { bootstrapAdmin } from './bootstrap.ts'
import { SecretBox } from '../auth/secrets.ts'
import { startDns, type DnsService } from '../serving/dns-service.ts'
import { SecondaryRefresher } from '../serving/secondary-refresh.ts'
import { transferIn } from '../dns/transfer/client.ts'
import { Registry } from 'prom-client'
import { CounterSink } from '../analytics/counter-sink.ts'
import { FanOutSink } from '../analytics/fan-out-sink.ts'
import { HostCountSink } from '../analytics/host-count-sink.ts'
import { QueryCollector } from '../analytics/query-collector.ts'
import { QueryCountSink } from '../analytics/query-count-sink.ts'
import { ClientCountSink } from '../analytics/client-count-sink.ts'
import { GeoIp, shippedDatabases } from '../analytics/geoip.ts'
import { registerClientCountMetrics, registerQueryMetrics, registerRawSampleMetrics } from '../analytics/query-metrics.ts'
import { RawSampleSink } from '../analytics/raw-sample-sink.ts'
import { AnalyticsRetention } from '../analytics/retention.ts'
import { DnssecMaintenance } from '../zones/dnssec/maintenance.ts'
import { UsageDays } from '../analytics/usage-days.ts'
import { absorbPart } from '../analytics/thread-analytics.ts'
import type { CaptureTarget } from '../serving/dns-worker-protocol.ts'
import { closeSharedPool } from '../util/worker-pool.ts'
import { HealthChecker } from '../health/service.ts'
import { TrafficService } from '../traffic/service.ts'
import { resolverServers } from '../health/resolvers.ts'
import { ForwardTable } from '../forwards/table.ts'
import { ForwardSync } from '../serving/forward-sync.ts'
import { startForwardServer, type ForwardServer } from '../serving/forward-server.ts'
import { readdressForwardedHosts } from '../zones/web-forwards.ts'
import { systemClock } from '../util/time.ts'

const TOKEN_SWEEP_MS = 10 * 60 * 1000
/** A zone changed through the API is health-checked this long after its last change. */
const HEALTH_CHANGE_DELAY_MS = 5 * 60 * 1000

export interface RunningService {
  app: FastifyInstance
  store: Store
  httpPort: number
  logger: Logger
  /** The background task runner (started once the API listens). */
  tasks: TaskRunner
  dns: DnsService
  /** Refreshes secondary zones from their primaries. */
  secondaries: SecondaryRefresher
  /** The web forwarding server (its ports) and the sync that keeps its table of forwards current. */
  /**
   * The web forwarding server (its ports), the sync that keeps its table of forwards current, and
   * the start's pass that points forwarded hosts at `ZONAL_FORWARD_ADDRESSES` (resolves when done).
   */
  forwards: { server: ForwardServer, sync: ForwardSync, table: ForwardTable, readdressed: Promise<void> }
  /**
   * The capture of answered DNS queries and the counts it feeds (shown at `/metrics`); `flush`
   * resolves once every query answered so far (by every DNS worker) has reached the counts.
   * This and the sinks below are undefined with `ZONAL_ANALYTICS=off` (DNS answers without capture).
   */
  queries: { collector: QueryCollector, counts: CounterSink, flush (): Promise<void> } | undefined
  /**
   * Query volume and response codes per day, zone and node, added to the database every
   * `ZONAL_ANALYTICS_FLUSH_SECONDS` and on close; `flush` (after `queries.flush`) writes now.
   */
  queryCounts: QueryCountSink | undefined
  /**
   * Raw query samples (`ZONAL_ANALYTICS_RAW_PER_SECOND`; undefined at 0 or with analytics off), written every
   * `ZONAL_ANALYTICS_FLUSH_SECONDS` and on close; `flush(true)` (after `queries.flush`) writes
   * every second's sample now.
   */
  rawSamples: RawSampleSink | undefined
  /**
   * Query volume and response codes per host, added to the database every
   * `ZONAL_ANALYTICS_HOSTS_FLUSH_SECONDS` and on close; `flush` (after `queries.flush`) writes now.
   */
  hostCounts: HostCountSink | undefined
  /**
   * Responses per day, zone, client and place (the client IP report), added to the database
   * every `ZONAL_ANALYTICS_FLUSH_SECONDS` and on close; `flush` (after `queries.flush`) writes now.
   */
  clientCounts: ClientCountSink | undefined
  /** DNS health checks: on request, on the schedule and after changes. */
  health: HealthChecker
  /** Probes of the traffic pools and the record states they decide (with `ZONAL_PROBES=off`, only follows them). */
  traffic: TrafficService
  /** Stop accepting, let in-flight requests finish, close the database. Safe to call twice. */
  close (): Promise<void>
}

/**
 * Start the service: open and migrate the database, bootstrap the admin on first start, serve
 * the HTTP API. The chosen ports are logged (port 0 picks a free one).
 */
export async function startService (config: Config, out: NodeJS.WritableStream = process.stdout): Promise<RunningService> {
  const logger = pino({ level: config.logLevel, base: { service: 'zonal' } }, out as any)
  // Checked before anything opens: a bad resolver list stops the start naming the variable.
  const resolvers = resolverServers(config.resolvers)
  const store = await openStore(config.databaseUrl, { poolSize: config.databasePoolSize })
  let app: FastifyInstance | undefined
  let stopTokenCache = async (): Promise<void> => {}
  const metrics = new Registry()
  const health = new HealthChecker(store, {
    resolvers,
    nsPort: config.healthNsPort,
    concurrency: config.healthConcurrency,
    perServerQps: config.healthQps,
    intervalMs: config.healthIntervalSeconds * 1000,
    changeDelayMs: config.healthIntervalSeconds === 0 ? 0 : HEALTH_CHANGE_DELAY_MS,
    logger: logger.child({ part: 'health' })
  })
  const analytics = config.analytics ? createAnalytics(config, store, logger, metrics) : undefined
  const trafficLogger = logger.child({ part: 'traffic' })
  // Pool record states decided by the probes (or, with ZONAL_PROBES=off, by the other nodes) go
  // to the DNS answer path (every DNS worker at once). The service starts after DNS, and its first
  // tick publishes the states stored before this start (a restart, another node's decisions).
  let poolHealthTarget: DnsService | undefined
  const traffic = new TrafficService(store, {
    node: config.nodeName,
    region: config.probeRegion,
    monitorIntervalSeconds: config.sfMonitorIntervalSeconds,
    minIntervalSeconds: config.probeMinIntervalSeconds,
    concurrency: config.probeConcurrency,
    probe: config.probes,
    publish: (states) => {
      trafficLogger.debug({ zoneId: states.zoneId, owner: states.owner, type: states.type, health: Object.fromEntries(states.health) }, 'pool record states')
      poolHealthTarget?.setPoolHealth(states)
    },
    logger: trafficLogger
  })
  const tasks = new TaskRunner(store, taskHandlers({ nameservers: config.nameservers, secretKey: config.secretKey, limits: { zoneMaxRecords: config.zoneMaxRecords, generateMaxRecords: config.generateMaxRecords, uploadSyncMaxRecords: config.uploadSyncMaxRecords }, forwardAddresses: config.forwardAddresses }, { resolvers: config.resolvers }), {
    workerId: `${config.nodeName}:${hostname()}:${process.pid}`,
    concurrency: config.taskConcurrency,
    retentionSeconds: config.taskRetentionSeconds,
    auditRetentionSeconds: config.auditRetentionDays * 86400,
    logger: logger.child({ part: 'tasks' })
  })
  try {
    const applied = await store.migrate()
    if (applied.length > 0) logger.info({ migrations: applied }, 'database migrated')
    const boot = await bootstrapAdmin(store, config)
    if (boot !== undefined) {
      logger.info({ account: boot.account, username: boot.username }, 'bootstrap admin created')
      if (boot.generatedPassword !== undefined) {
        // Printed once, outside the structured log, so it is not shipped with the logs.
        process.stderr.write(
          `\nBootstrap admin created: user "${boot.username}" in account "${boot.account}" (group Owner)\n` +
          `Generated password (shown only now): ${boot.generatedPassword}\n` +
          `Change it with: npx zonal user passwd ${boot.username}\n\n`)
      }
    }
    const auth = new AuthService(store, {
      accessTokenTtl: config.accessTokenTtl,
      refreshTokenTtl: config.refreshTokenTtl,
      maxFailedLogins: config.maxFailedLogins,
      lockSeconds: config.lockSeconds,
      addressMaxFailures: config.loginAddressMaxFailures,
      addressWindowSeconds: 900,
      tokenCacheSeconds: config.tokenCacheSeconds
    })
    stopTokenCache = await auth.watchRevocations()
    app = await buildApp({ store, auth, config, logger: logger.child({ part: 'http' }), tasks, metrics, health, transferZone: async (zone, source, opts) => await transferIn(zone, source, opts) })
    await app.listen({ host: config.httpHost, port: config.httpPort })
  } catch (err) {
    await app?.close().catch(() => {})
    await stopTokenCache().catch(() => {})
    await store.close().catch(() => {})
    await analytics?.collector.close()
    throw err
  }
  const httpPort = (app.server.address() as AddressInfo).port
  logger.info({ host: config.httpHost, port: httpPort, database: config.databaseUrl.replace(/\/\/[^@/]*@/, '//***@') }, 'HTTP API listening')

  tasks.start()
  // The analytics tables' upkeep: partitions ahead and rows past their retention, now and daily.
  const retention = new AnalyticsRetention(store.analyticsData, { logger: logger.child({ part: 'analytics' }) })
  retention.start()
  // The usage summary's days: today's row for every account, the days just ended closed; hourly.
  const usageDays = new UsageDays(store.usage, { logger: logger.child({ part: 'usage' }) })
  usageDays.start()
  // Signed zones: signatures refreshed before they expire, key rollovers moved on; every five minutes.
  const dnssec = new DnssecMaintenance({ store, secrets: new SecretBox(config.secretKey), clock: () => new Date(), logger: logger.child({ part: 'dnssec' }) })
  dnssec.start()

  // Secondary zones: refreshed from their primaries; NOTIFY from a primary asks for a refresh,
  // an expired zone answers SERVFAIL until a transfer succeeds.
  let dnsRef: DnsService | undefined
  const refresher = new SecondaryRefresher({
    store,
    // A whole zone may bring its records and the closing SOA; differences, twice that (removed and added).
    transfer: async (zone, source, serial, signal) => await transferIn(zone, source, { ...(serial === undefined ? {} : { serial }), signal, maxRecords: (serial === undefined ? 1 : 2) * (config.zoneMaxRecords + 1) }),
    maxRecords: config.zoneMaxRecords,
    secrets: new SecretBox(config.secretKey),
    logger: logger.child({ part: 'secondaries' }),
    onExpired: (zoneId, expired) => dnsRef?.sync.setExpired(zoneId, expired)
  })
  let dns: DnsService
  const forwardTable = new ForwardTable()
  const forwardSync = new ForwardSync(store, forwardTable, logger.child({ part: 'forwards' }))
  let forwarder: ForwardServer | undefined
  try {
    dns = await startDns(store, {
      hosts: config.dnsHosts,
      port: config.dnsPort,
      workers: config.dnsWorkers,
      udpBatch: config.dnsUdpBatch,
      node: config.nodeName,
      tcp: { idleMs: config.dnsTcpIdleSeconds * 1000, maxConnections: config.dnsTcpMaxConnections, maxPerClient: config.dnsTcpMaxPerClient },
      rateLimit: { responsesPerSecond: config.dnsRrl, slip: config.dnsRrlSlip, exempt: config.dnsRrlExempt },
      logger: logger.child({ part: 'dns' }),
      secrets: new SecretBox(config.secretKey),
      ...(analytics === undefined ? {} : { capture: analytics.capture }),
      geoip: config.geoipDatabases === 'shipped' ? shippedDatabases() : config.geoipDatabases,
      onNotify: (zone) => {
        const id = dnsRef?.sync.zoneIdOf(zone)
        if (id !== undefined) refresher.request(id)
      }
    })
    dnsRef = dns
    poolHealthTarget = dns
    // Every forward in the table before the forwarding server answers its first request.
    await forwardSync.start()
    forwarder = await startForwardServer({
      table: forwardTable,
      host: config.forwardHttpHost,
      port: config.forwardHttpPort,
      httpsPort: config.forwardHttpsPort,
      ...(config.forwardCertDir === undefined ? {} : { certDir: config.forwardCertDir }),
      limits: { maxPerClient: config.forwardMaxPerClient },
      log: logger.child({ part: 'forwarder' })
    })
    await refresher.start()
    await health.startSchedule()
    traffic.start()
    analytics?.start()
  } catch (err) {
    await forwarder?.close()
    await forwardSync.stop()
    await traffic.stop()
    await health.stop()
    await refresher.stop()
    await retention.stop()
    await usageDays.stop()
    await dnssec.stop()
    await analytics?.collector.close()
    await app.close()
    await tasks.stop()
    await stopTokenCache()
    await store.close()
    throw err
  }
  logger.info({ addresses: dns.addresses.map(a => a.family === 'IPv6' ? `[${a.address}]:${a.port}` : `${a.address}:${a.port}`), port: dns.port, workers: config.dnsWorkers, rrl: config.dnsRrl === 0 ? 'off' : { responsesPerSecond: config.dnsRrl, slip: config.dnsRrlSlip, exempt: config.dnsRrlExempt } }, 'DNS listening (UDP and TCP)')

  const forwardServer = forwarder
  logger.info({ host: config.forwardHttpHost, httpPort: forwardServer.httpPort, httpsPort: forwardServer.httpsPort ?? (config.forwardCertDir === undefined ? 'off (ZONAL_FORWARD_CERT_DIR unset)' : 'not yet (no certificate in ZONAL_FORWARD_CERT_DIR: starts when the folder, read again every hour, holds one)'), maxPerClient: config.forwardMaxPerClient === 0 ? 'off' : config.forwardMaxPerClient, forwards: forwardTable.size }, 'web forwarding server listening')
  // Forwarded hosts written under other addresses (the setting changed) are pointed here, after
  // the start: it changes only zones out of line, and DNS answers meanwhile as before.
  const readdressed = readdressForwardedHosts({
    store,
    nameservers: config.nameservers,
    secrets: new SecretBox(config.secretKey),
    clock: systemClock,
    limits: { zoneMaxRecords: config.zoneMaxRecords, generateMaxRecords: config.generateMaxRecords, uploadSyncMaxRecords: config.uploadSyncMaxRecords },
    forwardAddresses: config.forwardAddresses
  }).then(
    (done) => { if (done.zones > 0) logger.info({ ...done, addresses: config.forwardAddresses }, 'forwarded hosts pointed at the forwarding server\'s addresses') },
    (err: unknown) => { logger.error({ err }, 'forwarded hosts could not be pointed at the forwarding server\'s addresses') }
  )

  // Expired tokens are useless; sweep them so the table stays the size of the active sessions.
  const sweep = setInterval(() => {
    store.tokens.deleteExpired(new Date().toISOString()).catch((err: unknown) => logger.warn({ err }, 'token sweep failed'))
  }, TOKEN_SWEEP_MS)
  sweep.unref()

  let closing: Promise<void> | undefined
  const running: RunningService = {
    app,
    store,
    httpPort,
    logger,
    tasks,
    dns,
    secondaries: refresher,
    forwards: { server: forwardServer, sync: forwardSync, table: forwardTable, readdressed },
    health,
    traffic,
    queryCounts: analytics?.queryVolume,
    rawSamples: analytics?.rawSamples,
    hostCounts: analytics?.hostVolume,
    clientCounts: analytics?.clientCounts,
    queries: analytics === undefined
      ? undefined
      : {
          collector: analytics.collector,
          counts: analytics.counts,
          async flush () {
            await dns.flushCapture()
            await analytics.collector.flush()
          }
        },
    close: () => {
      closing ??= (async () => {
        logger.info('shutting down: finishing in-flight requests')
        clearInterval(sweep)
        // Keep-alive connections become idle once their in-flight request is answered; close
        // them then, rather than waiting for the keep-alive timeout.
        const idle = setInterval(() => app.server.closeIdleConnections(), 25)
        try {
          await app.close()
        } finally {
          clearInterval(idle)
        }
        await readdressed
        await forwardServer.close()
        await forwardSync.stop()
        await refresher.stop()
        await health.stop()
        await traffic.stop()
        await dns.close()
        // What was counted since the last flush, before the database closes.
        await analytics?.close()
        await retention.stop()
        await usageDays.stop()
        await dnssec.stop()
        // Running jobs finish (and record their outcome) before the database closes.
        await tasks.stop()
        await stopTokenCache()
        await store.close()
        await closeSharedPool()
        logger.info('shut down cleanly')
      })()
      return closing
    }
  }
  return running
}

/** The analytics capture and its sinks, wired to the store and `/metrics`; not started. */
interface Analytics {
  collector: QueryCollector
  /** What the DNS service reports to: the main thread's answers and the workers' hand-overs. */
  capture: CaptureTarget
  counts: CounterSink
  queryVolume: QueryCountSink
  rawSamples: RawSampleSink | undefined
  hostVolume: HostCountSink
  clientCounts: ClientCountSink
  /** Start the sinks' periodic flushes. */
  start (): void
  /** Stop capturing and write what the sinks hold (write errors are logged by the sinks). */
  close (): Promise<void>
}

/** The query capture (`ZONAL_ANALYTICS=on`): a collector feeding the counts, the count sinks and the raw sampler. */
function createAnalytics (config: Config, store: Store, logger: Logger, metrics: Registry): Analytics {
  const counts = new CounterSink()
  const queryVolume = new QueryCountSink({ add: async (flush) => await store.queryCounts.add(flush) }, {
    flushMs: config.analyticsFlushSeconds * 1000,
    onError: (err: unknown) => logger.warn({ err }, 'query counts not written (kept for the next flush)')
  })
  const rawSamples = config.analyticsRawPerSecond === 0
    ? undefined
    : new RawSampleSink({ add: async (rows) => await store.rawQueries.add(rows) }, {
      perSecond: config.analyticsRawPerSecond,
      flushMs: config.analyticsFlushSeconds * 1000,
      onError: (err: unknown) => logger.warn({ err }, 'raw query samples not written (kept for the next flush)')
    })
  const hostVolume = new HostCountSink({ add: async (rows) => await store.hostVolume.add(rows) }, {
    flushMs: config.analyticsHostsFlushSeconds * 1000,
    maxHostsPerZone: config.analyticsHostsPerZone,
    maxHosts: config.analyticsHosts,
    onError: (err: unknown) => logger.warn({ err }, 'host query counts not written (kept for the next flush)')
  })
  const clientCounts = new ClientCountSink({ add: async (rows) => await store.clientResponses.add(rows) }, {
    flushMs: config.analyticsFlushSeconds * 1000,
    maxClients: config.analyticsMaxClients,
    locator: async () => {
      const files = config.geoipDatabases === 'shipped' ? shippedDatabases() : config.geoipDatabases
      if (files.length === 0) return undefined
      const geo = await GeoIp.open(files)
      logger.info({ databases: geo.builds() }, 'GeoIP databases open')
      return geo
    },
    onError: (err: unknown) => logger.warn({ err }, 'client counts not written or not placed (kept for the next flush)')
  })
  const sinks = rawSamples === undefined ? [counts, queryVolume, hostVolume, clientCounts] : [counts, queryVolume, hostVolume, clientCounts, rawSamples]
  // The queries the main thread answers itself (without DNS workers); the workers count theirs
  // in their own sinks and hand that over, absorbed here (`capture.absorb`).
  const collector = new QueryCollector(new FanOutSink(sinks), { node: config.nodeName, onError: (err: unknown) => logger.warn({ err }, 'query sink failed') })
  const capture: CaptureTarget = {
    query: collector.query.bind(collector),
    absorb: (part) => absorbPart({ counts, queryVolume, hostVolume, clientCounts, rawSamples, collector }, part),
    limits: { rawPerSecond: config.analyticsRawPerSecond, maxHostsPerZone: config.analyticsHostsPerZone, maxHosts: config.analyticsHosts, maxClients: config.analyticsMaxClients }
  }
  registerQueryMetrics(metrics, counts, collector, hostVolume)
  if (rawSamples !== undefined) registerRawSampleMetrics(metrics, rawSamples)
  registerClientCountMetrics(metrics, clientCounts)
  return {
    collector,
    capture,
    counts,
    queryVolume,
    rawSamples,
    hostVolume,
    clientCounts,
    start () {
      queryVolume.start()
      rawSamples?.start()
      hostVolume.start()
      clientCounts.start()
    },
    async close () {
      await collector.close()
      await queryVolume.close().catch(() => {})
      await rawSamples?.close().catch(() => {})
      await clientCounts.close().catch(() => {})
      await hostVolume.close().catch(() => {})
    }
  }
}

/**
 * A signal counts as a second, forcing one only this long after the first: one Ctrl-C or
 * service-manager stop reaches the service twice within milliseconds, once to its process group
 * and once forwarded by npm (`npm start` execs the service, so npm forwards to it directly).
 */
const SECOND_SIGNAL_MS = 1000

/**
 * Start the service and close it on SIGINT/SIGTERM; a signal that arrives while it is starting
 * closes it as soon as it is up. A second signal, a second or more after the first, forces the exit.
 */
export async function serveUntilSignal (start: () => Promise<RunningService>): Promise<void> {
  const state: { service?: RunningService, firstAt?: number } = {}
  const shutDown = (running: RunningService): void => {
    running.close().then(() => process.exit(0), (err: unknown) => {
      running.logger.error({ err }, 'error during shutdown')
      process.exit(1)
    })
  }
  const onSignal = (signal: NodeJS.Signals): void => {
    if (state.firstAt !== undefined) {
      if (Date.now() - state.firstAt < SECOND_SIGNAL_MS) return
      state.service?.logger.warn({ signal }, 'second signal: exiting now')
      process.exit(1)
    }
    state.firstAt = Date.now()
    if (state.service === undefined) return // closed as soon as it is up
    state.service.logger.info({ signal }, 'signal received')
    shutDown(state.service)
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  state.service = await start()
  if (state.firstAt !== undefined) {
    state.service.logger.info('signal received while starting')
    shutDown(state.service)
  }
}
