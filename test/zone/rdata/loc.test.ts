import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { wireProblem } from '../../../src/zone/rdata/index.ts'
import { format, fromHex, reasons, refuses, roundTrip } from '../../helpers/rdata.ts'

// Wire bytes as BIND 9.18 `named-rrchecker -u` writes them for the same text.
describe('LOC (RFC 1876)', () => {
  it('round-trips full and short forms, written in full as BIND writes them', () => {
    roundTrip('LOC', '42 21 54 N 71 06 18 W -24m 30m', '0033161389172dd070be15f000988d20', '42 21 54.000 N 71 6 18.000 W -24.00m 30m 10000m 10m')
    roundTrip('LOC', '42 21 54.5 N 71 06 18.25 W -24.5m 30m 10000m 10m', '0033161389172fc470be14f600988cee', '42 21 54.500 N 71 6 18.250 W -24.50m 30m 10000m 10m')
    roundTrip('LOC', '52 22 23.000 N 4 53 32.000 E -2.00m 0.00m 10000m 10m', '000016138b3cf018810cbce0009895b8')
  })

  it('defaults minutes and seconds to 0 and size, precisions to 1m, 10000m, 10m (RFC 1876 §3)', () => {
    roundTrip('LOC', '42 N 71 W 0', '001216138903210070c3da8000989680', '42 0 0.000 N 71 0 0.000 W 0.00m 1m 10000m 10m')
    roundTrip('LOC', '0 N 0 E -0', '00121613800000008000000000989680', '0 0 0.000 N 0 0 0.000 E 0.00m 1m 10000m 10m')
  })

  it('takes the extremes', () => {
    roundTrip('LOC', '0 0 0 N 0 0 0 E 42849672.95m 90000000m 90000000m 90000000m', '009999998000000080000000ffffffff', '0 0 0.000 N 0 0 0.000 E 42849672.95m 90000000m 90000000m 90000000m')
    roundTrip('LOC', '90 S 180 E -100000.00 0.5m 1 0', '005112006cb02700a69fb20000000000', '90 0 0.000 S 180 0 0.000 E -100000.00m 0.50m 1m 0.00m')
    roundTrip('LOC', '89 59 59.999 N 179 59 59.999 W 1m', '00121613934fd8ff59604e01009896e4', '89 59 59.999 N 179 59 59.999 W 1.00m 1m 10000m 10m')
  })

  it('encodes sizes as mantissa and exponent, truncating as BIND does', () => {
    roundTrip('LOC', '1 2 3.4 N 5 6 7.8 E 15m 15m 0.05 99', '001350938038d0888118453800989c5c', '1 2 3.400 N 5 6 7.800 E 15.00m 10m 0.05m 90m')
    roundTrip('LOC', '1 2 3.4 N 5 6 7.8 E .5 .05', '005016138038d08881184538009896b2', '1 2 3.400 N 5 6 7.800 E 0.50m 0.05m 10000m 10m')
  })

  it('refuses out-of-range and malformed values', () => {
    refuses('LOC', '91 N 5 E 1', /latitude degrees must be a number from 0 to 90/)
    refuses('LOC', '90 1 N 5 E 1', /latitude must be at most 90 degrees/)
    refuses('LOC', '1 60 N 5 E 1', /latitude minutes must be a number from 0 to 59/)
    refuses('LOC', '1 2 60 N 5 E 1', /latitude seconds must be from 0 to 59.999/)
    refuses('LOC', '1 2 3.4567 N 5 E 1', /latitude seconds/)
    refuses('LOC', '1 2 3.4 n 5 6 7.8 E 1', /latitude must end in S or N, got "n"/)
    refuses('LOC', '1 N 181 E 1', /longitude degrees must be a number from 0 to 180/)
    refuses('LOC', '1 N 5 N 1', /longitude minutes must be a number from 0 to 59, got "N"/)
    refuses('LOC', '1 N 5 6 7 N 1', /longitude must end in W or E, got "N"/)
    refuses('LOC', '1 N 5 E', /missing altitude/)
    refuses('LOC', '1 N 5 E 1.555', /altitude must be metres/)
    refuses('LOC', '1 N 5 E -100000.01', /altitude must be at least -100000m/)
    refuses('LOC', '1 N 5 E 42849673', /altitude must be at most 42849672.95m/)
    refuses('LOC', '1 N 5 E 1 90000001', /size must be at most 90000000m/)
    refuses('LOC', '1 N 5 E 1 1x', /size must be metres/)
    refuses('LOC', '1 N 5 E 1 1 1 1 1', /unexpected "1" after the vertical precision/)
  })

  it('checks the version 0 wire layout as BIND does', () => {
    assert.match(wireProblem(29, fromHex('00121613800000008000000000989680ff')) ?? '', /16 octets/)
    assert.match(wireProblem(29, fromHex('00a21613800000008000000000989680')) ?? '', /size 0xa2/)
    assert.match(wireProblem(29, fromHex('00021613800000008000000000989680')) ?? '', /size 0x2/)
    assert.match(wireProblem(29, fromHex('00121613a00000008000000000989680')) ?? '', /latitude beyond 90 degrees/)
    assert.match(wireProblem(29, fromHex('0012161380000000cb00000000989680')) ?? '', /longitude beyond 180 degrees/)
    assert.equal(wireProblem(29, fromHex('00001613800000008000000000989680')), undefined)
  })

  it('writes other versions in the generic form and reports them (RFC 1876 §2)', () => {
    const v1 = fromHex('01020304')
    assert.equal(wireProblem(29, v1), undefined)
    assert.equal(format('LOC', v1), '\\# 4 01020304')
    assert.deepEqual(reasons('LOC', '\\# 4 01020304'), ['LOC version 1 is not defined (RFC 1876 §2 defines version 0 only)'])
    assert.deepEqual(reasons('LOC', '42 N 71 W 0'), [])
  })
})
