import { HEALTH_CHECKS } from './checks/index.ts'
import { worst } from './status.ts'
import { CATEGORIES, type CategoryResults, type HealthCheck, type Observation } from './types.ts'

/**
 * Run every check over what was observed of a zone: the report's `checks`, one entry per
 * category in the order NS, SOA, MX, DNSSEC, DOMAIN, each with its worst status. A check that
 * throws (a bug) gives an ERROR result saying so rather than losing the report.
 */
export function runChecks (o: Observation, checks: readonly HealthCheck[] = HEALTH_CHECKS): CategoryResults[] {
  return CATEGORIES.map((category) => {
    const results = checks.filter(c => c.category === category).map((c) => {
      let out
      try {
        out = c.run(o)
      } catch (err) {
        out = { status: 'ERROR' as const, messages: [{ status: 'ERROR' as const, message: `The check failed to run: ${(err as Error).message}` }] }
      }
      return { name: c.name, description: c.description, ...(out.hint === undefined || out.status === 'OK' ? {} : { hint: out.hint }), status: out.status, messages: out.messages }
    })
    return { category, state: 'COMPLETED' as const, status: worst(results.map(r => r.status)), results }
  })
}
