// `npm run bench -- tcp`: DNS over TCP on the main thread's listener (src/dns/server/tcp-listener.ts),
// client and server in this process, on loopback:
//  - pipelined queries on one connection (the answer path with the pool's per-query bookkeeping);
//  - new connections, each asking once, into a pool with room, into a full pool of idle
//    connections (each newcomer closes the longest-idle one), and from one client over its limit
//    (each newcomer closed at once).
// Figures are per CPU second of this process (client included), the median of BENCH_TCP_ROUNDS
// (default 5) rounds. BENCH_TCP_QUERIES (default 200,000) queries, BENCH_TCP_CONNECTIONS (default
// 2,000) connections per round.
import { connect, type AddressInfo, type Socket } from 'node:net'
import { listenTcp } from '../../src/dns/server/tcp-listener.ts'
import { TcpPool, type TcpLimits } from '../../src/dns/server/tcp-pool.ts'
import { exampleIndex, frame, query } from '../../test/helpers/dns-clients.ts'

const ROUNDS = Number(process.env.BENCH_TCP_ROUNDS ?? 5)
const QUERIES = Number(process.env.BENCH_TCP_QUERIES ?? 200_000)
const CONNECTIONS = Number(process.env.BENCH_TCP_CONNECTIONS ?? 2_000)
const BATCH = 100

const index = exampleIndex()

/** The `i`th loopback address of 127.`net`.0.0/16 (all of 127/8 is local on Linux). */
const address = (net: number, i: number): string => `127.${net}.${Math.floor(i / 250)}.${(i % 250) + 1}`

async function serve (limits: TcpLimits): Promise<{ port: number, pool: TcpPool, close: () => Promise<void> }> {
  const pool = new TcpPool(limits)
  const server = await listenTcp('127.0.0.1', 0, { index }, (err) => { throw err }, limits, undefined, pool)
  return {
    port: (server.address() as AddressInfo).port,
    pool,
    close: async () => await new Promise<void>(resolve => server.close(() => resolve()))
  }
}

function cpuSeconds (since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since)
  return (used.user + used.system) / 1e6
}

async function opened (port: number, localAddress: string): Promise<Socket> {
  const socket = connect({ host: '127.0.0.1', port, localAddress })
  socket.setNoDelay(true)
  socket.on('error', () => {})
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve)
    socket.once('error', reject)
  })
  return socket
}

/** Queries per CPU second, `BATCH` in flight at a time on one connection. */
async function pipelined (): Promise<number> {
  const server = await serve({ idleMs: 60_000, maxConnections: 100 })
  const socket = await opened(server.port, '127.0.0.1')
  const batch = Buffer.concat(Array.from({ length: BATCH }, (_, i) => frame(query(i, 'mail.example.org.', 'A'))))
  const start = process.cpuUsage()
  await new Promise<void>((resolve) => {
    let got = 0
    let buffer: Buffer = Buffer.alloc(0)
    socket.on('data', (chunk: Buffer) => {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk])
      while (buffer.length >= 2 && buffer.length >= 2 + buffer.readUInt16BE(0)) {
        buffer = buffer.subarray(2 + buffer.readUInt16BE(0))
        got++
        if (got % BATCH === 0 && got < QUERIES) socket.write(batch)
      }
      if (got >= QUERIES) resolve()
    })
    for (let i = 0; i < 4; i++) socket.write(batch)
  })
  const rate = QUERIES / cpuSeconds(start)
  socket.destroy()
  await server.close()
  return rate
}

/**
 * Connections per CPU second, one after the other, each asking one query and waiting for the
 * answer or the close. `fill` idle connections from other addresses are opened first.
 */
async function churn (limits: TcpLimits, fill: number, from: (i: number) => string): Promise<{ rate: number, pool: TcpPool }> {
  const server = await serve(limits)
  const kept: Socket[] = []
  for (let i = 0; i < fill; i++) kept.push(await opened(server.port, address(1, i)))
  const ask = frame(query(1, 'mail.example.org.', 'A'))
  const start = process.cpuUsage()
  for (let i = 0; i < CONNECTIONS; i++) {
    const socket = await opened(server.port, from(i))
    kept.push(socket)
    await new Promise<void>((resolve) => {
      socket.once('data', () => resolve())
      socket.once('close', () => resolve())
      socket.write(ask)
    })
  }
  const rate = CONNECTIONS / cpuSeconds(start)
  for (const s of kept) s.destroy()
  await server.close()
  return { rate, pool: server.pool }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const results: Record<string, number[]> = { pipelined: [], room: [], full: [], overLimit: [] }
for (let round = 0; round < ROUNDS; round++) {
  results.pipelined!.push(await pipelined())
  // Room for every connection: each asks once, stays open.
  const room = await churn({ idleMs: 60_000, maxConnections: CONNECTIONS + 10, maxPerClient: 0 }, 0, i => address(2, i))
  results.room!.push(room.rate)
  // A pool of 1,000 full of idle connections: every newcomer closes the longest-idle one.
  const full = await churn({ idleMs: 60_000, maxConnections: 1000, maxPerClient: 25 }, 1000, i => address(3, i))
  if (full.pool.evicted !== CONNECTIONS) throw new Error(`expected ${CONNECTIONS} evictions, saw ${full.pool.evicted}`)
  results.full!.push(full.rate)
  // One client at its limit of 25: every newcomer is closed at once.
  const over = await churn({ idleMs: 60_000, maxConnections: 1000, maxPerClient: 25 }, 0, () => '127.4.0.1')
  if (over.pool.refused !== CONNECTIONS - 25) throw new Error(`expected ${CONNECTIONS - 25} refusals, saw ${over.pool.refused}`)
  results.overLimit!.push(over.rate)
}
console.log(`DNS over TCP, ${ROUNDS} rounds (median; range), per CPU second of client and server together:`)
console.log(`  pipelined queries on one connection: ${median(results.pipelined!).toFixed(0)} q/s (${Math.min(...results.pipelined!).toFixed(0)}–${Math.max(...results.pipelined!).toFixed(0)})`)
for (const [name, label] of [['room', 'new connections, pool with room'], ['full', 'new connections, full pool (each closes the longest-idle)'], ['overLimit', 'new connections, client over its limit (each closed)']] as const) {
  const xs = results[name]!
  console.log(`  ${label}: ${median(xs).toFixed(0)}/s (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`)
}
