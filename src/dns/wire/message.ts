import { ByteReader, ByteWriter, WireError } from '../../zone/rdata/bytes.ts'
import { rdataType } from '../../zone/rdata/registry.ts'
import { RRType } from '../../zone/rrtype.ts'
import { readName } from './read-name.ts'

export interface Question {
  name: Uint8Array
  type: number
  class: number
}

/** A resource record as it travels: names uncompressed, rdata in canonical wire form. */
export interface WireRecord {
  name: Uint8Array
  type: number
  class: number
  ttl: number
  rdata: Uint8Array
}

export interface EdnsOption {
  code: number
  data: Uint8Array
}

export interface Edns {
  udpSize: number
  /** The upper 8 bits of the rcode (RFC 6891 §6.1.3). */
  extendedRcode: number
  version: number
  dnssecOk: boolean
  options: EdnsOption[]
}

export interface Message {
  id: number
  qr: boolean
  opcode: number
  aa: boolean
  tc: boolean
  rd: boolean
  ra: boolean
  ad: boolean
  cd: boolean
  /** The full rcode, with the OPT record's extended bits when there is one. */
  rcode: number
  questions: Question[]
  answers: WireRecord[]
  authority: WireRecord[]
  /** Additional records without OPT (see `edns`) and without a final TSIG (see `tsig`). */
  additional: WireRecord[]
  edns?: Edns
  /** A TSIG record at the end of the additional section, and where it starts in the message. */
  tsig?: { record: WireRecord, offset: number }
}

/** Whether rdata of this type is walked field by field (its layout has domain names). */
function hasNameFields (type: number): boolean {
  const t = rdataType(type)
  return t !== undefined && t.parse === undefined && t.check === undefined && t.fields.some(f => f.name !== undefined)
}

/**
 * Rdata from a message in canonical form: names of the known types whose layout has name
 * fields are decompressed (RFC 3597 §4); any other rdata is copied.
 */
function readRdata (msg: Uint8Array, type: number, start: number, end: number): Uint8Array {
  if (!hasNameFields(type)) return msg.slice(start, end)
  const w = new ByteWriter(end - start + 32)
  let pos = start
  for (const f of rdataType(type)!.fields) {
    if (f.name !== undefined) {
      const { name, next } = readName(msg.subarray(0, end), pos)
      w.bytes(name)
      pos = next
    } else {
      const r = new ByteReader(msg, pos, end)
      f.skip(r)
      w.bytes(msg.subarray(pos, r.pos))
      pos = r.pos
    }
  }
  if (pos !== end) throw new WireError(`rdata of type ${type}: ${end - pos} octet(s) left over`)
  return w.finish()
}

function readRecord (msg: Uint8Array, offset: number): { record: WireRecord, next: number } {
  const { name, next } = readName(msg, offset)
  const r = new ByteReader(msg, next)
  const type = r.u16()
  const klass = r.u16()
  const ttl = r.u32()
  const length = r.u16()
  r.need(length)
  const rdata = readRdata(msg, type, r.pos, r.pos + length)
  return { record: { name, type, class: klass, ttl, rdata }, next: r.pos + length }
}

/**
 * Decode a whole DNS message (RFC 1035 §4.1) with bounds checks on every read.
 * @throws WireError for anything malformed (the server answers FORMERR).
 */
export function decodeMessage (msg: Uint8Array): Message {
  if (msg.length < 12) throw new WireError('message shorter than its header')
  const h = new ByteReader(msg)
  const id = h.u16()
  const flags = h.u16()
  const counts = [h.u16(), h.u16(), h.u16(), h.u16()] as const
  const m: Message = {
    id,
    qr: (flags & 0x8000) !== 0,
    opcode: (flags >> 11) & 0xf,
    aa: (flags & 0x0400) !== 0,
    tc: (flags & 0x0200) !== 0,
    rd: (flags & 0x0100) !== 0,
    ra: (flags & 0x0080) !== 0,
    ad: (flags & 0x0020) !== 0,
    cd: (flags & 0x0010) !== 0,
    rcode: flags & 0xf,
    questions: [],
    answers: [],
    authority: [],
    additional: []
  }
  let pos = 12
  for (let i = 0; i < counts[0]; i++) {
    const { name, next } = readName(msg, pos)
    const r = new ByteReader(msg, next)
    m.questions.push({ name, type: r.u16(), class: r.u16() })
    pos = r.pos
  }
  const sections = [m.answers, m.authority, m.additional]
  for (let s = 0; s < 3; s++) {
    const count = counts[s + 1]!
    for (let i = 0; i < count; i++) {
      const start = pos
      const { record, next } = readRecord(msg, pos)
      pos = next
      if (s === 2 && record.type === RRType.OPT) {
        // RFC 6891 §6.1.1: at most one OPT, owner the root.
        if (m.edns !== undefined) throw new WireError('more than one OPT record')
        if (record.name.length !== 1) throw new WireError('OPT owner is not the root')
        m.edns = readEdns(record)
        m.rcode |= m.edns.extendedRcode << 4
        continue
      }
      if (s === 2 && record.type === RRType.TSIG) {
        // RFC 8945 §5.1: TSIG is the last record of the additional section.
        if (i !== count - 1) throw new WireError('TSIG is not the last additional record')
        m.tsig = { record, offset: start }
        continue
      }
      sections[s]!.push(record)
    }
  }
  if (pos !== msg.length) throw new WireError(`${msg.length - pos} octet(s) after the last record`)
  return m
}

function readEdns (opt: WireRecord): Edns {
  const options: EdnsOption[] = []
  const r = new ByteReader(opt.rdata)
  while (r.remaining > 0) {
    const code = r.u16()
    const len = r.u16()
    options.push({ code, data: r.bytes(len) })
  }
  return {
    udpSize: Math.max(512, opt.class),
    extendedRcode: (opt.ttl >>> 24) & 0xff,
    version: (opt.ttl >>> 16) & 0xff,
    dnssecOk: (opt.ttl & 0x8000) !== 0,
    options
  }
}
