import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { CounterSink } from '../../src/analytics/counter-sink.ts'
import { QueryCollector } from '../../src/analytics/query-collector.ts'
import type { Client } from '../../src/dns/server/handle-query.ts'
import { parseName, wireKey } from '../../src/zone/name.ts'

const udp: Client = { transport: 'udp', address: '192.0.2.7', port: 40001, family: 'IPv4' }
const tcp: Client = { ...udp, transport: 'tcp' }
const REQUEST = new Uint8Array(30)
const RESPONSE = new Uint8Array(80)

describe('CounterSink', () => {
  it('counts queries by rcode, qtype, transport and zone', async () => {
    const counts = new CounterSink()
    const collector = new QueryCollector(counts, { node: 'n1', batchSize: 2 })
    const org = wireKey(parseName('example.org.'))
    const net = wireKey(parseName('Example.NET.'))
    collector.query(udp, org, org, 6, 0, 0, REQUEST, RESPONSE, 80, 0, performance.now(), undefined)
    collector.query(udp, org, org, 1, 0, 3, REQUEST, RESPONSE, 80, 0, performance.now(), undefined)
    collector.query(tcp, net, net, 1, 0, 0, REQUEST, RESPONSE, 80, 0, performance.now(), undefined)
    collector.query(udp, undefined, wireKey(parseName('example.com.')), 1, 0, 5, REQUEST, RESPONSE, 30, 0, performance.now(), undefined)
    collector.query(udp, org, org, 16, 0, 0, REQUEST, RESPONSE, 80, 0, performance.now(), undefined)
    collector.query(tcp, org, org, 16, 0, 16, REQUEST, RESPONSE, 80, 0, performance.now(), undefined)
    await collector.close()
    assert.equal(counts.total, 6)
    assert.deepEqual([...counts.byRcode()], [[0, 3], [3, 1], [5, 1], [16, 1]])
    assert.deepEqual([...counts.byQtype()], [[1, 3], [6, 1], [16, 2]])
    assert.deepEqual(counts.byTransport, { udp: 4, tcp: 2 })
    assert.deepEqual(counts.byZone(), new Map([['example.org.', 4], ['example.net.', 1]]))
  })
})
