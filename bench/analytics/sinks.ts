// Part "sinks" of `npm run bench -- analytics` (bench/analytics/run.ts): the query count sink's cost per query (aggregating batch columns)
// and the time of one flush to SQLite. BENCH_ANALYTICS_ZONES (1000) distinct zones. Then the raw
// sample sink's cost per query (a budget of 1000 a second, every query in one second: the
// reservoir's draw for each, a sample made for the few kept), without and with error responses
// (1 in 7, each kept: at most 10,000 held), and the time of its flush to SQLite. Then the
// host count sink: known names, and a random-subdomain flood (every query a new name, past the
// per-zone limit after the first 10,000), and the flush of its rows. Then the client count sink's
// cost per query with BENCH_ANALYTICS_CLIENTS (100,000) distinct client addresses (random public
// IPv4, one zone), and its flush: placing every client in the shipped GeoIP database (cold cache,
// then warm) and writing the rows to SQLite.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { ClientCountSink } from '../../src/analytics/client-count-sink.ts'
import { GeoIp, shippedDatabases } from '../../src/analytics/geoip.ts'
import { QueryBatch } from '../../src/analytics/query-batch.ts'
import { QueryCountSink } from '../../src/analytics/query-count-sink.ts'
import { RawSampleSink } from '../../src/analytics/raw-sample-sink.ts'
import { HostCountSink } from '../../src/analytics/host-count-sink.ts'
import { QueryFlag } from '../../src/dns/server/query-capture.ts'
import { openStore } from '../../src/store/open-store.ts'
import { parseName, wireKey } from '../../src/zone/name.ts'

const ZONES = Number(process.env.BENCH_ANALYTICS_ZONES ?? 1000)
const CLIENTS = Number(process.env.BENCH_ANALYTICS_CLIENTS ?? 100_000)
const BATCHES = 400
const SIZE = 8192
const zones = Array.from({ length: ZONES }, (_, i) => wireKey(parseName(`zone${i}.example.`)))
const types = [1, 28, 15, 16, 6, 2, 65, 999]

/** A batch whose queries change zone every `run` queries. */
function batch (run: number): QueryBatch {
  const b = new QueryBatch(SIZE, 'bench')
  const now = Date.now()
  for (let i = 0; i < SIZE; i++) {
    b.time[i] = now
    b.zone[i] = zones[Math.floor(i / run) % ZONES]!
    b.qtype[i] = types[i % types.length]!
    b.rcode[i] = i % 7 === 0 ? 3 : 0
    b.flags[i] = (i % 5 === 0 ? QueryFlag.TCP : 0) | (i % 3 === 0 ? QueryFlag.IPV6 : 0)
  }
  b.length = SIZE
  return b
}

