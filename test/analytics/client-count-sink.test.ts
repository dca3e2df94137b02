/** Client counts with geography: the shipped DB-IP database, the class C network, the sink's rows, bound and retries. */
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { ClientCountSink, type ClientCountRow, type Locator } from '../../src/analytics/client-count-sink.ts'
import { countryName, GeoIp, shippedDatabases, UNKNOWN } from '../../src/analytics/geoip.ts'
import { classCNetwork, clientAddress } from '../../src/analytics/networks.ts'
import { QueryBatch } from '../../src/analytics/query-batch.ts'
import { parseName, wireKey } from '../../src/zone/name.ts'

const ORG = wireKey(parseName('example.org.'))
const DAY1 = Date.UTC(2026, 10, 24, 23, 59, 59, 999)
const DAY2 = Date.UTC(2026, 10, 25, 0, 0, 0, 0)

interface Q { address: string, ecs?: string, prefix?: number, zone?: string, time?: number }

/** A batch of queries; the EDNS Client Subnet columns as the capture fills them ('' and 0 for none). */
function batchOf (queries: Q[], node = 'n1'): QueryBatch {
  const b = new QueryBatch(queries.length, node)
  queries.forEach((q, i) => {
    b.time[i] = q.time ?? DAY1
    b.zone[i] = q.zone ?? ORG
    b.address[i] = q.address
    b.ecsAddress[i] = q.ecs ?? ''
    b.ecsPrefix[i] = q.prefix ?? (q.ecs === undefined ? 0 : 24)
  })
  b.length = queries.length
  return b
}

class Recorder {
  flushes: ClientCountRow[][] = []
  fail = 0
  async add (rows: ClientCountRow[]): Promise<void> {
    if (this.fail > 0) {
      this.fail--
      throw new Error('database down')
    }
    this.flushes.push(rows)
  }
}

function sorted (rows: ClientCountRow[]): ClientCountRow[] {
  const key = (r: ClientCountRow): string => [r.day, r.zone, r.clientIp, r.node, r.country, r.region, r.city].join('|')
  return [...rows].sort((a, b) => key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)
}

let geo: GeoIp
before(async () => { geo = await GeoIp.open(shippedDatabases()) })

describe('GeoIp on the shipped DB-IP Lite city database', () => {
  it('places public IPv4 and IPv6 addresses as lower-case country name, region and city', () => {
    assert.deepEqual(geo.locate('8.8.8.8'), { country: 'united states', region: 'california', city: 'mountain view' })
    assert.deepEqual(geo.locate('81.2.69.160'), { country: 'united kingdom', region: 'england', city: 'london' })
    assert.deepEqual(geo.locate('2001:4860:4860::8888'), { country: 'canada', region: 'quebec', city: 'montreal' })
    assert.deepEqual(geo.locate('::ffff:8.8.8.8'), geo.locate('8.8.8.8'))
  })

  it('places loopback, private and documentation addresses and non-addresses nowhere', () => {
    for (const a of ['127.0.0.1', '127.0.0.2', '::1', '10.1.2.3', '192.168.0.1', '192.0.2.1', '2001:db8::1', 'not an address', '']) {
      assert.deepEqual(geo.locate(a), UNKNOWN, a)
    }
  })

  it('looks each address up once while it is cached, forgetting the least recently used generation', async () => {
    const small = await GeoIp.open(shippedDatabases(), 4) // two generations of two
    small.locate('8.8.8.8')
    small.locate('8.8.8.8')
    small.locate('1.1.1.1')
    assert.equal(small.lookups, 2)
    small.locate('81.2.69.160') // the first generation (8.8.8.8, 1.1.1.1) becomes the older
    assert.equal(small.lookups, 3)
    small.locate('8.8.8.8') // from the older generation, moved to the current one
    small.locate('193.0.6.139') // the older (1.1.1.1) is dropped
    assert.equal(small.lookups, 4)
    small.locate('8.8.8.8')
    assert.equal(small.lookups, 4)
    assert.deepEqual(small.locate('1.1.1.1'), { country: 'australia', region: 'new south wales', city: 'sydney' })
    assert.equal(small.lookups, 5)
  })

  it('names countries from their ISO code', () => {
    assert.equal(countryName('US'), 'united states')
    assert.equal(countryName('de'), 'germany')
    assert.equal(countryName(''), '')
  })
})

