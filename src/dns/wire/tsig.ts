import { createHmac, timingSafeEqual } from 'node:crypto'
import { lowerName, nameEquals, parseName, wireNameLength, type WireName } from '../../zone/name.ts'
import { ByteReader, ByteWriter, WireError } from '../../zone/rdata/bytes.ts'
import { CLASS_ANY, Rcode } from './constants.ts'
import { RRType } from '../../zone/rrtype.ts'
import type { Message } from './message.ts'

/** TSIG algorithms (RFC 8945 §6) by our configuration name, with their wire names and hashes. */
export const TSIG_ALGORITHM_NAMES = {
  'hmac-md5': { wire: 'hmac-md5.sig-alg.reg.int.', hash: 'md5' },
  'hmac-sha1': { wire: 'hmac-sha1.', hash: 'sha1' },
  'hmac-sha224': { wire: 'hmac-sha224.', hash: 'sha224' },
  'hmac-sha256': { wire: 'hmac-sha256.', hash: 'sha256' },
  'hmac-sha384': { wire: 'hmac-sha384.', hash: 'sha384' },
  'hmac-sha512': { wire: 'hmac-sha512.', hash: 'sha512' }
} as const

export type TsigAlgorithmName = keyof typeof TSIG_ALGORITHM_NAMES

export interface TsigKey {
  name: WireName
  algorithm: TsigAlgorithmName
  secret: Uint8Array
}

export interface TsigRdata {
  algorithm: WireName
  timeSigned: number
  fudge: number
  mac: Uint8Array
  originalId: number
  error: number
  other: Uint8Array
}

/** The fields of TSIG rdata (RFC 8945 §4.2). @throws WireError */
export function readTsig (rdata: Uint8Array): TsigRdata {
  const r = new ByteReader(rdata)
  const algorithm = r.bytes(wireNameLength(rdata, 0))
  const timeSigned = r.u48()
  const fudge = r.u16()
  const mac = r.bytes(r.u16())
  const originalId = r.u16()
  const error = r.u16()
  const other = r.bytes(r.u16())
  if (r.remaining !== 0) throw new WireError('TSIG rdata has trailing octets')
  return { algorithm, timeSigned, fudge, mac, originalId, error, other }
}

function writeTsig (t: TsigRdata): Uint8Array {
  const w = new ByteWriter(64 + t.mac.length + t.other.length)
  w.bytes(t.algorithm)
  w.u48(t.timeSigned)
  w.u16(t.fudge)
  w.u16(t.mac.length)
  w.bytes(t.mac)
  w.u16(t.originalId)
  w.u16(t.error)
  w.u16(t.other.length)
  w.bytes(t.other)
  return w.finish()
}

function algorithmOf (wire: WireName): TsigAlgorithmName | undefined {
  for (const [name, a] of Object.entries(TSIG_ALGORITHM_NAMES)) if (nameEquals(parseName(a.wire), wire)) return name as TsigAlgorithmName
  return undefined
}

/** RFC 8945 §4.3.3: the TSIG variables, names in canonical (lower-case) form. */
function variables (keyName: WireName, t: TsigRdata, timersOnly: boolean): Uint8Array {
  const w = new ByteWriter(128)
  if (!timersOnly) {
    w.bytes(lowerName(keyName))
    w.u16(CLASS_ANY)
    w.u32(0)
    w.bytes(lowerName(t.algorithm))
  }
  w.u48(t.timeSigned)
  w.u16(t.fudge)
  if (!timersOnly) {
    w.u16(t.error)
    w.u16(t.other.length)
    w.bytes(t.other)
  }
  return w.finish()
}

function hmac (key: TsigKey, parts: Uint8Array[]): Uint8Array {
  const h = createHmac(TSIG_ALGORITHM_NAMES[key.algorithm].hash, key.secret)
  for (const p of parts) h.update(p)
  return new Uint8Array(h.digest())
}

function lengthPrefixed (mac: Uint8Array): Uint8Array {
  const out = new Uint8Array(2 + mac.length)
  out[0] = mac.length >> 8
  out[1] = mac.length & 0xff
  out.set(mac, 2)
  return out
}

export type TsigVerdict =
  | { ok: true, key: TsigKey, tsig: TsigRdata }
  | { ok: false, error: number, keyName: WireName, tsig: TsigRdata | undefined, key: TsigKey | undefined }

/**
 * Check the TSIG of a request (RFC 8945 §5.2): known key with the same algorithm (else BADKEY),
 * MAC over the message without its TSIG and the TSIG variables (else BADSIG), time within the
 * fudge (else BADTIME).
 */
