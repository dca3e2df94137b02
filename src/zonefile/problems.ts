import type { Severity, ZoneProblem } from '../zone/record.ts'

/**
 * The closed list of zone-file problem codes, each with its severity and its one message (the
 * Knot `src/libzscanner/error.c` table). A problem's message is the table text, then a colon and
 * the detail of the case at hand.
 *
 * Not in this list on purpose: data outside the zone (BIND's "ignoring out-of-zone data"),
 * a missing SOA or NS, CNAME next to other data and differing TTLs within an RRset. The parser
 * reads what the file says; those are zone checks (`zone/checks/`), run on the parsed records.
 */
export const PROBLEMS = {
  // Lexical: the text cannot be split into entries.
  ZONEFILE_UNTERMINATED_QUOTE: { severity: 'error', message: 'quoted string not closed before the end of the line' },
  ZONEFILE_UNBALANCED_PARENS: { severity: 'error', message: 'unbalanced parentheses' },
  ZONEFILE_LINE_TOO_LONG: { severity: 'error', message: 'entry too long' },

  // Directives ($ORIGIN, $TTL, $INCLUDE, $GENERATE).
  ZONEFILE_BAD_DIRECTIVE: { severity: 'error', message: 'bad directive' },
  ZONEFILE_BAD_ORIGIN: { severity: 'error', message: 'bad origin' },
  ZONEFILE_INCLUDE_REFUSED: { severity: 'error', message: '$INCLUDE is not allowed here' },
  ZONEFILE_INCLUDE_OUTSIDE_ROOT: { severity: 'error', message: '$INCLUDE file outside the allowed folder' },
  ZONEFILE_INCLUDE_NOT_FOUND: { severity: 'error', message: '$INCLUDE file not found or not readable' },
  ZONEFILE_INCLUDE_LOOP: { severity: 'error', message: '$INCLUDE loop' },
  ZONEFILE_BAD_GENERATE: { severity: 'error', message: 'bad $GENERATE' },

  // Owner.
  ZONEFILE_BAD_OWNER: { severity: 'error', message: 'bad owner name' },
  ZONEFILE_NO_OWNER: { severity: 'error', message: 'no owner name to inherit' },
  ZONEFILE_OWNER_AFTER_ORIGIN: { severity: 'warning', message: 'inherited owner right after a change of origin' },

  // TTL.
  ZONEFILE_BAD_TTL: { severity: 'error', message: 'bad TTL' },
  ZONEFILE_TTL_TOO_LARGE: { severity: 'warning', message: 'TTL over 2147483647, set to 0' },
  ZONEFILE_TTL_FROM_PREVIOUS: { severity: 'warning', message: 'no TTL and no $TTL: using the last TTL given (RFC 1035 semantics)' },
  ZONEFILE_TTL_FROM_SOA: { severity: 'warning', message: 'no TTL and no $TTL: using the SOA minimum as the default TTL' },
  ZONEFILE_NO_TTL: { severity: 'error', message: 'no TTL, no $TTL and no earlier TTL' },

  // Class and type.
  ZONEFILE_BAD_CLASS: { severity: 'error', message: 'bad class' },
  ZONEFILE_CLASS_NOT_IN: { severity: 'error', message: 'only class IN is supported' },
  ZONEFILE_NO_TYPE: { severity: 'error', message: 'missing record type' },
  ZONEFILE_UNKNOWN_TYPE: { severity: 'error', message: 'unknown record type' },
  ZONEFILE_META_TYPE: { severity: 'error', message: 'meta type cannot be used in a zone' },

  // Rdata.
  ZONEFILE_BAD_RDATA: { severity: 'error', message: 'bad rdata' },

  // Limits.
  ZONEFILE_TOO_MANY_RECORDS: { severity: 'error', message: 'too many records; parsing stopped' },
  ZONEFILE_TOO_MANY_PROBLEMS: { severity: 'error', message: 'too many problems; parsing stopped' }
} as const satisfies Record<string, { severity: Severity, message: string }>

/** A zone-file problem code. */
export type ZoneFileProblemCode = keyof typeof PROBLEMS

/**
 * Build a problem from the table: its severity and message come from {@link PROBLEMS}, the
 * detail is appended after a colon.
 *
 * @param code - one of the {@link PROBLEMS} codes
 * @param detail - what exactly is wrong here (may be empty)
 * @param file - the file the problem is in (undefined for uploaded text)
 * @param line - the 1-based line of the entry at fault
 * @returns the problem, ready to report
 */
export function zoneFileProblem (code: ZoneFileProblemCode, detail: string, file: string | undefined, line: number | undefined): ZoneProblem {
  const entry = PROBLEMS[code]
  const message = detail === '' ? entry.message : `${entry.message}: ${detail}`
  const p: ZoneProblem = { code, severity: entry.severity, message }
  if (file !== undefined) p.file = file
  if (line !== undefined) p.line = line
  return p
}
