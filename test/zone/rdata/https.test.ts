import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { format, parse, reasons, refuses, roundTrip } from '../../helpers/rdata.ts'

describe('HTTPS (RFC 9460 §9)', () => {
  it('has the SVCB layout under type 65', () => {
    roundTrip('HTTPS', '0 svc.example.net.', '0000' + '03737663076578616d706c65036e657400')
    roundTrip('HTTPS', '1 . alpn=h3 key123="a b"', '000100' + '0001' + '0003' + '026833' + '007b' + '0003' + '612062', '1 . alpn="h3" key123="a b"')
    assert.equal(format('HTTPS', parse('HTTPS', '1 . alpn=h2,h3 no-default-alpn port=443')), '1 . alpn="h2,h3" no-default-alpn port=443')
  })

  it('checks params like SVCB', () => {
    refuses('HTTPS', '1 . port=443 port=8443', /SvcParam port appears more than once/)
    assert.deepEqual(reasons('HTTPS', '1 . no-default-alpn'), ['no-default-alpn needs alpn as well (RFC 9460 §7.1.1)'])
    assert.deepEqual(reasons('HTTPS', '0 . alpn=h2'), ['AliasMode (priority 0) must not have SvcParams (RFC 9460 §2.4.2)'])
  })
})
