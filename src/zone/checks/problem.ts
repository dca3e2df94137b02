import type { Severity, ZoneProblem } from '../record.ts'

/**
 * The closed list of zone check codes, each with its severity (Knot `semantic-check.h` style).
 * Errors make a zone unusable (an upload is refused); warnings describe data that is accepted
 * after normalisation (duplicates dropped, the lowest TTL of an rrset applied, out-of-zone data
 * ignored, as BIND and UltraDNS do).
 */
export const CHECKS = {
  ZONE_SOA_MISSING: { severity: 'error', text: 'the zone has no SOA record at its apex' },
  ZONE_SOA_MULTIPLE: { severity: 'error', text: 'the zone has more than one SOA record' },
  ZONE_SOA_NOT_AT_APEX: { severity: 'error', text: 'SOA record below the apex' },
  ZONE_NS_MISSING: { severity: 'error', text: 'the zone has no NS records at its apex' },
  ZONE_CNAME_AT_APEX: { severity: 'error', text: 'CNAME at the zone apex' },
  ZONE_CNAME_WITH_OTHER_DATA: { severity: 'error', text: 'CNAME and other data at the same name' },
  ZONE_CNAME_MULTIPLE: { severity: 'error', text: 'more than one CNAME record at the same name' },
  ZONE_DNAME_WITH_CHILDREN: { severity: 'error', text: 'DNAME at a name that has names below it' },
  ZONE_DS_AT_APEX: { severity: 'error', text: 'DS record at the zone apex (it belongs in the parent zone)' },
  ZONE_GLUE_MISSING: { severity: 'error', text: 'in-zone name server without address records' },
  ZONE_OUT_OF_ZONE: { severity: 'warning', text: 'record outside the zone (ignored)' },
  ZONE_DUPLICATE_RECORD: { severity: 'warning', text: 'duplicate record (kept once)' },
  ZONE_TTL_MISMATCH: { severity: 'warning', text: 'records of one rrset with different TTLs (the lowest applies)' }
} as const satisfies Record<string, { severity: Severity, text: string }>

export type CheckCode = keyof typeof CHECKS

export function checkProblem (code: CheckCode, owner: string, detail?: string, line?: number): ZoneProblem {
  const c = CHECKS[code]
  return {
    code,
    severity: c.severity,
    message: detail === undefined ? `${owner}: ${c.text}` : `${owner}: ${c.text}: ${detail}`,
    owner,
    ...(line === undefined ? {} : { line })
  }
}
