/**
 * The live fields a probed pool's GET shows (src/traffic/live-status.ts): SB/TC status OK,
 * WARNING, CRITICAL, FAILED and availableToServe from the records' health and forced states;
 * SF status OK, CRITICAL, MANUAL; SLB availableToServe and the all-fail record's serving.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { liveProfileFields } from '../../src/traffic/live-status.ts'
import type { PoolRecordHealth } from '../../src/zone/pools/health.ts'
import { poolProfile, sbProfile, sfProfile, slbProfile } from '../helpers/traffic.ts'

const R = ['127.0.0.2', '127.0.0.3']
const health = (entries: Record<string, PoolRecordHealth>): Map<string, PoolRecordHealth> => new Map(Object.entries(entries))

describe('liveProfileFields', () => {
  it('SB: OK with the top priority serving, WARNING with a lower one, CRITICAL below maxActive, FAILED with nothing and no backup', () => {
    const sb = sbProfile('sb.example.org.', R)
    const status = (h: Record<string, PoolRecordHealth>, profile = sb): unknown => liveProfileFields(profile, R, health(h))?.status
    assert.equal(status({}), 'OK')
    assert.equal(status({ '127.0.0.2': 'DOWN' }), 'WARNING')
    assert.equal(status({ '127.0.0.2': 'DOWN', '127.0.0.3': 'DOWN' }), 'CRITICAL', 'the backup serves')
    const two = sbProfile('sb.example.org.', R, {}, { maxActive: 2 })
    assert.equal(status({ '127.0.0.3': 'DOWN' }, two), 'CRITICAL')
    const noBackup = poolProfile({ '@context': 'http://schemas.ultradns.com/SBPool.jsonschema', rdataInfo: [{}, {}] }, R, 'sb.example.org.')
    assert.equal(status({ '127.0.0.2': 'DOWN', '127.0.0.3': 'DOWN' }, noBackup), 'FAILED')
    const fields = liveProfileFields(sb, R, health({ '127.0.0.2': 'DOWN' })) as { rdataInfo: Array<{ availableToServe: boolean }>, backupRecords: Array<{ availableToServe: boolean }> }
    assert.deepEqual(fields.rdataInfo.map(r => r.availableToServe), [false, true])
    assert.deepEqual(fields.backupRecords.map(r => r.availableToServe), [true])
    const forced = sbProfile('sb.example.org.', R, { state: 'ACTIVE' })
    assert.equal(status({ '127.0.0.2': 'DOWN' }, forced), 'OK', 'a record forced ACTIVE serves whatever the probes say')
  })

  it('SF: OK, CRITICAL when the monitor failed the live record, MANUAL when it is forced inactive', () => {
    const sf = sfProfile('sf.example.org.', '127.0.0.4', 'http://www.example.org/')
    assert.deepEqual(liveProfileFields(sf, ['127.0.0.4'], health({})), { status: 'OK' })
    assert.deepEqual(liveProfileFields(sf, ['127.0.0.4'], health({ '127.0.0.4': 'DOWN' })), { status: 'CRITICAL' })
    const manual = sfProfile('sf.example.org.', '127.0.0.4', 'http://www.example.org/', '127.0.0.99', { liveRecordState: 'FORCED_INACTIVE' })
    assert.deepEqual(liveProfileFields(manual, ['127.0.0.4'], health({})), { status: 'MANUAL' })
  })

  it('SLB: records available unless DOWN or forced inactive; the all-fail record serves when none is', () => {
    const slb = slbProfile('slb.example.org.', R, 'http://www.example.org/')
    const fields = (h: Record<string, PoolRecordHealth>): { rdataInfo: Array<{ availableToServe: boolean }>, allFailRecord: { serving: boolean } } => liveProfileFields(slb, R, health(h)) as never
    assert.deepEqual(fields({ '127.0.0.2': 'DOWN' }).rdataInfo.map(r => r.availableToServe), [false, true])
    assert.equal(fields({ '127.0.0.2': 'DOWN' }).allFailRecord.serving, false)
    assert.equal(fields({ '127.0.0.2': 'DOWN', '127.0.0.3': 'DOWN' }).allFailRecord.serving, true)
  })
})
