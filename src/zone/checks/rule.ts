import type { WireName } from '../name.ts'
import type { ZoneProblem, ZoneRecord } from '../record.ts'

/** The records of one owner name, a slice `[start, end)` of the sorted zone. */
export interface OwnerRun {
  owner: WireName
  /** Canonical order key of the owner (`canonicalOrderKey`). */
  key: string
  records: readonly ZoneRecord[]
  start: number
  end: number
  apex: boolean
  inZone: boolean
}

export interface CheckContext {
  origin: WireName
  problems: ZoneProblem[]
}

/**
 * A zone check: sees every owner in canonical order (so names below an owner follow it), then
 * reports what it could only judge at the end.
 */
export interface ZoneRule {
  onOwner (run: OwnerRun, ctx: CheckContext): void
  finish? (ctx: CheckContext): void
}

/** Types present in a run, each once (records are sorted by type within an owner). */
export function runTypes (run: OwnerRun): number[] {
  const types: number[] = []
  for (let i = run.start; i < run.end; i++) {
    const t = run.records[i]!.type
    if (types[types.length - 1] !== t) types.push(t)
  }
  return types
}

export function firstOfType (run: OwnerRun, type: number): ZoneRecord | undefined {
  for (let i = run.start; i < run.end; i++) if (run.records[i]!.type === type) return run.records[i]
  return undefined
}
