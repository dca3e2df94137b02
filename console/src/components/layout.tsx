import type { ComponentChildren } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { Link } from '../link.tsx'
import { navigate } from '../router.ts'
import { session } from '../session.ts'

type Theme = 'system' | 'light' | 'dark'

const SECTIONS = [
  { key: 'zones', to: '/zones', label: 'Zones' },
  { key: 'tasks', to: '/tasks', label: 'Tasks' },
  { key: 'audit', to: '/audit', label: 'Audit log' },
  { key: 'reports', to: '/reports', label: 'Reports' }
]

/** Light, dark, or the system's choice (kept in memory: no cookie, no storage). */
function ThemeToggle () {
  const [theme, setTheme] = useState<Theme>((document.documentElement.dataset.theme as Theme | undefined) ?? 'system')
  useEffect(() => {
    if (theme === 'system') delete document.documentElement.dataset.theme
    else document.documentElement.dataset.theme = theme
  }, [theme])
  const next: Record<Theme, Theme> = { system: 'light', light: 'dark', dark: 'system' }
  return (
    <button type='button' class='ghost' onClick={() => setTheme(next[theme])} aria-label={`Colour theme: ${theme}. Change to ${next[theme]}.`}>
      Theme: {theme}
    </button>
  )
}

/** Header (product, signed-in user, sign out), navigation and the page. */
export function Layout (props: { username: string, section: string, title: string, children: ComponentChildren }) {
  useEffect(() => { document.title = `${props.title} · Zonal` }, [props.title])
  return (
    <>
      <p id='page-top' class='sr-only' tabIndex={-1}>{props.title}</p>
      <a class='skip' href='#main'>Skip to content</a>
      <header class='top'>
        <Link to='/zones' class='brand'>Zonal</Link>
        <nav aria-label='Sections'>
          <ul>
            {SECTIONS.map(s => (
              <li key={s.key}><Link to={s.to} aria-current={props.section === s.key ? 'page' : undefined}>{s.label}</Link></li>
            ))}
          </ul>
        </nav>
        <div class='who'>
          <ThemeToggle />
          <span class='user' title='Signed in as'>{props.username}</span>
          <button type='button' class='ghost' onClick={() => { session.signOut(); navigate('/sign-in?reason=signed-out', { replace: true }) }}>Sign out</button>
        </div>
      </header>
      <main id='main' tabIndex={-1}>{props.children}</main>
    </>
  )
}
