import type { ZoneIndex } from '../../src/dns/index/zone-index.ts'
import { probePort } from '../../src/dns/server/listeners.ts'
import type { TcpLimits } from '../../src/dns/server/tcp-pool.ts'
import type { CaptureTarget } from '../../src/serving/dns-worker-protocol.ts'
import { DnsWorkers } from '../../src/serving/dns-workers.ts'

export interface WorkerServer {
  port: number
  workers: DnsWorkers
  /** What the workers logged as warnings or errors (request failures, crashes). */
  problems: string[]
  close (): Promise<void>
}

/**
 * The zones of `index` served as the service serves them: by `count` DNS worker threads on one
 * loopback port (UDP and TCP), each with a snapshot of every zone. Resolves once all answer.
 * `udpBatch` false serves UDP through node:dgram instead of the batched socket; `tcp` holds each
 * worker's TCP limits; `capture` receives the queries the workers capture.
 */
export async function serveInWorkers (index: ZoneIndex, count = 2, udpBatch = true, tcp: TcpLimits = { idleMs: 10_000, maxConnections: 100 }, capture?: CaptureTarget): Promise<WorkerServer> {
  const port = await probePort(['127.0.0.1'], 0)
  const problems: string[] = []
  const log = (obj: object, msg: string): void => { problems.push(`${msg} ${JSON.stringify(obj)}`) }
  const workers = new DnsWorkers({
    count,
    hosts: ['127.0.0.1'],
    port,
    tcp,
    node: 'test',
    ...(capture === undefined ? {} : { capture }),
    udpBatch,
    index,
    logger: { info: () => {}, warn: log, error: log }
  })
  await workers.start()
  await workers.settled()
  return { port, workers, problems, close: async () => await workers.close() }
}
