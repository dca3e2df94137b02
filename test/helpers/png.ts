import { inflateSync } from 'node:zlib'

/**
 * The number of distinct colours in a PNG (8-bit greyscale, RGB, grey+alpha or RGBA, not
 * interlaced: what Chromium's screenshots are), counted up to `cap`. A page drawn blank is one
 * flat colour; any text or border adds more. Decoded here with node:zlib (PNG is zlib-deflated
 * scanlines, each with a filter byte: RFC 2083 §6).
 * @throws Error for a PNG of another kind
 */
export function distinctColours (png: Buffer, cap = 1000): number {
  if (png.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG')
  let offset = 8
  let width = 0
  let height = 0
  let channels = 0
  const data: Buffer[] = []
  while (offset < png.length) {
    const length = png.readUInt32BE(offset)
    const type = png.toString('latin1', offset + 4, offset + 8)
    const body = png.subarray(offset + 8, offset + 8 + length)
    if (type === 'IHDR') {
      width = body.readUInt32BE(0)
      height = body.readUInt32BE(4)
      const depth = body[8]
      const colourType = body[9]!
      channels = ({ 0: 1, 2: 3, 4: 2, 6: 4 } as Record<number, number>)[colourType] ?? 0
      if (depth !== 8 || channels === 0 || body[12] !== 0) throw new Error(`PNG not 8-bit grey/RGB(A) without interlace (depth ${depth}, colour type ${colourType})`)
    } else if (type === 'IDAT') data.push(body)
    else if (type === 'IEND') break
    offset += 12 + length
  }
  const raw = inflateSync(Buffer.concat(data))
  const stride = width * channels
  let previous = Buffer.alloc(stride)
  const colours = new Set<string>()
  for (let y = 0; y < height; y++) {
    const start = y * (stride + 1)
    const filter = raw[start]!
    const line = Buffer.from(raw.subarray(start + 1, start + 1 + stride))
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? line[i - channels]! : 0
      const b = previous[i]!
      const c = i >= channels ? previous[i - channels]! : 0
      let add = 0
      if (filter === 1) add = a
      else if (filter === 2) add = b
      else if (filter === 3) add = (a + b) >> 1
      else if (filter === 4) {
        const p = a + b - c
        const pa = Math.abs(p - a)
        const pb = Math.abs(p - b)
        const pc = Math.abs(p - c)
        add = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
      }
      line[i] = (line[i]! + add) & 0xff
    }
    for (let x = 0; x < width && colours.size < cap; x++) colours.add(line.toString('hex', x * channels, x * channels + channels))
    if (colours.size >= cap) return cap
    previous = line
  }
  return colours.size
}
