import { nameEquals } from '../../zone/name.ts'
import type { ZoneIndex } from '../index/zone-index.ts'
import { Rcode } from '../wire/constants.ts'
import type { Message } from '../wire/message.ts'
import { signMessage, tsigErrorResponse, tsigSize, verifyRequest } from '../wire/tsig.ts'
import { MessageWriter } from '../wire/writer.ts'
import { lookup, type LookupState } from './lookup.ts'
import { OUR_UDP_SIZE, respond } from './respond.ts'

/**
 * Answer a query that carries a TSIG (RFC 8945 §5.2, §5.3), such as the SOA query a secondary
 * sends before a transfer: the key must be the key of the zone the question falls in, the MAC
 * and the time must check out; then the usual answer, kept small enough for the TSIG that
 * signs it. Failures are NOTAUTH with the TSIG error (BADKEY, BADSIG unsigned; BADTIME
 * signed), or FORMERR when the TSIG cannot be read.
 *
 * @param bytes the request as received (the MAC covers it).
 * @param maxSize the largest response for the transport, before the TSIG is added.
 * @param now the server's time in seconds since the epoch.
 * @returns the response, and the lookup state when the query was answered.
 */
export function answerSignedQuery (index: ZoneIndex, bytes: Uint8Array, query: Message, maxSize: number, now: number): { response: Uint8Array, state?: LookupState } {
  const q = query.questions[0]!
  const key = index.find(q.name)?.transfer?.key
  const verdict = verifyRequest(bytes, query, n => key !== undefined && nameEquals(n, key.name) ? key : undefined, now)
  if (!verdict.ok) {
    const rcode = verdict.tsig === undefined ? Rcode.FORMERR : Rcode.NOTAUTH
    const w = new MessageWriter(512)
    w.header({ id: query.id, qr: true, opcode: query.opcode, aa: false, tc: false, rd: query.rd, ra: false, ad: false, cd: query.cd, rcode })
    w.question(q)
    if (query.edns !== undefined) w.opt({ udpSize: OUR_UDP_SIZE, extendedRcode: 0, version: 0, dnssecOk: false, options: [] })
    return { response: tsigErrorResponse(w.finish(), verdict, now) }
  }
  const state = lookup(index, q.name, q.type)
  const unsigned = respond(query, state, { maxSize: maxSize - tsigSize(verdict.key) })
  return { response: signMessage(unsigned, { key: verdict.key, priorMac: verdict.tsig.mac, timersOnly: false, now }).message, state }
}
