/**
 * The console's session (console/src/session.ts) without a browser: the token endpoint is a
 * stand-in `fetch`, time is node:test's mock clock. Tokens are refreshed before they expire, a
 * refused refresh ends the session as expired, sign-out forgets the tokens, and a 401 refreshes
 * once and retries (console/src/api.ts).
 */
import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it, mock } from 'node:test'
import { call } from '../../console/src/api.ts'
import { session, signInMessage, SignInError, type SessionState } from '../../console/src/session.ts'

interface Sent { url: string, body: string, authorization: string | undefined }

describe('console session', () => {
  let sent: Sent[]
  let refuseRefresh: boolean
  let issued: number
  const realFetch = globalThis.fetch

  beforeEach(() => {
    sent = []
    refuseRefresh = false
    issued = 0
    mock.timers.enable({ apis: ['setTimeout', 'Date'], now: Date.parse('2026-11-26T12:00:00Z') })
    globalThis.fetch = (async (input: string, init: RequestInit = {}) => {
      const headers = (init.headers ?? {}) as Record<string, string>
      const body = typeof init.body === 'string' ? init.body : ''
      sent.push({ url: String(input), body, authorization: headers.authorization })
      if (input === '/authorization/token') {
        const form = new URLSearchParams(body)
        if (form.get('grant_type') === 'refresh_token' && refuseRefresh) {
          return new Response(JSON.stringify({ errorCode: 60001, errorMessage: 'invalid_grant:Token not found, expired or invalid.' }), { status: 400 })
        }
        if (form.get('grant_type') === 'password' && form.get('password') !== 'right') {
          return new Response(JSON.stringify({ errorCode: 60001, errorMessage: 'invalid_grant:Invalid username & password combination.' }), { status: 400 })
        }
        issued++
        return Response.json({ accessToken: `access-${issued}`, refreshToken: `refresh-${issued}`, expiresIn: '300', username: 'alice', tokenType: 'Bearer' })
      }
      // An API call: the first token is refused (it "expired"), later ones accepted.
      return headers.authorization === 'Bearer access-1' ? new Response('{}', { status: 401 }) : Response.json({ ok: true })
    }) as typeof fetch
  })
  afterEach(() => {
    session.signOut()
    mock.timers.reset()
    globalThis.fetch = realFetch
  })

  it('signs in with the password grant and keeps the tokens in memory', async () => {
    await session.signIn('alice', 'right')
    assert.deepEqual(session.state(), { kind: 'signed-in', username: 'alice' })
    assert.equal(session.accessToken(), 'access-1')
    assert.equal(new URLSearchParams(sent[0]!.body).get('grant_type'), 'password')
  })

  it('says a refused sign-in in words, without the OAuth2 prefix', async () => {
    await assert.rejects(session.signIn('alice', 'wrong'), (err: unknown) => {
      assert.ok(err instanceof SignInError)
      assert.equal(signInMessage(err), 'Invalid username & password combination.')
      return true
    })
    assert.equal(session.state().kind, 'signed-out')
  })

  it('refreshes the access token a minute before it expires', async () => {
    await session.signIn('alice', 'right')
    mock.timers.tick(239_000)
    assert.equal(sent.length, 1, 'not yet')
    mock.timers.tick(1_000)
    await new Promise(resolve => setImmediate(resolve))
    await new Promise(resolve => setImmediate(resolve))
    assert.equal(sent.length, 2)
    const form = new URLSearchParams(sent[1]!.body)
    assert.equal(form.get('grant_type'), 'refresh_token')
    assert.equal(form.get('refresh_token'), 'refresh-1')
    assert.equal(session.accessToken(), 'access-2')
  })

  it('ends the session as expired when the refresh is refused', async () => {
    const states: SessionState[] = []
    const stop = session.subscribe(s => states.push(s))
    await session.signIn('alice', 'right')
    refuseRefresh = true
    assert.equal(await session.refresh(), false)
    assert.deepEqual(states.at(-1), { kind: 'signed-out', reason: 'expired' })
    assert.equal(session.accessToken(), undefined)
    stop()
  })

  it('answers a 401 by refreshing once and sending the call again with the new token', async () => {
    await session.signIn('alice', 'right')
    const res = await call('GET', '/zones')
    assert.equal(res.status, 200)
    assert.deepEqual(sent.map(s => s.authorization ?? new URLSearchParams(s.body).get('grant_type')), ['password', 'Bearer access-1', 'refresh_token', 'Bearer access-2'])
  })

  it('forgets the tokens on sign-out', async () => {
    await session.signIn('alice', 'right')
    session.signOut()
    assert.deepEqual(session.state(), { kind: 'signed-out', reason: 'signed-out' })
    assert.equal(session.accessToken(), undefined)
  })
})
