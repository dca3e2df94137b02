/**
 * Queries carrying a TSIG (RFC 8945 §5.2, §5.3), as a secondary sends its SOA query before a
 * transfer: signed answers with the zone's key, NOTAUTH with the TSIG error otherwise.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ZoneData } from '../../../src/dns/index/zone-data.ts'
import { ZoneIndex } from '../../../src/dns/index/zone-index.ts'
import { handleQuery, type Client } from '../../../src/dns/server/handle-query.ts'
import { Rcode } from '../../../src/dns/wire/constants.ts'
import { RRType } from '../../../src/zone/rrtype.ts'
import { decodeMessage } from '../../../src/dns/wire/message.ts'
import { readTsig, signMessage, type TsigKey } from '../../../src/dns/wire/tsig.ts'
import { MessageWriter } from '../../../src/dns/wire/writer.ts'
import { parseName } from '../../../src/zone/name.ts'
import { parseZoneText } from '../../../src/zonefile/parser.ts'

const UDP: Client = { transport: 'udp', address: '127.0.0.1', port: 5300, family: 'IPv4' }
const KEY: TsigKey = { name: parseName('xfr-key.'), algorithm: 'hmac-sha256', secret: new Uint8Array(Buffer.from('the zone secret')) }
const NOW = 1_700_000_000

function index (): ZoneIndex {
  const origin = parseName('example.org.')
  let text = '$TTL 3600\n@ IN SOA ns1 hostmaster 7 7200 3600 1209600 300\n@ IN NS ns1\nns1 IN A 192.0.2.53\n'
  for (let i = 0; i < 40; i++) text += `many IN A 10.0.0.${i}\n`
  const zone = ZoneData.from(origin, 7, 1, parseZoneText(text, { origin, includes: 'refuse' }).records)
  zone.transfer = { ranges: [], key: KEY }
  const idx = new ZoneIndex()
  idx.set(zone)
  return idx
}

/** A query signed as a client signs it (RFC 8945 §4.3.3: no prior MAC). */
function signedQuery (name: string, type: number, key: TsigKey, now = Math.floor(Date.now() / 1000)): { bytes: Uint8Array, mac: Uint8Array } {
  const w = new MessageWriter(512)
  w.header({ id: 4242, qr: false, opcode: 0, aa: false, tc: false, rd: false, ra: false, ad: false, cd: false, rcode: 0 })
  w.question({ name: parseName(name), type, class: 1 })
  const signed = signMessage(w.finish(), { key, priorMac: undefined, timersOnly: false, now })
  return { bytes: signed.message, mac: signed.mac }
}

/** The response's MAC checked the way the client checks it: over the request MAC and the response without its TSIG. */
function verifyResponse (response: Uint8Array, requestMac: Uint8Array): boolean {
  const m = decodeMessage(response)
  const tsig = readTsig(m.tsig!.record.rdata)
  const unsigned = response.slice(0, m.tsig!.offset)
  const arcount = ((unsigned[10]! << 8) | unsigned[11]!) - 1
  unsigned[10] = arcount >> 8
  unsigned[11] = arcount & 0xff
  const again = signMessage(unsigned, { key: KEY, priorMac: requestMac, timersOnly: false, now: tsig.timeSigned })
  return Buffer.from(again.mac).equals(Buffer.from(tsig.mac))
}

describe('signed queries (RFC 8945)', () => {
  const idx = index()

  it('answers a query signed with the zone\'s key, signed with the same key', () => {
    const q = signedQuery('example.org.', RRType.SOA, KEY)
    const response = handleQuery(q.bytes, UDP, { index: idx })!
    const m = decodeMessage(response)
    assert.equal(m.rcode, Rcode.NOERROR)
    assert.equal(m.aa, true)
    assert.equal(m.answers.length, 1)
    assert.ok(m.tsig !== undefined, 'the answer carries a TSIG')
    assert.equal(readTsig(m.tsig.record.rdata).error, 0)
    assert.ok(verifyResponse(response, q.mac), 'the MAC covers the request MAC and the answer')
    assert.equal(idx.replies.size, 0, 'signed answers are not cached')
  })

  it('keeps a signed answer within 512 octets over UDP without EDNS, TSIG included', () => {
    const q = signedQuery('many.example.org.', RRType.A, KEY)
    const response = handleQuery(q.bytes, UDP, { index: idx })!
    assert.ok(response.length <= 512, `${response.length} octets`)
    const m = decodeMessage(response)
    assert.equal(m.tc, true)
    assert.ok(verifyResponse(response, q.mac))
  })

  const failures: [string, Uint8Array, number][] = [
    ['an unknown key name', signedQuery('example.org.', RRType.SOA, { ...KEY, name: parseName('other-key.') }).bytes, Rcode.BADKEY],
    ['another algorithm', signedQuery('example.org.', RRType.SOA, { ...KEY, algorithm: 'hmac-sha512' }).bytes, Rcode.BADKEY],
    ['a wrong secret', signedQuery('example.org.', RRType.SOA, { ...KEY, secret: new Uint8Array(Buffer.from('wrong')) }).bytes, Rcode.BADSIG],
    ['a time outside the fudge', signedQuery('example.org.', RRType.SOA, KEY, NOW - 3600).bytes, Rcode.BADTIME],
    ['a zone without a key', signedQuery('example.com.', RRType.SOA, KEY).bytes, Rcode.BADKEY]
  ]
  for (const [what, bytes, error] of failures) {
    it(`answers NOTAUTH with TSIG error ${error} to ${what}`, () => {
      const m = decodeMessage(handleQuery(bytes, UDP, { index: idx })!)
      assert.equal(m.rcode, Rcode.NOTAUTH)
      assert.equal(m.aa, false)
      assert.equal(m.answers.length, 0)
      assert.equal(readTsig(m.tsig!.record.rdata).error, error)
    })
  }

  it('answers FORMERR to a TSIG whose rdata cannot be read', () => {
    const q = signedQuery('example.org.', RRType.SOA, KEY).bytes
    const m = decodeMessage(q)
    // Cut the TSIG rdata short: its rdlength and the message shrink by 4.
    const at = m.tsig!.offset + KEY.name.length + 8
    const bad = Uint8Array.from(q.subarray(0, q.length - 4))
    const rdlength = ((bad[at]! << 8) | bad[at + 1]!) - 4
    bad[at] = rdlength >> 8
    bad[at + 1] = rdlength & 0xff
    const r = decodeMessage(handleQuery(bad, UDP, { index: idx })!)
    assert.equal(r.rcode, Rcode.FORMERR)
    assert.equal(r.tsig, undefined)
  })
})
