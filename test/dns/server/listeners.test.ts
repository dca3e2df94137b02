/**
 * Listeners on several addresses over real sockets: IPv4 and IPv6 loopback on one port for UDP
 * and TCP, port 0, a taken port.
 */
import assert from 'node:assert/strict'
import { createSocket } from 'node:dgram'
import { after, before, describe, it } from 'node:test'
import { listenAll, type Listeners, type ListenOptions } from '../../../src/dns/server/listeners.ts'
import { decodeMessage } from '../../../src/dns/wire/message.ts'
import { exampleIndex, frame, ipv6Unavailable, query, TcpClient, UdpClient } from '../../helpers/dns-clients.ts'

const noIpv6 = await ipv6Unavailable()
if (noIpv6 !== false) process.stdout.write(`# IPv6 listener tests SKIPPED: ${noIpv6}\n`)

async function start (opts: Partial<ListenOptions>, errors: unknown[] = []): Promise<Listeners> {
  return await listenAll({ index: exampleIndex() }, err => errors.push(err), { hosts: ['127.0.0.1'], port: 0, ...opts })
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
    // The UDP port is taken, the TCP port free: TCP binds first and must be let go.
    const holder = createSocket('udp4')
    await new Promise<void>(resolve => holder.bind(0, '127.0.0.1', resolve))
    const port = holder.address().port
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
