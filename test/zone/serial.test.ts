import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { dateSerial, nextSerial, serialAdd, serialGreater } from '../../src/zone/serial.ts'

const day = (iso: string): Date => new Date(`${iso}T12:00:00Z`)

describe('dateSerial', () => {
  it('is YYYYMMDD00 of the UTC date', () => {
    assert.equal(dateSerial(day('2026-11-22')), 2026112200)
    assert.equal(dateSerial(new Date('2026-11-22T23:59:59.999Z')), 2026112200)
    assert.equal(dateSerial(new Date('2026-11-23T00:00:00Z')), 2026112300)
  })
})

describe('serialAdd (RFC 1982 §3.1)', () => {
  it('adds modulo 2^32', () => {
    assert.equal(serialAdd(1, 1), 2)
    assert.equal(serialAdd(4294967295, 1), 0)
    assert.equal(serialAdd(4294967290, 10), 4)
    assert.equal(serialAdd(0, 2147483647), 2147483647)
  })
})

describe('serialGreater (RFC 1982 §3.2)', () => {
  it('compares within half the number space', () => {
    assert.equal(serialGreater(2, 1), true)
    assert.equal(serialGreater(1, 2), false)
    assert.equal(serialGreater(1, 1), false)
    // Across the wrap: 0 follows 4294967295.
    assert.equal(serialGreater(0, 4294967295), true)
    assert.equal(serialGreater(4294967295, 0), false)
    assert.equal(serialGreater(100, 4294967000), true)
  })

  it('leaves pairs exactly 2^31 apart undefined (neither is greater)', () => {
    assert.equal(serialGreater(2147483648, 0), false)
    assert.equal(serialGreater(0, 2147483648), false)
  })
})

describe('nextSerial', () => {
  const now = day('2026-11-22')

  it('jumps to today\'s YYYYMMDD00 when that is ahead', () => {
    assert.equal(nextSerial(2024010101, now), 2026112200)
    assert.equal(nextSerial(1, now), 2026112200)
  })

  it('adds one when today\'s serial is already used or passed', () => {
    assert.equal(nextSerial(2026112200, now), 2026112201)
    assert.equal(nextSerial(2026112299, now), 2026112300)
    assert.equal(nextSerial(2030010100, now), 2030010101)
  })

  it('wraps at 2^32 (RFC 1982 §3.1) when the serial is ahead of any date serial', () => {
    // In 2200, YYYYMMDD00 (2200010100) lies above 2^31, so 4294967295 is still ahead of it.
    assert.equal(nextSerial(4294967295, day('2200-01-01')), 0)
    assert.equal(nextSerial(4294967294, day('2200-01-01')), 4294967295)
  })

  it('takes today\'s serial when the current one is "behind" it in RFC 1982 order, even if numerically larger', () => {
    // 4294967295 - 2026112200 > 2^31: in serial order today is ahead.
    assert.equal(nextSerial(4294967295, now), 2026112200)
  })
})