export function verifyRequest (msg: Uint8Array, m: Message, keyFor: (name: WireName) => TsigKey | undefined, now: number): TsigVerdict {
  const record = m.tsig!.record
  let tsig: TsigRdata
  try {
    tsig = readTsig(record.rdata)
  } catch {
    return { ok: false, error: Rcode.FORMERR, keyName: record.name, tsig: undefined, key: undefined }
  }
  const key = keyFor(record.name)
  if (key === undefined || algorithmOf(tsig.algorithm) !== key.algorithm) return { ok: false, error: Rcode.BADKEY, keyName: record.name, tsig, key: undefined }
  const expected = hmac(key, [withoutTsig(msg, m, tsig), variables(record.name, tsig, false)])
  if (!macMatches(tsig.mac, expected)) return { ok: false, error: Rcode.BADSIG, keyName: record.name, tsig, key }
  if (Math.abs(now - tsig.timeSigned) > tsig.fudge) return { ok: false, error: Rcode.BADTIME, keyName: record.name, tsig, key }
  return { ok: true, key, tsig }
}

/** The message as it was before its TSIG was added (RFC 8945 §4.3.1): original ID, ARCOUNT less one, no TSIG. */
function withoutTsig (msg: Uint8Array, m: Message, tsig: TsigRdata): Uint8Array {
  const unsigned = msg.slice(0, m.tsig!.offset)
  unsigned[0] = tsig.originalId >> 8
  unsigned[1] = tsig.originalId & 0xff
  const arcount = ((unsigned[10]! << 8) | unsigned[11]!) - 1
  unsigned[10] = arcount >> 8
  unsigned[11] = arcount & 0xff
  return unsigned
}

/** RFC 8945 §5.2.2.1: a truncated MAC is accepted down to half the length (and 10 octets). */
function macMatches (mac: Uint8Array, expected: Uint8Array): boolean {
  const minimum = Math.max(10, expected.length / 2)
  return mac.length >= minimum && mac.length <= expected.length && timingSafeEqual(mac, expected.subarray(0, mac.length))
}

/** TSIG error codes by name, for messages (RFC 8945 §4.3). */
export function tsigErrorName (error: number): string {
  return ({ [Rcode.BADSIG]: 'BADSIG', [Rcode.BADKEY]: 'BADKEY', [Rcode.BADTIME]: 'BADTIME', [Rcode.BADTRUNC]: 'BADTRUNC' } as Record<number, string>)[error] ?? `error ${error}`
}

/** Up to this many unsigned messages may follow a signed one in a response (RFC 8945 §5.3.1). */
export const MAX_UNSIGNED_RUN = 99

/**
 * Checks the TSIG of every message of a (possibly multi-message) response to a signed request,
 * RFC 8945 §5.3.1 and §5.4: the first message must be signed over the request MAC and the full
 * TSIG variables; later signed messages cover the prior MAC, the unsigned messages since, and
 * the timers only; at most {@link MAX_UNSIGNED_RUN} unsigned messages in a row. The caller
 * checks that the last message was signed ({@link lastSigned}).
 */
export class ResponseVerifier {
  private prior: Uint8Array
  private readonly unsigned: Uint8Array[] = []
  private first = true
  /** Whether the latest message checked carried a valid TSIG. */
  lastSigned = false

  readonly key: TsigKey

  constructor (key: TsigKey, requestMac: Uint8Array) {
    this.key = key
    this.prior = requestMac
  }

  /**
   * Check one message; returns undefined when it is acceptable, else why not (a sentence naming
   * BADSIG, BADKEY or BADTIME when the server reported one, or what failed here).
   */
  verify (msg: Uint8Array, m: Message, now: number): string | undefined {
    if (m.tsig === undefined) {
      this.lastSigned = false
      if (this.first) return 'the response is not signed'
      if (this.unsigned.length >= MAX_UNSIGNED_RUN) return `more than ${MAX_UNSIGNED_RUN} unsigned messages in a row`
      this.unsigned.push(msg)
      return undefined
    }
    const record = m.tsig.record
    let tsig: TsigRdata
    try {
      tsig = readTsig(record.rdata)
    } catch {
      return 'the response carries an unreadable TSIG record'
    }
    // RFC 8945 §5.3.2: the server reports BADKEY or BADSIG in an unsigned TSIG, BADTIME signed.
    if (tsig.error !== 0) return `the primary answered TSIG ${tsigErrorName(tsig.error)}`
    if (!nameEquals(record.name, this.key.name) || algorithmOf(tsig.algorithm) !== this.key.algorithm) return 'the response is signed with another key or algorithm'
    const parts = [lengthPrefixed(this.prior), ...this.unsigned, withoutTsig(msg, m, tsig), variables(record.name, tsig, !this.first)]
    if (!macMatches(tsig.mac, hmac(this.key, parts))) return 'the response signature does not verify (BADSIG)'
    if (Math.abs(now - tsig.timeSigned) > tsig.fudge) return 'the response was signed outside the allowed time window (BADTIME)'
    this.prior = tsig.mac
    this.unsigned.length = 0
    this.first = false
    this.lastSigned = true
    return undefined
  }
}

