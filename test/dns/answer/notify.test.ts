/**
 * NOTIFY in (RFC 1996) as a table, over UDP and TCP alike: a secondary zone accepts it from its
 * primaries' addresses only; the rcodes of the other cases are those BIND 9.18 answers (checked
 * against `named`: REFUSED from a non-primary, NOERROR for its primary zones, NOTAUTH for a
 * name that is no zone apex of its, FORMERR without exactly one SOA question).
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sameAddress } from '../../../src/dns/answer/notify.ts'
import { ZoneData } from '../../../src/dns/index/zone-data.ts'
import { ZoneIndex } from '../../../src/dns/index/zone-index.ts'
import { handleQuery, type Client } from '../../../src/dns/server/handle-query.ts'
import { Opcode } from '../../../src/dns/wire/constants.ts'
import { RRType } from '../../../src/zone/rrtype.ts'
import { decodeMessage } from '../../../src/dns/wire/message.ts'
import { MessageWriter, Section } from '../../../src/dns/wire/writer.ts'
import { nameToString, parseName } from '../../../src/zone/name.ts'
import { parseZoneText } from '../../../src/zonefile/parser.ts'

const PRIMARY_V4 = '192.0.2.1'
const PRIMARY_V6 = '2001:db8::53'

function zone (origin: string, serial: number): ZoneData {
  const o = parseName(origin)
  const text = `$TTL 3600\n@ IN SOA ns1 hostmaster ${serial} 7200 3600 1209600 300\n@ IN NS ns1\nns1 IN A 192.0.2.53\n`
  return ZoneData.from(o, serial, 1, parseZoneText(text, { origin: o, includes: 'refuse' }).records)
}

function index (): ZoneIndex {
  const idx = new ZoneIndex()
  idx.set(zone('example.org.', 10))
  const secondary = zone('example.net.', 20)
  secondary.primaries = [{ host: PRIMARY_V4, port: 53 }, { host: PRIMARY_V6, port: 5353 }]
  idx.set(secondary)
  return idx
}

/** SOA rdata with the given serial (uncompressed names). */
function soaRdata (serial: number): Uint8Array {
  const names = [...parseName('ns1.example.net.'), ...parseName('hostmaster.example.net.')]
  const out = new Uint8Array(names.length + 20)
  out.set(names)
  const view = new DataView(out.buffer)
  ;[serial, 7200, 3600, 1209600, 300].forEach((v, i) => view.setUint32(names.length + i * 4, v))
  return out
}

interface Request {
  name?: string
  type?: number
  klass?: number
  /** An SOA in the answer section: its owner and serial. */
  soa?: [string, number]
  noQuestion?: boolean
  ednsVersion?: number
}

function notify (r: Request): Uint8Array {
  const w = new MessageWriter(512)
  w.header({ id: 0x4d2, qr: false, opcode: Opcode.NOTIFY, aa: true, tc: false, rd: true, ra: false, ad: false, cd: true, rcode: 0 })
  if (r.noQuestion !== true) w.question({ name: parseName(r.name ?? 'example.net.'), type: r.type ?? RRType.SOA, class: r.klass ?? 1 })
  if (r.soa !== undefined) w.record(Section.Answer, { name: parseName(r.soa[0]), type: RRType.SOA, class: 1, ttl: 3600, rdata: soaRdata(r.soa[1]) })
  if (r.ednsVersion !== undefined) w.opt({ udpSize: 1232, extendedRcode: 0, version: r.ednsVersion, dnssecOk: false, options: [] })
  return w.finish()
}

interface Case {
  what: string
  request: Request
  from?: string
  rcode: number
  aa: boolean
  /** The serial onNotify hears of (null: heard, without a serial); absent: not called. */
  notified?: number | null
}

