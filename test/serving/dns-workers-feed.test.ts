/**
 * The change feed to DNS worker threads, driven directly: steps applied in place reach the
 * workers, and steps that make the main thread fold its zone into a new packed image send the
 * zone anew (sharing that image) rather than letting every worker fold its own.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ZoneData } from '../../src/dns/index/zone-data.ts'
import { ZoneIndex } from '../../src/dns/index/zone-index.ts'
import { parseName } from '../../src/zone/name.ts'
import { parseZoneText } from '../../src/zonefile/parser.ts'
import { query, UdpClient, ZONE } from '../helpers/dns-clients.ts'
import { serveInWorkers, type WorkerServer } from '../helpers/dns-workers.ts'

const origin = parseName('example.org.')

describe('the change feed to DNS workers', () => {
  let server: WorkerServer
  let client: UdpClient
  let data: ZoneData
  let id = 1
  before(async () => {
    const { records } = parseZoneText(ZONE, { origin, includes: 'refuse' })
    // A fold bound of 2 changed nodes: a few steps build a new image.
    data = new ZoneData(origin, 2024010101, 1, 2)
    for (const r of records) data.add(r)
    data.seal()
    const index = new ZoneIndex()
    index.set(data)
    server = await serveInWorkers(index, 2)
    client = await UdpClient.open()
  })
  after(async () => {
    client?.close()
    await server?.close()
  })

  const answer = async (name: string): Promise<string[]> => {
    const reply = await client.ask(query(id++, name, 'A'), server.port)
    return reply.answers.map(a => [...a.rdata].join('.'))
  }

  it('applies steps in place, then sends the zone anew once the main thread folded it', async () => {
    let serial = 2024010101
    const step = (owner: string, address: number) => {
      const added = [{ owner: parseName(owner), type: 1, ttl: 300, rdata: new Uint8Array([192, 0, 2, address]) }]
      const s = { serialFrom: serial, serialTo: serial + 1, removed: [], added }
      serial++
      data.apply(s, serial, () => undefined)
      server.workers.zoneApplied(data, [{ step: s, orders: [], pools: [] }])
    }
    step('a1.example.org.', 101)
    await server.workers.settled()
    assert.equal(data.imageGeneration, 0, 'one change stays in the overlay')
    assert.deepEqual(await answer('a1.example.org.'), ['192.0.2.101'])
    for (let i = 2; i <= 8; i++) step(`a${i}.example.org.`, 100 + i)
    await server.workers.settled()
    assert.ok(data.imageGeneration > 0, 'the main thread folded its overlay')
    for (let i = 1; i <= 8; i++) assert.deepEqual(await answer(`a${i}.example.org.`), [`192.0.2.${100 + i}`])
    assert.equal((await client.ask(query(id++, 'none.example.org.', 'A'), server.port)).rcode, 3)
  })
})
