import type { JSX } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { ApiError } from './api.ts'
import { Layout } from './components/layout.tsx'
import { fetchMe, type Me } from './me.ts'
import { AuditPage } from './pages/audit.tsx'
import { CreateZonePage } from './pages/create-zone.tsx'
import { NotFoundPage } from './pages/not-found.tsx'
import { SignInPage } from './pages/sign-in.tsx'
import { TasksPage } from './pages/tasks.tsx'
import { ZonePage } from './pages/zone.tsx'
import { ZonesPage } from './pages/zones.tsx'
import { currentPage, navigate, useLocation } from './router.ts'
import { session, type SessionState } from './session.ts'

/**
 * The reports page, loaded when first shown: it brings the charting library, which the other
 * pages do not need (a separate file, from this service like the rest).
 */
function LazyReportsPage (props: { me: Me | undefined }) {
  const [page, setPage] = useState<{ Page: (p: { me: Me | undefined }) => JSX.Element } | undefined>()
  const [error, setError] = useState<string | undefined>()
  useEffect(() => {
    import('./pages/reports.tsx').then(m => setPage({ Page: m.ReportsPage }), () => setError('The reports page could not be loaded. Reload the page to try again.'))
  }, [])
  if (error !== undefined) return <p class='error' role='alert'>{error}</p>
  return page === undefined ? <p role='status' class='muted'>Loading the reports…</p> : <page.Page me={props.me} />
}

/** The console: sign-in until a session exists, then the page the path names. */
export function App () {
  const [state, setState] = useState<SessionState>(session.state())
  const [me, setMe] = useState<Me | undefined>()
  const [meError, setMeError] = useState<string | undefined>()
  const { path, query } = useLocation()

  useEffect(() => session.subscribe(setState), [])

  // Signed out (expired, or a fresh page): to sign-in, with the page to come back to.
  useEffect(() => {
    if (state.kind === 'signed-out' && path !== '/sign-in') {
      const next = currentPage()
      navigate(`/sign-in?${new URLSearchParams({ next, ...(state.reason === undefined ? {} : { reason: state.reason }) }).toString()}`, { replace: true })
    }
    if (state.kind === 'signed-out') setMe(undefined)
  }, [state, path])

  useEffect(() => {
    if (state.kind !== 'signed-in') return
    setMeError(undefined)
    fetchMe().then(setMe, (err: unknown) => setMeError(err instanceof ApiError ? err.message : String(err)))
  }, [state])

  if (state.kind === 'signed-out' || path === '/sign-in') {
    return <SignInPage next={query.get('next') ?? '/zones'} reason={state.kind === 'signed-out' ? (query.get('reason') ?? undefined) : undefined} signedIn={state.kind === 'signed-in'} />
  }
  let page
  let section = ''
  let title = 'Page not found'
  const zone = /^\/zones\/([^/]+)$/.exec(path)
  if (path === '/' || path === '/zones') {
    section = 'zones'
    title = 'Zones'
    page = <ZonesPage me={me} query={query} />
  } else if (path === '/zones/new') {
    section = 'zones'
    title = 'Create a zone'
    page = <CreateZonePage me={me} />
  } else if (zone !== null) {
    section = 'zones'
    title = `Zone ${decodeURIComponent(zone[1]!)}`
    page = <ZonePage me={me} zone={decodeURIComponent(zone[1]!)} />
  } else if (path === '/tasks') {
    section = 'tasks'
    title = 'Tasks'
    page = <TasksPage />
  } else if (path === '/audit') {
    section = 'audit'
    title = 'Audit log'
    page = <AuditPage query={query} />
  } else if (path === '/reports') {
    section = 'reports'
    title = 'Reports'
    page = <LazyReportsPage me={me} />
  } else {
    page = <NotFoundPage />
  }
  return (
    <Layout username={state.username} section={section} title={title}>
      {meError !== undefined && <p class='error' role='alert'>Your permissions could not be read: {meError}</p>}
      {page}
    </Layout>
  )
}
