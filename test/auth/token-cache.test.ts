import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { AuthService, defaultAuthSettings } from '../../src/auth/auth-service.ts'
import { UserAdmin } from '../../src/auth/user-admin.ts'
import { openStore } from '../../src/store/open-store.ts'
import type { Store } from '../../src/store/store.ts'
import { engineCases, freshStore } from '../helpers/engines.ts'

const PASSWORD = 'correct horse battery'

/** Wait until `check` holds (polling every 10 ms), failing after 10 s. */
async function eventually (what: string, check: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + 10_000
  while (!await check()) {
    if (Date.now() > end) throw new Error(`not within 10 s: ${what}`)
    await new Promise(resolve => setTimeout(resolve, 10))
  }
}

for (const engine of await engineCases()) {
  describe(`${engine.name}: verified bearer tokens remembered until a revocation`, { skip: engine.skip }, () => {
    let store: Store
    let url: string
    let close: () => Promise<void>
    let auth: AuthService
    let admin: UserAdmin
    let stop: () => Promise<void>
    let n = 0

    before(async () => {
      ({ store, url, close } = await freshStore(engine.name))
      auth = new AuthService(store, { ...defaultAuthSettings, tokenCacheSeconds: 30 })
      admin = new UserAdmin(store)
      await admin.addAccount('cache-acct')
      await admin.addAccount('cache-other')
      stop = await auth.watchRevocations()
    })
    after(async () => {
      await stop?.()
      await close?.()
    })

    /** A new user of cache-acct (Owner) and a login of it. */
    async function login (): Promise<{ username: string, access: string, refresh: string }> {
      const username = `cache-user-${++n}`
      await admin.addUser(username, PASSWORD)
      await admin.grant(username, 'cache-acct', 'Owner')
      const grant = await auth.login(username, PASSWORD, '127.0.0.1')
      return { username, access: grant.accessToken, refresh: grant.refreshToken }
    }

    it('answers a token it verified without reading the store again', async () => {
      const { username, access } = await login()
      assert.equal((await auth.authenticate(access))?.username, username)
      // Gone from the table without a revocation (as only an expired token ever is): still known.
      assert.equal(await store.tokens.deleteExpired('2999-01-01T00:00:00.000Z') > 0, true)
      assert.equal((await auth.authenticate(access))?.username, username)
    })

    it('refuses an access token at once after a refresh rotated it', async () => {
      const { access, refresh } = await login()
      assert.ok(await auth.authenticate(access) !== undefined)
      const next = await auth.refresh(refresh)
      assert.equal(await auth.authenticate(access), undefined)
      assert.ok(await auth.authenticate(next.accessToken) !== undefined)
    })

    it('refuses a user\'s tokens at once after revokeUser, a password change, a disable or a deletion', async () => {
      const revoked = await login()
      assert.ok(await auth.authenticate(revoked.access) !== undefined)
      await auth.revokeUser((await store.users.findByUsername(revoked.username))!.id)
      assert.equal(await auth.authenticate(revoked.access), undefined)

      const changed = await login()
      assert.ok(await auth.authenticate(changed.access) !== undefined)
      await admin.setPassword(changed.username, 'another password entirely')
      assert.equal(await auth.authenticate(changed.access), undefined)

      const disabled = await login()
      assert.ok(await auth.authenticate(disabled.access) !== undefined)
      await store.users.setStatus((await store.users.findByUsername(disabled.username))!.id, 'DISABLED')
      assert.equal(await auth.authenticate(disabled.access), undefined)

      const deleted = await login()
      assert.ok(await auth.authenticate(deleted.access) !== undefined)
      await admin.deleteUser(deleted.username)
      assert.equal(await auth.authenticate(deleted.access), undefined)
    })

    it('gives the new memberships at once after a grant', async () => {
      const { username, access } = await login()
      assert.deepEqual((await auth.authenticate(access))?.memberships.map(m => m.accountName), ['cache-acct'])
      await admin.grant(username, 'cache-other', 'ReadOnly')
      assert.deepEqual((await auth.authenticate(access))?.memberships.map(m => m.accountName), ['cache-acct', 'cache-other'])
    })

    it('refuses a token once another process revoked it', async () => {
      const { username, access } = await login()
      assert.ok(await auth.authenticate(access) !== undefined)
      const other = await openStore(url)
      try {
        // The CLI (`zonal user disable`) or another node, on the same database.
        await new UserAdmin(other).disable(username)
      } finally {
        await other.close()
      }
      await eventually('the token is refused', async () => await auth.authenticate(access) === undefined)
    })

    it('never remembers a token past its expiry', async () => {
      let now = new Date('2026-06-01T00:00:00.000Z')
      const timed = new AuthService(store, { ...defaultAuthSettings, accessTokenTtl: 60, tokenCacheSeconds: 3600 }, () => now)
      const stopTimed = await timed.watchRevocations()
      try {
        const username = `cache-user-${++n}`
        await admin.addUser(username, PASSWORD)
        const { accessToken } = await timed.login(username, PASSWORD, '127.0.0.1')
        assert.ok(await timed.authenticate(accessToken) !== undefined)
        now = new Date('2026-06-01T00:01:00.000Z')
        assert.equal(await timed.authenticate(accessToken), undefined)
      } finally {
        await stopTimed()
      }
    })
  })
}
