// AXFR client of the DNS benchmark: `axfr-client.ts <port> <origin>` asks 127.0.0.1:<port>
// for the zone over TCP and prints {"records":…,"messages":…,"bytes":…,"ms":…,"cpuMs":…}.
//
// The query is built with Zonal's message writer. The answers are only skimmed, not decoded:
// each record's owner name is stepped over and its rdata skipped by RDLENGTH, so the client
// spends far less CPU than the server (`cpuMs` against `ms` shows it). The transfer is checked:
// every message NOERROR with the query's id, the first record and the last one the zone's SOA
// (RFC 5936 §2.2), nothing after the closing SOA.
import { connect } from 'node:net'
import { RRType } from '../../src/zone/rrtype.ts'
import { readName } from '../../src/dns/wire/read-name.ts'
import { MessageWriter } from '../../src/dns/wire/writer.ts'
import { nameEquals, parseName } from '../../src/zone/name.ts'

export interface AxfrResult {
  records: number
  messages: number
  bytes: number
  /** From sending the request to the last message. */
  ms: number
  /** The client's own CPU time over the same span. */
  cpuMs: number
}

/** Step over a (possibly compressed) name; returns the offset after it. */
function skipName (msg: Uint8Array, pos: number): number {
  for (;;) {
    const b = msg[pos]!
    if (b === 0) return pos + 1
    if ((b & 0xc0) === 0xc0) return pos + 2
    pos += b + 1
  }
}

async function axfr (port: number, origin: string): Promise<AxfrResult> {
  const zone = parseName(origin)
  const id = 0x4242
  const w = new MessageWriter(512)
  w.header({ id, qr: false, opcode: 0, aa: false, tc: false, rd: false, ra: false, ad: false, cd: false, rcode: 0 })
  w.question({ name: zone, type: RRType.AXFR, class: 1 })
  const query = w.finish()
  const frame = Buffer.alloc(2 + query.length)
  frame.writeUInt16BE(query.length, 0)
  frame.set(query, 2)

  const socket = connect(port, '127.0.0.1')
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject))
  socket.setNoDelay(true)
  let records = 0
  let messages = 0
  let bytes = 0
  let soas = 0
  let pending: Buffer = Buffer.alloc(0)
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()

  /** One message; returns true when it closes the transfer. */
  const message = (msg: Buffer): boolean => {
    messages++
    if (msg.length < 12 || msg.readUInt16BE(0) !== id || (msg[2]! & 0x80) === 0) throw new Error(`message ${messages}: not an answer to the query`)
    const rcode = msg[3]! & 0x0f
    if (rcode !== 0) throw new Error(`message ${messages}: rcode ${rcode}`)
    const qd = msg.readUInt16BE(4)
    const an = msg.readUInt16BE(6)
    let pos = 12
    for (let i = 0; i < qd; i++) pos = skipName(msg, pos) + 4
    for (let i = 0; i < an; i++) {
      if (soas === 2) throw new Error('records after the closing SOA')
      const owner = pos
      pos = skipName(msg, pos)
      const type = msg.readUInt16BE(pos)
      if (records === 0 && type !== RRType.SOA) throw new Error('the transfer does not start with the SOA')
      if (type === RRType.SOA) {
        if (!nameEquals(readName(msg, owner).name, zone)) throw new Error('an SOA of another zone')
        soas++
      }
      pos += 8
      pos += 2 + msg.readUInt16BE(pos)
      records++
    }
    if (pos > msg.length) throw new Error(`message ${messages}: records run past its end`)
    return soas === 2
  }

  return await new Promise<AxfrResult>((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
      try {
        let off = 0
        while (pending.length - off >= 2) {
          const len = pending.readUInt16BE(off)
          if (pending.length - off < 2 + len) break
          const done = message(pending.subarray(off + 2, off + 2 + len))
          off += 2 + len
          if (done) {
            const ms = performance.now() - t0
            const cpu = process.cpuUsage(cpu0)
            socket.destroy()
            resolve({ records, messages, bytes, ms, cpuMs: (cpu.user + cpu.system) / 1000 })
            return
          }
        }
        pending = pending.subarray(off)
      } catch (err) {
        socket.destroy()
        reject(err)
      }
    })
    socket.on('error', reject)
    socket.on('close', () => reject(new Error(`connection closed after ${records} records, before the closing SOA`)))
    socket.write(frame)
  })
}

const [port, origin] = process.argv.slice(2)
process.stdout.write(JSON.stringify(await axfr(Number(port), origin!)) + '\n')
