import { isZonalError } from '../../errors/catalog.ts'
import type { DanglingScanPayload } from '../../reports/dangling-dns.ts'
import { scanZone, type DanglingScanSettings } from '../../reports/dangling-scan.ts'
import type { TaskHandler } from '../runner.ts'

/** The report was replaced by a newer scan while this one ran: nothing of this one is written. */
class Superseded extends Error {}

const SUPERSEDED = 'Dangling DNS scan superseded by a newer one.'

/**
 * The dangling DNS scan of one zone (`POST /v1/zones/{zone}/healthchecks/dangling`): fills the
 * report of the payload's version, COMPLETED with what it flagged or FAILED with the reason (the
 * task then ends ERROR with the same reason). A report replaced meanwhile by a newer scan is
 * left alone. Progress goes to the report's message and the task's.
 */
export function danglingScanJob (settings: DanglingScanSettings): TaskHandler {
  return async (ctx) => {
    const p = ctx.payload as Partial<DanglingScanPayload> | undefined
    if (typeof p?.zoneId !== 'string' || typeof p.version !== 'string') throw new Error('dangling scan task without its zone')
    const { zoneId, version } = p
    const reports = ctx.store.danglingReports
    const report = await reports.current(zoneId)
    if (report === undefined || report.version !== version || report.status !== 'IN_PROGRESS') return { message: SUPERSEDED }
    const progress = async (checked: number, total: number): Promise<void> => {
      const message = `Checked ${checked} of ${total} CNAME records.`
      await ctx.reportProgress(message, total === 0 ? 0 : checked / total)
      if (!await reports.progress(zoneId, version, message)) throw new Superseded()
    }
    try {
      await reports.progress(zoneId, version, 'Reading the zone\'s CNAME records.')
      const result = await scanZone(ctx.store, zoneId, settings, progress, ctx.signal)
      const message = `Checked ${result.checked} CNAME records (${result.queries} names asked): ${result.findings.length} dangling.`
      if (!await reports.complete(zoneId, version, result.findings, message, new Date().toISOString())) return { message: SUPERSEDED }
      return { message }
    } catch (err) {
      if (err instanceof Superseded) return { message: SUPERSEDED }
      // This worker lost the task (its lease went to another, which scans this version again): leave the report to that one.
      if (ctx.signal.aborted) throw err
      // The reason a caller reads; anything unexpected is "System Error" there and logged by the runner.
      await reports.fail(zoneId, version, isZonalError(err) ? err.message : 'System Error', new Date().toISOString()).catch(() => {})
      throw err
    }
  }
}
