import { WireError } from '../../zone/rdata/bytes.ts'
import { wireKey } from '../../zone/name.ts'
import type { ZoneIndex } from '../index/zone-index.ts'
import { lookup } from '../answer/lookup.ts'
import { notifyRcode, notifyResponse, notifyState } from '../answer/notify.ts'
import type { ZoneData } from '../index/zone-data.ts'
import { respond, OUR_UDP_SIZE } from '../answer/respond.ts'
import type { Asker } from '../answer/pools.ts'
import { answerSignedQuery } from '../answer/signed-query.ts'
import { CLASS_ANY, CLASS_IN, MAX_UDP_NO_EDNS, Opcode, Rcode } from '../wire/constants.ts'
import { RRType } from '../../zone/rrtype.ts'
import { decodeMessage, type Message } from '../wire/message.ts'
import { MessageWriter, releaseScratch, type CaseCheck } from '../wire/writer.ts'
import type { CachedReply } from '../index/reply-cache.ts'
import { findEcs, requestFlags, responseFlags, EDNS_CLIENT_SUBNET, type EcsOption, type QueryCapture } from './query-capture.ts'

export type Transport = 'udp' | 'tcp'

/** Who asked, over what: what the listeners know of each request. */
export interface Client {
  transport: Transport
  address: string
  port: number
  family: 'IPv4' | 'IPv6'
}

/** EDNS of the last request {@link questionKey} read: 0 none, 1 EDNS, 2 EDNS with DO. */
let lastEdns = 0
/** The question type of the last request {@link questionKey} read. */
let lastType = 0
/** Where the question name of the last request {@link questionKey} read ends (after its root octet). */
let lastNameEnd = 0
/** The EDNS state and reply size of the last request {@link questionKey} read, as its key ends. */
let lastTail = ''
/** Where the OPT rdata (its options) of the last request {@link questionKey} read starts, and its length (0: none). */
let lastOptAt = 0
let lastOptLength = 0
/** The Client Subnet option of the request being answered, for the capture (reused). */
const ECS: EcsOption = { bytes: new Uint8Array(0), at: 0, length: 0 }
/** The lower-cased question of a request spelled with upper case. */
const LOWERED = Buffer.alloc(260)

/**
 * The question's octets as sent of the usual query (one question with an uncompressed name, no
 * answer or authority records, at most an OPT record without options that matter): name as
 * spelled, type and class, then the EDNS state and the largest reply the client takes.
 * Options (a Client Subnet, cookies) do not change a cached answer: only directional pools
 * answer by the Client Subnet, and their answers are never cached.
 * Undefined for any other request, which is never answered from the cache. For a name without
 * upper-case letters this is its reply-cache key (see {@link loweredKey}).
 */
function questionKey (request: Uint8Array, transport: Transport): string | undefined {
  // Header: opcode QUERY, QDCOUNT 1, ANCOUNT 0, NSCOUNT 0, ARCOUNT 0 or 1.
  if ((request[2]! & 0x78) !== 0 || request[4] !== 0 || request[5] !== 1 || request[6] !== 0 || request[7] !== 0 || request[8] !== 0 || request[9] !== 0 || request[10] !== 0 || request[11]! > 1) return undefined
  let p = 12
  for (;;) {
    const len = request[p]
    if (len === undefined || len > 63) return undefined
    p += len + 1
    if (len === 0) break
  }
  const nameEnd = p
  const questionEnd = p + 4
  if (questionEnd > request.length || p - 12 > 255) return undefined
  p = questionEnd
  let edns = 0
  let udpSize = MAX_UDP_NO_EDNS
  lastOptLength = 0
  if (request[11] === 1) {
    // OPT: root owner, type 41, class = UDP size, TTL = ext-rcode/version/flags.
    if (p + 11 > request.length || request[p] !== 0 || request[p + 1] !== 0 || request[p + 2] !== RRType.OPT) return undefined
    udpSize = Math.max(MAX_UDP_NO_EDNS, (request[p + 3]! << 8) | request[p + 4]!)
    if (request[p + 6] !== 0) return undefined
    edns = (request[p + 7]! & 0x80) !== 0 ? 2 : 1
    const rdlength = (request[p + 9]! << 8) | request[p + 10]!
    lastOptAt = p + 11
    lastOptLength = rdlength
    p += 11 + rdlength
  }
  if (p !== request.length) return undefined
  lastEdns = edns
  lastType = (request[questionEnd - 4]! << 8) | request[questionEnd - 3]!
  lastNameEnd = nameEnd
  const maxSize = transport === 'tcp' ? 65535 : Math.min(udpSize, OUR_UDP_SIZE * 4)
  lastTail = String.fromCharCode(edns, maxSize)
  const bytes = Buffer.isBuffer(request) ? request : Buffer.from(request.buffer, request.byteOffset, request.byteLength)
  return bytes.toString('latin1', 12, questionEnd) + lastTail
}

