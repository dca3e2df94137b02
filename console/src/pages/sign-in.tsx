import { useEffect, useRef, useState } from 'preact/hooks'
import { navigate } from '../router.ts'
import { session, signInMessage } from '../session.ts'

/** Sign in with a username and password (the token endpoint's password grant). */
export function SignInPage (props: { next: string, reason: string | undefined, signedIn: boolean }) {
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)
  const first = useRef<HTMLInputElement>(null)
  const next = props.next.startsWith('/') && !props.next.startsWith('//') && !props.next.startsWith('/sign-in') ? props.next : '/zones'

  useEffect(() => { document.title = 'Sign in · Zonal' }, [])
  useEffect(() => {
    if (props.signedIn) navigate(next, { replace: true })
    else first.current?.focus()
  }, [props.signedIn])

  async function submit (event: Event): Promise<void> {
    event.preventDefault()
    setBusy(true)
    setError(undefined)
    try {
      await session.signIn(username.trim(), password)
      setPassword('')
      navigate(next, { replace: true })
    } catch (err) {
      setError(signInMessage(err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <main id='main' class='sign-in'>
      <form onSubmit={submit} class='card' aria-describedby={error === undefined ? undefined : 'sign-in-error'}>
        <h1>Zonal</h1>
        <p class='muted'>Sign in to manage your zones.</p>
        {props.reason === 'expired' && <p class='notice' role='status'>Your session has ended. Sign in again to go back to the page you were on.</p>}
        {props.reason === 'signed-out' && <p class='notice' role='status'>You are signed out.</p>}
        <label for='username'>Username</label>
        <input id='username' ref={first} autocomplete='username' required value={username} onInput={e => setUsername(e.currentTarget.value)} />
        <label for='password'>Password</label>
        <input id='password' type='password' autocomplete='current-password' required value={password} onInput={e => setPassword(e.currentTarget.value)} />
        {error !== undefined && <p id='sign-in-error' class='error' role='alert'>{error}</p>}
        <button type='submit' disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
      </form>
    </main>
  )
}
