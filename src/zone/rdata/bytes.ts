import { slabCopy } from '../slab.ts'

const pool: ByteWriter[] = []

/** A growable byte buffer for building wire data. */
export class ByteWriter {
  private buf: Uint8Array
  length = 0

  /** A cleared writer from a small pool (parsing a million records should not allocate a million buffers). */
  static acquire (): ByteWriter {
    const w = pool.pop() ?? new ByteWriter(512)
    w.length = 0
    return w
  }

  /** Give a writer from {@link ByteWriter.acquire} back; it must not be used afterwards. */
  static release (w: ByteWriter): void {
    if (pool.length < 8) pool.push(w)
  }

  constructor (initial = 64) {
    this.buf = new Uint8Array(initial)
  }

  private ensure (n: number): void {
    if (this.length + n <= this.buf.length) return
    let size = this.buf.length * 2
    while (size < this.length + n) size *= 2
    const next = new Uint8Array(size)
    next.set(this.buf.subarray(0, this.length))
    this.buf = next
  }

  u8 (v: number): void {
    this.ensure(1)
    this.buf[this.length++] = v & 0xff
  }

  u16 (v: number): void {
    this.ensure(2)
    this.buf[this.length++] = (v >>> 8) & 0xff
    this.buf[this.length++] = v & 0xff
  }

  u32 (v: number): void {
    this.ensure(4)
    this.buf[this.length++] = (v >>> 24) & 0xff
    this.buf[this.length++] = (v >>> 16) & 0xff
    this.buf[this.length++] = (v >>> 8) & 0xff
    this.buf[this.length++] = v & 0xff
  }

  /** 48-bit unsigned (TSIG and RRSIG-style times). */
  u48 (v: number): void {
    this.u16(Math.floor(v / 2 ** 32))
    this.u32(v >>> 0)
  }

  bytes (b: Uint8Array): void {
    this.ensure(b.length)
    this.buf.set(b, this.length)
    this.length += b.length
  }

  /** Overwrite a 16-bit value at an earlier position. */
  setU16 (at: number, v: number): void {
    this.buf[at] = (v >>> 8) & 0xff
    this.buf[at + 1] = v & 0xff
  }

  /** The bytes written (a compact copy in a shared slab). */
  finish (): Uint8Array {
    return slabCopy(this.buf.subarray(0, this.length))
  }
}

/** Thrown when wire data is shorter or otherwise not what its type says. */
export class WireError extends Error {}

/** A cursor over wire data with bounds checks. */
export class ByteReader {
  readonly buf: Uint8Array
  pos: number
  readonly end: number

  constructor (buf: Uint8Array, pos = 0, end = buf.length) {
    this.buf = buf
    this.pos = pos
    this.end = end
  }

  get remaining (): number {
    return this.end - this.pos
  }

  need (n: number): void {
    if (this.pos + n > this.end) throw new WireError(`rdata too short: need ${n} more octet(s)`)
  }

  u8 (): number {
    this.need(1)
    return this.buf[this.pos++]!
  }

  u16 (): number {
    this.need(2)
    const v = (this.buf[this.pos]! << 8) | this.buf[this.pos + 1]!
    this.pos += 2
    return v
  }

  u32 (): number {
    this.need(4)
    const v = ((this.buf[this.pos]! << 24) >>> 0) + (this.buf[this.pos + 1]! << 16) + (this.buf[this.pos + 2]! << 8) + this.buf[this.pos + 3]!
    this.pos += 4
    return v
  }

  u48 (): number {
    const hi = this.u16()
    return hi * 2 ** 32 + this.u32()
  }

  bytes (n: number): Uint8Array {
    this.need(n)
    const out = this.buf.subarray(this.pos, this.pos + n)
    this.pos += n
    return out
  }

  rest (): Uint8Array {
    return this.bytes(this.remaining)
  }
}
