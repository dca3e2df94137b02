// The forward benchmark's load generator, in its own process: `node bench/forward/load.ts <port>
// <connections> <seconds> <hosts> <warmup seconds>`. Keeps <connections> keep-alive HTTP/1.1
// connections busy, one request in flight on each (no pipelining), each request for the next of
// <hosts> hosts with a path and a query; counts the complete responses (status line, headers,
// Content-Length body) after the warm-up and checks that each is a 301 with a Location. Raw
// sockets rather than node:http's client, which would cost more CPU than the servers measured.
// Prints `start` and `stop` as it starts and stops counting (the runner reads the server's CPU
// time then), then one JSON line: { requests, seconds, rps, bad, cpuSeconds }.
import { connect, type Socket } from 'node:net'

const [port, connections, seconds, hosts, warmup] = process.argv.slice(2).map(Number) as [number, number, number, number, number]
const requests = Array.from({ length: Math.min(hosts, 4096) }, (_, i) =>
  Buffer.from(`GET /docs/page-${i % 97}.html?ref=bench&n=${i} HTTP/1.1\r\nHost: h${(i * 2654435761) % hosts}.forward.bench\r\nUser-Agent: zonal-bench\r\nAccept: */*\r\n\r\n`))

let counting = false
let done = 0
let bad = 0
let next = 0
const sockets: Socket[] = []

function open (): void {
  const socket = connect(port, '127.0.0.1')
  socket.setNoDelay(true)
  let pending: Buffer = Buffer.alloc(0)
  const send = (): void => { socket.write(requests[next++ % requests.length]!) }
  socket.on('connect', send)
  socket.on('data', (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
    for (;;) {
      const end = pending.indexOf('\r\n\r\n')
      if (end < 0) return
      const head = pending.toString('latin1', 0, end)
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0)
      if (pending.length < end + 4 + length) return
      pending = pending.subarray(end + 4 + length)
      if (counting) {
        done++
        if (!head.startsWith('HTTP/1.1 301 ') || !/\r\nlocation: https:\/\/target\d+\.example\.net\/base\/docs\/page-/i.test(head)) bad++
      }
      send()
    }
  })
  socket.on('error', (err) => { throw err })
  sockets.push(socket)
}

for (let i = 0; i < connections; i++) open()
await new Promise(resolve => setTimeout(resolve, warmup * 1000))
counting = true
process.stdout.write('start\n')
const cpu0 = process.cpuUsage()
const t0 = performance.now()
await new Promise(resolve => setTimeout(resolve, seconds * 1000))
counting = false
process.stdout.write('stop\n')
const elapsed = (performance.now() - t0) / 1000
const cpu = process.cpuUsage(cpu0)
for (const s of sockets) s.destroy()
process.stdout.write(JSON.stringify({ requests: done, seconds: elapsed, rps: done / elapsed, bad, cpuSeconds: (cpu.user + cpu.system) / 1e6 }) + '\n')