describe('classCNetwork', () => {
  it('is the /24 of an IPv4 address, the /48 of an IPv6 one, compressed', () => {
    assert.equal(classCNetwork('10.33.162.158'), '10.33.162.0')
    assert.equal(classCNetwork('::ffff:10.33.162.158'), '10.33.162.0')
    assert.equal(classCNetwork('2001:db8:1:2::5'), '2001:db8:1::')
    assert.equal(classCNetwork('2001:0:0:1::'), '2001::')
    assert.equal(classCNetwork('2001:0:7:1::'), '2001:0:7::')
    assert.equal(classCNetwork('::1'), '::')
    assert.equal(classCNetwork('x'), '')
    assert.equal(clientAddress('::ffff:127.0.0.2'), '127.0.0.2')
    assert.equal(clientAddress('::1'), '::1')
  })
})

describe('ClientCountSink', () => {
  it('counts responses per day, zone, client and place; ECS places by the subnet, the row keeps the client', async () => {
    const writer = new Recorder()
    const sink = new ClientCountSink(writer, { flushMs: 3_600_000, maxClients: 100, locator: async () => geo })
    sink.write(batchOf([
      { address: '127.0.0.2' },
      { address: '127.0.0.2' },
      { address: '127.0.0.3', ecs: '8.8.8.0' },
      { address: '127.0.0.3', ecs: '8.8.8.0' },
      { address: '127.0.0.3', ecs: '81.2.69.0' },
      { address: '127.0.0.3', ecs: '81.2.69.0', prefix: 0 }, // source prefix 0: the client opted out, placed by its address
      { address: '::1', ecs: '2001:4860:4860::', prefix: 48 },
      { address: '::ffff:127.0.0.2', time: DAY2 },
      { address: '127.0.0.2', zone: '' }
    ]))
    await sink.flush()
    assert.equal(writer.flushes.length, 1)
    const row = (day: string, zone: string, clientIp: string, classC: string, place: [string, string, string], responses: number): ClientCountRow =>
      ({ day, zone, clientIp, node: 'n1', country: place[0], region: place[1], city: place[2], classC, responses })
    const nowhere: [string, string, string] = ['', '', '']
    assert.deepEqual(sorted(writer.flushes[0]!), sorted([
      row('2026-11-24', 'example.org.', '127.0.0.2', '127.0.0.0', nowhere, 2),
      row('2026-11-24', 'example.org.', '127.0.0.3', '127.0.0.0', ['united states', 'california', 'mountain view'], 2),
      row('2026-11-24', 'example.org.', '127.0.0.3', '127.0.0.0', ['united kingdom', 'england', 'london'], 1),
      row('2026-11-24', 'example.org.', '127.0.0.3', '127.0.0.0', nowhere, 1),
      row('2026-11-24', 'example.org.', '::1', '::', ['canada', 'quebec', 'montreal'], 1),
      row('2026-11-25', 'example.org.', '127.0.0.2', '127.0.0.0', nowhere, 1),
      row('2026-11-24', '', '127.0.0.2', '127.0.0.0', nowhere, 1)
    ]))
    await sink.flush()
    assert.equal(writer.flushes.length, 1, 'nothing counted: nothing written')
  })

  it('holds at most maxClients distinct clients; the rest count in one overflow row per day, zone and node', async () => {
    const writer = new Recorder()
    const sink = new ClientCountSink(writer, { flushMs: 3_600_000, maxClients: 2, locator: async () => undefined })
    sink.write(batchOf([
      { address: '127.0.0.2' },
      { address: '127.0.0.3', ecs: '8.8.8.0' },
      { address: '127.0.0.3' }, // a third client: the address without ECS
      { address: '127.0.0.2' }, // known: still counted as itself
      { address: '127.0.0.4' },
      { address: '127.0.0.4', time: DAY2 }
    ]))
    assert.equal(sink.held(), 2)
    assert.equal(sink.overflowed, 3)
    await sink.close()
    const row = (day: string, clientIp: string, classC: string, responses: number): ClientCountRow =>
      ({ day, zone: 'example.org.', clientIp, node: 'n1', country: '', region: '', city: '', classC, responses })
    assert.deepEqual(sorted(writer.flushes[0]!), sorted([
      row('2026-11-24', '127.0.0.2', '127.0.0.0', 2),
      row('2026-11-24', '127.0.0.3', '127.0.0.0', 1),
      row('2026-11-24', '', '', 2),
      row('2026-11-25', '', '', 1)
    ]))
    // The bound is per flush: after a flush, new clients are counted again.
    sink.write(batchOf([{ address: '127.0.0.5' }]))
    assert.equal(sink.held(), 1)
  })

  it('keeps the rows of a failed write and adds them to the next', async () => {
    const writer = new Recorder()
    const errors: unknown[] = []
    const sink = new ClientCountSink(writer, { flushMs: 3_600_000, maxClients: 100, locator: async () => geo, onError: (err) => errors.push(err) })
    sink.write(batchOf([{ address: '127.0.0.2' }, { address: '127.0.0.3', ecs: '8.8.8.0' }]))
    writer.fail = 1
    await assert.rejects(sink.flush(), /database down/)
    assert.equal(errors.length, 1)
    sink.write(batchOf([{ address: '127.0.0.2' }, { address: '127.0.0.6' }]))
    await sink.flush()
    assert.deepEqual(sorted(writer.flushes[0]!).map(r => [r.clientIp, r.country, r.responses]), [
      ['127.0.0.2', '', 2],
      ['127.0.0.3', 'united states', 1],
      ['127.0.0.6', '', 1]
    ])
  })

  it('keeps at most maxClients client rows while writes fail; the rest fold into the overflow row', async () => {
    const writer = new Recorder()
    const sink = new ClientCountSink(writer, { flushMs: 3_600_000, maxClients: 2, locator: async () => undefined })
    writer.fail = 2
    sink.write(batchOf([{ address: '127.0.0.2' }, { address: '127.0.0.3' }]))
    await assert.rejects(sink.flush())
    sink.write(batchOf([{ address: '127.0.0.2' }, { address: '127.0.0.4' }, { address: '127.0.0.4' }]))
    await assert.rejects(sink.flush())
    assert.equal(sink.overflowed, 2)
    await sink.flush()
    assert.deepEqual(sorted(writer.flushes[0]!).map(r => [r.clientIp, r.classC, r.responses]), [
      ['127.0.0.2', '127.0.0.0', 2],
      ['127.0.0.3', '127.0.0.0', 1],
      ['', '', 2]
    ])
  })

  it('counts without places when the locator cannot open, and says so once', async () => {
    const writer = new Recorder()
    const errors: unknown[] = []
    const locator = async (): Promise<Locator> => { throw new Error('no such file') }
    const sink = new ClientCountSink(writer, { flushMs: 3_600_000, maxClients: 100, locator, onError: (err) => errors.push(err) })
    sink.write(batchOf([{ address: '127.0.0.2', ecs: '8.8.8.0' }]))
    await sink.flush()
    sink.write(batchOf([{ address: '127.0.0.2', ecs: '8.8.8.0' }]))
    await sink.flush()
    assert.equal(errors.length, 1)
    assert.deepEqual(writer.flushes.map(rows => rows.map(r => [r.clientIp, r.country, r.responses])), [[['127.0.0.2', '', 1]], [['127.0.0.2', '', 1]]])
  })
})