/**
 * The reply-cache key of a request {@link questionKey} just read whose name has upper-case
 * letters: the same with the name's ASCII letters lower-cased (RFC 4343; the "0x20" spellings
 * of one name share it). Undefined when the name has none (its key is the question's octets).
 * Cached keys never hold an upper-case name, so a key found as sent needs no scan.
 */
function loweredKey (request: Uint8Array, nameEnd: number): string | undefined {
  let i = 12
  for (; i < nameEnd; i++) {
    const b = request[i]!
    if (b >= 0x41 && b <= 0x5a) break
  }
  if (i === nameEnd) return undefined
  const questionEnd = nameEnd + 4
  for (let j = 12; j < questionEnd; j++) {
    const b = request[j]!
    LOWERED[j - 12] = j < nameEnd && b >= 0x41 && b <= 0x5a ? b | 0x20 : b
  }
  return LOWERED.toString('latin1', 0, questionEnd - 12) + lastTail
}

/**
 * A cached reply made for this request: its id, its RD and CD bits, and the question name as
 * spelled (another spelling than the reply was made for). A pooled Buffer: allocating a typed
 * array of its own costs several times more.
 */
function personalise (cached: CachedReply, request: Uint8Array, nameEnd: number, upper: boolean): Uint8Array {
  const out = Buffer.allocUnsafe(cached.bytes.length)
  out.set(cached.bytes)
  out[0] = request[0]!
  out[1] = request[1]!
  out[2] = (out[2]! & 0xfe) | (request[2]! & 0x01)
  out[3] = (out[3]! & 0xef) | (request[3]! & 0x10)
  if (upper || !cached.lower) for (let i = 12; i < nameEnd; i++) out[i] = request[i]!
  return out
}

export interface QueryHandlerOptions {
  index: ZoneIndex
  /** Told of every query answered, on both paths (the analytics capture). */
  capture?: QueryCapture
  /**
   * Told of every NOTIFY accepted for a secondary zone from one of its primaries (RFC 1996),
   * with the serial of the SOA the primary sent, if any. Called on the answer path: schedule
   * the refresh, do not do it here.
   */
  onNotify?: (zone: ZoneData, client: Client, serial: number | undefined) => void
}

/** The Client Subnet option of a decoded request, in {@link ECS}; undefined when it has none. */
export function ecsOf (query: Message): EcsOption | undefined {
  const options = query.edns?.options
  if (options === undefined) return undefined
  for (const o of options) {
    if (o.code !== EDNS_CLIENT_SUBNET) continue
    ECS.bytes = o.data
    ECS.at = 0
    ECS.length = o.data.length
    return ECS
  }
  return undefined
}

/** A header-only error response (the question is echoed when it could be read). */
function errorResponse (request: Uint8Array, rcode: number, query?: Message): Uint8Array {
  const w = new MessageWriter(512)
  const id = request.length >= 2 ? (request[0]! << 8) | request[1]! : 0
  const opcode = request.length >= 3 ? (request[2]! >> 3) & 0xf : 0
  const rd = request.length >= 3 && (request[2]! & 1) === 1
  w.header({ id, qr: true, opcode, aa: false, tc: false, rd, ra: false, ad: false, cd: false, rcode: rcode & 0xf })
  if (query?.questions.length === 1) w.question(query.questions[0]!)
  if (query?.edns !== undefined) w.opt({ udpSize: OUR_UDP_SIZE, extendedRcode: rcode >> 4, version: 0, dnssecOk: false, options: [] })
  return w.finish()
}

/**
 * One DNS request in, one response out (bytes to bytes; no sockets here). Malformed requests
 * answer FORMERR (never an exception), unknown opcodes NOTIMP, other classes REFUSED, EDNS
 * versions above 0 BADVERS (RFC 6891 §6.1.3). NOTIFY (RFC 1996) is answered as `notifyState`
 * decides, and `onNotify` hears of the accepted ones. Every response is reported to the
 * capture, if there is one. Returns undefined when nothing must be sent (the request is
 * itself a response, or too short to answer).
 *
 * @param received `performance.now()` when the request was received (a batch of datagrams
 *   takes one reading for all): the capture's response time counts from it
 */
