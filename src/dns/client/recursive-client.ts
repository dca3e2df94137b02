import { createSocket, type Socket } from 'node:dgram'
import { randomInt } from 'node:crypto'
import { isIP } from 'node:net'
import { CLASS_IN, Opcode, Rcode } from '../wire/constants.ts'
import { decodeMessage, type Message, type WireRecord } from '../wire/message.ts'
import { MessageWriter } from '../wire/writer.ts'
import { parseSourceAddress } from '../transfer/client.ts'
import { nameEquals, type WireName } from '../../zone/name.ts'

/** A recursive resolver: an IP address and a port. */
export interface ResolverAddress {
  host: string
  port: number
}

/** RFC 8914 Extended DNS Error option code. */
const EDE_OPTION = 15
/** The UDP payload size offered (RFC 6891; the DNS flag day 2020 value). */
const UDP_SIZE = 1232

/** An Extended DNS Error (RFC 8914 §2): the info code and the resolver's text, if any. */
export interface ExtendedError {
  code: number
  text: string
}

/** What a resolver answered to one question. */
export interface RecursiveAnswer {
  rcode: number
  answers: WireRecord[]
  /** Extended DNS Errors the resolver gave (RFC 8914), such as why it answered SERVFAIL. */
  extendedErrors: ExtendedError[]
  /** The resolver that answered, `host:port`. */
  server: string
}

/** No resolver gave a usable answer (none answered in time, or every one refused the query). */
export class ResolverUnavailableError extends Error {
  override readonly name = 'ResolverUnavailableError'
}

export interface RecursiveClientOptions {
  /** How long one attempt waits for an answer. Default 4000 ms. */
  timeoutMs?: number
  /** Attempts per question, each to the next resolver in turn. Default 3. */
  attempts?: number
  /** Queries per second sent to any one resolver at most. Default 100. */
  queriesPerSecond?: number
}

/**
 * Parse `ZONAL_RESOLVERS` entries: an IPv4 or IPv6 address, optionally with a port (`ip:port`,
 * `[v6]:port`); port 53 when none is given.
 * @throws Error naming the first entry that is not such an address.
 */
export function parseResolvers (entries: readonly string[]): ResolverAddress[] {
  return entries.map((entry) => {
    const address = parseSourceAddress(entry.trim())
    if (address === undefined || isIP(address.host) === 0) throw new Error(`"${entry}" is not an IP address with an optional port`)
    return address
  })
}

/** A question with recursion desired and an OPT record, so resolvers can give Extended DNS Errors. */
function questionMessage (id: number, name: WireName, type: number): Uint8Array {
  const w = new MessageWriter(512)
  w.header({ id, qr: false, opcode: Opcode.QUERY, aa: false, tc: false, rd: true, ra: false, ad: false, cd: false, rcode: 0 })
  w.question({ name, type, class: CLASS_IN })
  w.opt({ udpSize: UDP_SIZE, extendedRcode: 0, version: 0, dnssecOk: false, options: [] })
  return w.finish()
}

function extendedErrors (m: Message): ExtendedError[] {
  return (m.edns?.options ?? []).filter(o => o.code === EDE_OPTION && o.data.length >= 2).map(o => ({
    code: (o.data[0]! << 8) | o.data[1]!,
    text: Buffer.from(o.data.subarray(2)).toString('utf8').replace(/[^\x20-\x7e]/g, '?')
  }))
}

/** Spaces the queries to one resolver at least `1000 / qps` ms apart. */
class Pacer {
  private next = 0
  private readonly interval: number

  constructor (queriesPerSecond: number) {
    this.interval = 1000 / queriesPerSecond
  }

  async turn (): Promise<void> {
    const now = performance.now()
    const at = Math.max(now, this.next)
    this.next = at + this.interval
    if (at > now) await new Promise(resolve => setTimeout(resolve, at - now))
  }
}

interface Pending {
  name: WireName
  type: number
  server: ResolverAddress
  resolve: (m: Message) => void
}

/**
 * A small stub resolver over UDP, on our own wire codec: asks recursive resolvers (RD set) one
 * question at a time, paced per resolver, each attempt to the next resolver in turn. An answer
 * is taken only from the resolver asked, with the id and question asked (RFC 5452 §9.1).
 * Truncated answers are used as they are (the header's rcode and what fits): the questions
 * asked here (CNAME) have small answers. One socket per family for the client's life; `close`
 * ends it.
 */
export class RecursiveClient {
  private readonly servers: ResolverAddress[]
  private readonly timeoutMs: number
  private readonly attempts: number
  private readonly pacers = new Map<string, Pacer>()
  private readonly pending = new Map<number, Pending>()
  private readonly sockets = new Map<4 | 6, Promise<Socket>>()
  private turn = 0
  private closed = false

