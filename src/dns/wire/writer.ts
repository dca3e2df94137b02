import { ByteReader } from '../../zone/rdata/bytes.ts'
import { rdataType } from '../../zone/rdata/registry.ts'
import { RRType } from '../../zone/rrtype.ts'
import type { Edns, Message, Question, WireRecord } from './message.ts'

/** The header fields of a message; of `rcode` the low 4 bits go in the header, higher bits need an OPT record (`opt`). */
export type Header = Pick<Message, 'id' | 'qr' | 'opcode' | 'aa' | 'tc' | 'rd' | 'ra' | 'ad' | 'cd' | 'rcode'>

export const Section = { Answer: 1, Authority: 2, Additional: 3 } as const
export type SectionNumber = typeof Section[keyof typeof Section]

/**
 * One way a message's bytes depend on how its question name is spelled: a later name's suffix
 * `octets` (exactly as written) is the same name as the question's suffix starting `at` octets
 * into the question name, told apart by case only, and compression saw them as `equal` or not.
 * A question spelled another way for which every check gives the same `equal` gets the same
 * message but for the question's own octets (the reply cache relies on it).
 */
export interface CaseCheck {
  at: number
  octets: string
  equal: boolean
}

/**
 * Types whose rdata is written field by field because it holds names: names the type allows
 * to be compressed (RFC 3597 §4: the RFC 1035 types) are, and every name, compressed or not
 * (DNAME, SRV targets), is remembered for later names to point at (RFC 1035 §4.1.4: a pointer
 * to any prior occurrence).
 */
function nameLayout (type: number): boolean {
  const known = LAYOUTS[type]!
  if (known !== 0) return known === 1
  const t = rdataType(type)
  // RFC 4034 §3.1.7, §4.1.1 and RFC 6840 §5.1: the names in RRSIG and NSEC rdata are never
  // compressed; they are copied as they are, sparing a walk of every signature's fields.
  const fields = type !== RRType.RRSIG && type !== RRType.NSEC && t !== undefined && t.parse === undefined && t.check === undefined && t.fields.some(f => f.name !== undefined)
  LAYOUTS[type] = fields ? 1 : 2
  return fields
}

/** {@link nameLayout} by type, found once: 0 not yet, 1 field by field, 2 as it is. */
const LAYOUTS = new Uint8Array(65536)

/**
 * Builds one DNS message with name compression (RFC 1035 §4.1.4) up to a size limit: a record
 * that does not fit is not written (the caller sets TC or starts the next message).
 */
export class MessageWriter {
  private readonly buf: Uint8Array
  private len = 12
  private readonly names = new Map<string, number>()
  private readonly counts = [0, 0, 0, 0]
  private section = 0
  private added: string[] = []
  /** The last name written from its first label on, and where: the same name again (records of one owner) points there. */
  private lastName: Uint8Array | undefined
  private lastNameAt = 0

  /** Set when the caller asked for the message's {@link CaseCheck}s: the question name as written. */
  private questionName: Uint8Array | undefined
  /** For each octet of the question name: whether a label starts there. */
  private questionLabels: Uint8Array | undefined

  readonly maxSize: number
  private readonly caseChecks: CaseCheck[] | undefined

  /**
   * @param maxSize the largest message
   * @param caseChecks given, filled with the ways the message depends on the case of its
   *   question name (names written after the question only; the question name itself, written
   *   again as the same array, always points at the question and needs none).
   */
  constructor (maxSize: number, caseChecks?: CaseCheck[]) {
    this.maxSize = maxSize
    this.caseChecks = caseChecks
    const size = Math.min(maxSize, 65535)
    // A second writer while one is unfinished (never on the answer path) gets its own buffer.
    this.buf = scratchInUse ? new Uint8Array(size) : SCRATCH.subarray(0, size)
    this.ownsScratch = !scratchInUse
    scratchInUse = true
    this.buf.fill(0, 0, 12)
  }

  private readonly ownsScratch: boolean

  get size (): number {
    return this.len
  }

