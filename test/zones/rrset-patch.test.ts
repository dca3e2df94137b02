import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { isZonalError } from '../../src/errors/catalog.ts'
import { RRType } from '../../src/zone/rrtype.ts'
import { applyRrsetPatch, patchOperations, rdataFields } from '../../src/zones/rrset-patch.ts'

const MX = RRType.MX

const doc = { ttl: 300, rdata: ['10 mail.example.org.', '20 "quoted field" x'] }

describe('rdataFields', () => {
  it('splits presentation rdata into whitespace-separated fields, a quoted string being one', () => {
    assert.deepEqual(rdataFields(RRType.MX, '10 mail.example.org.'), ['10', 'mail.example.org.'])
    assert.deepEqual(rdataFields(RRType.HINFO, '"Intel x86"  "two \\" q"'), ['"Intel x86"', '"two \\" q"'])
  })

  it('keeps ; and parentheses of a value as characters (an API value has no comments)', () => {
    assert.deepEqual(rdataFields(RRType.CAA, '0 issue ca.example;x (y)'), ['0', 'issue', 'ca.example;x', '(y)'])
  })

  it('splits TXT and SPF text at single spaces, so the fields join back to the exact text', () => {
    const text = 'v=DMARC1; p=reject;  rua="mailto:d@example.org"\\'
    for (const type of [RRType.TXT, RRType.SPF]) {
      const fields = rdataFields(type, text)
      assert.deepEqual(fields, ['v=DMARC1;', 'p=reject;', '', 'rua="mailto:d@example.org"\\'])
      assert.equal(fields.join(' '), text)
    }
  })
})

describe('applyRrsetPatch', () => {
  it('addresses fields with /rdata/N/M and joins them again', () => {
    const out = applyRrsetPatch(MX, doc, [{ op: 'replace', path: '/rdata/1/1', value: '"new text"' }, { op: 'remove', path: '/rdata/1/2' }])
    assert.deepEqual(out.rdata, ['10 mail.example.org.', '20 "new text"'])
    assert.deepEqual(doc.rdata, ['10 mail.example.org.', '20 "quoted field" x'], 'the input is not changed')
  })

  it('moves and copies records and fields', () => {
    assert.deepEqual(applyRrsetPatch(MX, doc, [{ op: 'move', from: '/rdata/1', path: '/rdata/0' }]).rdata, ['20 "quoted field" x', '10 mail.example.org.'])
    assert.deepEqual(applyRrsetPatch(MX, doc, [{ op: 'copy', from: '/rdata/0/1', path: '/rdata/1/2' }]).rdata, ['10 mail.example.org.', '20 "quoted field" mail.example.org. x'])
  })

  it('replaces the whole rdata list and tests whole records', () => {
    assert.deepEqual(applyRrsetPatch(MX, doc, [{ op: 'test', path: '/rdata/0', value: '10  mail.example.org.' }, { op: 'replace', path: '/rdata', value: ['5 a.', '6 b.'] }]).rdata, ['5 a.', '6 b.'])
  })

  it('patches TXT text word by word, keeping everything else of it', () => {
    const txt = { ttl: 300, rdata: ['v=DMARC1; p=none; rua=mailto:d@example.org', 'another value'] }
    assert.deepEqual(applyRrsetPatch(RRType.TXT, txt, [{ op: 'replace', path: '/rdata/0/1', value: 'p=reject;' }]).rdata,
      ['v=DMARC1; p=reject; rua=mailto:d@example.org', 'another value'])
    assert.deepEqual(applyRrsetPatch(RRType.TXT, txt, [{ op: 'replace', path: '/rdata/1', value: 'a "quoted"; text' }]).rdata,
      ['v=DMARC1; p=none; rua=mailto:d@example.org', 'a "quoted"; text'])
  })

  it('keeps values that are no strings for the validation to name', () => {
    assert.deepEqual(applyRrsetPatch(MX, doc, [{ op: 'replace', path: '/rdata/0', value: 7 }]).rdata, [7, '20 "quoted field" x'])
  })

  it('fails with 170001 when an operation cannot apply', () => {
    assert.throws(() => applyRrsetPatch(MX, doc, [{ op: 'remove', path: '/rdata/5' }]), err => isZonalError(err, 'JSON_PATCH_FAILED'))
    assert.throws(() => applyRrsetPatch(MX, doc, [{ op: 'test', path: '/ttl', value: 301 }]), err => isZonalError(err, 'JSON_PATCH_FAILED'))
  })
})

describe('patchOperations', () => {
  it('checks the shape, the op and the top-level path of each operation', () => {
    assert.throws(() => patchOperations({}), err => isZonalError(err, 'JSON_PATCH_INVALID'))
    assert.throws(() => patchOperations([{ op: 'add' }]), err => isZonalError(err, 'JSON_PATCH_INVALID'))
    assert.throws(() => patchOperations([{ op: 'merge', path: '/ttl' }]), err => isZonalError(err, 'JSON_PATCH_UNSUPPORTED_OP'))
    assert.throws(() => patchOperations([{ op: 'move', from: '/zone', path: '/ttl' }]), err => isZonalError(err, 'JSON_PATCH_FAILED'))
    assert.throws(() => patchOperations([{ op: 'remove', path: '' }]), err => isZonalError(err, 'JSON_PATCH_FAILED'))
    assert.equal(patchOperations([{ op: 'remove', path: '/profile/order' }]).length, 1)
  })
})
