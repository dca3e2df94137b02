import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { format, fromHex, hex, packetDecode, parse, refuses, roundTrip } from '../../helpers/rdata.ts'
import '../../../src/zone/rdata/index.ts'

const CERT = 'mQENBFVHm5sBCACxM8jGbNNe0YiuWCx7jaLnSwiIiWkdP1EnQnZu'
const CERT_HEX = '99010d0455479b9b010800b133c8c66cd35ed188ae582c7b8da2e74b088889691d3f512742766e'

describe('CERT (RFC 4398 §2)', () => {
  it('round-trips with the bytes BIND writes', () => {
    // Wire from named-rrchecker -u.
    roundTrip('CERT', `PGP 0 0 ${CERT}`, `0003000000${CERT_HEX}`)
    roundTrip('CERT', '1 2 RSASHA256 AAAA', '0001000208000000', 'PKIX 2 RSASHA256 AAAA')
  })

  it('writes certificate types and algorithms as BIND does: mnemonics where known', () => {
    const written: Array<[string, string]> = [
      ['0 0 0 AAAA', '0 0 0 AAAA'],
      ['spki 0 0 AAAA', 'SPKI 0 0 AAAA'],
      ['4 0 0 AAAA', 'IPKIX 0 0 AAAA'],
      ['ISPKI 0 0 AAAA', 'ISPKI 0 0 AAAA'],
      ['6 0 0 AAAA', 'IPGP 0 0 AAAA'],
      ['7 0 0 AAAA', 'ACPKIX 0 0 AAAA'],
      ['8 0 0 AAAA', 'IACPKIX 0 0 AAAA'],
      ['9 0 0 AAAA', '9 0 0 AAAA'],
      ['253 0 0 AAAA', 'URI 0 0 AAAA'],
      ['254 0 0 AAAA', 'OID 0 0 AAAA'],
      ['65535 65535 255 AAAA', '65535 65535 255 AAAA'],
      ['65000 2 3 AAAA', '65000 2 DSA AAAA'],
      ['PKIX 0 6 AAAA', 'PKIX 0 NSEC3DSA AAAA'],
      ['PKIX 0 RSASHA1-NSEC3-SHA1 AAAA', 'PKIX 0 NSEC3RSASHA1 AAAA'],
      ['PKIX 0 ECC-GOST AAAA', 'PKIX 0 ECCGOST AAAA'],
      ['PKIX 0 ecdsa256 AAAA', 'PKIX 0 ECDSAP256SHA256 AAAA'],
      ['PKIX 0 16 AAAA', 'PKIX 0 ED448 AAAA'],
      ['PKIX 0 253 AAAA', 'PKIX 0 PRIVATEDNS AAAA'],
      ['PKIX 0 4 AAAA', 'PKIX 0 4 AAAA']
    ]
    for (const [input, output] of written) assert.equal(format('CERT', parse('CERT', input)), output, input)
  })

  it('refuses bad input with a reason', () => {
    refuses('CERT', 'PKIX 0 0', /missing certificate/)
    refuses('CERT', 'PKIX 0', /missing algorithm/)
    refuses('CERT', 'X509 0 0 AAAA', /certificate type must be a number from 0 to 65535 or a mnemonic/)
    refuses('CERT', '65536 0 0 AAAA', /certificate type must be a number from 0 to 65535/)
    refuses('CERT', 'PKIX 65536 0 AAAA', /key tag must be a number from 0 to 65535/)
    refuses('CERT', 'PKIX 0 256 AAAA', /algorithm must be a number from 0 to 255/)
    refuses('CERT', 'PKIX 0 0 AAA', /certificate is not valid base64/)
  })

  it('takes the generic form and refuses generic data without a certificate', () => {
    assert.equal(hex(parse('CERT', '\\# 8 0001000208000000')), '0001000208000000')
    refuses('CERT', '\\# 5 0001000208', /does not match the CERT layout: certificate is empty/)
    refuses('CERT', '\\# 4 00010002', /does not match the CERT layout/)
    assert.equal(format('CERT', fromHex('00010002')), '\\# 4 00010002')
  })

  it('is opaque data to dns-packet, which has no CERT codec', () => {
    const wire = parse('CERT', `PGP 0 0 ${CERT}`)
    assert.equal(hex((packetDecode('CERT', wire) as { data: Buffer }).data), hex(wire))
  })
})
