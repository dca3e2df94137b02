/**
 * A forward's target, checked once and split into the parts a request's path and query are put
 * between. Pure: no I/O.
 */
export interface Target {
  /** `http://host[:port]` or `https://…` (user info kept), no trailing `/`. */
  prefix: string
  /** The target's path, at least `/`. */
  path: string
  /** The target's query with its `?` (`''` when none; `?` alone when the target ends in `?`). */
  search: string
  /** The target's fragment with its `#`, or `''`. */
  hash: string
  /** The whole target as served (`prefix + path + search + hash`). */
  href: string
  /** The target's origin (`https://host[:port]`), the only one a framed page may show. */
  origin: string
  /** The target's host name, for the framed page's title. */
  hostname: string
}

const cache = new Map<string, Target | null>()
const CACHE_MAX = 100_000

/**
 * Parses a forward's target (`redirectTo`): `http://` is assumed when the target has no
 * scheme (the real API's example `c.demo-kb-1.com.in`); then it must be an http or https URL with
 * a host. The URL is normalised as WHATWG URL does (host lower-cased, IDN to punycode, spaces
 * and other unsafe characters percent-encoded, `/` when the path is empty), so it can go into a
 * Location header and an HTML attribute as is once escaped.
 *
 * @returns the target's parts, or `undefined` for a target that is not a usable http(s) URL
 *   (`javascript:…`, `ftp://…`, `mailto:…`, no host); the caller never sends it anywhere.
 * @remarks Results are remembered by target text (a forward's target is parsed once, not per request).
 */
export function parseTarget (redirectTo: string): Target | undefined {
  const known = cache.get(redirectTo)
  if (known !== undefined) return known ?? undefined
  const target = parse(redirectTo)
  if (cache.size >= CACHE_MAX) cache.clear()
  cache.set(redirectTo, target ?? null)
  return target
}

function parse (text: string): Target | undefined {
  const trimmed = text.trim()
  // A scheme is letters then `:`; `host:8080/path` is a host and port, not a scheme.
  const scheme = /^([a-z][a-z0-9+.-]*):(?!\d+(?:[/?#]|$))/i.exec(trimmed)
  const withScheme = scheme === null ? `http://${trimmed.replace(/^\/+/, '')}` : trimmed
  if (scheme !== null && !/^https?$/i.test(scheme[1]!)) return undefined
  let url: URL
  try {
    url = new URL(withScheme)
  } catch {
    return undefined
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return undefined
  const userInfo = url.username === '' ? '' : `${url.username}${url.password === '' ? '' : `:${url.password}`}@`
  const prefix = `${url.protocol}//${userInfo}${url.host}`
  // `href` keeps a lone trailing `?` that `search` drops.
  const search = url.search !== '' ? url.search : (url.href.slice(0, url.href.length - url.hash.length).endsWith('?') ? '?' : '')
  return { prefix, path: url.pathname, search, hash: url.hash, href: prefix + url.pathname + search + url.hash, origin: url.origin, hostname: url.hostname }
}

/**
 * The target with the request's path below the forward (`below`, `''` or starting with `/`)
 * and the request's query (`query`, without `?`, `''` when none) carried over; either may be
 * `''` to carry nothing. One `/` joins the two paths; the query goes after the target's own
 * (`?` or `&` as needed); the target's fragment stays last.
 */
export function targetUrl (target: Target, below: string, query: string): string {
  if (below === '' && query === '') return target.href
  let path = target.path
  if (below !== '') path = path.endsWith('/') ? path + safe(below.slice(1)) : path + safe(below)
  let search = target.search
  if (query !== '') {
    const q = safe(query)
    search = search === '' ? `?${q}` : (search.endsWith('?') || search.endsWith('&') ? search + q : `${search}&${q}`)
  }
  return target.prefix + path + search + target.hash
}

/** Characters that may stay as they are in a URL's path or query (RFC 3986 §3.3, §3.4; `%` kept as sent). */
const UNSAFE = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/%?]/gu

/**
 * A request's path or query made safe for a Location header and an HTML attribute: characters
 * outside RFC 3986's path and query characters percent-encoded (bytes as node:http read them,
 * latin1, so each byte of a raw UTF-8 request comes out as its own `%XX`; `#` too, which would
 * otherwise start a fragment).
 */
export function safe (part: string): string {
  UNSAFE.lastIndex = 0
  if (!UNSAFE.test(part)) return part
  return part.replace(UNSAFE, c => {
    const code = c.charCodeAt(0)
    if (code < 0x100) return `%${code < 0x10 ? '0' : ''}${code.toString(16).toUpperCase()}`
    try {
      return encodeURIComponent(c)
    } catch {
      return '%EF%BF%BD' // a lone surrogate: U+FFFD, the replacement character
    }
  })
}
