import { randomInt } from 'node:crypto'
import { connect, isIPv6 } from 'node:net'
import { nameToString, type WireName } from '../../zone/name.ts'
import { CLASS_IN } from '../wire/constants.ts'
import { RRType } from '../../zone/rrtype.ts'
import { decodeMessage } from '../wire/message.ts'
import { ResponseVerifier, signMessage, type TsigKey } from '../wire/tsig.ts'
import { MessageWriter, Section } from '../wire/writer.ts'
import { TransferError, TransferReader, type TransferResult } from './transfer-reader.ts'

export { TransferError, type TransferFailure, type TransferResult } from './transfer-reader.ts'

/** One primary to transfer from; `key` signs the request and must sign the response. */
export interface TransferSource {
  host: string
  port: number
  key?: TsigKey
}

export interface TransferOptions {
  /** IXFR from this serial (the copy we hold); AXFR when absent. */
  serial?: number
  /** The whole transfer's deadline (default 30 s); the connection may also idle this long at most. */
  timeoutMs?: number
  /** No octet from the primary for this long fails the transfer (default 10 s, at most `timeoutMs`). */
  idleMs?: number
  signal?: AbortSignal
  /** Seconds since the epoch, for TSIG (default the clock). */
  now?: () => number
  /** Records accepted at most (default 10,000,000): a guard for memory. */
  maxRecords?: number
}

const DEFAULT_TIMEOUT_MS = 30_000
const DEFAULT_IDLE_MS = 10_000
const DEFAULT_MAX_RECORDS = 10_000_000

/** `host:port` as people write it (`[::1]:53` for IPv6). */
export function sourceLabel (source: Pick<TransferSource, 'host' | 'port'>): string {
  return isIPv6(source.host) ? `[${source.host}]:${source.port}` : `${source.host}:${source.port}`
}

/**
 * A primary's address as the zone's `primaryNameServers` hold it: an address alone (port 53),
 * or with a port, `127.0.0.1:15353` or `[::1]:15353`. Undefined when it is neither.
 */
export function parseSourceAddress (text: string): { host: string, port: number } | undefined {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(text)
  const withPort = /^([^:]+):(\d{1,5})$/.exec(text)
  const [host, port] = bracketed !== null ? [bracketed[1]!, bracketed[2]] : withPort !== null ? [withPort[1]!, withPort[2]] : [text, undefined]
  const n = port === undefined ? 53 : Number(port)
  if (n < 1 || n > 65535 || host === '') return undefined
  return { host, port: n }
}

/** SOA rdata carrying only a serial (RFC 1995 §3: the client's version in the authority section). */
function serialSoa (serial: number): Uint8Array {
  const rdata = new Uint8Array(2 + 20)
  new DataView(rdata.buffer).setUint32(2, serial)
  return rdata
}

function buildRequest (zone: WireName, id: number, serial: number | undefined): Uint8Array {
  const w = new MessageWriter(512)
  w.header({ id, qr: false, opcode: 0, aa: false, tc: false, rd: false, ra: false, ad: false, cd: false, rcode: 0 })
  w.question({ name: zone, type: serial === undefined ? RRType.AXFR : RRType.IXFR, class: CLASS_IN })
  if (serial !== undefined) w.record(Section.Authority, { name: zone, type: RRType.SOA, class: CLASS_IN, ttl: 0, rdata: serialSoa(serial) })
  return w.finish()
}

function frame (message: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(2 + message.length)
  out.writeUInt16BE(message.length, 0)
  out.set(message, 2)
  return out
}

/**
 * Transfer a zone from one primary over one TCP connection (RFC 7766 framing): AXFR (RFC 5936),
 * or IXFR (RFC 1995) from `opts.serial`, which the primary may answer with differences, with
 * the whole zone, or with its SOA alone. With a key the request is signed and every response
 * checked (RFC 8945 §5.3.1: first and last message signed, at most 99 unsigned in between).
 * Nothing is applied here: the caller switches its served copy only on success.
 *
 * @returns the zone, its differences, or "up to date"
 * @throws TransferError 'connection refused', 'timeout', 'network', 'tsig', 'refused',
 *   'notauth', 'rcode', 'bad data' or 'too large' (more than `maxRecords`), its message a sentence naming the source and the reason;
 *   when `opts.signal` aborts, the signal's reason.
 */
