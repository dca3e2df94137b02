import { errorItems } from './api.ts'

/** The signed-in user's tokens; kept in this module's memory only (never in storage). */
interface Tokens {
  username: string
  accessToken: string
  refreshToken: string
  /** When the access token expires (ms since the epoch, by this browser's clock). */
  expiresAt: number
}

export type SessionState =
  | { kind: 'signed-out', reason?: 'expired' | 'signed-out' }
  | { kind: 'signed-in', username: string }

interface TokenAnswer {
  accessToken: string
  refreshToken: string
  expiresIn: string
  username: string
}

/** Refresh this long before the access token expires (at half its life for a token of under two minutes). */
const REFRESH_MARGIN_MS = 60_000

let tokens: Tokens | undefined
let state: SessionState = { kind: 'signed-out' }
let timer: ReturnType<typeof setTimeout> | undefined
let refreshing: Promise<boolean> | undefined
const listeners = new Set<(s: SessionState) => void>()

function set (next: SessionState): void {
  state = next
  for (const l of listeners) l(state)
}

function schedule (): void {
  if (timer !== undefined) clearTimeout(timer)
  timer = undefined
  if (tokens === undefined) return
  const life = tokens.expiresAt - Date.now()
  const wait = Math.max(1000, life - REFRESH_MARGIN_MS, life / 2)
  timer = setTimeout(() => { session.refresh().catch(() => {}) }, wait)
}

async function tokenRequest (form: Record<string, string>): Promise<TokenAnswer> {
  const res = await fetch('/authorization/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(form).toString(),
    credentials: 'omit',
    cache: 'no-store'
  })
  if (!res.ok) throw new SignInError(res.status, (await errorItems(res)).map(i => i.errorMessage).join(' '))
  return await res.json() as TokenAnswer
}

function keep (answer: TokenAnswer): void {
  const seconds = Number(answer.expiresIn)
  tokens = {
    username: answer.username,
    accessToken: answer.accessToken,
    refreshToken: answer.refreshToken,
    expiresAt: Date.now() + (Number.isFinite(seconds) && seconds > 0 ? seconds : 300) * 1000
  }
  schedule()
}

/** A refused sign-in, with the service's reason in words. */
export class SignInError extends Error {
  readonly status: number
  constructor (status: number, message: string) {
    super(message)
    this.status = status
  }
}

/** Words for a refused sign-in: the service's messages carry OAuth2 prefixes (`invalid_grant:`). */
export function signInMessage (err: unknown): string {
  if (!(err instanceof SignInError)) return 'The service cannot be reached. Check that it is running and try again.'
  if (err.status === 429) return 'Too many attempts. Wait a minute, then try again.'
  const text = err.message.replace(/^[a-z_]+:/, '').trim()
  return text === '' ? 'Sign-in was refused.' : text
}

export const session = {
  state: (): SessionState => state,
  accessToken: (): string | undefined => tokens?.accessToken,

  subscribe (listener: (s: SessionState) => void): () => void {
    listeners.add(listener)
    return () => { listeners.delete(listener) }
  },

  /** Sign in with the password grant. @throws SignInError */
  async signIn (username: string, password: string): Promise<void> {
    keep(await tokenRequest({ grant_type: 'password', username, password }))
    set({ kind: 'signed-in', username: tokens!.username })
  },

  /** Get a new access token with the refresh token; false (and signed out) when refused. */
  async refresh (): Promise<boolean> {
    if (tokens === undefined) return false
    refreshing ??= (async () => {
      try {
        keep(await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens!.refreshToken }))
        return true
      } catch (err) {
        if (err instanceof SignInError) session.expire()
        return false
      } finally {
        refreshing = undefined
      }
    })()
    return await refreshing
  },

  /** The session ended without the user asking (tokens refused): sign in again, the page kept. */
  expire (): void {
    if (tokens === undefined && state.kind === 'signed-out') return
    tokens = undefined
    schedule()
    set({ kind: 'signed-out', reason: 'expired' })
  },

  /** Forget the tokens. */
  signOut (): void {
    tokens = undefined
    schedule()
    set({ kind: 'signed-out', reason: 'signed-out' })
  }
}
