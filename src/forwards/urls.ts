/**
 * The URLs of a web forward, read and checked without any zone: `requestTo` (what is forwarded:
 * an http:// URL whose scheme may be left out, a host, an optional page, an optional `#anchor`)
 * and the targets (`defaultRedirectTo`, an advanced record's `redirectTo`: http:// or https://,
 * a port allowed). Each function returns a problem as text, or the parsed value.
 */

/** Longest URL accepted, characters (requestTo and every target). */
export const URL_MAX_LENGTH = 2048

/** What `requestTo` names. */
export interface RequestTarget {
  /** Lower case, no trailing dot. */
  host: string
  /** `''` for the whole host, else starting with `/`. */
  path: string
  /** After `#`, `''` when none. */
  anchor: string
  /** Host, path and `#anchor`: what makes a forward unique in its zone. */
  key: string
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//
/** RFC 1123 §2.1 host names: letters, digits and hyphens, labels of 1 to 63, not starting or ending with a hyphen. */
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/
// Spaces and control characters: never in a URL a redirect puts into a Location header.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\s\u0000-\u001f\u007f]/

function parsed (text: string): URL | undefined {
  try {
    return new URL(text)
  } catch {
    return undefined
  }
}

/** A host name a forward may name: a DNS name of letters, digits and hyphens (no IP literal, no wildcard). */
function hostProblem (host: string): string | undefined {
  if (host === '' || host.length > 253) return 'a host name is required'
  if (/^\[|^\d+(\.\d+){3}$/.test(host)) return 'the host must be a name of the zone, not an IP address'
  if (!host.split('.').every(l => LABEL.test(l))) return `the host ${host} is not a host name (letters, digits and hyphens)`
  return undefined
}

/**
 * `requestTo` read: `http://` or no scheme, a host, an optional path and `#anchor`; no port,
 * user, password or query (the forwarding server answers on its own port, by host and path).
 *
 * @returns the target, or a problem in words.
 */
export function readRequestTo (text: string): RequestTarget | string {
  if (text.length > URL_MAX_LENGTH) return `it is longer than ${URL_MAX_LENGTH} characters`
  if (UNSAFE.test(text)) return 'it holds spaces or control characters'
  const scheme = SCHEME.exec(text)?.[1]
  if (scheme !== undefined && scheme.toLowerCase() !== 'http') return 'only http:// is acceptable'
  const url = parsed(scheme === undefined ? `http://${text}` : text)
  if (url === undefined) return 'it is not a valid URL'
  if (url.username !== '' || url.password !== '') return 'it must not hold a user name or password'
  if (url.port !== '') return 'it must not hold a port'
  if (url.search !== '') return 'it must not hold a query (?…)'
  const host = url.hostname.replace(/\.$/, '')
  const problem = hostProblem(host)
  if (problem !== undefined) return problem
  const path = url.pathname === '/' ? '' : url.pathname
  const anchor = url.hash.replace(/^#/, '')
  return { host, path, anchor, key: `${host}${path}${anchor === '' ? '' : `#${anchor}`}` }
}

/**
 * A redirect target read: `http://` or `https://` (no scheme: `http://`), a host, any port, path
 * and query. The target is kept as given (with `http://` added when it had no scheme).
 *
 * @returns the target to store, or a problem in words.
 */
export function readTarget (text: string): { url: string } | string {
  if (text.length > URL_MAX_LENGTH) return `it is longer than ${URL_MAX_LENGTH} characters`
  if (UNSAFE.test(text)) return 'it holds spaces or control characters'
  const scheme = SCHEME.exec(text)?.[1]?.toLowerCase()
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') return 'only http:// and https:// are acceptable'
  const full = scheme === undefined ? `http://${text}` : text
  const url = parsed(full)
  if (url === undefined || url.hostname === '') return 'it is not a valid URL'
  if (url.username !== '' || url.password !== '') return 'it must not hold a user name or password'
  return { url: full }
}

/** RFC 9110 §5.1: a field name is a token (§5.6.2). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

/** Longest custom header name accepted. */
export const HEADER_NAME_MAX_LENGTH = 100

/** Whether `name` can be an HTTP header name (a token, RFC 9110 §5.1), at most {@link HEADER_NAME_MAX_LENGTH} characters. */
export function isHeaderName (name: string): boolean {
  return name.length <= HEADER_NAME_MAX_LENGTH && TOKEN.test(name)
}

/**
 * Request headers every account's advanced forwards may match without declaring them as custom
 * headers (the real API's own example matches `Accept`); any other header must be one of the
 * account's custom headers (`/accounts/{accountName}/customheaders`). Lower case.
 */
export const STANDARD_HEADERS: ReadonlySet<string> = new Set(['accept', 'accept-charset', 'accept-encoding', 'accept-language', 'cookie', 'host', 'referer', 'user-agent'])