export function handleQuery (request: Uint8Array, client: Client, opts: QueryHandlerOptions, received = performance.now()): Uint8Array | undefined {
  if (request.length < 12) return undefined
  if ((request[2]! & 0x80) !== 0) return undefined
  releaseScratch()
  // The fast path: the reply made for the same question before, without decoding the request.
  let key = questionKey(request, client.transport)
  const nameEnd = lastNameEnd
  let upper = false
  if (key !== undefined) {
    const replies = opts.index.replies
    let entry = replies.entry(key)
    if (entry === undefined) {
      const lowered = loweredKey(request, nameEnd)
      if (lowered !== undefined) {
        key = lowered
        upper = true
        entry = replies.entry(key)
      }
    }
    const hit = replies.reply(entry, request, nameEnd, upper)
    if (hit !== undefined) {
      const response = personalise(hit, request, nameEnd, upper)
      const capture = opts.capture
      if (capture !== undefined) {
        const ecs = lastOptLength > 0 && findEcs(request, lastOptAt, lastOptAt + lastOptLength, ECS) ? ECS : undefined
        capture.query(client, hit.entry.shelf.zone!.originKey, hit.entry.nameKey, lastType, Opcode.QUERY, response[3]! & 0xf, request, response, response.length,
          requestFlags(request[2]!, request[3]!, lastEdns !== 0, lastEdns === 2) | responseFlags(response), received, ecs)
      }
      return response
    }
  }
  let query: Message
  try {
    query = decodeMessage(request)
  } catch (err) {
    if (!(err instanceof WireError)) throw err
    const response = errorResponse(request, Rcode.FORMERR)
    opts.capture?.query(client, undefined, undefined, 0, (request[2]! >> 3) & 0xf, Rcode.FORMERR, request, response, response.length, requestFlags(request[2]!, request[3]!, false, false), received, undefined)
    return response
  }
  const q = query.questions[0]
  const nameKey = q === undefined ? '' : wireKey(q.name)
  const emit = (rcode: number, response: Uint8Array, zone?: ZoneData): Uint8Array => {
    opts.capture?.query(client, zone?.originKey, q === undefined ? undefined : nameKey, q?.type ?? 0, query.opcode, rcode, request, response, response.length,
      requestFlags(request[2]!, request[3]!, query.edns !== undefined, query.edns?.dnssecOk === true) | responseFlags(response), received, ecsOf(query))
    return response
  }
  if (query.opcode === Opcode.NOTIFY) {
    if (query.edns !== undefined && query.edns.version > 0) return emit(Rcode.BADVERS, notifyResponse(query, Rcode.BADVERS))
    const state = notifyState(query, client.address, opts.index)
    if (state.kind === 'accepted') opts.onNotify?.(state.zone, client, state.serial)
    const rcode = notifyRcode(state)
    return emit(rcode, notifyResponse(query, rcode), 'zone' in state ? state.zone : undefined)
  }
  if (query.opcode !== Opcode.QUERY) return emit(Rcode.NOTIMP, errorResponse(request, Rcode.NOTIMP, query))
  if (query.questions.length !== 1 || q === undefined) return emit(Rcode.FORMERR, errorResponse(request, Rcode.FORMERR, query))
  if (query.edns !== undefined && query.edns.version > 0) return emit(Rcode.BADVERS, errorResponse(request, Rcode.BADVERS, query))
  if (q.class !== CLASS_IN && q.class !== CLASS_ANY) return emit(Rcode.REFUSED, errorResponse(request, Rcode.REFUSED, query))
  // Zone transfers are answered by the transfer handler, over TCP, to allowed peers only.
  if (q.type === RRType.AXFR || q.type === RRType.IXFR || q.type === RRType.OPT) return emit(Rcode.REFUSED, errorResponse(request, Rcode.REFUSED, query))
  const maxSize = client.transport === 'tcp' ? 65535 : Math.max(MAX_UDP_NO_EDNS, Math.min(query.edns?.udpSize ?? MAX_UDP_NO_EDNS, OUR_UDP_SIZE * 4))
  // RFC 8945 §5.3: a signed query gets a signed answer (or a TSIG error), never a cached reply.
  if (query.tsig !== undefined) {
    const signed = answerSignedQuery(opts.index, request, query, maxSize, Math.floor(Date.now() / 1000))
    return emit(signed.response[3]! & 0xf, signed.response, signed.state !== undefined && 'zone' in signed.state ? signed.state.zone : undefined)
  }
  const asker: Asker = { address: client.address, ecs: ecsOf(query)?.bytes }
  const state = lookup(opts.index, q.name, q.type, asker)
  const caseChecks: CaseCheck[] | undefined = key === undefined ? undefined : []
  const response = respond(query, state, caseChecks === undefined ? { maxSize, asker } : { maxSize, caseChecks, asker })
  // Kept for the next same question in any spelling; pool answers that change from answer to
  // answer or from client to client (RD RANDOM and ROUND_ROBIN, traffic pools that rotate or
  // draw, directional pools), failures and truncated answers are not. A DNAME's synthesized
  // CNAME carries the question's spelling in its target: such a reply serves that spelling only.
  const zone = 'zone' in state ? state.zone : undefined
  if (key !== undefined && zone !== undefined && state.kind !== 'servfail' && !('varies' in state && state.varies === true) && (response[2]! & 0x02) === 0) {
    const synthesized = 'answer' in state && state.answer.some(r => r.type === RRType.DNAME)
    opts.index.replies.put(key, zone, nameKey, response, request, nameEnd, upper, synthesized ? undefined : caseChecks)
  }
  return emit(response[3]! & 0xf, response, 'zone' in state ? state.zone : zone)
}