const dir = mkdtempSync(join(tmpdir(), 'zonal-bench-'))
const store = await openStore(`sqlite:${join(dir, 'bench.db')}`)
await store.migrate()
try {
  for (const run of [1, 64]) {
    const b = batch(run)
    const sink = new QueryCountSink({ add: async (f) => await store.queryCounts.add(f) }, { flushMs: 3_600_000 })
    for (let i = 0; i < 20; i++) sink.write(b) // warm-up
    const t0 = process.hrtime.bigint()
    for (let i = 0; i < BATCHES; i++) sink.write(b)
    const ns = Number(process.hrtime.bigint() - t0) / (BATCHES * SIZE)
    const f0 = process.hrtime.bigint()
    await sink.flush()
    const ms = Number(process.hrtime.bigint() - f0) / 1e6
    process.stdout.write(`zone changes every ${run} quer${run === 1 ? 'y' : 'ies'}: ${ns.toFixed(1)} ns/query (${(1e9 / ns / 1e6).toFixed(1)} M queries/s); flush of ${ZONES} (day, zone) rows to SQLite: ${ms.toFixed(1)} ms\n`)
  }
  for (const errors of [false, true]) {
    const b = batch(64)
    for (let i = 0; i < SIZE; i++) {
      b.rcode[i] = errors && i % 7 === 0 ? 3 : 0
      b.qname[i] = b.zone[i]!
      b.address[i] = '192.0.2.1'
    }
    const sink = new RawSampleSink({ add: async (rows) => await store.rawQueries.add(rows) }, { perSecond: 1000, flushMs: 3_600_000, maxPending: 10_000 })
    for (let i = 0; i < 20; i++) sink.write(b) // warm-up
    const t0 = process.hrtime.bigint()
    for (let i = 0; i < BATCHES; i++) sink.write(b)
    const ns = Number(process.hrtime.bigint() - t0) / (BATCHES * SIZE)
    const f0 = process.hrtime.bigint()
    await sink.close()
    const ms = Number(process.hrtime.bigint() - f0) / 1e6
    const c = sink.counts()
    process.stdout.write(`raw samples, ${errors ? 'one error response in 7' : 'no error responses'}: ${ns.toFixed(1)} ns/query (${(1e9 / ns / 1e6).toFixed(1)} M queries/s); flush of ${c.written} rows to SQLite: ${ms.toFixed(1)} ms (${c.dropped} dropped)\n`)
  }

  // Host counts: one zone, names from a pool of `names` (a new one each query past the pool's end: a flood).
  const zone = zones[0]!
  for (const [label, names] of [['100 names', 100], ['a flood (32,768 names cycled; 10,000 kept per zone)', SIZE * BATCHES]] as const) {
    const pool = Array.from({ length: Math.min(names, SIZE * 4) }, (_, i) => wireKey(parseName(`h${i}.zone0.example.`)))
    const batches = Array.from({ length: 4 }, (_, k) => {
      const b = batch(SIZE)
      for (let i = 0; i < SIZE; i++) { b.zone[i] = zone; b.qname[i] = pool[(k * SIZE + i) % pool.length]! }
      return b
    })
    const sink = new HostCountSink({ add: async (rows) => await store.hostVolume.add(rows) }, { flushMs: 3_600_000, maxHostsPerZone: 10_000, maxHosts: 200_000 })
    const t0 = process.hrtime.bigint()
    for (let i = 0; i < BATCHES; i++) sink.write(batches[i % 4]!)
    const ns = Number(process.hrtime.bigint() - t0) / (BATCHES * SIZE)
    const rows = sink.pending().length
    const f0 = process.hrtime.bigint()
    await sink.flush()
    const ms = Number(process.hrtime.bigint() - f0) / 1e6
    process.stdout.write(`hosts, ${label}: ${ns.toFixed(1)} ns/query (${(1e9 / ns / 1e6).toFixed(1)} M queries/s), ${sink.overflowed} queries to the overflow host; flush of ${rows} host rows to SQLite: ${ms.toFixed(1)} ms\n`)
  }

  const random = randomBytes(CLIENTS * 4)
  const clients = Array.from({ length: CLIENTS }, (_, i) => `${1 + random[4 * i]! % 222}.${random[4 * i + 1]}.${random[4 * i + 2]}.${random[4 * i + 3]}`)
  const o0 = process.hrtime.bigint()
  const geo = await GeoIp.open(shippedDatabases())
  process.stdout.write(`GeoIP: the shipped database opened in ${(Number(process.hrtime.bigint() - o0) / 1e6).toFixed(0)} ms\n`)
  const sink = new ClientCountSink({ add: async (rows) => await store.clientResponses.add(rows) }, { flushMs: 3_600_000, maxClients: CLIENTS, locator: async () => geo })
  const b = batch(SIZE)
  for (const round of ['cold', 'warm']) {
    let next = 0
    const t0 = process.hrtime.bigint()
    for (let n = 0; n < BATCHES; n++) {
      for (let i = 0; i < SIZE; i++) b.address[i] = clients[next++ % CLIENTS]!
      sink.write(b)
    }
    const ns = Number(process.hrtime.bigint() - t0) / (BATCHES * SIZE)
    const f0 = process.hrtime.bigint()
    await sink.flush()
    const ms = Number(process.hrtime.bigint() - f0) / 1e6
    process.stdout.write(`client counts, ${CLIENTS} clients: ${ns.toFixed(1)} ns/query (filling the batch included); flush (${round} GeoIP cache) placing them and writing ${CLIENTS} rows to SQLite: ${ms.toFixed(0)} ms\n`)
  }
} finally {
  await store.close()
  rmSync(dir, { recursive: true, force: true })
}
