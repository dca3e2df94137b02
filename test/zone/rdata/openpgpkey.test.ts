import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { format, fromHex, hex, parse, refuses, roundTrip } from '../../helpers/rdata.ts'
import '../../../src/zone/rdata/index.ts'

const KEY = 'mQENBFVHm5sBCACxM8jGbNNe0YiuWCx7jaLnSwiIiWkdP1EnQnZu'
const KEY_HEX = '99010d0455479b9b010800b133c8c66cd35ed188ae582c7b8da2e74b088889691d3f512742766e'

describe('OPENPGPKEY (RFC 7929 §2)', () => {
  it('round-trips with the bytes BIND writes, base64 pieces joined', () => {
    // Wire from named-rrchecker -u.
    roundTrip('OPENPGPKEY', KEY, KEY_HEX)
    roundTrip('OPENPGPKEY', `( ${KEY.slice(0, 20)}\n ${KEY.slice(20)} )`, KEY_HEX, KEY)
    roundTrip('OPENPGPKEY', 'AA==', '00')
  })

  it('refuses bad input with a reason', () => {
    refuses('OPENPGPKEY', '', /missing public key/)
    refuses('OPENPGPKEY', 'AAA', /public key is not valid base64/)
    refuses('OPENPGPKEY', 'AAAA =', /public key is not valid base64/)
    refuses('OPENPGPKEY', 'AA==AA==', /public key is not valid base64/)
    refuses('OPENPGPKEY', 'AA-_', /public key is not valid base64/)
  })

  it('takes the generic form and refuses empty generic data', () => {
    assert.equal(hex(parse('OPENPGPKEY', `\\# 39 ${KEY_HEX}`)), KEY_HEX)
    refuses('OPENPGPKEY', '\\# 0', /does not match the OPENPGPKEY layout: public key is empty/)
    refuses('OPENPGPKEY', '\\# 2 00', /length 2 does not match its 1 octets/)
    assert.equal(format('OPENPGPKEY', fromHex('00')), 'AA==')
  })
})
