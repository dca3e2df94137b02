import type { WireName } from './name.ts'

/** DNS class IN (RFC 1035 §3.2.4); the only class zones hold. */
export const CLASS_IN = 1

/**
 * One resource record as zone files, transfers and the store see it: the owner as a wire name,
 * the rdata as canonical wire bytes (names uncompressed, case kept). Compact on purpose: a
 * million of them must fit in a few hundred megabytes.
 */
export interface ZoneRecord {
  owner: WireName
  type: number
  ttl: number
  rdata: Uint8Array
  /** Line in the source file, for problems (zone files only). */
  line?: number
}

/** Severity of a problem: errors reject an upload; warnings are reported and accepted. */
export type Severity = 'error' | 'warning'

/** A problem found in a zone file or zone, with its location. */
export interface ZoneProblem {
  /** From a closed list (`zonefile/problems.ts`, `zone/checks/`). */
  code: string
  severity: Severity
  message: string
  file?: string
  line?: number
  /** The owner the problem is about, in presentation form. */
  owner?: string
}
