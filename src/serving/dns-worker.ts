import { parentPort, workerData } from 'node:worker_threads'
import { ThreadAnalytics } from '../analytics/thread-analytics.ts'
import { ZoneData } from '../dns/index/zone-data.ts'
import { ZoneIndex } from '../dns/index/zone-index.ts'
import type { Client } from '../dns/server/handle-query.ts'
import { loadUdpBatch } from '../dns/server/udp-batch.ts'
import { listenAll, type Listeners } from '../dns/server/listeners.ts'
import { ResponseRateLimiter } from '../dns/server/rate-limiter.ts'
import { TcpClientCounts } from '../dns/server/tcp-clients.ts'
import { transferHandler } from '../dns/server/transfer-handler.ts'
import { shareRotation } from '../dns/answer/rotation.ts'
import { setGeoLocator } from '../dns/answer/pools.ts'
import { geoLocator } from './geo-locator.ts'
import { wireKey } from '../zone/name.ts'
import type { DnsWorkerConfig, FromWorker, ToWorker } from './dns-worker-protocol.ts'

/**
 * A DNS worker thread (see `dns-workers.ts`): UDP and TCP listeners on the shared port
 * (SO_REUSEPORT), answering from its own index, which follows the main thread's change feed.
 * Its own analytics count and sample the queries it answers and hand that over to the main thread
 * every second (host counts every five); NOTIFY for secondaries and errors go there too.
 */

const port = parentPort
if (port === null) throw new Error('dns-worker.ts runs as a worker thread')
const config = workerData as DnsWorkerConfig
const post = (message: FromWorker): void => port.postMessage(message)

shareRotation(config.rotation)
if (config.geo !== undefined) setGeoLocator(geoLocator(config.geo))
const index = new ZoneIndex()
/** How often what the analytics counted goes to the main thread; the host counts every fifth time. */
const HAND_OVER_MS = 1000
const HOSTS_EVERY = 5
const analytics = config.analytics === undefined ? undefined : new ThreadAnalytics(config.analytics)
const capture = analytics?.collector
let handOvers = 0
const handOver = (hosts: boolean, all: boolean): void => {
  if (analytics !== undefined) post({ type: 'analytics', part: analytics.handOver(hosts, all) })
}
const handOverTimer = analytics === undefined ? undefined : setInterval(() => handOver(++handOvers % HOSTS_EVERY === 0, false), HAND_OVER_MS)
handOverTimer?.unref()
const onError = (err: unknown): void => post({ type: 'log', level: 'warn', msg: 'DNS request failed', err: err instanceof Error ? (err.stack ?? err.message) : String(err) })

/** The last feed message applied, acknowledged once the queue of messages is drained. */
let applied = 0
let ackScheduled = false
const acknowledge = (): void => {
  ackScheduled = false
  post({ type: 'synced', seq: applied })
}

let listeners: Listeners | undefined
let closing = false

function follow (message: ToWorker): void {
  switch (message.type) {
    case 'served':
      index.set(ZoneData.fromSnapshot(message.zone))
      break
    case 'applied': {
      const zone = index.get(message.origin)
      if (zone !== undefined) {
        for (const { step, orders, pools } of message.steps) {
          const byKey = new Map(orders)
          zone.apply(step, message.settings.version, (owner, type) => byKey.get(`${wireKey(owner)}/${type}`))
          for (const [key, pool] of pools) zone.setPool(key, pool ?? undefined)
        }
        zone.applySettings(message.settings)
      }
      break
    }
    case 'settings':
      index.get(message.origin)?.applySettings(message.settings)
      break
    case 'pool':
      index.get(message.origin)?.setPool(message.key, message.pool)
      break
    case 'geo':
      setGeoLocator(geoLocator(message.databases))
      break
    case 'dropped':
      index.delete(message.origin)
      break
    case 'sync':
      break
    case 'close':
      close().catch((err: unknown) => onError(err))
      return
    case 'flush': {
      const id = message.id
      Promise.resolve(capture?.flush()).then(() => {
        handOver(true, true)
        post({ type: 'flushed', id })
      }, onError)
      return
    }
  }
  applied = message.seq
  if (!ackScheduled) {
    ackScheduled = true
    setImmediate(acknowledge)
  }
}

async function close (): Promise<void> {
  if (closing) return
  closing = true
  await listeners?.close()
  clearInterval(handOverTimer)
  await capture?.close()
  handOver(true, true)
  post({ type: 'closed' })
  port!.close()
}

port.on('message', (message: ToWorker) => {
  try {
    follow(message)
  } catch (err) {
    post({ type: 'log', level: 'error', msg: 'DNS worker could not apply a zone change', err: err instanceof Error ? (err.stack ?? err.message) : String(err) })
  }
})

const handler = {
  index,
  capture,
  onNotify: (zone: ZoneData, client: Client, serial: number | undefined) =>
    post({ type: 'notify', origin: zone.origin, client, serial })
}

try {
  listeners = await listenAll(handler, onError, {
    hosts: config.hosts,
    port: config.port,
    tcp: config.tcp,
    tcpClients: new TcpClientCounts(config.tcpClients, config.slot),
    rateLimiter: config.rateLimit === undefined ? undefined : new ResponseRateLimiter(config.rateLimit),
    transfer: transferHandler(index, onError, capture),
    reusePort: true,
    udpBatch: config.udpBatch
  })
  // The main thread asks for batches only when the addon loads there (else it has said why,
  // once); an addon that loads there but not in a worker thread is said here.
  const batch = config.udpBatch ? loadUdpBatch() : undefined
  if (batch !== undefined && 'error' in batch) post({ type: 'log', level: 'warn', msg: 'DNS over UDP reads one datagram at a time (node:dgram): the batched socket does not load in a DNS worker', err: batch.error })
  if (closing) await listeners.close()
  else post({ type: 'listening' })
} catch (err) {
  const e = err as NodeJS.ErrnoException
  post({ type: 'failed', message: e.message, ...(e.code === undefined ? {} : { code: e.code }) })
  port.close()
}
