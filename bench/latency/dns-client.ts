// Child process of the latency benchmark: queries a DNS server over UDP at a steady rate and
// measures each answer's latency.
//
//   dns-client.ts <port> <origin> <names> <qps> <timeout ms>
//
// Prints {"sending":true} when it starts, then sends `A` queries for h0..h<names-1>.<origin> on
// 127.0.0.1:<port>, <qps> a second, on one socket, until a line arrives on stdin (or stdin closes); then waits up to <timeout
// ms> for the answers still out and prints one JSON line: queries sent, answered, lost (no answer
// within the timeout), errors (answers whose rcode is not NOERROR), latency p50/p99/max in ms,
// and the longest time without any answer while queries were out.
import { createSocket } from 'node:dgram'
import { createInterface } from 'node:readline'

const [portArg, origin, namesArg, qpsArg, timeoutArg] = process.argv.slice(2)
const port = Number(portArg)
const names = Number(namesArg)
const qps = Number(qpsArg)
const timeoutMs = Number(timeoutArg)
if (!(port > 0) || origin === undefined || !(names > 0) || !(qps > 0) || !(timeoutMs > 0)) {
  process.stderr.write('usage: dns-client.ts <port> <origin> <names> <qps> <timeout ms>\n')
  process.exit(2)
}

/** A query message (RD off) for `name` A IN with id `id`. */
function query (id: number, name: string): Buffer {
  const labels = name.split('.').filter(l => l !== '')
  const buf = Buffer.alloc(12 + labels.reduce((n, l) => n + l.length + 1, 0) + 1 + 4)
  buf.writeUInt16BE(id, 0)
  buf.writeUInt16BE(1, 4) // QDCOUNT
  let o = 12
  for (const l of labels) {
    buf[o++] = l.length
    o += buf.write(l, o, 'ascii')
  }
  buf[o++] = 0
  buf.writeUInt16BE(1, o) // A
  buf.writeUInt16BE(1, o + 2) // IN
  return buf
}

const socket = createSocket('udp4')
const out = new Map<number, number>() // id -> performance.now() when sent
const latencies: number[] = []
let sent = 0
let lost = 0
let errors = 0
let lastAnswer = 0
let longestGap = 0

socket.on('message', (msg) => {
  if (msg.length < 12 || (msg[2]! & 0x80) === 0) return
  const id = msg.readUInt16BE(0)
  const at = out.get(id)
  if (at === undefined) return // late (counted lost) or not ours
  out.delete(id)
  const now = performance.now()
  latencies.push(now - at)
  if ((msg[3]! & 0x0f) !== 0) errors++
  // A gap counts only while something was waiting for an answer.
  if (lastAnswer > 0) longestGap = Math.max(longestGap, now - Math.max(lastAnswer, at))
  lastAnswer = now
})
await new Promise<void>(resolve => socket.bind(0, '127.0.0.1', resolve))

const started = performance.now()
let nextId = 0
function sendDue (): void {
  const due = Math.floor((performance.now() - started) * qps / 1000)
  while (sent < due) {
    const id = nextId
    nextId = (nextId + 1) & 0xffff
    if (out.has(id)) { // a query 65,536 ago never answered: lost
      out.delete(id)
      lost++
    }
    out.set(id, performance.now())
    socket.send(query(id, `h${sent % names}.${origin}`), port, '127.0.0.1')
    sent++
  }
}
const timer = setInterval(sendDue, 1)
process.stdout.write('{"sending":true}\n')

const stdin = createInterface({ input: process.stdin })
await new Promise<void>(resolve => {
  stdin.once('line', () => resolve())
  stdin.once('close', () => resolve())
})
clearInterval(timer)
sendDue()
const deadline = performance.now() + timeoutMs
while (out.size > 0 && performance.now() < deadline) await new Promise(resolve => setTimeout(resolve, 10))
// Whatever is still out has been waiting at least the timeout.
lost += out.size
socket.close()
stdin.close()

const sorted = latencies.sort((a, b) => a - b)
const pct = (p: number): number => sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!
const round = (n: number): number => Math.round(n * 1000) / 1000
process.stdout.write(JSON.stringify({
  seconds: round((performance.now() - started) / 1000),
  sent,
  answered: sorted.length,
  lost,
  errors,
  p50: round(pct(0.5)),
  p99: round(pct(0.99)),
  max: round(sorted.at(-1) ?? NaN),
  longestGap: round(longestGap)
}) + '\n')
