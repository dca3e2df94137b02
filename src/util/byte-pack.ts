const encoder = new TextEncoder()

/**
 * Writes numbers, strings and bytes one after another into one growing buffer: many small values
 * as one `ArrayBuffer`, which crosses to another thread by transfer instead of one structured
 * clone per object. Read back with {@link ByteReader} in the same order.
 */
export class ByteWriter {
  private buf: Uint8Array
  private view: DataView
  private at = 0

  constructor (initial = 1 << 16) {
    this.buf = new Uint8Array(initial)
    this.view = new DataView(this.buf.buffer)
  }

  private room (n: number): void {
    if (this.at + n <= this.buf.length) return
    let size = this.buf.length * 2
    while (size < this.at + n) size *= 2
    const next = new Uint8Array(size)
    next.set(this.buf.subarray(0, this.at))
    this.buf = next
    this.view = new DataView(next.buffer)
  }

  u16 (n: number): void {
    this.room(2)
    this.view.setUint16(this.at, n)
    this.at += 2
  }

  u32 (n: number): void {
    this.room(4)
    this.view.setUint32(this.at, n)
    this.at += 4
  }

  /** A string as its UTF-8 length (32 bits) and bytes. */
  string (s: string): void {
    this.room(4 + s.length * 3)
    const { written } = encoder.encodeInto(s, this.buf.subarray(this.at + 4))
    this.view.setUint32(this.at, written)
    this.at += 4 + written
  }

  /** Bytes as their length (32 bits) and themselves. */
  bytes (b: Uint8Array): void {
    this.room(4 + b.length)
    this.view.setUint32(this.at, b.length)
    this.buf.set(b, this.at + 4)
    this.at += 4 + b.length
  }

  /** What was written, in a buffer of its own (whole, so it can be transferred). */
  finish (): Uint8Array {
    return this.buf.slice(0, this.at)
  }
}

/** Reads what a {@link ByteWriter} wrote, in the same order. */
export class ByteReader {
  private readonly buf: Buffer
  private at = 0

  constructor (bytes: Uint8Array) {
    this.buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  }

  get done (): boolean {
    return this.at >= this.buf.length
  }

  u16 (): number {
    const n = this.buf.readUInt16BE(this.at)
    this.at += 2
    return n
  }

  u32 (): number {
    const n = this.buf.readUInt32BE(this.at)
    this.at += 4
    return n
  }

  string (): string {
    const n = this.u32()
    const s = this.buf.toString('utf8', this.at, this.at + n)
    this.at += n
    return s
  }

  /** Bytes as a view into the buffer read (no copy). */
  bytes (): Uint8Array {
    const n = this.u32()
    const b = this.buf.subarray(this.at, this.at + n)
    this.at += n
    return b
  }
}
