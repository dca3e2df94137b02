import { STATUSES, type CheckOutcome, type HealthMessage, type HealthStatus, type MessageStatus } from './types.ts'

/** The worse of statuses (ERROR worst; NOT_APPLICABLE when there is none). */
export function worst (statuses: Iterable<HealthStatus>): HealthStatus {
  let rank = 0
  for (const s of statuses) rank = Math.max(rank, STATUSES.indexOf(s))
  return STATUSES[rank]!
}

/** An outcome whose status is the worst of its messages'. */
export function outcome (messages: HealthMessage[], hint?: string): CheckOutcome {
  return { status: worst(messages.map(m => m.status)), messages, ...(hint === undefined ? {} : { hint }) }
}

/** One message. */
export function msg (status: MessageStatus, message: string): HealthMessage {
  return { status, message }
}

/** The outcome of a check that could not run: NOT_APPLICABLE, and why. */
export function notApplicable (why: string): CheckOutcome {
  return { status: 'NOT_APPLICABLE', messages: [{ status: 'INFO', message: why }] }
}

/** NOT_APPLICABLE for a check that needs DNS answers when no resolver is configured. */
export const NO_RESOLVERS = 'Not checked: no recursive resolver is configured (ZONAL_RESOLVERS).'