const cases: Case[] = [
  { what: 'from a primary, no SOA', request: {}, rcode: 0, aa: true, notified: null },
  { what: 'from a primary, with the new SOA', request: { soa: ['example.net.', 2024010102] }, rcode: 0, aa: true, notified: 2024010102 },
  { what: 'an SOA for another name carries no serial', request: { soa: ['other.example.net.', 99] }, rcode: 0, aa: true, notified: null },
  { what: 'the zone name in other case', request: { name: 'EXAMPLE.Net.' }, rcode: 0, aa: true, notified: null },
  { what: 'from the other primary, spelt otherwise', request: {}, from: '2001:0db8:0:0::0053', rcode: 0, aa: true, notified: null },
  { what: 'from a primary as an IPv4-mapped address', request: {}, from: `::ffff:${PRIMARY_V4}`, rcode: 0, aa: true, notified: null },
  { what: 'with EDNS', request: { ednsVersion: 0 }, rcode: 0, aa: true, notified: null },
  // RFC 1996 §3.10: not from a primary. BIND answers REFUSED.
  { what: 'from an address that is no primary', request: {}, from: '192.0.2.2', rcode: 5, aa: false },
  { what: 'from a primary\'s neighbour in IPv6', request: {}, from: '2001:db8::54', rcode: 5, aa: false },
  // A zone we are primary for: BIND acknowledges (NOERROR) and does nothing.
  { what: 'for a zone we are primary for', request: { name: 'example.org.' }, rcode: 0, aa: true },
  // Not a zone of ours, or not its apex: BIND answers NOTAUTH.
  { what: 'for a zone we do not serve', request: { name: 'example.com.' }, rcode: 9, aa: false },
  { what: 'for a name below a secondary zone\'s apex', request: { name: 'www.example.net.' }, rcode: 9, aa: false },
  // RFC 1996 §3.7: one question, of type SOA. BIND answers FORMERR.
  { what: 'with a question of type A', request: { type: RRType.A }, rcode: 1, aa: false },
  { what: 'with no question', request: { noQuestion: true }, rcode: 1, aa: false },
  { what: 'with class ANY', request: { klass: 255 }, rcode: 1, aa: false },
  // BIND answers REFUSED for a class no view serves (HS here; CH goes to its built-in view).
  { what: 'with class HS', request: { klass: 4 }, rcode: 5, aa: false },
  { what: 'with EDNS version 1 (RFC 6891 §6.1.3)', request: { ednsVersion: 1 }, rcode: 16, aa: false }
]

describe('NOTIFY in (RFC 1996 §3, §4.7)', () => {
  for (const transport of ['udp', 'tcp'] as const) {
    for (const c of cases) {
      it(`${transport}: ${c.what} → rcode ${c.rcode}`, () => {
        const client: Client = { transport, address: c.from ?? PRIMARY_V4, port: 40000, family: (c.from ?? PRIMARY_V4).includes(':') ? 'IPv6' : 'IPv4' }
        const heard: { zone: string, client: Client, serial: number | undefined }[] = []
        const request = notify(c.request)
        const out = handleQuery(request, client, { index: index(), onNotify: (zone, from, serial) => heard.push({ zone: nameToString(zone.origin), client: from, serial }) })
        const res = decodeMessage(out!)
        assert.equal(res.id, 0x4d2)
        assert.equal(res.qr, true)
        assert.equal(res.opcode, Opcode.NOTIFY)
        assert.equal(res.rcode, c.rcode)
        assert.equal(res.aa, c.aa)
        assert.equal(res.rd, false, 'RD is not copied (as BIND)')
        assert.equal(res.cd, false)
        assert.deepEqual(res.answers, [])
        if (c.request.noQuestion !== true) {
          assert.deepEqual(res.questions, decodeMessage(request).questions, 'the question is echoed as sent')
        }
        assert.equal(res.edns !== undefined, c.request.ednsVersion !== undefined)
        if (c.notified === undefined) {
          assert.deepEqual(heard, [])
        } else {
          assert.equal(heard.length, 1)
          assert.equal(heard[0]!.zone, 'example.net.')
          assert.equal(heard[0]!.client, client)
          assert.equal(heard[0]!.serial, c.notified ?? undefined)
        }
      })
    }
  }

  it('compares addresses, not their spelling', () => {
    assert.equal(sameAddress('2001:db8::1', '2001:DB8:0:0:0:0:0:1'), true)
    assert.equal(sameAddress('::ffff:192.0.2.1', '192.0.2.1'), true)
    assert.equal(sameAddress('192.0.2.1', '192.0.2.10'), false)
    assert.equal(sameAddress('::1', '127.0.0.1'), false)
    assert.equal(sameAddress('primary.example.net', 'primary.example.net'), false, 'host names are no addresses')
  })
})