  constructor (servers: readonly ResolverAddress[], opts: RecursiveClientOptions = {}) {
    if (servers.length === 0) throw new Error('no resolvers')
    this.servers = [...servers]
    this.timeoutMs = opts.timeoutMs ?? 4000
    this.attempts = Math.max(1, opts.attempts ?? 3)
    for (const s of servers) this.pacers.set(key(s), new Pacer(opts.queriesPerSecond ?? 100))
  }

  /**
   * Ask for `name`/`type`. Resolves with the first answer any resolver gives (whatever its
   * rcode, except REFUSED, NOTIMP and FORMERR, which pass the question to the next resolver).
   * @throws ResolverUnavailableError when no attempt got a usable answer.
   */
  async query (name: WireName, type: number): Promise<RecursiveAnswer> {
    const failures: string[] = []
    for (let attempt = 0; attempt < this.attempts; attempt++) {
      if (this.closed) throw new ResolverUnavailableError('the client was closed')
      const server = this.servers[this.turn++ % this.servers.length]!
      await this.pacers.get(key(server))!.turn()
      const m = await this.exchange(server, name, type)
      if (m === undefined) {
        failures.push(`${key(server)} did not answer within ${this.timeoutMs} ms`)
        continue
      }
      if (m.rcode === Rcode.REFUSED || m.rcode === Rcode.NOTIMP || m.rcode === Rcode.FORMERR) {
        failures.push(`${key(server)} answered ${rcodeName(m.rcode)}`)
        continue
      }
      return { rcode: m.rcode, answers: m.answers, extendedErrors: extendedErrors(m), server: key(server) }
    }
    throw new ResolverUnavailableError([...new Set(failures)].join('; '))
  }

  async close (): Promise<void> {
    this.closed = true
    const sockets = await Promise.all([...this.sockets.values()].map(async s => await s.catch(() => undefined)))
    for (const s of sockets) s?.close()
    this.sockets.clear()
  }

  private async socket (family: 4 | 6): Promise<Socket> {
    let s = this.sockets.get(family)
    if (s === undefined) {
      s = new Promise<Socket>((resolve, reject) => {
        const socket = createSocket(family === 6 ? 'udp6' : 'udp4')
        socket.once('error', reject)
        socket.on('message', (msg, rinfo) => this.received(msg, rinfo.address, rinfo.port))
        socket.bind(0, () => {
          socket.off('error', reject)
          socket.on('error', () => {})
          resolve(socket)
        })
      })
      this.sockets.set(family, s)
    }
    return await s
  }

  private received (msg: Buffer, address: string, port: number): void {
    if (msg.length < 12) return
    const p = this.pending.get(msg.readUInt16BE(0))
    if (p === undefined || p.server.port !== port || !sameAddress(p.server.host, address)) return
    let m: Message
    try {
      m = decodeMessage(msg)
    } catch {
      return
    }
    const q = m.questions[0]
    if (!m.qr || m.questions.length !== 1 || q === undefined || q.type !== p.type || !nameEquals(q.name, p.name)) return
    p.resolve(m)
  }

  /** One attempt: the answer, or undefined when none came in time. */
  private async exchange (server: ResolverAddress, name: WireName, type: number): Promise<Message | undefined> {
    const socket = await this.socket(isIP(server.host) === 6 ? 6 : 4)
    let id = randomInt(0, 65536)
    while (this.pending.has(id)) id = randomInt(0, 65536)
    return await new Promise<Message | undefined>((resolve) => {
      const done = (m: Message | undefined): void => {
        clearTimeout(timer)
        this.pending.delete(id)
        resolve(m)
      }
      const timer = setTimeout(() => done(undefined), this.timeoutMs)
      this.pending.set(id, { name, type, server, resolve: done })
      socket.send(questionMessage(id, name, type), server.port, server.host, (err) => { if (err != null) done(undefined) })
    })
  }
}

function key (s: ResolverAddress): string {
  return isIP(s.host) === 6 ? `[${s.host}]:${s.port}` : `${s.host}:${s.port}`
}

function sameAddress (a: string, b: string): boolean {
  return a === b || a.replace(/^::ffff:/, '') === b.replace(/^::ffff:/, '')
}

/** The mnemonic of an rcode (RFC 1035 §4.1.1, RFC 6895). */
export function rcodeName (rcode: number): string {
  const found = Object.entries(Rcode).find(([, v]) => v === rcode)
  return found === undefined ? `RCODE${rcode}` : found[0]
}
