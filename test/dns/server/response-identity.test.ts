/**
 * Response identities for rate limiting (which responses share a bucket), read from the
 * bytes the answer path produced, and the truncated "slip" reply.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { handleQuery } from '../../../src/dns/server/handle-query.ts'
import { responseIdentity, truncatedCopy } from '../../../src/dns/server/response-identity.ts'
import { decodeMessage } from '../../../src/dns/wire/message.ts'
import { exampleIndex, query } from '../../helpers/dns-clients.ts'

const CLIENT = { transport: 'udp', address: '192.0.2.1', port: 5300, family: 'IPv4' } as const

describe('responseIdentity', () => {
  const index = exampleIndex()
  const identity = (name: string, type: string): string => responseIdentity(handleQuery(query(1, name, type), CLIENT, { index })!)

  it('names positive answers by qname and qtype, ignoring case', () => {
    assert.equal(identity('Mail.Example.ORG.', 'A'), identity('mail.example.org.', 'A'))
    assert.notEqual(identity('mail.example.org.', 'A'), identity('ns1.example.org.', 'A'))
    assert.notEqual(identity('example.org.', 'A'), identity('example.org.', 'NS'))
  })

  it('names NXDOMAIN and NODATA by the zone, so random names share one bucket', () => {
    assert.equal(identity('a1.example.org.', 'A'), identity('b2.example.org.', 'A'))
    assert.match(identity('a1.example.org.', 'A'), /^N\//)
    assert.equal(identity('mail.example.org.', 'TXT'), identity('ns1.example.org.', 'MX'))
    assert.match(identity('mail.example.org.', 'TXT'), /^D\//)
    assert.notEqual(identity('a1.example.org.', 'A'), identity('mail.example.org.', 'TXT'), 'NXDOMAIN and NODATA apart')
  })

  it('names an NXDOMAIN after a CNAME by the zone too', () => {
    const reply = decodeMessage(handleQuery(query(1, 'gone.example.org.', 'A'), CLIENT, { index })!)
    assert.equal(reply.rcode, 3)
    assert.equal(reply.answers.length, 1)
    assert.equal(identity('gone.example.org.', 'A'), identity('other.example.org.', 'A'))
  })

  it('names referrals by the delegated zone', () => {
    assert.equal(identity('a.sub.example.org.', 'A'), identity('b.c.sub.example.org.', 'MX'))
    assert.match(identity('a.sub.example.org.', 'A'), /^R\//)
  })

  it('names other rcodes by the rcode alone', () => {
    assert.equal(identity('example.com.', 'A'), 'E/5')
    assert.equal(identity('other.test.', 'MX'), 'E/5')
    assert.equal(responseIdentity(Uint8Array.from([0, 1, 0x80, 1, 0, 0, 0, 0, 0, 0, 0, 0])), 'E/1')
  })
})

describe('truncatedCopy', () => {
  it('keeps the header and question, sets TC and empties the sections', () => {
    const full = handleQuery(query(77, 'example.org.', 'NS', true), CLIENT, { index: exampleIndex() })!
    const tc = decodeMessage(truncatedCopy(full))
    assert.equal(tc.id, 77)
    assert.equal(tc.tc, true)
    assert.equal(tc.qr, true)
    assert.equal(tc.questions.length, 1)
    assert.deepEqual([tc.answers.length, tc.authority.length, tc.additional.length], [0, 0, 0])
    const headerOnly = decodeMessage(truncatedCopy(Uint8Array.from([0, 2, 0x80, 1, 0, 0, 0, 0, 0, 0, 0, 0])))
    assert.equal(headerOnly.tc, true)
    assert.equal(headerOnly.questions.length, 0)
  })
})
