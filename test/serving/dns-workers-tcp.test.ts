/**
 * DNS over TCP limits with the listeners in worker threads: the per-client limit holds over
 * every worker (one count shared by all), a full worker makes room for a new client by closing
 * its connection idle the longest, and a worker started again gives back its connections' places;
 * and the settings as the service reads them, with DNS on the main thread and in workers.
 * Clients come from several loopback addresses (all of 127/8 is local on Linux).
 */
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { answeredOverTcp as answered, exampleIndex, TcpClient } from '../helpers/dns-clients.ts'
import { serveInWorkers, type WorkerServer } from '../helpers/dns-workers.ts'
import { eventually } from '../helpers/named.ts'
import { startTestService } from '../helpers/service.ts'

describe('DNS over TCP limits in worker threads', () => {
  const servers: WorkerServer[] = []
  const clients: TcpClient[] = []
  const open = async (port: number, from: string): Promise<TcpClient> => {
    const c = await TcpClient.open('127.0.0.1', port, from)
    clients.push(c)
    return c
  }
  after(async () => {
    for (const c of clients) c.close()
    for (const s of servers) await s.close()
    for (const s of servers) assert.deepEqual(s.problems, [])
  })

  it('holds a client to its limit over every worker, and answers another client', async () => {
    // Two workers of 10 connections each, 3 per client in all.
    const server = await serveInWorkers(exampleIndex(), 2, true, { idleMs: 60_000, maxConnections: 10, maxPerClient: 3 })
    servers.push(server)
    const outcomes: boolean[] = []
    for (let i = 0; i < 24; i++) outcomes.push(await answered(await open(server.port, '127.0.0.1'), 100 + i))
    assert.deepEqual(outcomes, [true, true, true, ...Array<boolean>(21).fill(false)], 'its first three are answered, the rest closed')
    for (let i = 0; i < 3; i++) assert.ok(await answered(await open(server.port, '127.0.0.2'), 200 + i), 'another client is answered, up to its own limit')
  })

  it('makes room for a new client by closing the connection idle the longest', async () => {
    const server = await serveInWorkers(exampleIndex(), 1, true, { idleMs: 60_000, maxConnections: 4 })
    servers.push(server)
    const idle: TcpClient[] = []
    for (let i = 0; i < 4; i++) {
      idle.push(await open(server.port, `127.0.1.${i + 1}`))
      assert.ok(await answered(idle[i]!, 10 + i))
    }
    // The first opened asks again: the second is now the one idle the longest.
    assert.ok(await answered(idle[0]!, 20))
    assert.ok(await answered(await open(server.port, '127.0.1.9'), 21), 'the new client is answered')
    await idle[1]!.waitClosed()
    for (const i of [0, 2, 3]) assert.ok(await answered(idle[i]!, 30 + i), `client ${i} is still served`)
  })

  it('answers a new client when every worker is full of idle connections from many clients', async () => {
    // Two workers of 2 connections each: eight clients fill them twice over.
    const server = await serveInWorkers(exampleIndex(), 2, true, { idleMs: 60_000, maxConnections: 2 })
    servers.push(server)
    const filled: TcpClient[] = []
    for (let i = 0; i < 8; i++) {
      filled.push(await open(server.port, `127.0.2.${i + 1}`))
      assert.ok(await answered(filled[i]!, 40 + i), `client ${i} is answered`)
    }
    assert.ok(await answered(await open(server.port, '127.0.2.99'), 50), 'the new client is answered')
    // Each newcomer closed one idle connection: at most the four places stay open.
    await eventually(async () => filled.filter(c => c.isOpen).length <= 3, 5000, 'idle connections closed')
  })

  it('gives back the places of a worker\'s connections when it is started again', async () => {
    const server = await serveInWorkers(exampleIndex(), 1, true, { idleMs: 60_000, maxConnections: 10, maxPerClient: 2 })
    servers.push(server)
    const before = [await open(server.port, '127.0.3.1'), await open(server.port, '127.0.3.1')]
    for (const [i, c] of before.entries()) assert.ok(await answered(c, 60 + i))
    assert.equal(await answered(await open(server.port, '127.0.3.1'), 62), false, 'at its limit')
    await server.workers.terminate(0)
    for (const c of before) await c.waitClosed()
    await eventually(async () => server.workers.listening() === 1, 10_000, 'the worker started again')
    for (let i = 0; i < 2; i++) assert.ok(await answered(await open(server.port, '127.0.3.1'), 70 + i), 'its places are free again')
    // Restarting is logged as a problem: this one was asked for.
    server.problems.length = 0
  })
})

describe('DNS over TCP limits as the service is configured', () => {
  for (const workers of ['0', '2']) {
    it(`takes ZONAL_DNS_TCP_MAX_PER_CLIENT and ZONAL_DNS_TCP_MAX_CONNECTIONS with ${workers === '0' ? 'DNS on the main thread' : 'two DNS workers'}`, async () => {
      const t = await startTestService('admin password', { ZONAL_DNS_WORKERS: workers, ZONAL_DNS_TCP_MAX_PER_CLIENT: '2', ZONAL_DNS_TCP_MAX_CONNECTIONS: '4' })
      const clients: TcpClient[] = []
      const open = async (from: string): Promise<TcpClient> => {
        const c = await TcpClient.open('127.0.0.1', t.service.dns.port, from)
        clients.push(c)
        return c
      }
      try {
        // No zone: the answers are REFUSED, answers all the same.
        const outcomes: boolean[] = []
        for (let i = 0; i < 6; i++) outcomes.push(await answered(await open('127.0.4.1'), 100 + i))
        assert.deepEqual(outcomes, [true, true, false, false, false, false])
        // Two more clients fill the pool (of 2 for each of two workers, or 4); a fourth is
        // answered all the same.
        for (const from of ['127.0.4.2', '127.0.4.3', '127.0.4.4']) {
          for (let i = 0; i < 2; i++) assert.ok(await answered(await open(from), 200 + i), `${from} is answered`)
        }
      } finally {
        for (const c of clients) c.close()
        await t.stop()
      }
    })
  }
})
