/** Raw query samples on both engines: added in one transaction, an id stored twice left out. */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { RawQueryRow, Store } from '../../src/store/store.ts'
import { engineCases, freshStore } from '../helpers/engines.ts'

function row (packetId: number, over: Partial<RawQueryRow> = {}): RawQueryRow {
  return {
    day: '2026-11-25',
    packetId,
    time: '2026-11-25T12:00:00.150Z',
    node: 'n1',
    zone: 'example.org.',
    qname: 'www.example.org.',
    qtype: 1,
    opcode: 0,
    rcode: 0,
    flags: 0x211,
    transport: 'udp',
    ipVersion: 4,
    address: '192.0.2.1',
    port: 53000,
    ecsAddress: '81.2.69.0',
    ecsPrefix: 24,
    dnsId: 65535,
    qdcount: 1,
    ancount: 2,
    nscount: 3,
    arcount: 4,
    requestSize: 44,
    responseSize: 1232,
    responseMicros: 4_000_000_000,
    ...over
  }
}

for (const engine of await engineCases()) {
  describe(`${engine.name}: raw query samples`, { skip: engine.skip }, () => {
    let store: Store
    let close: () => Promise<void>
    before(async () => { ({ store, close } = await freshStore(engine.name)) })
    after(async () => await close?.())

    async function rows (): Promise<Array<Record<string, unknown>>> {
      const db = (store as any).engineImpl.db
      const found = await db.selectFrom('raw_queries').selectAll().orderBy('day').orderBy('packet_id').execute() as Array<Record<string, unknown>>
      return found.map(r => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, ['packet_id', 'response_micros'].includes(k) ? Number(v) : v])))
    }

    it('stores every field of each row', async () => {
      // An id near 2^53: kept exactly.
      const big = 2 ** 53 - 1
      assert.equal(await store.rawQueries.add([row(big), row(7, { day: '2026-11-24', transport: 'tcp', ipVersion: 6, address: '2001:db8::1', ecsAddress: '', ecsPrefix: 0, zone: '', qname: '', rcode: 5 })]), 2)
      assert.deepEqual(await rows(), [
        {
          day: '2026-11-24',
          packet_id: 7,
          packet_time: '2026-11-25T12:00:00.150Z',
          node: 'n1',
          zone: '',
          qname: '',
          qtype: 1,
          opcode: 0,
          rcode: 5,
          flags: 0x211,
          transport: 'tcp',
          ip_version: 6,
          address: '2001:db8::1',
          port: 53000,
          ecs_address: '',
          ecs_prefix: 0,
          dns_id: 65535,
          qdcount: 1,
          ancount: 2,
          nscount: 3,
          arcount: 4,
          request_size: 44,
          response_size: 1232,
          response_micros: 4_000_000_000
        },
        {
          day: '2026-11-25',
          packet_id: big,
          packet_time: '2026-11-25T12:00:00.150Z',
          node: 'n1',
          zone: 'example.org.',
          qname: 'www.example.org.',
          qtype: 1,
          opcode: 0,
          rcode: 0,
          flags: 0x211,
          transport: 'udp',
          ip_version: 4,
          address: '192.0.2.1',
          port: 53000,
          ecs_address: '81.2.69.0',
          ecs_prefix: 24,
          dns_id: 65535,
          qdcount: 1,
          ancount: 2,
          nscount: 3,
          arcount: 4,
          request_size: 44,
          response_size: 1232,
          response_micros: 4_000_000_000
        }
      ])
    })

    it('leaves out a row whose (day, packet id) is stored, and says how many it added', async () => {
      assert.equal(await store.rawQueries.add([row(7, { day: '2026-11-24', node: 'other' }), row(8), row(7)]), 2, 'row 7 of 2026-11-25 is new')
      const found = await rows()
      assert.deepEqual(found.map(r => [r.day, r.packet_id, r.node]), [['2026-11-24', 7, 'n1'], ['2026-11-25', 7, 'n1'], ['2026-11-25', 8, 'n1'], ['2026-11-25', 2 ** 53 - 1, 'n1']])
    })

    it('writes nothing of a call that fails, and many rows in one call', async () => {
      const before = await rows()
      await assert.rejects(store.rawQueries.add([row(100), row(101, { zone: null as unknown as string })]))
      assert.deepEqual(await rows(), before)
      const many = Array.from({ length: 1000 }, (_, i) => row(1000 + i))
      assert.equal(await store.rawQueries.add(many), 1000)
      assert.equal((await rows()).length, before.length + 1000)
    })
  })
}
