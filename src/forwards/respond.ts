import type { ForwardMode, HeaderRule, RelativeMode, WebForward } from './model.ts'
import { NOTHING_POLICY, NOT_FOUND_PAGE, framedPage, framedPolicy } from './pages.ts'
import { parseTarget, targetUrl, type Target } from './target.ts'

/**
 * The forwarding server's answer to one request, decided without any I/O: which target (the
 * first advanced record, by ascending priority, whose header rules all match, else the default),
 * the URL with the request's path and query carried over as the relative mode says, and the
 * response: a redirect, a framed page, or 404.
 */

/** What of a request the answer depends on. */
export interface ForwardRequest {
  /** The request's method (any: every method gets the same answer, HEAD without the body). */
  method: string
  /** The path of the request target as sent (percent-encoding kept), starting with `/`. */
  path: string
  /** What follows the first `?` of the request target, `''` when nothing does. */
  query: string
  /** Header values by lower-case name, as node:http gives them. */
  headers: Readonly<Record<string, string | string[] | undefined>>
}

export interface ForwardResponse {
  status: number
  /** Header names in lower case. */
  headers: Readonly<Record<string, string>>
  /** `''` for a redirect and for HEAD (Content-Length still gives the GET body's length). */
  body: string
}

interface PreparedRule { header: string, match: HeaderRule['match'], value: string, caseInsensitive: boolean }
export interface Choice { target: Target, mode: ForwardMode, rules: PreparedRule[] }
interface Prepared { choices: Choice[], fallback: Choice | undefined }

const prepared = new WeakMap<WebForward, Prepared>()

/** A forward's targets parsed and its advanced records sorted, once per forward object. */
function prepare (forward: WebForward): Prepared {
  let p = prepared.get(forward)
  if (p !== undefined) return p
  const choices: Choice[] = []
  // Lowest priority first; records of equal priority in the order given (Array#sort is stable).
  for (const alt of [...forward.alternatives].sort((a, b) => a.priority - b.priority)) {
    const target = parseTarget(alt.redirectTo)
    // A record whose target cannot be sent (not http(s)) is never chosen; the API refuses such
    // targets, so this only guards against data written some other way.
    if (target === undefined) continue
    const rules = alt.rules.map(r => ({ header: r.header.toLowerCase(), match: r.match, value: r.caseInsensitive ? r.value.toLowerCase() : r.value, caseInsensitive: r.caseInsensitive }))
    choices.push({ target, mode: alt.mode, rules })
  }
  const target = parseTarget(forward.redirectTo)
  p = { choices, fallback: target === undefined ? undefined : { target, mode: forward.mode, rules: [] } }
  prepared.set(forward, p)
  return p
}

/**
 * Whether a header rule holds for a request. An absent header matches no rule. `matches` is
 * equality of the whole value (no pattern: a user's value is never compiled as a regular
 * expression); `caseInsensitive` compares both sides lower-cased. A header sent more than once
 * is matched on its values as node:http joins them (`, `).
 */
function holds (rule: PreparedRule, headers: ForwardRequest['headers']): boolean {
  const raw = headers[rule.header]
  if (raw === undefined) return false
  let value = typeof raw === 'string' ? raw : raw.join(', ')
  if (rule.caseInsensitive) value = value.toLowerCase()
  switch (rule.match) {
    case 'beginsWith': return value.startsWith(rule.value)
    case 'contains': return value.includes(rule.value)
    case 'endsWith': return value.endsWith(rule.value)
    case 'matches': return value === rule.value
  }
}

/** The advanced record chosen for a request, else the forward's default target. */
export function choose (forward: WebForward, headers: ForwardRequest['headers']): Choice | undefined {
  const p = prepare(forward)
  for (const choice of p.choices) {
    if (choice.rules.every(rule => holds(rule, headers))) return choice
  }
  return p.fallback
}

/**
 * The request's path below the forward's: the forward's path (without a trailing `/`) cut off;
 * for a forward of the whole host, the request's path, except that `/` alone carries nothing.
 * `''` when the request asks for the forward's path itself.
 */
export function pathBelow (forwardPath: string, path: string): string {
  if (forwardPath === '' || forwardPath === '/') return path === '/' ? '' : path
  const base = forwardPath.endsWith('/') ? forwardPath.slice(0, -1) : forwardPath
  return path.startsWith(base) ? path.slice(base.length) : ''
}

function carried (relative: RelativeMode, forwardPath: string, request: ForwardRequest, target: Target): string {
  switch (relative) {
    case 'none': return target.href
    case 'path': return targetUrl(target, pathBelow(forwardPath, request.path), '')
    case 'parameter': return targetUrl(target, '', request.query)
    case 'parameterAndPath': return targetUrl(target, pathBelow(forwardPath, request.path), request.query)
  }
}

const NOT_FOUND_HEADERS = Object.freeze({
  'content-type': 'text/html; charset=utf-8',
  'content-length': String(Buffer.byteLength(NOT_FOUND_PAGE)),
  'content-security-policy': NOTHING_POLICY,
  'x-content-type-options': 'nosniff'
})

/** The 404 answer: for a host or path with no forward, or a forward with no usable target. */
export function notFound (method: string): ForwardResponse {
  return { status: 404, headers: NOT_FOUND_HEADERS, body: method === 'HEAD' ? '' : NOT_FOUND_PAGE }
}

/**
 * The answer to a request for `forward` (the table's most specific forward for the request's
 * host and path; `undefined` when there is none).
 *
 * @returns a redirect (the forward's status, Location the target with what the relative mode
 *   carries over, no body), a framed page (200, the target in an iframe, a CSP that frames only
 *   the target's origin), or 404 (no forward; no usable target).
 */
export function respond (forward: WebForward | undefined, request: ForwardRequest): ForwardResponse {
  if (forward === undefined) return notFound(request.method)
  let target: Target | undefined
  let mode: ForwardMode
  if (forward.alternatives.length === 0) {
    // The usual forward: no advanced records, nothing to prepare (one map read fewer a request).
    target = parseTarget(forward.redirectTo)
    mode = forward.mode
  } else {
    const choice = choose(forward, request.headers)
    target = choice?.target
    mode = choice?.mode ?? forward.mode
  }
  if (target === undefined) return notFound(request.method)
  const url = carried(forward.relative, forward.path, request, target)
  if (mode !== 'framed') return { status: mode, headers: { location: url, 'content-length': '0' }, body: '' }
  const page = framedPage(target, url)
  return {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-length': String(Buffer.byteLength(page)),
      'content-security-policy': framedPolicy(target),
      'x-content-type-options': 'nosniff'
    },
    body: request.method === 'HEAD' ? '' : page
  }
}
