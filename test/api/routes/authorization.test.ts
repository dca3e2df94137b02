import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, TEST_PASSWORD, type TestApp } from '../../helpers/app.ts'
import { engineCases } from '../../helpers/engines.ts'

const form = (fields: Record<string, string>) => ({
  payload: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' }
})

for (const engine of await engineCases()) {
  describe(`${engine.name}: POST /authorization/token`, { skip: engine.skip }, () => {
    let t: TestApp
    let now = new Date('2026-03-01T12:00:00.000Z')

    before(async () => {
      t = await buildTestApp(engine.name, {
        clock: () => now,
        auth: { accessTokenTtl: 3600, refreshTokenTtl: 7200, maxFailedLogins: 3, lockSeconds: 600, addressMaxFailures: 0 }
      })
      await t.admin.addAccount('acme')
      for (const name of ['alice', 'lock-me', 'revoke-me', 'disable-me']) {
        await t.admin.addUser(name, TEST_PASSWORD)
        await t.admin.grant(name, 'acme', 'Owner')
      }
    })
    after(async () => { await t.close() })

    const login = (username: string, password = TEST_PASSWORD, url = '/authorization/token') =>
      t.app.inject({ method: 'POST', url, ...form({ grant_type: 'password', username, password }) })
    const accounts = (token: string) =>
      t.app.inject({ method: 'GET', url: '/accounts', headers: { authorization: `Bearer ${token}` } })

    it('returns both key styles with string expiries, and ignores a Basic header', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/authorization/token',
        payload: `grant_type=password&username=alice&password=${encodeURIComponent(TEST_PASSWORD)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Basic Og==' }
      })
      assert.equal(res.statusCode, 200)
      const body = res.json()
      assert.equal(body.tokenType, 'Bearer')
      assert.equal(body.token_type, 'Bearer')
      assert.equal(body.expiresIn, '3600')
      assert.equal(body.expires_in, '3600')
      assert.equal(body.access_token, body.accessToken)
      assert.equal(body.refresh_token, body.refreshToken)
      assert.equal(body.username, 'alice')
      assert.match(body.accessToken, /^[A-Za-z0-9_-]{43}$/)
      assert.equal((await accounts(body.accessToken)).statusCode, 200)
    })

    it('accepts a JSON body and every version prefix', async () => {
      for (const prefix of ['', '/v1', '/v2', '/v3']) {
        const res = await t.app.inject({ method: 'POST', url: `${prefix}/authorization/token/`, payload: { grant_type: 'password', username: 'alice', password: TEST_PASSWORD } })
        assert.equal(res.statusCode, 200, prefix)
      }
    })

    it('answers each missing field with its real code, as a single object', async () => {
      const cases: [Record<string, string>, number][] = [
        [{ grant_type: 'password', password: 'x' }, 60007],
        [{ grant_type: 'password', username: 'alice' }, 60008],
        [{ grant_type: 'refresh_token' }, 60009],
        [{ grant_type: 'client_credentials' }, 60005],
        [{}, 60005]
      ]
      for (const [fields, code] of cases) {
        const res = await t.app.inject({ method: 'POST', url: '/authorization/token', ...form(fields) })
        assert.equal(res.statusCode, 400)
        assert.equal(res.json().errorCode, code, JSON.stringify(fields))
      }
    })

    it('answers a body of the wrong shape or malformed JSON as a single object too (60006)', async () => {
      for (const payload of ['null', '123', '"x"', '[]', '{"grant_type":']) {
        const res = await t.app.inject({ method: 'POST', url: '/authorization/token', payload, headers: { 'content-type': 'application/json' } })
        assert.equal(res.statusCode, 400, payload)
        const body = res.json()
        assert.ok(!Array.isArray(body), `${payload}: ${res.body}`)
        assert.equal(body.errorCode, 60006, payload)
        assert.equal(body.error, 'invalid_request', payload)
      }
    })

    it('rejects a wrong password with 60001 invalid_grant and records FAILED_LOGIN', async () => {
      const res = await login('alice', 'wrong password')
      assert.equal(res.statusCode, 400)
      assert.deepEqual(res.json(), {
        errorCode: 60001,
        errorMessage: 'invalid_grant:Invalid username & password combination.',
        error: 'invalid_grant',
        error_description: '60001: invalid_grant:Invalid username & password combination.'
      })
      const unknown = await login('nobody-here', 'whatever1')
      assert.equal(unknown.json().errorCode, 60001)
      const records = await t.store.audit.recent(10, 'FAILED_LOGIN')
      const alice = records.find(r => r.object === 'alice')
      assert.ok(alice)
      assert.equal(alice.account_name, 'acme')
      assert.equal(alice.object_type, 'USER')
      assert.equal(alice.ip_address, '127.0.0.1')
      assert.deepEqual(JSON.parse(alice.detail).others, [{ name: 'reason', value: 'wrong password' }])
      assert.ok(records.some(r => r.object === 'nobody-here' && r.account_id === null))
    })

    it('records LOGIN on success', async () => {
      await login('alice')
      assert.ok((await t.store.audit.recent(5, 'LOGIN')).some(r => r.object === 'alice'))
    })

    it('refreshes: a new pair, and the old access and refresh tokens stop working', async () => {
      const first = (await login('alice')).json()
      const res = await t.app.inject({ method: 'POST', url: '/authorization/token', ...form({ grant_type: 'refresh_token', refresh_token: first.refreshToken }) })
      assert.equal(res.statusCode, 200)
      const second = res.json()
      assert.equal(second.refreshTokenExpiresIn, '7200')
      assert.notEqual(second.accessToken, first.accessToken)
      assert.equal((await accounts(second.accessToken)).statusCode, 200)
      assert.equal((await accounts(first.accessToken)).statusCode, 401)
      const again = await t.app.inject({ method: 'POST', url: '/authorization/token', ...form({ grant_type: 'refresh_token', refresh_token: first.refreshToken }) })
      assert.equal(again.statusCode, 400)
      assert.equal(again.json().errorCode, 60001)
    })

    it('expires access tokens after their lifetime and refresh tokens after theirs', async () => {
      const grant = (await login('alice')).json()
      now = new Date(now.getTime() + 3601 * 1000)
      const expired = await accounts(grant.accessToken)
      assert.equal(expired.statusCode, 401)
      assert.deepEqual(expired.json(), { errorCode: 60001, errorMessage: 'Unauthorized. Token not found, expired or invalid.' })
      const refreshed = await t.app.inject({ method: 'POST', url: '/authorization/token', ...form({ grant_type: 'refresh_token', refresh_token: grant.refreshToken }) })
      assert.equal(refreshed.statusCode, 200)
      now = new Date(now.getTime() + 7201 * 1000)
      const late = await t.app.inject({ method: 'POST', url: '/authorization/token', ...form({ grant_type: 'refresh_token', refresh_token: refreshed.json().refreshToken }) })
      assert.equal(late.statusCode, 400)
    })

    it('revokes tokens when the password changes or the user is disabled', async () => {
      const a = (await login('revoke-me')).json()
      await t.admin.setPassword('revoke-me', 'another password')
      assert.equal((await accounts(a.accessToken)).statusCode, 401)
      assert.equal((await login('revoke-me')).statusCode, 400)
      assert.equal((await login('revoke-me', 'another password')).statusCode, 200)

      const b = (await login('disable-me')).json()
      await t.admin.disable('disable-me')
      assert.equal((await accounts(b.accessToken)).statusCode, 401)
      const refused = await login('disable-me')
      assert.equal(refused.json().errorCode, 60002)
    })

    it('locks a user after repeated failures, until the lock expires', async () => {
      for (let i = 0; i < 3; i++) assert.equal((await login('lock-me', 'bad password')).json().errorCode, 60001)
      // Locked, the right password is refused as a wrong one (the answer does not say the user exists).
      const locked = await login('lock-me')
      assert.equal(locked.statusCode, 400)
      assert.deepEqual(locked.json(), (await login('no-such-user')).json())
      assert.equal(locked.json().errorCode, 60001)
      now = new Date(now.getTime() + 601 * 1000)
      assert.equal((await login('lock-me')).statusCode, 200)
      assert.equal((await t.store.users.findByUsername('lock-me'))?.failed_logins, 0)
    })
  })
}

describe('sqlite: login throttling per address', () => {
  let t: TestApp
  before(async () => {
    t = await buildTestApp('sqlite', { auth: { addressMaxFailures: 2, addressWindowSeconds: 60, maxFailedLogins: 0 } })
    await t.user('carol', 'acme')
  })
  after(async () => { await t.close() })

  it('answers 429 with Retry-After once an address has failed too often, even with the right password', async () => {
    const attempt = (password: string) => t.app.inject({ method: 'POST', url: '/authorization/token', ...form({ grant_type: 'password', username: 'carol', password }) })
    assert.equal((await attempt('bad password 1')).statusCode, 400)
    assert.equal((await attempt('bad password 2')).statusCode, 400)
    const throttled = await attempt(TEST_PASSWORD)
    assert.equal(throttled.statusCode, 429)
    assert.ok(Number(throttled.headers['retry-after']) > 0)
    assert.equal(throttled.json().errorCode, 340001)
  })
})

describe('GET /authorization/me', () => {
  let t: TestApp
  before(async () => { t = await buildTestApp('sqlite') })
  after(async () => { await t.close() })

  it('answers the token\'s user with the group and permissions in each account', async () => {
    const owner = await t.user('olga', 'acme', 'Owner')
    await t.user('rita', 'acme', 'ReadOnly')
    const reader = await t.user('rita', 'other', 'ReadOnly')
    const mine = await t.app.inject({ method: 'GET', url: '/v1/authorization/me', headers: { authorization: `Bearer ${owner}` } })
    assert.equal(mine.statusCode, 200)
    assert.deepEqual(mine.json(), {
      username: 'olga',
      accounts: [{ accountName: 'acme', group: 'Owner', permissions: ['read', 'write', 'create', 'delete', 'export', 'unalias', 'update', 'suspend'] }]
    })
    const hers = (await t.app.inject({ method: 'GET', url: '/authorization/me', headers: { authorization: `Bearer ${reader}` } })).json()
    assert.equal(hers.username, 'rita')
    assert.deepEqual(hers.accounts.map((a: { accountName: string }) => a.accountName).sort(), ['acme', 'other'])
    for (const a of hers.accounts) {
      assert.equal(a.group, 'ReadOnly')
      assert.deepEqual(a.permissions, ['read', 'export'])
    }
  })

  it('answers 401 without a token', async () => {
    assert.equal((await t.app.inject({ method: 'GET', url: '/authorization/me' })).statusCode, 401)
  })
})