  header (h: Header): void {
    const b = this.buf
    b[0] = h.id >> 8
    b[1] = h.id & 0xff
    b[2] = (h.qr ? 0x80 : 0) | ((h.opcode & 0xf) << 3) | (h.aa ? 0x04 : 0) | (h.tc ? 0x02 : 0) | (h.rd ? 0x01 : 0)
    b[3] = (h.ra ? 0x80 : 0) | (h.ad ? 0x20 : 0) | (h.cd ? 0x10 : 0) | (h.rcode & 0xf)
  }

  /** Set the TC bit (RFC 1035 §4.1.1, RFC 7766 §5). */
  truncated (): void {
    this.buf[2]! |= 0x02
  }

  question (q: Question): boolean {
    const written = this.attempt(0, () => {
      this.name(q.name, true)
      this.u16(q.type)
      this.u16(q.class)
    })
    if (written && this.caseChecks !== undefined && this.questionName === undefined) {
      this.questionName = q.name
      this.questionLabels = new Uint8Array(q.name.length)
      for (let i = 0; i < q.name.length && q.name[i] !== 0; i += q.name[i]! + 1) this.questionLabels[i] = 1
    }
    return written
  }

  /** Append a record; false (and nothing written) when it does not fit. */
  record (section: SectionNumber, r: WireRecord): boolean {
    if (section < this.section) throw new Error('records must be written section by section')
    this.section = section
    return this.attempt(section, () => {
      this.name(r.name, true)
      this.u16(r.type)
      this.u16(r.class)
      this.u32(r.ttl)
      const lengthAt = this.len
      this.u16(0)
      const start = this.len
      if (!nameLayout(r.type) || !this.rdataWithNames(r.type, r.rdata)) this.raw(r.rdata)
      const rdlength = this.len - start
      this.buf[lengthAt] = rdlength >> 8
      this.buf[lengthAt + 1] = rdlength & 0xff
    })
  }

  /** The OPT pseudo-record (RFC 6891 §6.1.2), in the additional section. */
  opt (edns: Pick<Edns, 'udpSize' | 'extendedRcode' | 'version' | 'dnssecOk' | 'options'>): boolean {
    let size = 0
    for (const o of edns.options) size += 4 + o.data.length
    const rdata = new Uint8Array(size)
    let p = 0
    for (const o of edns.options) {
      rdata[p++] = o.code >> 8
      rdata[p++] = o.code & 0xff
      rdata[p++] = o.data.length >> 8
      rdata[p++] = o.data.length & 0xff
      rdata.set(o.data, p)
      p += o.data.length
    }
    const ttl = ((edns.extendedRcode & 0xff) << 24 | (edns.version & 0xff) << 16 | (edns.dnssecOk ? 0x8000 : 0)) >>> 0
    return this.record(Section.Additional, { name: ROOT, type: RRType.OPT, class: edns.udpSize, ttl, rdata })
  }

  /** The message; counts are filled in. The writer must not be used afterwards. */
  finish (): Uint8Array {
    for (let i = 0; i < 4; i++) {
      this.buf[4 + i * 2] = this.counts[i]! >> 8
      this.buf[5 + i * 2] = this.counts[i]! & 0xff
    }
    const out = this.buf.slice(0, this.len)
    if (this.ownsScratch) scratchInUse = false
    return out
  }

  private attempt (section: number, write: () => void): boolean {
    const len = this.len
    this.added = []
    try {
      write()
    } catch (err) {
      if (!(err instanceof NoRoom)) throw err
      this.len = len
      for (const key of this.added) this.names.delete(key)
      this.lastName = undefined
      return false
    }
    this.counts[section]!++
    return true
  }

  private need (n: number): void {
    if (this.len + n > this.buf.length) throw new NoRoom()
  }

  private u16 (v: number): void {
    this.need(2)
    this.buf[this.len++] = (v >> 8) & 0xff
    this.buf[this.len++] = v & 0xff
  }

  private u32 (v: number): void {
    this.u16(Math.floor(v / 65536) & 0xffff)
    this.u16(v & 0xffff)
  }

