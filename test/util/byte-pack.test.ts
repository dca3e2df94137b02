import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ByteReader, ByteWriter } from '../../src/util/byte-pack.ts'

describe('ByteWriter and ByteReader', () => {
  it('read back numbers, strings (any Unicode) and bytes in the order written, growing past the first buffer', () => {
    const w = new ByteWriter(8)
    const long = 'x'.repeat(100_000)
    w.u16(0xffff)
    w.u32(0xfffffffe)
    w.string('')
    w.string('h0.example.org.')
    w.string('é 日本 🙂')
    w.bytes(new Uint8Array([1, 2, 3]))
    w.bytes(new Uint8Array(0))
    w.string(long)
    const bytes = w.finish()
    assert.equal(bytes.byteOffset, 0)
    assert.equal(bytes.byteLength, bytes.buffer.byteLength)
    const r = new ByteReader(bytes)
    assert.equal(r.u16(), 0xffff)
    assert.equal(r.u32(), 0xfffffffe)
    assert.equal(r.string(), '')
    assert.equal(r.string(), 'h0.example.org.')
    assert.equal(r.string(), 'é 日本 🙂')
    assert.deepEqual([...r.bytes()], [1, 2, 3])
    assert.equal(r.bytes().length, 0)
    assert.equal(r.done, false)
    assert.equal(r.string(), long)
    assert.equal(r.done, true)
  })
})
