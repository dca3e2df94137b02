import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { context, OWNER, refused, valid } from './helpers.ts'

const RD = context('RDPool')

describe('RD pool profile', () => {
  it('stores the Python client\'s create_rd_pool profile as sent', () => {
    assert.deepEqual(valid({ '@context': RD, order: 'ROUND_ROBIN', description: 'web pool' }, ['192.0.2.1', '192.0.2.2']),
      { '@context': RD, order: 'ROUND_ROBIN', description: 'web pool' })
  })

  it('fills order ROUND_ROBIN and the owner as description (Go SDK sends order only)', () => {
    assert.deepEqual(valid({ '@context': RD }), { '@context': RD, order: 'ROUND_ROBIN', description: OWNER })
    assert.deepEqual(valid({ '@context': RD, order: 'FIXED' }, ['2001:db8::1'], 28), { '@context': RD, order: 'FIXED', description: OWNER })
  })

  it('refuses an unknown order with 70007 naming the field', () => {
    refused({ '@context': RD, order: 'WEIGHTED' }, 70007, 'profile.order')
    refused({ '@context': RD, order: 'fixed' }, 70007, 'profile.order')
  })

  it('refuses an unknown key with 70008 naming it', () => {
    refused({ '@context': RD, order: 'FIXED', weight: 2 }, 70008, 'profile.weight')
  })

  it('refuses a wrong shape with 110004 naming the field', () => {
    refused({ '@context': RD, description: 42 }, 110004, 'profile.description')
  })

  it('applies to A and AAAA only (70004)', () => {
    refused({ '@context': RD }, 70004, 'A or AAAA', ['mail.example.org.'], 5)
    refused({ '@context': RD }, 70004, 'A or AAAA', ['10 mail.example.org.'], 15)
  })
})
