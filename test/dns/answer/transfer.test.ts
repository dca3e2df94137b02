/**
 * IXFR out (RFC 1995 §4) from the zone's journal of serial steps: the incremental answer when the
 * journal holds every step from the client's serial, the SOA alone when the client is current,
 * the whole zone (AXFR form) when the journal cannot serve the serial.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { answerTransfer } from '../../../src/dns/answer/axfr.ts'
import { ZoneData, type JournalStep } from '../../../src/dns/index/zone-data.ts'
import { ZoneIndex } from '../../../src/dns/index/zone-index.ts'
import { decodeMessage, type WireRecord } from '../../../src/dns/wire/message.ts'
import { MessageWriter, Section } from '../../../src/dns/wire/writer.ts'
import { ResponseVerifier, signMessage, type TsigKey } from '../../../src/dns/wire/tsig.ts'
import { nameToString, parseName } from '../../../src/zone/name.ts'
import { formatRdata, typeName } from '../../../src/zone/rdata/index.ts'
import { withSoaSerial } from '../../../src/zones/serial-bump.ts'
import type { ZoneRecord } from '../../../src/zone/record.ts'
import { parseZoneText } from '../../../src/zonefile/parser.ts'

const ORIGIN = parseName('example.org.')
const ZONE = `$ORIGIN example.org.
$TTL 3600
@    IN SOA ns1 hostmaster 100 7200 3600 1209600 300
@    IN NS  ns1
ns1  IN A   192.0.2.53
www  IN A   192.0.2.80
`
const LOCAL = new Uint8Array([127, 0, 0, 1])

function records (text: string): ZoneRecord[] {
  return parseZoneText(text, { origin: ORIGIN, includes: 'refuse' }).records
}

/** The zone at serial 100, then two steps: 100→101 adds mail, 101→102 changes www. */
function zoneWithJournal (): { index: ZoneIndex, zone: ZoneData } {
  const zone = ZoneData.from(ORIGIN, 100, 1, records(ZONE))
  zone.transfer = { ranges: [{ start: LOCAL, end: LOCAL }] }
  const soa = zone.apex!.rrsets.get(6)!.rdata[0]!
  const soaAt = (serial: number): ZoneRecord => ({ owner: ORIGIN, type: 6, ttl: 3600, rdata: withSoaSerial(soa, serial) })
  const steps: JournalStep[] = [
    { serialFrom: 100, serialTo: 101, removed: [soaAt(100)], added: [soaAt(101), ...records('mail 300 IN A 192.0.2.25\n')] },
    { serialFrom: 101, serialTo: 102, removed: [soaAt(101), ...records('www 3600 IN A 192.0.2.80\n')], added: [soaAt(102), ...records('www 3600 IN A 192.0.2.81\n')] }
  ]
  steps.forEach((s, i) => zone.apply(s, i + 2))
  const index = new ZoneIndex()
  index.set(zone)
  return { index, zone }
}

function ixfr (serial: number): Uint8Array {
  const w = new MessageWriter(512)
  w.header({ id: 7, qr: false, opcode: 0, aa: false, tc: false, rd: false, ra: false, ad: false, cd: false, rcode: 0 })
  w.question({ name: ORIGIN, type: 251, class: 1 })
  const soa = records(ZONE).find(r => r.type === 6)!
  w.record(Section.Authority, { name: ORIGIN, type: 6, class: 1, ttl: 3600, rdata: withSoaSerial(soa.rdata, serial) })
  return w.finish()
}

function answers (index: ZoneIndex, request: Uint8Array): string[] {
  const out = answerTransfer(index, { bytes: request, message: decodeMessage(request), client: LOCAL, now: 0 })
  const show = (r: WireRecord): string => r.type === 6 ? `SOA ${formatRdata(6, r.rdata).split(' ')[2]}` : `${nameToString(r.name)} ${typeName(r.type)} ${formatRdata(r.type, r.rdata)}`
  return out.flatMap(m => decodeMessage(m).answers.map(show))
}

describe('transfer refusals to signed requests', () => {
  it('signs the REFUSED sent to a correctly signed request from outside the restrict list (RFC 8945 §5.3)', () => {
    const { index, zone } = zoneWithJournal()
    const key: TsigKey = { name: parseName('xfr-key.'), algorithm: 'hmac-sha256', secret: new Uint8Array(32).fill(7) }
    zone.transfer = { ranges: [{ start: new Uint8Array([192, 0, 2, 1]), end: new Uint8Array([192, 0, 2, 1]) }], key }
    const w = new MessageWriter(512)
    w.header({ id: 9, qr: false, opcode: 0, aa: false, tc: false, rd: false, ra: false, ad: false, cd: false, rcode: 0 })
    w.question({ name: ORIGIN, type: 252, class: 1 })
    const now = 1_800_000_000
    const request = signMessage(w.finish(), { key, priorMac: undefined, timersOnly: false, now })
    const [response] = answerTransfer(index, { bytes: request.message, message: decodeMessage(request.message), client: LOCAL, now })
    const m = decodeMessage(response!)
    assert.equal(m.rcode, 5)
    assert.equal(new ResponseVerifier(key, request.mac).verify(response!, m, now), undefined)
  })
})

describe('IXFR out from the journal', () => {
  it('sends the steps from the client\'s serial: current SOA, then old SOA, removed, new SOA, added per step, then current SOA', () => {
    const { index } = zoneWithJournal()
    assert.deepEqual(answers(index, ixfr(100)), [
      'SOA 102',
      'SOA 100', 'SOA 101', 'mail.example.org. A 192.0.2.25',
      'SOA 101', 'www.example.org. A 192.0.2.80', 'SOA 102', 'www.example.org. A 192.0.2.81',
      'SOA 102'
    ])
    assert.deepEqual(answers(index, ixfr(101)), ['SOA 102', 'SOA 101', 'www.example.org. A 192.0.2.80', 'SOA 102', 'www.example.org. A 192.0.2.81', 'SOA 102'])
  })

  it('sends the SOA alone to a client that is up to date', () => {
    const { index } = zoneWithJournal()
    assert.deepEqual(answers(index, ixfr(102)), ['SOA 102'])
  })

  it('sends the whole zone when the journal does not reach back to the client\'s serial', () => {
    const { index, zone } = zoneWithJournal()
    const full = answers(index, ixfr(99))
    assert.equal(full[0], 'SOA 102')
    assert.equal(full.at(-1), 'SOA 102')
    assert.equal(full.filter(r => r.startsWith('SOA')).length, 2, 'AXFR form: the SOA first and last only')
    assert.ok(full.includes('mail.example.org. A 192.0.2.25') && full.includes('www.example.org. A 192.0.2.81'))
    assert.ok(!full.includes('www.example.org. A 192.0.2.80'))
    // A journal broken by a gap serves only from after it.
    zone.remember({ serialFrom: 500, serialTo: 501, removed: [], added: [] })
    assert.equal(zone.journal.length, 1)
  })
})
