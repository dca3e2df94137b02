import type { NewAuditRecord, Store } from '../store/store.ts'

/** Who made a change and from where: taken from the request (or the CLI, or a background job). */
export interface Actor {
  user: string
  ipAddress: string | null
}

export interface Change {
  name: string
  from?: unknown
  to?: unknown
}

export interface AuditEntry {
  accountId: string
  accountName: string
  objectType: string
  changeType: string
  object: string
  parent?: string | null
  changes?: Change[]
  others?: unknown[]
  changeComment?: string | null
}

/**
 * Write one audit record for a change, in the transaction of the change itself (`tx`), so a
 * change that fails leaves no record and a record never exists without its change.
 */
export async function recordChange (tx: Store, actor: Actor, entry: AuditEntry): Promise<void> {
  await tx.audit.append(auditRecord(actor, entry))
}

/** The audit record of a change, as {@link recordChange} writes it. */
export function auditRecord (actor: Actor, entry: AuditEntry): NewAuditRecord {
  return {
    accountId: entry.accountId,
    accountName: entry.accountName,
    user: actor.user,
    ipAddress: actor.ipAddress,
    objectType: entry.objectType,
    changeType: entry.changeType,
    object: entry.object,
    parent: entry.parent ?? null,
    detail: { changes: entry.changes ?? [], others: entry.others ?? [] },
    changeComment: entry.changeComment ?? null
  }
}

/** The changes between two flat objects, one {name, from, to} per differing key. */
export function diffFields (before: Record<string, unknown>, after: Record<string, unknown>): Change[] {
  const out: Change[] = []
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = JSON.stringify(before[name] ?? null)
    const b = JSON.stringify(after[name] ?? null)
    if (a !== b) out.push({ name, from: before[name] ?? null, to: after[name] ?? null })
  }
  return out
}
