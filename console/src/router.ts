import { useEffect, useState } from 'preact/hooks'

/** The console's pages live under this path; every other path is the API's. */
export const BASE = '/console'

const listeners = new Set<() => void>()
addEventListener('popstate', () => { for (const l of listeners) l() })

/** Go to a console path (`/zones`, with a query string if any) without reloading the page. */
export function navigate (to: string, options: { replace?: boolean } = {}): void {
  const url = to.startsWith(BASE) ? to : BASE + to
  if (url === location.pathname + location.search) return
  const samePage = url.split('?')[0] === location.pathname
  if (options.replace === true) history.replaceState(null, '', url)
  else history.pushState(null, '', url)
  for (const l of listeners) l()
  // Another page: focus goes back to the top, as after a page load (the next Tab reaches the
  // skip link; a screen reader reads the page's name). A new query of the same page (filters,
  // paging) keeps the focus where the user is.
  if (!samePage) {
    scrollTo(0, 0)
    requestAnimationFrame(() => document.getElementById('page-top')?.focus({ preventScroll: true }))
  }
}

/** The current console path (without BASE) and query, re-rendered on every navigation. */
export function useLocation (): { path: string, query: URLSearchParams } {
  const [, setTick] = useState(0)
  useEffect(() => {
    const listener = (): void => setTick(t => t + 1)
    listeners.add(listener)
    return () => { listeners.delete(listener) }
  }, [])
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) || '/' : '/'
  return { path: path.length > 1 ? path.replace(/\/+$/, '') : path, query: new URLSearchParams(location.search) }
}

/** The console path and query now (to come back to after signing in). */
export function currentPage (): string {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : '/'
  return path + location.search
}

/**
 * A link to a console page: an ordinary `<a href>` (it opens in a new tab, copies, reads out as a
 * link) whose plain left click navigates without a reload.
 */
export function onLinkClick (event: MouseEvent): void {
  const a = event.currentTarget as HTMLAnchorElement
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
  if (a.target !== '' || !a.pathname.startsWith(BASE)) return
  event.preventDefault()
  navigate(a.pathname + a.search)
}