export async function transferIn (zone: WireName, source: TransferSource, opts: TransferOptions = {}): Promise<TransferResult> {
  opts.signal?.throwIfAborted()
  const where = sourceLabel(source)
  const zoneText = nameToString(zone)
  const now = opts.now ?? (() => Math.floor(Date.now() / 1000))
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const idleMs = Math.min(opts.idleMs ?? DEFAULT_IDLE_MS, timeoutMs)
  const id = randomInt(0, 65536)
  let request = buildRequest(zone, id, opts.serial)
  let verifier: ResponseVerifier | undefined
  if (source.key !== undefined) {
    const signed = signMessage(request, { key: source.key, priorMac: undefined, timersOnly: false, now: now() })
    request = signed.message
    verifier = new ResponseVerifier(source.key, signed.mac)
  }
  const reader = new TransferReader(zone, id, opts.serial, opts.maxRecords ?? DEFAULT_MAX_RECORDS)
  const kind = opts.serial === undefined ? 'AXFR' : 'IXFR'

  return await new Promise<TransferResult>((resolve, reject) => {
    const socket = connect({ host: source.host, port: source.port })
    let buffered: Buffer = Buffer.alloc(0)
    let messages = 0
    let settled = false
    const finish = (err: unknown, result?: TransferResult): void => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      opts.signal?.removeEventListener('abort', onAbort)
      socket.destroy()
      if (err === undefined) resolve(result!)
      else reject(err)
    }
    const fail = (reason: TransferError['reason'], what: string): void => finish(new TransferError(reason, `${kind} of ${zoneText} from ${where} failed: ${what}`))
    const deadline = setTimeout(() => fail('timeout', `not complete within ${timeoutMs} ms`), timeoutMs)
    const onAbort = (): void => finish(opts.signal!.reason)
    opts.signal?.addEventListener('abort', onAbort, { once: true })

    socket.setNoDelay(true)
    socket.setTimeout(idleMs, () => fail('timeout', `no data from the primary for ${idleMs} ms`))
    socket.on('connect', () => socket.write(frame(request)))
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED') fail('connection refused', 'connection refused')
      else if (err.code === 'ETIMEDOUT') fail('timeout', 'the connection timed out')
      else fail('network', `network error (${err.code ?? err.message})`)
    })
    socket.on('close', () => {
      if (messages === 0) fail('network', 'the primary closed the connection without answering')
      else fail('bad data', `transfer ended after ${reader.received} records without the closing SOA`)
    })
    socket.on('data', (chunk: Buffer) => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk])
      if (settled) return
      while (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
        const length = buffered.readUInt16BE(0)
        const bytes = new Uint8Array(buffered.subarray(2, 2 + length))
        buffered = buffered.subarray(2 + length)
        messages++
        try {
          take(bytes)
        } catch (err) {
          if (err instanceof TransferError) fail(err.reason, err.message)
          else fail('bad data', `malformed message (${(err as Error).message})`)
          return
        }
        if (reader.done) {
          if (verifier !== undefined && !verifier.lastSigned) fail('tsig', 'the last message of the response is not signed')
          else finish(undefined, reader.result())
          return
        }
      }
    })

    /** One framed message: decoded, its TSIG checked, its records read. */
    function take (bytes: Uint8Array): void {
      const m = decodeMessage(bytes)
      // An unsigned error answer (REFUSED to a signed request, as some servers send) is reported
      // by its rcode: no data is taken from it, and the rcode is the real reason.
      const unsignedError = m.tsig === undefined && m.rcode !== 0 && m.answers.length === 0
      if (verifier !== undefined && !unsignedError) {
        const problem = verifier.verify(bytes, m, now())
        if (problem !== undefined) throw new TransferError('tsig', `TSIG failure, ${problem}`)
      }
      reader.feed(m)
    }
  })
}

/**
 * Try each primary in order (the zone's `nameServerIp1`, 2, 3) and return the first success.
 * @throws TransferError with the last failure's reason and every source's failure in the message;
 *   an abort (`opts.signal`) at once.
 */
export async function transferFromAny (zone: WireName, sources: TransferSource[], opts: TransferOptions = {}): Promise<TransferResult> {
  const failures: string[] = []
  let last: TransferError | undefined
  for (const source of sources) {
    try {
      return await transferIn(zone, source, opts)
    } catch (err) {
      if (!(err instanceof TransferError)) throw err
      last = err
      failures.push(err.message)
    }
  }
  if (last === undefined) throw new TransferError('network', `no primary name server to transfer ${nameToString(zone)} from`)
  throw new TransferError(last.reason, failures.join('; '))
}
