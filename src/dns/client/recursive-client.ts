import { Rcode } from '../wire/constants.ts'
import type { Message, WireRecord } from '../wire/message.ts'
import type { WireName } from '../../zone/name.ts'
import { Pacer } from './pacer.ts'
import { query, QueryError, serverLabel, type QueryServer } from './query.ts'

/** A recursive resolver: an IP address and a port. */
export type ResolverAddress = QueryServer

/** RFC 8914 Extended DNS Error option code. */
const EDE_OPTION = 15

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

function extendedErrors (m: Message): ExtendedError[] {
  return (m.edns?.options ?? []).filter(o => o.code === EDE_OPTION && o.data.length >= 2).map(o => ({
    code: (o.data[0]! << 8) | o.data[1]!,
    text: Buffer.from(o.data.subarray(2)).toString('utf8').replace(/[^\x20-\x7e]/g, '?')
  }))
}

/**
 * A small resolver client: asks recursive resolvers (RD set, an OPT record so they can give
 * Extended DNS Errors) one question at a time through {@link query} (which takes an answer only
 * from the resolver asked, with the id and question asked: RFC 5452 §9.1), each resolver paced
 * to `queriesPerSecond` ({@link Pacer}), each attempt to the next resolver in turn. Truncated
 * answers are used as they are (the header's rcode and what fits): the questions asked here
 * (CNAME) have small answers. `close` stops further questions.
 */
export class RecursiveClient {
  private readonly servers: ResolverAddress[]
  private readonly timeoutMs: number
  private readonly attempts: number
  private readonly pacer: Pacer
  private turn = 0
  private closed = false

  constructor (servers: readonly ResolverAddress[], opts: RecursiveClientOptions = {}) {
    if (servers.length === 0) throw new Error('no resolvers')
    this.servers = [...servers]
    this.timeoutMs = opts.timeoutMs ?? 4000
    this.attempts = Math.max(1, opts.attempts ?? 3)
    this.pacer = new Pacer(opts.queriesPerSecond ?? 100)
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
      const label = serverLabel(server)
      await this.pacer.wait(label)
      let m: Message
      try {
        m = await query(server, name, type, { recursionDesired: true, timeoutMs: this.timeoutMs, retries: 0 })
      } catch (err) {
        if (!(err instanceof QueryError)) throw err
        failures.push(err.reason === 'timeout' ? `${label} did not answer within ${this.timeoutMs} ms` : `${label}: ${err.message}`)
        continue
      }
      if (m.rcode === Rcode.REFUSED || m.rcode === Rcode.NOTIMP || m.rcode === Rcode.FORMERR) {
        failures.push(`${label} answered ${rcodeName(m.rcode)}`)
        continue
      }
      return { rcode: m.rcode, answers: m.answers, extendedErrors: extendedErrors(m), server: label }
    }
    throw new ResolverUnavailableError([...new Set(failures)].join('; '))
  }

  async close (): Promise<void> {
    this.closed = true
  }
}

/** The mnemonic of an rcode (RFC 1035 §4.1.1, RFC 6895). */
export function rcodeName (rcode: number): string {
  const found = Object.entries(Rcode).find(([, v]) => v === rcode)
  return found === undefined ? `RCODE${rcode}` : found[0]
}
