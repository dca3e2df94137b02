/**
 * The state rules (src/traffic/decide.ts): SB/TC probes agree over agents by the probe's
 * threshold and over probes by the record's threshold; SF/SLB monitors by the region failure
 * sensitivity; stale results are ignored (a silent agent flips nothing); delays hold a change
 * back; records not probed are left alone.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { judgePool, stepFor, type Evidence, type ProbeRule } from '../../src/traffic/decide.ts'
import { sbProfile, sfProfile, slbProfile } from '../helpers/traffic.ts'

const NOW = Date.parse('2026-11-26T09:00:00.000Z')
const MIN = 60_000
const ev = (record: string, probeId: string, agent: string, ok: boolean, ago = 0): Evidence => ({ record, probeId, agent, ok, at: NOW - ago })
const rule = (id: string, threshold = 1, poolRecord: string | null = null): ProbeRule => ({ id, poolRecord, threshold, intervalMs: MIN })

describe('judgePool', () => {
  const sb = sbProfile('sb.example.org.', ['127.0.0.2', '127.0.0.3'])

  it('SB: a probe fails when `threshold` agents fail it; a record goes DOWN when its threshold of probes fail', () => {
    const two = [rule('P', 2)]
    const oneAgentDown = judgePool(sb, ['127.0.0.2', '127.0.0.3'], two, [ev('127.0.0.2', 'P', 'a', false), ev('127.0.0.2', 'P', 'b', true)], MIN, NOW)
    assert.deepEqual(oneAgentDown.map(v => [v.record, v.state]), [['127.0.0.2', 'UP']], 'one of two agents is not enough; 127.0.0.3 has no evidence')
    const both = judgePool(sb, ['127.0.0.2', '127.0.0.3'], two, [ev('127.0.0.2', 'P', 'a', false), ev('127.0.0.2', 'P', 'b', false)], MIN, NOW)
    assert.equal(both[0]!.state, 'DOWN')
  })

  it('SB: the threshold is the number of agents still reporting when fewer report; stale ones are ignored', () => {
    const out = judgePool(sb, ['127.0.0.2'], [rule('P', 2)], [ev('127.0.0.2', 'P', 'a', false), ev('127.0.0.2', 'P', 'gone', true, 10 * MIN)], MIN, NOW)
    assert.equal(out[0]!.state, 'DOWN')
    const silent = judgePool(sb, ['127.0.0.2'], [rule('P')], [ev('127.0.0.2', 'P', 'gone', false, 10 * MIN)], MIN, NOW)
    assert.deepEqual(silent, [], 'only stale results: no verdict, the state stays')
  })

  it('SB: record threshold over probes, record-level probes, runProbes and actOnProbes', () => {
    const profile = sbProfile('sb.example.org.', ['127.0.0.2', '127.0.0.3'], { threshold: 2 })
    const rules = [rule('P1'), rule('P2'), rule('R3', 1, '127.0.0.3')]
    const evidence = [ev('127.0.0.2', 'P1', 'a', false), ev('127.0.0.2', 'P2', 'a', true), ev('127.0.0.3', 'P1', 'a', false), ev('127.0.0.3', 'R3', 'a', false)]
    assert.deepEqual(judgePool(profile, ['127.0.0.2', '127.0.0.3'], rules, evidence, MIN, NOW).map(v => [v.record, v.state]), [['127.0.0.2', 'UP'], ['127.0.0.3', 'DOWN']])
    const notRun = sbProfile('sb.example.org.', ['127.0.0.2'], { runProbes: false })
    assert.deepEqual(judgePool(notRun, ['127.0.0.2'], [rule('P1')], [ev('127.0.0.2', 'P1', 'a', false)], MIN, NOW), [])
    const notActing = sbProfile('sb.example.org.', ['127.0.0.2'], {}, { actOnProbes: false })
    assert.deepEqual(judgePool(notActing, ['127.0.0.2'], [rule('P1')], [ev('127.0.0.2', 'P1', 'a', false)], MIN, NOW), [])
  })

  it('SB: failoverDelay (minutes) is the verdict\'s delay', () => {
    const delayed = sbProfile('sb.example.org.', ['127.0.0.2'], { failoverDelay: 2 })
    assert.equal(judgePool(delayed, ['127.0.0.2'], [rule('P1')], [ev('127.0.0.2', 'P1', 'a', false)], MIN, NOW)[0]!.delayMs, 2 * MIN)
  })

  it('SF: HIGH sensitivity fails on one agent, LOW on a majority', () => {
    const high = sfProfile('sf.example.org.', '127.0.0.4', 'http://www.example.org/')
    const low = sfProfile('sf.example.org.', '127.0.0.4', 'http://www.example.org/', '127.0.0.99', { regionFailureSensitivity: 'LOW' })
    const evidence = [ev('127.0.0.4', '', 'a', false), ev('127.0.0.4', '', 'b', true), ev('127.0.0.4', '', 'c', true)]
    assert.equal(judgePool(high, ['127.0.0.4'], [], evidence, MIN, NOW)[0]!.state, 'DOWN')
    assert.equal(judgePool(low, ['127.0.0.4'], [], evidence, MIN, NOW)[0]!.state, 'UP')
    assert.equal(judgePool(low, ['127.0.0.4'], [], [...evidence.slice(0, 2), ev('127.0.0.4', '', 'c', false)], MIN, NOW)[0]!.state, 'DOWN')
  })

  it('SLB: each record with probing enabled is judged by the monitor', () => {
    const slb = slbProfile('slb.example.org.', ['127.0.0.5', '127.0.0.6'], 'http://www.example.org/')
    const out = judgePool(slb, ['127.0.0.5', '127.0.0.6'], [], [ev('127.0.0.5', '', 'a', true), ev('127.0.0.6', '', 'a', false)], MIN, NOW)
    assert.deepEqual(out.map(v => [v.record, v.state, v.delayMs]), [['127.0.0.5', 'UP', 0], ['127.0.0.6', 'DOWN', 0]])
  })
})

describe('stepFor', () => {
  const down = { record: 'r', state: 'DOWN' as const, delayMs: 0, why: '' }
  it('keeps an agreeing state and drops a waiting change', () => {
    assert.deepEqual(stepFor({ ...down, state: 'UP' }, { state: 'UP', pendingState: null, pendingSince: null }, NOW), { kind: 'keep' })
    assert.deepEqual(stepFor({ ...down, state: 'UP' }, { state: 'UP', pendingState: 'DOWN', pendingSince: NOW - MIN }, NOW), { kind: 'clear-pending' })
  })
  it('changes at once without a delay', () => {
    assert.deepEqual(stepFor(down, { state: 'UP', pendingState: null, pendingSince: null }, NOW), { kind: 'change', from: 'UP', to: 'DOWN' })
  })
  it('waits the delay, then changes', () => {
    const delayed = { ...down, delayMs: 2 * MIN }
    assert.deepEqual(stepFor(delayed, { state: 'UP', pendingState: null, pendingSince: null }, NOW), { kind: 'pend', state: 'DOWN' })
    assert.deepEqual(stepFor(delayed, { state: 'UP', pendingState: 'DOWN', pendingSince: NOW - MIN }, NOW), { kind: 'keep' })
    assert.deepEqual(stepFor(delayed, { state: 'UP', pendingState: 'DOWN', pendingSince: NOW - 2 * MIN }, NOW), { kind: 'change', from: 'UP', to: 'DOWN' })
    assert.deepEqual(stepFor(delayed, { state: 'DOWN', pendingState: null, pendingSince: null }, NOW), { kind: 'keep' })
  })
})

describe('restorationDelay', () => {
  it('holds a failback back by restorationDelay, by default failoverDelay', () => {
    const both = sbProfile('sb.example.org.', ['127.0.0.2'], { failoverDelay: 2 })
    const upAgain = [ev('127.0.0.2', 'P1', 'a', true)]
    assert.equal(judgePool(both, ['127.0.0.2'], [rule('P1')], upAgain, MIN, NOW)[0]!.delayMs, 2 * MIN)
    const quick = sbProfile('sb.example.org.', ['127.0.0.2'], { failoverDelay: 2, restorationDelay: 0 })
    assert.equal(judgePool(quick, ['127.0.0.2'], [rule('P1')], upAgain, MIN, NOW)[0]!.delayMs, 0)
    assert.equal(judgePool(quick, ['127.0.0.2'], [rule('P1')], [ev('127.0.0.2', 'P1', 'a', false)], MIN, NOW)[0]!.delayMs, 2 * MIN)
  })
})