  private raw (b: Uint8Array): void {
    this.need(b.length)
    this.buf.set(b, this.len)
    this.len += b.length
  }

  /**
   * Write a name, pointing to an earlier copy of its longest known suffix spelled the same:
   * suffixes are matched octet for octet, case included, so a pointer never passes on another
   * spelling (a question `WWW.Example.ORG` does not turn the SOA's `ns1.example.org.` into
   * `ns1.Example.ORG.`; RFC 4343 §4.1: servers should preserve the case of the data they hold,
   * as BIND's case-sensitive compression does).
   */
  private name (name: Uint8Array, compress: boolean): void {
    if (compress && name === this.lastName) {
      this.u16(0xc000 | this.lastNameAt)
      return
    }
    // The key of each suffix is the same suffix of the whole name's key.
    const whole = name[0] === 0 ? '' : exactKey(name)
    const track = this.questionName !== undefined && name !== this.questionName
    let i = 0
    while (name[i] !== 0 && i < name.length) {
      const key = i === 0 ? whole : whole.slice(i)
      if (track) this.noteCase(name, i, key)
      const at = compress ? this.names.get(key) : undefined
      if (at !== undefined) {
        this.u16(0xc000 | at)
        return
      }
      if (this.len < 0x4000 && !this.names.has(key)) {
        this.names.set(key, this.len)
        this.added.push(key)
      }
      if (i === 0 && this.len < 0x4000) {
        this.lastName = name
        this.lastNameAt = this.len
      }
      const labelLength = name[i]!
      this.raw(name.subarray(i, i + labelLength + 1))
      i += labelLength + 1
    }
    this.need(1)
    this.buf[this.len++] = 0
  }

  /**
   * Record a {@link CaseCheck} when the suffix of `name` at `i` is a suffix of the question
   * name but for case: whether compression finds it (or registers it) depends on the spelling.
   */
  private noteCase (name: Uint8Array, i: number, key: string): void {
    const q = this.questionName!
    const at = q.length - (name.length - i)
    if (at < 0 || this.questionLabels![at] !== 1) return
    let equal = true
    for (let j = 0; j < name.length - i; j++) {
      const a = q[at + j]!
      const b = name[i + j]!
      if (a === b) continue
      if ((a | 0x20) !== (b | 0x20) || (a | 0x20) < 0x61 || (a | 0x20) > 0x7a) return
      equal = false
    }
    const checks = this.caseChecks!
    for (const c of checks) if (c.at === at && c.octets === key) return
    checks.push({ at, octets: key, equal })
  }

  /**
   * Write rdata field by field, its names compressed where the type allows; false (and nothing
   * written) when the rdata does not follow the type's layout, for the caller to copy it as it is.
   */
  private rdataWithNames (type: number, rdata: Uint8Array): boolean {
    const len = this.len
    const added = this.added.length
    try {
      const r = new ByteReader(rdata)
      for (const f of rdataType(type)!.fields) {
        const start = r.pos
        f.skip(r)
        const part = rdata.subarray(start, r.pos)
        if (f.name !== undefined) this.name(part, f.name.compress)
        else this.raw(part)
      }
      if (r.remaining === 0) return true
    } catch (err) {
      if (err instanceof NoRoom) throw err
    }
    this.len = len
    for (const key of this.added.splice(added)) this.names.delete(key)
    this.lastName = undefined
    return false
  }
}

class NoRoom extends Error {}

/** A name's octets as a string, case kept: the compression table's key. */
function exactKey (name: Uint8Array): string {
  return String.fromCharCode.apply(null, name as unknown as number[])
}

const ROOT = new Uint8Array([0])

/**
 * One scratch buffer for every message being built: messages are built synchronously, one at a
 * time, and `finish()` copies the result out, so the answer path allocates no 64 KiB per query.
 */
const SCRATCH = new Uint8Array(65535)
let scratchInUse = false

/**
 * Forget a writer that was never finished (an exception while building): called where a new
 * message starts from nothing, so an abandoned writer cannot keep the scratch buffer.
 */
export function releaseScratch (): void {
  scratchInUse = false
}
