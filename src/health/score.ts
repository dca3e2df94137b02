import type { HealthStatus } from './types.ts'

/** Counts of results by status: what a HealthStatusRecord shows. */
export interface StatusCounts {
  ok: number
  error: number
  warning: number
  bestPractice: number
  info: number
  na: number
}

export const ZERO_COUNTS: StatusCounts = { ok: 0, error: 0, warning: 0, bestPractice: 0, info: 0, na: 0 }

const FIELD: Record<HealthStatus, keyof StatusCounts> = {
  OK: 'ok',
  ERROR: 'error',
  WARNING: 'warning',
  BEST_PRACTICE: 'bestPractice',
  INFO: 'info',
  NOT_APPLICABLE: 'na'
}

/** Count statuses. */
export function countStatuses (statuses: Iterable<HealthStatus>): StatusCounts {
  const c = { ...ZERO_COUNTS }
  for (const s of statuses) c[FIELD[s]]++
  return c
}

/** The sum of several counts. */
export function addCounts (a: StatusCounts, b: StatusCounts): StatusCounts {
  return { ok: a.ok + b.ok, error: a.error + b.error, warning: a.warning + b.warning, bestPractice: a.bestPractice + b.bestPractice, info: a.info + b.info, na: a.na + b.na }
}

/**
 * The health score, 0.00–10.00 (docs/decisions.md, "Zone health"): the graded results (OK,
 * BEST_PRACTICE, WARNING, ERROR; INFO and NOT_APPLICABLE pass no judgement and do not count)
 * each weigh one, of which an ERROR loses all, a WARNING half and a BEST_PRACTICE a quarter:
 * `10 × (1 − (errors + warnings / 2 + bestPractice / 4) / graded)`, rounded to two decimals.
 * A zone all of whose graded results are OK scores 10, and so does one with none graded.
 */
export function healthScore (c: StatusCounts): number {
  const graded = c.ok + c.error + c.warning + c.bestPractice
  if (graded === 0) return 10
  const lost = c.error + c.warning / 2 + c.bestPractice / 4
  return Math.round(1000 * (1 - lost / graded)) / 100
}
