import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { AnalyticsRetention, type AnalyticsUpkeep, type PrunedTable } from '../../src/analytics/retention.ts'

class Upkeep implements AnalyticsUpkeep {
  calls: string[] = []
  fail = 0
  async preparePartitions (now: Date): Promise<string[]> {
    this.calls.push(`prepare ${now.toISOString()}`)
    if (this.fail > 0) {
      this.fail--
      throw new Error('database down')
    }
    return ['host_volume 2026-12']
  }

  async prune (now: Date): Promise<PrunedTable[]> {
    this.calls.push(`prune ${now.toISOString()}`)
    return [{ table: 'host_volume', firstKept: '2026-08-27', deleted: 3, droppedPartitions: [] }, { table: 'query_volume', firstKept: '2025-10-25', deleted: 0, droppedPartitions: [] }]
  }
}

function recorder (): { logged: Array<[string, object, string]>, logger: { info (o: object, m: string): void, warn (o: object, m: string): void } } {
  const logged: Array<[string, object, string]> = []
  return { logged, logger: { info: (o, m) => logged.push(['info', o, m]), warn: (o, m) => logged.push(['warn', o, m]) } }
}

const NOW = new Date('2026-11-25T03:00:00Z')

describe('AnalyticsRetention', () => {
  it('runs at start and every interval: partitions ahead, then the prune; logs what it removed', async () => {
    const upkeep = new Upkeep()
    const { logged, logger } = recorder()
    const job = new AnalyticsRetention(upkeep, { intervalMs: 5, logger, now: () => NOW })
    job.start()
    while (upkeep.calls.length < 4) await new Promise(resolve => setTimeout(resolve, 5))
    await job.stop()
    assert.deepEqual(upkeep.calls.slice(0, 4), [`prepare ${NOW.toISOString()}`, `prune ${NOW.toISOString()}`, `prepare ${NOW.toISOString()}`, `prune ${NOW.toISOString()}`])
    assert.deepEqual(logged[0], ['info', { created: ['host_volume 2026-12'] }, 'analytics partitions created'])
    assert.deepEqual(logged[1], ['info', { pruned: [{ table: 'host_volume', firstKept: '2026-08-27', deleted: 3, droppedPartitions: [] }] }, 'analytics rows past their retention removed'])
  })

  it('logs a failed run and tries again at the next', async () => {
    const upkeep = new Upkeep()
    upkeep.fail = 1
    const { logged, logger } = recorder()
    const job = new AnalyticsRetention(upkeep, { logger, now: () => NOW })
    await job.run()
    assert.equal(logged[0]![0], 'warn')
    assert.match(String((logged[0]![1] as { err: Error }).err), /database down/)
    await job.run()
    assert.deepEqual(upkeep.calls, [`prepare ${NOW.toISOString()}`, `prepare ${NOW.toISOString()}`, `prune ${NOW.toISOString()}`])
  })
})
