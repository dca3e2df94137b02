import { ANALYTICS_TABLES, firstDayKept } from '../analytics-tables.ts'
import type { Engine } from '../engine.ts'
import { addMonthPartition, monthOf, removeDaysBefore } from '../partitions.ts'
import type { AnalyticsDataStore, AnalyticsPruned } from '../store.ts'

/** Upkeep of the analytics tables of {@link ANALYTICS_TABLES}: partitions ahead, rows past retention. */
export class SqlAnalyticsDataStore implements AnalyticsDataStore {
  private readonly engine: Engine

  constructor (engine: Engine) {
    this.engine = engine
  }

  async preparePartitions (now: Date): Promise<string[]> {
    if (this.engine.name !== 'postgres') return []
    const today = now.toISOString().slice(0, 10)
    const created: string[] = []
    for (const { name } of ANALYTICS_TABLES) {
      for (const month of [monthOf(today), monthOf(today, 1)]) {
        if (await addMonthPartition(this.engine.db, name, month)) created.push(`${name} ${month}`)
      }
    }
    return created
  }

  async prune (now: Date): Promise<AnalyticsPruned[]> {
    const out: AnalyticsPruned[] = []
    for (const { name, keep } of ANALYTICS_TABLES) {
      const firstKept = firstDayKept(keep, now)
      const { deleted, dropped } = await removeDaysBefore(this.engine.db, this.engine.name, name, firstKept)
      out.push({ table: name, firstKept, deleted, droppedPartitions: dropped })
    }
    return out
  }
}
