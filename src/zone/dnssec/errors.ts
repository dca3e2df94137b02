/** Codes of the problems the DNSSEC code raises (a closed list; the API maps them to catalog errors). */
export type DnssecProblemCode =
  | 'DNSSEC_UNSUPPORTED_ALGORITHM'
  | 'DNSSEC_UNSUPPORTED_DIGEST'
  | 'DNSSEC_BAD_KEY'
  | 'DNSSEC_BAD_KEY_SIZE'
  | 'DNSSEC_BAD_POLICY'
  | 'DNSSEC_NO_SOA'

/** A key, policy or zone the DNSSEC code cannot work with; `code` is from a closed list. */
export class DnssecError extends Error {
  readonly code: DnssecProblemCode

  constructor (code: DnssecProblemCode, message: string) {
    super(message)
    this.code = code
  }
}
