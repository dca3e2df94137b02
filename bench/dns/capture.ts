import { QueryCollector } from '../../src/analytics/query-collector.ts'
import { ZoneData } from '../../src/dns/index/zone-data.ts'
import { ZoneIndex } from '../../src/dns/index/zone-index.ts'
import { handleQuery, type Client } from '../../src/dns/server/handle-query.ts'
import { MessageWriter } from '../../src/dns/wire/writer.ts'
import { parseName } from '../../src/zone/name.ts'
import { parseZoneText } from '../../src/zonefile/parser.ts'

/**
 * The answer path with the query capture on, in process (no sockets): `handleQuery` calls a
 * second for cached questions (1,000 names), the same with a Client Subnet option, and for
 * questions in random case, each spelling new (the full path), the collector writing into its batches and a sink that only counts. Run with
 * `taskset -c 0 node bench/dns/capture.ts` to compare two versions of the code;
 * BENCH_CAPTURE=0 runs without a capture. A receipt time is read once per 64 requests, as
 * the batched UDP socket reads one per recvmmsg batch.
 */
const origin = parseName('bench.test.')
let text = '$TTL 60\n@ IN SOA ns h 1 1 1 1 1\n@ IN NS ns\nns IN A 192.0.2.1\n'
for (let i = 0; i < 1000; i++) text += `h${i}.g${i % 10} IN A 10.0.${i >> 8}.${i & 255}\n`
const index = new ZoneIndex()
index.set(ZoneData.from(origin, 1, 1, parseZoneText(text, { origin, includes: 'refuse' }).records))
const client: Client = { transport: 'udp', address: '127.0.0.1', port: 1, family: 'IPv4' }
let seen = 0
const capture = process.env.BENCH_CAPTURE === '0' ? undefined : new QueryCollector({ write: (b) => { seen += b.length } }, { node: 'bench' })
const opts = capture === undefined ? { index } : { index, capture }

function query (name: string, ecs: boolean): Buffer {
  const w = new MessageWriter(512)
  w.header({ id: 1, qr: false, opcode: 0, aa: false, tc: false, rd: true, ra: false, ad: false, cd: false, rcode: 0 })
  w.question({ name: parseName(name), type: 1, class: 1 })
  w.opt({ udpSize: 1232, extendedRcode: 0, version: 0, dnssecOk: false, options: ecs ? [{ code: 8, data: Uint8Array.of(0, 1, 24, 0, 81, 2, 69) }] : [] })
  return Buffer.from(w.finish())
}

const cached = Array.from({ length: 1000 }, (_, i) => query(`h${i}.g${i % 10}.bench.test.`, false))
const withEcs = Array.from({ length: 1000 }, (_, i) => query(`h${i}.g${i % 10}.bench.test.`, true))
let seed = 5
const rand = (): number => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff
  return seed / 0x80000000
}
const mixed = Array.from({ length: 300_000 }, (_, i) => query([...`h${i % 100}.g${i % 10}.bench.test.`].map(c => rand() < 0.5 ? c.toUpperCase() : c).join(''), false))

async function rate (requests: Buffer[], calls: number): Promise<number> {
  const t = performance.now()
  let received = t
  for (let i = 0; i < calls; i++) {
    // One receipt time per 64 requests, as the batched UDP socket takes one per recvmmsg.
    if ((i & 63) === 0) received = performance.now()
    handleQuery(requests[i % requests.length]!, client, opts, received)
    if ((i & 0x7ff) === 0) await new Promise(resolve => setImmediate(resolve))
  }
  return Math.round(calls / (performance.now() - t) * 1000)
}

for (const set of [cached, withEcs, mixed.slice(0, 1000)]) for (let warm = 0; warm < 3; warm++) for (const r of set) handleQuery(r, client, opts)
for (let round = 0; round < 3; round++) {
  console.log(`round ${round}: cached ${(await rate(cached, 2_000_000)).toLocaleString('en-US')} calls/s; cached with ECS ${(await rate(withEcs, 2_000_000)).toLocaleString('en-US')}; full path (each spelling new) ${(await rate(mixed, mixed.length)).toLocaleString('en-US')}`)
}
await capture?.close()
console.log(`captured ${seen.toLocaleString('en-US')}, dropped ${capture?.counts().dropped ?? 0}`)
