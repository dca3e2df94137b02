/**
 * Listeners on several addresses over real sockets: IPv4 and IPv6 loopback on one port for UDP
 * and TCP, port 0, a taken port; and response rate limiting over UDP (a burst is partly
 * answered, partly dropped, partly truncated; off, exempt and TCP clients are never limited).
 * Every test runs twice: UDP through the batched socket (recvmmsg/sendmmsg) and through
 * node:dgram (`udpBatch: false`).
 */
import assert from 'node:assert/strict'
import { createSocket } from 'node:dgram'
import { after, before, describe, it } from 'node:test'
import { listenAll, type Listeners, type ListenOptions } from '../../../src/dns/server/listeners.ts'
import { ResponseRateLimiter } from '../../../src/dns/server/rate-limiter.ts'
import { decodeMessage } from '../../../src/dns/wire/message.ts'
import { exampleIndex, frame, ipv6Unavailable, query, TcpClient, UdpClient } from '../../helpers/dns-clients.ts'
import { freeDnsPort } from '../../helpers/named.ts'

const noIpv6 = await ipv6Unavailable()
if (noIpv6 !== false) process.stdout.write(`# IPv6 listener tests SKIPPED: ${noIpv6}\n`)

for (const udpBatch of [true, false]) {
  describe(udpBatch ? 'UDP through the batched socket' : 'UDP through node:dgram', () => listenerTests(udpBatch))
}

function listenerTests (udpBatch: boolean): void {
  async function start (opts: Partial<ListenOptions>, errors: unknown[] = []): Promise<Listeners> {
    return await listenAll({ index: exampleIndex() }, err => errors.push(err), { hosts: ['127.0.0.1'], port: 0, udpBatch, ...opts })
  }

  describe('listeners on IPv4 and IPv6 loopback', { skip: noIpv6 }, () => {
    const errors: unknown[] = []
    let listeners: Listeners
    before(async () => { listeners = await start({ hosts: ['127.0.0.1', '::1'] }, errors) })
    after(async () => {
      await listeners.close()
      assert.deepEqual(errors, [])
    })

    it('binds both addresses on one port, picked free with port 0, and reports them', () => {
      assert.ok(listeners.port > 0)
      assert.deepEqual(listeners.addresses, [
        { address: '127.0.0.1', port: listeners.port, family: 'IPv4' },
        { address: '::1', port: listeners.port, family: 'IPv6' }
      ])
    })

    for (const host of ['127.0.0.1', '::1']) {
      it(`answers over UDP on ${host}`, async () => {
        const client = await UdpClient.open(host === '::1' ? 6 : 4)
        try {
          const reply = await client.ask(query(21, 'mail.example.org.', 'A'), listeners.port, host)
          assert.equal(reply.id, 21)
          assert.deepEqual([...reply.answers[0]!.rdata], [192, 0, 2, 25])
        } finally {
          client.close()
        }
      })

      it(`answers over TCP on ${host}`, async () => {
        const client = await TcpClient.open(host, listeners.port)
        try {
          client.write(frame(query(22, 'example.org.', 'NS')))
          const reply = decodeMessage((await client.next())!)
          assert.equal(reply.id, 22)
          assert.equal(reply.answers.length, 1)
        } finally {
          client.close()
        }
      })
    }
  })

  describe('listening on a port already taken', () => {
    it('fails with the bind error for a fixed port and leaves nothing bound', async () => {
    // The UDP port is taken, the TCP port free: TCP binds first and must be let go. The port is
    // one free for both (a UDP port the kernel picks may be some other socket's TCP port, which
    // would fail the second start for another reason).
      const port = await freeDnsPort()
      const holder = createSocket('udp4')
      await new Promise<void>(resolve => holder.bind(port, '127.0.0.1', resolve))
      try {
        await assert.rejects(start({ port }), { code: 'EADDRINUSE' })
      } finally {
        await new Promise<void>(resolve => holder.close(resolve))
      }
      // The port is free again for both protocols: nothing of the failed attempt is left open.
      const again = await start({ port })
      assert.equal(again.port, port)
      await again.close()
    })

    it('refuses an empty address list', async () => {
      await assert.rejects(start({ hosts: [] }), /no address/)
    })
  })

  /** Send `n` identical queries, then a marker query with another identity; the replies up to the marker's. */
  async function burst (client: UdpClient, port: number, n: number): Promise<Array<ReturnType<typeof decodeMessage>>> {
    for (let i = 0; i < n; i++) client.send(query(1000 + i, 'example.org.', 'SOA'), port)
    // The marker has its own bucket; on loopback the replies come back in the order sent.
    client.send(query(9999, 'mail.example.org.', 'A'), port)
    await client.replyTo(9999)
    return client.replies.map(r => decodeMessage(r)).filter(m => m.id !== 9999)
  }

  describe('response rate limiting over UDP', () => {
    const limited = (): ResponseRateLimiter => new ResponseRateLimiter({ responsesPerSecond: 2, slip: 2, exempt: [] })

    it('answers part of a burst of identical queries, drops part and truncates part (slip)', async () => {
      const listeners = await start({ rateLimiter: limited() })
      const client = await UdpClient.open()
      try {
        const replies = await burst(client, listeners.port, 40)
        const full = replies.filter(m => !m.tc)
        const truncated = replies.filter(m => m.tc)
        assert.ok(full.length >= 2 && full.length < 10, `a second's worth answered, got ${full.length}`)
        for (const m of full) assert.equal(m.answers.length, 1)
        assert.ok(truncated.length >= 10, `about half the rest truncated, got ${truncated.length}`)
        for (const m of truncated) {
          assert.equal(m.questions.length, 1)
          assert.deepEqual([m.answers.length, m.authority.length, m.additional.length], [0, 0, 0])
        }
        assert.ok(replies.length < 40, `some dropped, got ${replies.length} replies to 40 queries`)
      } finally {
        client.close()
        await listeners.close()
      }
    })

    it('answers every query when rate limiting is off', async () => {
      const listeners = await start({})
      const client = await UdpClient.open()
      try {
        const replies = await burst(client, listeners.port, 40)
        assert.equal(replies.length, 40)
        assert.ok(replies.every(m => !m.tc && m.answers.length === 1))
      } finally {
        client.close()
        await listeners.close()
      }
    })

    it('never limits an exempt client', async () => {
      const listeners = await start({ rateLimiter: new ResponseRateLimiter({ responsesPerSecond: 2, slip: 2, exempt: ['127.0.0.0/8'] }) })
      const client = await UdpClient.open()
      try {
        const replies = await burst(client, listeners.port, 40)
        assert.equal(replies.length, 40)
        assert.ok(replies.every(m => !m.tc))
      } finally {
        client.close()
        await listeners.close()
      }
    })

    it('never limits TCP, while UDP from the same address is limited', async () => {
      const listeners = await start({ rateLimiter: limited() })
      const tcp = await TcpClient.open('127.0.0.1', listeners.port)
      const udp = await UdpClient.open()
      try {
        tcp.write(Buffer.concat(Array.from({ length: 40 }, (_, i) => frame(query(2000 + i, 'example.org.', 'SOA')))))
        for (let i = 0; i < 40; i++) {
          const reply = decodeMessage((await tcp.next())!)
          assert.equal(reply.id, 2000 + i)
          assert.equal(reply.tc, false)
          assert.equal(reply.answers.length, 1)
        }
        const replies = await burst(udp, listeners.port, 40)
        assert.ok(replies.length < 40 || replies.some(m => m.tc), 'the UDP burst is limited')
      } finally {
        tcp.close()
        udp.close()
        await listeners.close()
      }
    })
  })
}
