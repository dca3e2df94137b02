import { ZoneData } from '../../src/dns/index/zone-data.ts'
import { ZoneIndex } from '../../src/dns/index/zone-index.ts'
import { handleQuery, type Client } from '../../src/dns/server/handle-query.ts'
import { MessageWriter } from '../../src/dns/wire/writer.ts'
import { parseName } from '../../src/zone/name.ts'
import { parseZoneText } from '../../src/zonefile/parser.ts'

/**
 * The answer path alone, in process (no sockets): `handleQuery` calls a second for questions
 * answered from the reply cache, in lower case (1,000 names), and in random case ("0x20"),
 * each spelling new (200,000 of 100 names). Run with `node bench/dns/reply-cache.ts`,
 * pinned to one CPU (`taskset -c 0`) to compare two versions of the code.
 */
const origin = parseName('bench.test.')
let text = '$TTL 60\n@ IN SOA ns h 1 1 1 1 1\n@ IN NS ns\nns IN A 192.0.2.1\n'
for (let i = 0; i < 1000; i++) text += `h${i}.g${i % 10} IN A 10.0.${i >> 8}.${i & 255}\n`
const index = new ZoneIndex()
index.set(ZoneData.from(origin, 1, 1, parseZoneText(text, { origin, includes: 'refuse' }).records))
const client: Client = { transport: 'udp', address: '127.0.0.1', port: 1, family: 'IPv4' }

function query (name: string): Buffer {
  const w = new MessageWriter(512)
  w.header({ id: 1, qr: false, opcode: 0, aa: false, tc: false, rd: true, ra: false, ad: false, cd: false, rcode: 0 })
  w.question({ name: parseName(name), type: 1, class: 1 })
  w.opt({ udpSize: 1232, extendedRcode: 0, version: 0, dnssecOk: false, options: [] })
  return Buffer.from(w.finish())
}

let seed = 5
const rand = (): number => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff
  return seed / 0x80000000
}
const lower = Array.from({ length: 1000 }, (_, i) => query(`h${i}.g${i % 10}.bench.test.`))
const mixed = Array.from({ length: 200_000 }, (_, i) => query([...`h${i % 100}.g${i % 10}.bench.test.`].map(c => rand() < 0.5 ? c.toUpperCase() : c).join('')))

function rate (requests: Buffer[], calls: number): number {
  const t = performance.now()
  for (let i = 0; i < calls; i++) handleQuery(requests[i % requests.length]!, client, { index })
  return Math.round(calls / (performance.now() - t) * 1000)
}

for (let warm = 0; warm < 3; warm++) for (const r of lower) handleQuery(r, client, { index })
console.log(`lower case, cached: ${rate(lower, 3_000_000).toLocaleString('en-US')} calls/s`)
for (const r of mixed.slice(0, 1000)) handleQuery(r, client, { index })
console.log(`random case, each spelling new: ${rate(mixed, mixed.length).toLocaleString('en-US')} calls/s; ${index.replies.size} entries`)
