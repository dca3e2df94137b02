/** The audit log's `filter` language: keys and their spellings, several values, date ranges, and each error. */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { parseAuditFilter } from '../../src/audit/filter.ts'
import { ZonalError } from '../../src/errors/catalog.ts'

const NOW = new Date('2026-11-22T15:00:00.000Z')

function fails (filter: string, key: string, message: RegExp): void {
  assert.throws(() => parseAuditFilter(filter, NOW), (err: unknown) => err instanceof ZonalError && err.code === key && message.test(err.message))
}

describe('audit filter', () => {
  it('without a filter: the last 24 hours and no other condition', () => {
    for (const f of [undefined, '', '  ']) {
      const parsed = parseAuditFilter(f, NOW)
      assert.deepEqual([parsed.from.toISOString(), parsed.to.toISOString()], ['2026-11-21T15:00:00.000Z', '2026-11-22T15:00:00.001Z'])
      assert.deepEqual([parsed.users, parsed.changeTypes, parsed.accounts], [[], [], []])
    }
  })

  it('reads every key, the alternative spellings, repeated keys and comma lists', () => {
    const f = parseAuditFilter('user:alice::users:bob,carol::object_name:www.example.org.::object_type:ZONE::change_type:ADD::change_type:DELETE::parent_name:example.org.::account:acme::accounts:other::change_comment:moved, then fixed', NOW)
    assert.deepEqual(f.users, ['alice', 'bob', 'carol'])
    assert.deepEqual(f.objectNames, ['www.example.org.'])
    assert.deepEqual(f.objectTypes, ['ZONE'])
    assert.deepEqual(f.changeTypes, ['ADD', 'DELETE'])
    assert.deepEqual(f.parentNames, ['example.org.'])
    assert.deepEqual(f.accounts, ['acme', 'other'])
    assert.deepEqual(f.changeComments, ['moved, then fixed'])
    assert.deepEqual(parseAuditFilter('CHANGE_TYPE:ZONE_TRANSFER_FAILURE', NOW).changeTypes, ['ZONE_TRANSFER_FAILURE'])
  })

  it('reads absolute date ranges in GMT, the end second included', () => {
    const f = parseAuditFilter('date_range:20261101000000-20261121235959', NOW)
    assert.equal(f.from.toISOString(), '2026-11-01T00:00:00.000Z')
    assert.equal(f.to.toISOString(), '2026-11-22T00:00:00.000Z')
  })

  it('reads the relative windows: 15m, 5h, 30d, 5w, 1month', () => {
    const from = (r: string): string => parseAuditFilter(`date_range:${r}`, NOW).from.toISOString()
    assert.equal(from('15m'), '2026-11-22T14:45:00.000Z')
    assert.equal(from('5h'), '2026-11-22T10:00:00.000Z')
    assert.equal(from('30d'), '2026-10-23T15:00:00.000Z')
    assert.equal(from('5w'), '2026-10-18T15:00:00.000Z')
    assert.equal(from('1month'), '2026-10-22T15:00:00.000Z')
    assert.equal(parseAuditFilter('date_range:5h', NOW).to.toISOString(), '2026-11-22T15:00:00.001Z', 'a record of this millisecond is in the window')
  })

  it('refuses what is not key:value pairs, unknown keys, bad dates and a start after the end', () => {
    fails('change_type', 'AUDIT_FILTER_INVALID', /Invalid filter 'change_type'/)
    fails('change_type:ADD::', 'AUDIT_FILTER_INVALID', /key:value pairs separated by ::/)
    fails(':ADD', 'AUDIT_FILTER_INVALID', /Invalid filter/)
    fails('change_type:', 'AUDIT_FILTER_INVALID', /Invalid filter/)
    fails('colour:blue', 'AUDIT_FILTER_KEY_UNKNOWN', /Invalid filter key 'colour'; known keys: date_range, users/)
    fails('date_range:2026-11-01', 'AUDIT_DATE_RANGE_INVALID', /received: 2026-11-01$/)
    fails('date_range:20261332000000-20261401000000', 'AUDIT_DATE_RANGE_INVALID', /date format is not valid/)
    fails('date_range:0h', 'AUDIT_DATE_RANGE_INVALID', /date format/)
    fails('date_range:20261121000000-20261101000000', 'AUDIT_DATE_RANGE_ORDER', /start is later than the end/)
    fails('date_range:5h::date_range:1d', 'AUDIT_FILTER_INVALID', /Invalid filter/)
  })
})
