/**
 * NOTIFY in over real sockets (port 0 on 127.0.0.1): our own NOTIFY sender (dns/notify) is
 * acknowledged over UDP by a secondary zone whose primary is 127.0.0.1, which hears of the
 * serial; the same over TCP; a secondary zone whose primary is elsewhere answers REFUSED and
 * hears nothing.
 */
import assert from 'node:assert/strict'
import { createSocket } from 'node:dgram'
import type { AddressInfo, Server } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { ZoneData } from '../../../src/dns/index/zone-data.ts'
import { ZoneIndex } from '../../../src/dns/index/zone-index.ts'
import type { Client } from '../../../src/dns/server/handle-query.ts'
import { listenTcp } from '../../../src/dns/server/tcp-listener.ts'
import { listenUdp, type UdpListener } from '../../../src/dns/server/udp-listener.ts'
import { notifyMessage, sendNotify } from '../../../src/dns/notify/sender.ts'
import { Opcode } from '../../../src/dns/wire/constants.ts'
import { RRType } from '../../../src/zone/rrtype.ts'
import { decodeMessage, type WireRecord } from '../../../src/dns/wire/message.ts'
import { nameToString, parseName } from '../../../src/zone/name.ts'
import { parseZoneText } from '../../../src/zonefile/parser.ts'
import { tcpExchange, udpExchange } from '../../helpers/dns-clients.ts'

function secondary (origin: string, primary: string): ZoneData {
  const o = parseName(origin)
  const records = parseZoneText('$TTL 60\n@ IN SOA ns1 hostmaster 1 60 60 600 60\n@ IN NS ns1\nns1 IN A 192.0.2.53\n', { origin: o, includes: 'refuse' }).records
  const zone = ZoneData.from(o, 1, 1, records)
  zone.primaries = [{ host: primary, port: 53 }]
  return zone
}

/** The SOA a primary sends with its NOTIFY (RFC 1996 §3.7), with a new serial. */
function soa (origin: string, serial: number): WireRecord {
  const o = parseName(origin)
  const text = `$TTL 60\n@ IN SOA ns1 hostmaster ${serial} 60 60 600 60\n`
  const r = parseZoneText(text, { origin: o, includes: 'refuse' }).records[0]!
  return { name: o, type: RRType.SOA, class: 1, ttl: 60, rdata: r.rdata }
}

for (const udpBatch of [true, false]) {
  describe(`NOTIFY in over UDP and TCP (UDP through ${udpBatch ? 'the batched socket' : 'node:dgram'})`, () => {
    const index = new ZoneIndex()
    index.set(secondary('example.net.', '127.0.0.1'))
    index.set(secondary('example.com.', '192.0.2.1'))
    const heard: { zone: string, client: Client, serial: number | undefined }[] = []
    const opts = { index, onNotify: (zone: ZoneData, client: Client, serial: number | undefined) => heard.push({ zone: nameToString(zone.origin), client, serial }) }
    let udp: UdpListener
    let tcp: Server
    const fail = (err: unknown): void => { throw err }

    before(async () => {
      udp = await listenUdp('127.0.0.1', 0, opts, fail, undefined, false, udpBatch)
      tcp = await listenTcp('127.0.0.1', 0, opts, fail)
    })
    after(async () => {
      udp?.close()
      await new Promise(resolve => tcp?.close(resolve))
    })

    it('acknowledges our own NOTIFY sender over UDP and hears of the serial', async () => {
      heard.length = 0
      const acked = await sendNotify(soa('example.net.', 7), { host: '127.0.0.1', port: udp.address().port }, { attempts: 2 })
      assert.equal(acked, true)
      assert.equal(heard.length, 1)
      assert.equal(heard[0]!.zone, 'example.net.')
      assert.equal(heard[0]!.serial, 7)
      assert.equal(heard[0]!.client.transport, 'udp')
      assert.equal(heard[0]!.client.address, '127.0.0.1')
    })

    it('stops retrying a NOTIFY nobody answers when told to (service shutdown)', async () => {
      const silent = createSocket('udp4')
      await new Promise<void>(resolve => silent.bind(0, '127.0.0.1', resolve))
      try {
        const stopping = new AbortController()
        const sent = sendNotify(soa('example.net.', 9), { host: '127.0.0.1', port: silent.address().port }, { attempts: 5, initialTimeoutMs: 60_000, signal: stopping.signal })
        setTimeout(() => stopping.abort(), 20)
        // Without the abort the first wait alone would last a minute.
        const outcome = await Promise.race([sent, new Promise(resolve => setTimeout(resolve, 10_000, 'still waiting').unref())])
        assert.equal(outcome, false)
      } finally {
        silent.close()
      }
    })

    it('answers NOTIFY over TCP', async () => {
      heard.length = 0
      const { reply, localPort } = await tcpExchange('127.0.0.1', (tcp.address() as AddressInfo).port, notifyMessage(321, soa('example.net.', 8)))
      const res = decodeMessage(reply)
      assert.equal(res.id, 321)
      assert.equal(res.opcode, Opcode.NOTIFY)
      assert.equal(res.rcode, 0)
      assert.equal(res.aa, true)
      assert.deepEqual(heard.map(h => [h.zone, h.serial, h.client.transport, h.client.port]), [['example.net.', 8, 'tcp', localPort]])
    })

    it('refuses NOTIFY for a secondary whose primary is another address, over both transports', async () => {
      heard.length = 0
      const request = notifyMessage(654, soa('example.com.', 9))
      const overUdp = decodeMessage((await udpExchange('127.0.0.1', udp.address().port, request)).reply)
      const overTcp = decodeMessage((await tcpExchange('127.0.0.1', (tcp.address() as AddressInfo).port, request)).reply)
      for (const res of [overUdp, overTcp]) {
        assert.equal(res.id, 654)
        assert.equal(res.opcode, Opcode.NOTIFY)
        assert.equal(res.rcode, 5)
      }
      assert.deepEqual(heard, [])
    })
  })
}
