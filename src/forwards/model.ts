/**
 * Web forwards (URL forwarding), in the domain's own words. The API's spellings (`Framed`,
 * `HTTP_301_REDIRECT`, `PARAMETER_AND_PATH`, `BEGINS_WITH`, …) are translated in `api/`; the
 * store keeps these values; the forwarding HTTP server reads them from a `ForwardTable`.
 */

/** How a forward answers: a redirect with this status, or a page framing the target. */
export type ForwardMode = 'framed' | 301 | 302 | 303 | 307

/** What of the request is carried over to the target. */
export type RelativeMode = 'none' | 'parameter' | 'path' | 'parameterAndPath'

export type MatchCriteria = 'beginsWith' | 'contains' | 'endsWith' | 'matches'

/** One condition on a request header; a header rule set matches when all its rules do. */
export interface HeaderRule {
  /** Header name as the user gave it; matched case-insensitively, as HTTP header names are. */
  header: string
  match: MatchCriteria
  value: string
  caseInsensitive: boolean
}

/** An advanced record: where to send requests whose headers match every rule. */
export interface ForwardAlternative {
  /** Lower numbers are tried first. */
  priority: number
  redirectTo: string
  mode: ForwardMode
  rules: HeaderRule[]
}

export interface WebForward {
  /** The API's `guid`. */
  id: string
  /** The owning primary zone, as stored (lower-case, trailing dot). */
  zone: string
  /** The forwarded host: lower-case, no trailing dot (`www.example.com`). */
  host: string
  /** The path after the host, `''` for the whole host, else starting with `/` (no anchor). */
  path: string
  /** The anchor the user wrote after `#` (`''` when none): it makes a forward unique, never matches. */
  anchor: string
  redirectTo: string
  mode: ForwardMode
  relative: RelativeMode
  alternatives: ForwardAlternative[]
}
