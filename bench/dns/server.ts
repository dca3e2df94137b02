// Child process of the DNS benchmark: load a zone file into a fresh SQLite store, serve it with
// Zonal's DNS server on 127.0.0.1 (port 0), print {"port":…,"loadMs":…} once it answers.
// BENCH_DNS_CAPTURE=1 serves with the query capture on (a counter sink, as `npm start` has),
// so capture on and off can be compared; the capture's counts go to stderr at the end.
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { CounterSink } from '../../src/analytics/counter-sink.ts'
import { QueryCollector } from '../../src/analytics/query-collector.ts'
import { SecretBox } from '../../src/auth/secrets.ts'
import { startDns } from '../../src/serving/dns-service.ts'
import { openStore } from '../../src/store/open-store.ts'
import { normalizeZone } from '../../src/zone/checks/index.ts'
import { parseName } from '../../src/zone/name.ts'
import { parseZoneFile } from '../../src/zonefile/parser.ts'
import { toStoredRrsets } from '../../src/zones/records.ts'

const [file, origin, dir] = process.argv.slice(2) as [string, string, string]
rmSync(dir, { recursive: true, force: true })
mkdirSync(dir, { recursive: true })
const store = await openStore(`sqlite:${join(dir, 'zonal.db')}`)
await store.migrate()
const account = await store.accounts.create('bench')
const originWire = parseName(origin)
const parsed = await parseZoneFile(file, { origin: originWire, includes: 'refuse' })
const { records } = normalizeZone(parsed.records, originWire)
const rrsets = toStoredRrsets(records)
await store.transaction(async (tx) => {
  const zone = await tx.zones.create({ accountId: account.id, accountNameKey: 'bench', name: origin, type: 'PRIMARY' })
  await tx.rrsets.insertMany(zone.id, rrsets)
})
const logger = { info: () => {}, error: (o: object, m: string) => { process.stderr.write(`${m} ${JSON.stringify(o)}\n`) }, warn: () => {} }
const capture = process.env.BENCH_DNS_CAPTURE === '1' ? new QueryCollector(new CounterSink(), { node: 'bench' }) : undefined
const t0 = performance.now()
const dns = await startDns(store, { host: '127.0.0.1', port: 0, logger, secrets: new SecretBox(undefined), capture })
await dns.loaded
process.stdout.write(JSON.stringify({ port: dns.port, loadMs: Math.round(performance.now() - t0), rssMb: Math.round(process.memoryUsage().rss / 1e6) }) + '\n')
process.on('SIGTERM', () => {
  dns.close().then(async () => {
    await capture?.close()
    if (capture !== undefined) process.stderr.write(`capture: ${JSON.stringify(capture.counts())}\n`)
    await store.close()
  }).finally(() => process.exit(0)).catch(() => {})
})
