/**
 * Helpers for the rdata type tests: presentation → wire → presentation with literal bytes, refused
 * inputs with their reasons, and the dns-packet cross-check.
 */
import assert from 'node:assert/strict'
import dnsPacket from 'dns-packet'
import { parseName } from '../../src/zone/name.ts'
import { RdataError, formatRdata, parseRdata, parseTypeName, tokenize, validateRdata, wireProblem } from '../../src/zone/rdata/index.ts'

export const origin = parseName('example.org.')

export function hex (b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex')
}

export function fromHex (text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text.replace(/\s+/g, ''), 'hex'))
}

export function typeNumber (mnemonic: string): number {
  const n = parseTypeName(mnemonic)
  assert.ok(n !== undefined, `unknown type ${mnemonic}`)
  return n
}

/** Presentation text to wire rdata, relative names completed with example.org. */
export function parse (type: string, text: string): Uint8Array {
  return parseRdata(typeNumber(type), tokenize(text), { origin })
}

export function format (type: string, rdata: Uint8Array): string {
  return formatRdata(typeNumber(type), rdata)
}

/**
 * Parse `text`, compare the wire bytes with `wireHex`, write them back and compare with
 * `written` (the text itself by default), then parse the written text again (same bytes).
 */
export function roundTrip (type: string, text: string, wireHex: string, written = text): void {
  const wire = parse(type, text)
  assert.equal(hex(wire), wireHex.replace(/\s+/g, '').toLowerCase(), `wire of ${type} ${text}`)
  assert.equal(wireProblem(typeNumber(type), wire), undefined)
  const out = format(type, wire)
  assert.equal(out, written, `presentation of ${type} ${text}`)
  assert.equal(hex(parse(type, out)), hex(wire), `reparse of ${type} ${out}`)
}

/** The text is refused with an RdataError whose message matches `reason`. */
export function refuses (type: string, text: string, reason: RegExp): void {
  assert.throws(() => parse(type, text), (err: unknown) => {
    assert.ok(err instanceof RdataError, `${type} ${text}: not an RdataError: ${String(err)}`)
    assert.match(err.message, reason, `${type} ${text}`)
    return true
  })
}

/** Validation reasons of the rdata parsed from `text`. */
export function reasons (type: string, text: string): string[] {
  return validateRdata(typeNumber(type), parse(type, text))
}

/**
 * The rdata dns-packet writes for one record: it writes names uncompressed, so the bytes after
 * the header, owner name and the 10 octets of type, class, TTL and rdlength are the rdata.
 */
export function packetRdata (answer: dnsPacket.Answer): Uint8Array {
  const buf = dnsPacket.encode({ type: 'response', id: 0, flags: 0, answers: [answer] })
  const ownerLength = parseName(answer.name.endsWith('.') ? answer.name : answer.name + '.').length
  const start = 12 + ownerLength + 10
  const rdlength = buf.readUInt16BE(start - 2)
  assert.equal(buf.length, start + rdlength)
  return new Uint8Array(buf.subarray(start))
}

/** dns-packet's decoding of our rdata, placed in a response with one answer. */
export function packetDecode (type: string, rdata: Uint8Array): { type: string, data: unknown } {
  const owner = Uint8Array.from([4, 0x74, 0x65, 0x73, 0x74, 0]) // test.
  const head = Buffer.alloc(12)
  head.writeUInt16BE(0x8000, 2)
  head.writeUInt16BE(1, 6)
  const fixed = Buffer.alloc(10)
  fixed.writeUInt16BE(typeNumber(type), 0)
  fixed.writeUInt16BE(1, 2)
  fixed.writeUInt32BE(300, 4)
  fixed.writeUInt16BE(rdata.length, 8)
  const decoded = dnsPacket.decode(Buffer.concat([head, owner, fixed, rdata]))
  assert.equal(decoded.answers?.length, 1)
  const answer = decoded.answers![0]!
  assert.equal(answer.type, type)
  return { type: answer.type, data: 'data' in answer ? answer.data : undefined }
}
