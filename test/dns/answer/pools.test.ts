/**
 * Traffic pools on the answer path (issue 18), in one thread: answers follow the pool's served
 * health at once (replies cached before a change are not served after it), fixed answers are
 * kept in the reply cache and varying ones never are, directional answers depend on the asker
 * (source address, Client Subnet echoed with its scope), and pool addresses stay out of
 * additional sections.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { servedPool } from '../../../src/dns/answer/pools.ts'
import { ZoneData } from '../../../src/dns/index/zone-data.ts'
import { ZoneIndex } from '../../../src/dns/index/zone-index.ts'
import { handleQuery, type Client } from '../../../src/dns/server/handle-query.ts'
import { decodeMessage } from '../../../src/dns/wire/message.ts'
import { parseName, wireKey } from '../../../src/zone/name.ts'
import { parseZoneText } from '../../../src/zonefile/parser.ts'
import { ecsOption, poolProfile, poolQuery, addressesOf } from '../../helpers/pool-zone.ts'

const ZONE = `$ORIGIN example.org.
$TTL 300
@      IN SOA ns1 hostmaster 2026010101 3600 900 604800 300
@      IN NS  ns1
@      IN MX  10 sf
ns1    IN A   192.0.2.53
sf     IN A   192.0.2.21
tc     IN A   192.0.2.11
tc     IN A   192.0.2.12
dir    IN A   192.0.2.41
dir    IN A   192.0.2.42
cn     IN CNAME ns1
cn     IN CNAME mail.example.net.
`
const origin = parseName('example.org.')
const client = (address: string): Client => ({ transport: 'udp', address, port: 5300, family: 'IPv4' })

function setup (): { index: ZoneIndex, zone: ZoneData } {
  const { records, problems } = parseZoneText(ZONE, { origin, includes: 'refuse' })
  assert.deepEqual(problems, [])
  const zone = ZoneData.from(origin, 2026010101, 1, records)
  const set = (owner: string, profile: ReturnType<typeof poolProfile>, rdata: string[]): void => {
    const key = `${wireKey(parseName(owner))}/1`
    const wire = rdata.map(r => new Uint8Array(r.split('.').map(Number)))
    zone.setPool(key, servedPool(profile, key, 1, wire, origin))
  }
  set('sf.example.org.', poolProfile('sf.example.org.', 'SFPool', { regionFailureSensitivity: 'HIGH', monitor: { method: 'GET', url: 'http://192.0.2.200/' }, backupRecord: { rdata: '198.51.100.29' } }, ['192.0.2.21']), ['192.0.2.21'])
  set('tc.example.org.', poolProfile('tc.example.org.', 'TCPool', { maxToLB: 1, rdataInfo: [{}, {}] }, ['192.0.2.11', '192.0.2.12']), ['192.0.2.11', '192.0.2.12'])
  set('dir.example.org.', poolProfile('dir.example.org.', 'DirPool', {
    rdataInfo: [{ allNonConfigured: true }, { ipInfo: { name: 'lab', ips: [{ cidr: '127.0.0.0/30' }, { cidr: '203.0.113.0/24' }] }, ttl: 60 }]
  }, ['192.0.2.41', '192.0.2.42']), ['192.0.2.41', '192.0.2.42'])
  const cnKey = `${wireKey(parseName('cn.example.org.'))}/5`
  zone.setPool(cnKey, servedPool(poolProfile('cn.example.org.', 'DirPool', {
    rdataInfo: [{ ipInfo: { name: 'lab', ips: [{ address: '127.0.0.2' }] } }, { allNonConfigured: true }]
  }, ['ns1.example.org.', 'mail.example.net.'], 'CNAME'), cnKey, 5, [parseName('ns1.example.org.'), parseName('mail.example.net.')], origin))
  const index = new ZoneIndex()
  index.set(zone)
  return { index, zone }
}

const ask = (index: ZoneIndex, name: string, from = '198.51.100.1', ecs?: Uint8Array) => decodeMessage(handleQuery(poolQuery(name, 'A', ecs), client(from), { index })!)

describe('traffic pools on the answer path', () => {
  it('serves a fixed pool answer from the reply cache until its health changes', () => {
    const { index, zone } = setup()
    assert.deepEqual(addressesOf(ask(index, 'sf.example.org.')), ['192.0.2.21'])
    const hits = index.replies.hits
    assert.deepEqual(addressesOf(ask(index, 'sf.example.org.')), ['192.0.2.21'])
    assert.equal(index.replies.hits, hits + 1, 'the second answer came from the reply cache')
    const key = `${wireKey(parseName('sf.example.org.'))}/1`
    zone.setPool(key, { ...zone.pools.get(key)!, down: ['192.0.2.21'] })
    assert.deepEqual(addressesOf(ask(index, 'sf.example.org.')), ['198.51.100.29'])
    zone.setPool(key, { ...zone.pools.get(key)!, down: [] })
    assert.deepEqual(addressesOf(ask(index, 'sf.example.org.')), ['192.0.2.21'])
  })

  it('never caches answers drawn by weight', () => {
    const { index } = setup()
    const seen = new Set<string>()
    const before = index.replies.size
    for (let i = 0; i < 200; i++) for (const a of addressesOf(ask(index, 'tc.example.org.'))) seen.add(a)
    assert.deepEqual([...seen].sort(), ['192.0.2.11', '192.0.2.12'])
    assert.equal(index.replies.size, before)
  })

  it('answers a directional pool by source address or Client Subnet, with the record\'s own TTL, never from the cache', () => {
    const { index } = setup()
    for (let i = 0; i < 3; i++) {
      const lab = ask(index, 'dir.example.org.', '127.0.0.2')
      assert.deepEqual(addressesOf(lab), ['192.0.2.42'])
      assert.equal(lab.answers[0]!.ttl, 60)
      const other = ask(index, 'dir.example.org.')
      assert.deepEqual(addressesOf(other), ['192.0.2.41'])
      assert.equal(other.answers[0]!.ttl, 300)
      const viaEcs = ask(index, 'dir.example.org.', '198.51.100.1', ecsOption('203.0.113.0', 24))
      assert.deepEqual(addressesOf(viaEcs), ['192.0.2.42'])
      assert.deepEqual([...viaEcs.edns!.options[0]!.data], [0, 1, 24, 24, 203, 0, 113])
    }
    assert.equal(index.replies.entriesOf(index.find(origin)!), 0)
  })

  it('leaves pool addresses out of the additional section', () => {
    const { index } = setup()
    const mx = decodeMessage(handleQuery(poolQuery('example.org.', 'MX'), client('198.51.100.1'), { index })!)
    assert.equal(mx.answers.length, 1)
    assert.deepEqual(mx.additional, [])
  })
})

describe('directional CNAME pools', () => {
  it('follows the link the client is given, and keeps no reply', () => {
    const { index } = setup()
    for (let i = 0; i < 3; i++) {
      const lab = ask(index, 'cn.example.org.', '127.0.0.2')
      assert.deepEqual(lab.answers.map(a => a.type), [5, 1])
      assert.deepEqual(addressesOf(lab), ['192.0.2.53'])
      const other = ask(index, 'cn.example.org.')
      assert.deepEqual(other.answers.map(a => a.type), [5])
      assert.deepEqual(other.answers[0]!.rdata, parseName('mail.example.net.'))
    }
    assert.equal(index.replies.entriesOf(index.find(origin)!), 0)
  })
})

describe('hostile Client Subnet options', () => {
  it('answers every random option payload at a directional pool with NOERROR and a record, never an exception', () => {
    const { index } = setup()
    let seed = 7
    const random = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
      return seed >>> 8
    }
    for (let i = 0; i < 2000; i++) {
      const data = new Uint8Array(random() % 24)
      for (let j = 0; j < data.length; j++) data[j] = random() & 0xff
      // Most are malformed; some are families 1 and 2 with plausible prefixes.
      if (i % 3 === 0 && data.length >= 4) {
        data[0] = 0
        data[1] = 1 + (i % 2)
        data[2] = random() % 140
      }
      const reply = handleQuery(poolQuery('dir.example.org.', 'A', data), client('198.51.100.1'), { index })
      assert.ok(reply !== undefined)
      const m = decodeMessage(reply)
      assert.equal(m.rcode, 0)
      assert.equal(addressesOf(m).length, 1)
    }
  })
})