export interface SignOptions {
  key: TsigKey
  /** The MAC of the request (first message of a response) or of the previous message. */
  priorMac: Uint8Array | undefined
  /** Later messages of a multi-message response sign the timers only (RFC 8945 §5.3.1). */
  timersOnly: boolean
  now: number
  error?: number
  other?: Uint8Array
}

/**
 * Append a TSIG record to a finished message and return the signed message and its MAC
 * (RFC 8945 §5.3): the digest covers the prior MAC, the message and the TSIG variables.
 */
export function signMessage (message: Uint8Array, opts: SignOptions): { message: Uint8Array, mac: Uint8Array } {
  const id = (message[0]! << 8) | message[1]!
  const t: TsigRdata = {
    algorithm: parseName(TSIG_ALGORITHM_NAMES[opts.key.algorithm].wire),
    timeSigned: opts.now,
    fudge: 300,
    mac: new Uint8Array(0),
    originalId: id,
    error: opts.error ?? 0,
    other: opts.other ?? new Uint8Array(0)
  }
  const parts = [message, variables(opts.key.name, t, opts.timersOnly)]
  if (opts.priorMac !== undefined) parts.unshift(lengthPrefixed(opts.priorMac))
  t.mac = hmac(opts.key, parts)
  return { message: appendTsig(message, opts.key.name, t), mac: t.mac }
}

/** An unsigned TSIG error record (BADKEY, BADSIG: RFC 8945 §5.3.2) appended to a response. */
export function appendTsigError (message: Uint8Array, keyName: WireName, tsig: TsigRdata, error: number): Uint8Array {
  return appendTsig(message, keyName, { ...tsig, mac: new Uint8Array(0), originalId: (message[0]! << 8) | message[1]!, error, other: new Uint8Array(0) })
}

/**
 * Complete an error response to a request whose TSIG failed (RFC 8945 §5.2): BADKEY and BADSIG
 * get an unsigned TSIG carrying the error (§5.3.2); BADTIME is signed and carries the server's
 * time as other data (§5.2.3). An unreadable TSIG gets none (the response is a FORMERR).
 */
export function tsigErrorResponse (response: Uint8Array, verdict: Extract<TsigVerdict, { ok: false }>, now: number): Uint8Array {
  if (verdict.tsig === undefined) return response
  if (verdict.error === Rcode.BADTIME && verdict.key !== undefined) {
    const other = new Uint8Array(6)
    new DataView(other.buffer).setUint16(0, Math.floor(now / 2 ** 32))
    new DataView(other.buffer).setUint32(2, now >>> 0)
    return signMessage(response, { key: verdict.key, priorMac: verdict.tsig.mac, timersOnly: false, now, error: Rcode.BADTIME, other }).message
  }
  return appendTsigError(response, verdict.keyName, verdict.tsig, verdict.error)
}

/** Octets a TSIG record signed with `key` adds to a message (RFC 8945 §4.2; no other data). */
export function tsigSize (key: TsigKey): number {
  const algorithm = parseName(TSIG_ALGORITHM_NAMES[key.algorithm].wire)
  const macLength = { md5: 16, sha1: 20, sha224: 28, sha256: 32, sha384: 48, sha512: 64 }[TSIG_ALGORITHM_NAMES[key.algorithm].hash]
  return key.name.length + 10 + algorithm.length + 6 + 2 + 2 + macLength + 2 + 2 + 2
}

function appendTsig (message: Uint8Array, keyName: WireName, t: TsigRdata): Uint8Array {
  const rdata = writeTsig(t)
  const w = new ByteWriter(message.length + keyName.length + 10 + rdata.length)
  w.bytes(message)
  w.bytes(keyName)
  w.u16(RRType.TSIG)
  w.u16(CLASS_ANY)
  w.u32(0)
  w.u16(rdata.length)
  w.bytes(rdata)
  const out = w.finish()
  const arcount = ((out[10]! << 8) | out[11]!) + 1
  out[10] = arcount >> 8
  out[11] = arcount & 0xff
  return out
}
