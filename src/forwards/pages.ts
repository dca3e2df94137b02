import { createHash } from 'node:crypto'
import type { Target } from './target.ts'

/**
 * The two pages the forwarding server writes itself: the page of a framed forward and the page
 * for an address with no forward. Neither shows anything of the request.
 */

/** `&`, `<`, `>`, `"` and `'` as HTML character references (text and quoted attribute values). */
export function escapeHtml (text: string): string {
  return text.replace(/[&<>"']/g, c => c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;')
}

/** The framed page's only style: the frame fills the viewport, no margin, no scroll bars of its own. */
const FRAME_STYLE = 'html,body{margin:0;padding:0;height:100%;overflow:hidden}iframe{display:block;border:0;width:100%;height:100%}'
const STYLE_HASH = createHash('sha256').update(FRAME_STYLE).digest('base64')

/**
 * A framed forward's page: one iframe filling the viewport showing `url` (the target, request
 * parts carried over), so the address bar keeps the forwarded host. `url` must come from
 * `targetUrl` (an http(s) URL); it is HTML-escaped all the same.
 */
export function framedPage (target: Target, url: string): string {
  return '<!doctype html><html><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width,initial-scale=1">' +
    `<title>${escapeHtml(target.hostname)}</title><style>${FRAME_STYLE}</style></head>` +
    `<body><iframe src="${escapeHtml(url)}" title="${escapeHtml(target.hostname)}" allowfullscreen></iframe></body></html>\n`
}

/**
 * The Content-Security-Policy of a framed page: nothing may load but the page's own style and
 * the frame of the target's origin (CSP 3: an `http:` origin also allows its `https:` upgrade); no
 * script, no form, no base URL.
 */
export function framedPolicy (target: Target): string {
  return `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; frame-src ${target.origin}; base-uri 'none'; form-action 'none'`
}

/** The page for a host or path with no forward (404). */
export const NOT_FOUND_PAGE = '<!doctype html><html><head><meta charset="utf-8"><title>Not found</title></head>' +
  '<body><h1>Not found</h1><p>No web forward is set up for this address.</p></body></html>\n'

/** The Content-Security-Policy of the pages that frame nothing: nothing loads. */
export const NOTHING_POLICY = "default-src 'none'; base-uri 'none'; form-action 'none'"
