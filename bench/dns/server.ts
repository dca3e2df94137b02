// Child process of the DNS benchmark, in two steps so that start-up is timed as after a restart:
//
//   server.ts populate <zone file> <origin> <dir>
//     imports the zone file into a fresh SQLite store in <dir> (the zone open to transfers from
//     127.0.0.1) and prints {"records":…,"ms":…}.
//   server.ts serve <dir>
//     opens that store and starts Zonal's DNS server on 127.0.0.1 (port 0); prints
//     {"port":…,"udp":"batch"|"dgram"|why batches are not available} as soon as it listens (zones load in the background, REFUSED until loaded),
//     then {"loadMs":…,"rssMb":…,"rssAfterGcMb":…,…} once every zone is loaded (a full garbage
//     collection when node runs with --expose-gc).
//     ZONAL_DNS_UDP_BATCH=0 serves UDP through node:dgram (else batched when the addon is built).
//     BENCH_DNS_WORKERS (default 1) is the number of DNS worker threads (0: DNS on the main thread).
//     BENCH_DNS_CAPTURE=1 serves with the query capture on (the DNS workers count with every
//     sink `npm start` has, at its default limits; the main thread takes in only the counts, and
//     writes nothing), so capture on and off can be compared; the total counted goes to stderr.
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { CounterSink } from '../../src/analytics/counter-sink.ts'
import { QueryCollector } from '../../src/analytics/query-collector.ts'
import type { CaptureTarget } from '../../src/serving/dns-worker-protocol.ts'
import { SecretBox } from '../../src/auth/secrets.ts'
import { loadUdpBatch } from '../../src/dns/server/udp-batch.ts'
import { startDns } from '../../src/serving/dns-service.ts'
import { openStore } from '../../src/store/open-store.ts'
import { normalizeZone } from '../../src/zone/checks/index.ts'
import { readSoa } from '../../src/zone/rdata/soa.ts'
import { parseName } from '../../src/zone/name.ts'
import { RRType } from '../../src/zone/rrtype.ts'
import { parseZoneFile } from '../../src/zonefile/parser.ts'
import { countRecords, toStoredRrsets } from '../../src/zones/records.ts'

const print = (o: object): void => { process.stdout.write(JSON.stringify(o) + '\n') }
const mb = (bytes: number): number => Math.round(bytes / 1e5) / 10

async function populate (file: string, origin: string, dir: string): Promise<void> {
  const t0 = performance.now()
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const store = await openStore(`sqlite:${join(dir, 'zonal.db')}`)
  await store.migrate()
  const account = await store.accounts.create('bench')
  const originWire = parseName(origin)
  const parsed = await parseZoneFile(file, { origin: originWire, includes: 'refuse' })
  const { records } = normalizeZone(parsed.records, originWire)
  const rrsets = toStoredRrsets(records)
  const soa = records.find(r => r.type === RRType.SOA)
  await store.transaction(async (tx) => {
    const zone = await tx.zones.create({
      accountId: account.id,
      accountNameKey: 'bench',
      name: origin,
      type: 'PRIMARY',
      serial: soa === undefined ? 0 : readSoa(soa.rdata).serial,
      recordCount: countRecords(rrsets),
      // The restrict list zone-sync.ts `transferPolicy` applies.
      settings: { restrictList: [{ first: '127.0.0.1', last: '127.0.0.1', comment: 'benchmark' }] }
    })
    await tx.rrsets.insertMany(zone.id, rrsets)
  })
  await store.close()
  print({ records: countRecords(rrsets), ms: Math.round(performance.now() - t0) })
}

async function serve (dir: string): Promise<void> {
  const store = await openStore(`sqlite:${join(dir, 'zonal.db')}`)
  const logger = { info: () => {}, error: (o: object, m: string) => { process.stderr.write(`${m} ${JSON.stringify(o)}\n`) }, warn: () => {} }
  const t0 = performance.now()
  const counter = new CounterSink()
  const collector = new QueryCollector(counter, { node: 'bench' })
  const capture: CaptureTarget | undefined = process.env.BENCH_DNS_CAPTURE === '1'
    ? {
        query: collector.query.bind(collector),
        absorb: (part) => { if (part.counts !== undefined) counter.absorb(part.counts) },
        limits: { rawPerSecond: 1000, maxHostsPerZone: 10_000, maxHosts: 200_000, maxClients: 100_000 }
      }
    : undefined
  const workers = Number(process.env.BENCH_DNS_WORKERS ?? 1)
  const udpBatch = process.env.ZONAL_DNS_UDP_BATCH !== '0'
  const dns = await startDns(store, { hosts: ['127.0.0.1'], port: 0, workers, logger, secrets: new SecretBox(undefined), capture, udpBatch })
  const batch = loadUdpBatch()
  print({ port: dns.port, udp: !udpBatch ? 'dgram' : 'addon' in batch ? 'batch' : batch.error })
  process.on('SIGTERM', () => {
    dns.close().then(async () => {
      await collector.close()
      if (capture !== undefined) process.stderr.write(`capture: ${JSON.stringify({ counted: counter.total, ...collector.counts() })}\n`)
      await store.close()
    }).finally(() => process.exit(0)).catch(() => {})
  })
  await dns.loaded
  const loadMs = Math.round(performance.now() - t0)
  const rss = process.memoryUsage().rss
  globalThis.gc?.()
  const m = process.memoryUsage()
  print({ loadMs, rssMb: mb(rss), rssAfterGcMb: mb(m.rss), heapUsedMb: mb(m.heapUsed), heapTotalMb: mb(m.heapTotal), arrayBuffersMb: mb(m.arrayBuffers) })
}

const [mode, ...args] = process.argv.slice(2)
if (mode === 'populate') await populate(args[0]!, args[1]!, args[2]!)
else if (mode === 'serve') await serve(args[0]!)
else {
  process.stderr.write('usage: server.ts populate <zone file> <origin> <dir> | serve <dir>\n')
  process.exit(2)
}
