/**
 * The per-client TCP connection counts shared by the DNS threads: who counts as one client
 * (IPv4 address, IPv6 /64, IPv4-mapped as IPv4), the limit over every thread's region, release,
 * and a dead thread's region cleared.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { clearTcpClientRegion, tcpClientBuffer, TcpClientCounts } from '../../../src/dns/server/tcp-clients.ts'

describe('TCP client counts', () => {
  it('refuses a client at its limit and counts a released place as free', () => {
    const counts = new TcpClientCounts(tcpClientBuffer(1, 100))
    const tickets = [1, 2, 3].map(() => counts.acquire('192.0.2.1', 3))
    for (const t of tickets) assert.ok(t >= 0)
    assert.equal(counts.acquire('192.0.2.1', 3), -1)
    assert.equal(counts.count('192.0.2.1'), 3, 'a refusal counts nothing')
    assert.ok(counts.acquire('192.0.2.2', 3) >= 0, 'the next address is another client')
    counts.release(tickets[0]!)
    assert.equal(counts.count('192.0.2.1'), 2)
    assert.ok(counts.acquire('192.0.2.1', 3) >= 0)
  })

  it('counts an IPv6 /64 as one client, and an IPv4-mapped address as the IPv4 one', () => {
    const counts = new TcpClientCounts(tcpClientBuffer(1, 100))
    assert.ok(counts.acquire('2001:db8:1:2::1', 2) >= 0)
    assert.ok(counts.acquire('2001:db8:1:2:ffff::9', 2) >= 0)
    assert.equal(counts.acquire('2001:db8:1:2::3', 2), -1, 'a third address in the same /64')
    assert.ok(counts.acquire('2001:db8:1:3::1', 2) >= 0, 'the next /64 is another client')
    assert.ok(counts.acquire('198.51.100.7', 1) >= 0)
    assert.equal(counts.acquire('::ffff:198.51.100.7', 1), -1)
    assert.equal(counts.count('2001:db8:1:2::'), 2)
  })

  it('counts every thread\'s connections, and gives back those of a region cleared', () => {
    const buffer = tcpClientBuffer(2, 100)
    const first = new TcpClientCounts(buffer, 0)
    const second = new TcpClientCounts(buffer, 1)
    assert.ok(first.acquire('192.0.2.1', 3) >= 0)
    assert.ok(first.acquire('192.0.2.1', 3) >= 0)
    const kept = second.acquire('192.0.2.1', 3)
    assert.ok(kept >= 0)
    assert.equal(second.acquire('192.0.2.1', 3), -1, 'the other thread\'s connections count')
    assert.equal(first.acquire('192.0.2.1', 3), -1)
    // The first thread stops: its two connections are given back, the second's stays.
    clearTcpClientRegion(buffer, 0)
    assert.equal(second.count('192.0.2.1'), 1)
    // A thread started again in the region finds it empty.
    const again = new TcpClientCounts(buffer, 0)
    for (let i = 0; i < 2; i++) assert.ok(again.acquire('192.0.2.1', 3) >= 0)
    assert.equal(again.acquire('192.0.2.1', 3), -1)
    second.release(kept)
    assert.equal(second.count('192.0.2.1'), 2)
    assert.throws(() => new TcpClientCounts(buffer, 2), RangeError)
  })

  it('refuses nobody below their limit when the pool is full of clients at theirs', () => {
    const counts = new TcpClientCounts(tcpClientBuffer(1, 2000))
    // 39 clients at a limit of 25 (975 connections), then 1000 clients with one connection.
    let refused = 0
    for (let c = 0; c < 39; c++) for (let i = 0; i < 25; i++) if (counts.acquire(`192.0.2.${c}`, 25) < 0) refused++
    for (let c = 0; c < 1000; c++) if (counts.acquire(`10.0.${c >> 8}.${c & 255}`, 25) < 0) refused++
    // A client shares a counter with another one time in 800 or so; refusing it takes a heavy
    // client in both of its counters: about one run in 600 sees one refusal, hardly ever two.
    assert.ok(refused <= 1, `${refused} connections refused below their client's limit`)
  })

  it('refuses more connections than the region holds', () => {
    const counts = new TcpClientCounts(tcpClientBuffer(1, 2))
    const tickets = [0, 1, 2].map(i => counts.acquire(`192.0.2.${i}`, 25))
    assert.ok(tickets.every(t => t >= 0), 'one more than the connection limit: the pool may count a newcomer before it makes room')
    assert.equal(counts.acquire('192.0.2.9', 25), -1)
    counts.release(tickets[1]!)
    assert.ok(counts.acquire('192.0.2.9', 25) >= 0)
  })
})
