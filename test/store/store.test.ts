import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { isZonalError } from '../../src/errors/catalog.ts'
import type { Store } from '../../src/store/store.ts'
import { engineCases, freshStore } from '../helpers/engines.ts'

for (const engine of await engineCases()) {
  describe(`${engine.name}: store`, { skip: engine.skip }, () => {
    let store: Store
    let close: () => Promise<void>

    before(async () => {
      ({ store, close } = await freshStore(engine.name))
    })
    after(async () => { await close?.() })

    it('migrates idempotently', async () => {
      assert.deepEqual(await store.migrate(), [])
    })

    it('creates accounts and refuses a duplicate name in any case', async () => {
      const a = await store.accounts.create('Acme')
      assert.equal((await store.accounts.findByName('acme'))?.id, a.id)
      await assert.rejects(store.accounts.create('ACME'), err => isZonalError(err, 'ACCOUNT_ALREADY_EXISTS'))
    })

    it('creates users, refuses duplicates, grants groups and lists memberships', async () => {
      const acct = await store.accounts.create('users-acct')
      const u = await store.users.create('Alice', 'hash-1')
      await assert.rejects(store.users.create('alice', 'x'), err => isZonalError(err, 'USER_ALREADY_EXISTS'))
      await store.users.grant(u.id, acct.id, 'ReadOnly')
      await store.users.grant(u.id, acct.id, 'Administrators')
      assert.deepEqual(await store.users.memberships(u.id), [{ accountId: acct.id, accountName: 'users-acct', group: 'Administrators' }])
      const [summary] = await store.accounts.summaries({ accountIds: [acct.id] })
      assert.equal(summary?.numberOfUsers, 1)
    })

    it('claims login attempts, locks at the limit, and resets', async () => {
      const u = await store.users.create('bob', 'h')
      const now = '2026-01-01T00:00:00.000Z'
      const until = '2026-01-01T00:15:00.000Z'
      assert.equal(await store.users.claimLoginAttempt(u.id, now, 3, until), true)
      assert.equal(await store.users.claimLoginAttempt(u.id, now, 3, until), true)
      assert.equal((await store.users.findById(u.id))?.locked_until, null)
      assert.equal(await store.users.claimLoginAttempt(u.id, now, 3, until), true)
      assert.equal((await store.users.findById(u.id))?.locked_until, until)
      assert.equal(await store.users.claimLoginAttempt(u.id, now, 3, until), false)
      assert.equal((await store.users.findById(u.id))?.failed_logins, 3)
      // Once the lock has run out the count starts again.
      assert.equal(await store.users.claimLoginAttempt(u.id, until, 3, '2026-01-01T00:30:00.000Z'), true)
      const relaxed = await store.users.findById(u.id)
      assert.equal(relaxed?.failed_logins, 1)
      assert.equal(relaxed?.locked_until, null)
      await store.users.resetFailedLogins(u.id)
      const after = await store.users.findById(u.id)
      assert.equal(after?.failed_logins, 0)
      assert.equal(after?.locked_until, null)
      // Without a limit attempts are counted and nobody is locked.
      for (let i = 0; i < 5; i++) assert.equal(await store.users.claimLoginAttempt(u.id, now, 0, until), true)
      assert.equal((await store.users.findById(u.id))?.locked_until, null)
    })

    it('lets no more concurrent login attempts through than the limit', async () => {
      const u = await store.users.create('concurrent-bob', 'h')
      const now = '2026-01-01T00:00:00.000Z'
      const claims = await Promise.all(Array.from({ length: 50 }, async () => await store.users.claimLoginAttempt(u.id, now, 5, '2026-01-01T00:15:00.000Z')))
      assert.equal(claims.filter(Boolean).length, 5)
      const row = await store.users.findById(u.id)
      assert.equal(row?.failed_logins, 5)
      assert.equal(row?.locked_until, '2026-01-01T00:15:00.000Z')
    })

    it('stores tokens by hash, deletes families, users\' tokens and expired ones', async () => {
      const u = await store.users.create('carol', 'h')
      await store.tokens.insert({ tokenHash: 'a1', kind: 'access', userId: u.id, familyId: 'f1', expiresAt: '2000-01-01T00:00:00.000Z' })
      await store.tokens.insert({ tokenHash: 'r1', kind: 'refresh', userId: u.id, familyId: 'f1', expiresAt: '2999-01-01T00:00:00.000Z' })
      await store.tokens.insert({ tokenHash: 'a2', kind: 'access', userId: u.id, familyId: 'f2', expiresAt: '2999-01-01T00:00:00.000Z' })
      assert.equal((await store.tokens.findByHash('r1'))?.familyId, 'f1')
      assert.equal(await store.tokens.deleteExpired(new Date().toISOString()), 1)
      assert.equal(await store.tokens.deleteFamily('f1'), 1)
      assert.equal(await store.tokens.findByHash('r1'), undefined)
      assert.equal(await store.tokens.deleteForUser(u.id), 1)
    })

    it('finds the holder of a valid access token with its memberships, and no one else', async () => {
      const now = '2026-06-01T00:00:00.000Z'
      const [b, a] = [await store.accounts.create('bearer-b'), await store.accounts.create('Bearer-A')]
      const u = await store.users.create('bearer-erin', 'h')
      await store.users.grant(u.id, b.id, 'ReadOnly')
      await store.users.grant(u.id, a.id, 'Owner')
      await store.tokens.insert({ tokenHash: 'be-a', kind: 'access', userId: u.id, familyId: 'fb', expiresAt: '2026-06-01T00:00:01.000Z' })
      await store.tokens.insert({ tokenHash: 'be-r', kind: 'refresh', userId: u.id, familyId: 'fb', expiresAt: '2999-01-01T00:00:00.000Z' })
      await store.tokens.insert({ tokenHash: 'be-old', kind: 'access', userId: u.id, familyId: 'fo', expiresAt: now })
      assert.deepEqual(await store.tokens.findBearer('be-a', now), {
        userId: u.id,
        username: 'bearer-erin',
        expiresAt: '2026-06-01T00:00:01.000Z',
        memberships: [{ accountId: a.id, accountName: 'Bearer-A', group: 'Owner' }, { accountId: b.id, accountName: 'bearer-b', group: 'ReadOnly' }]
      })
      assert.equal(await store.tokens.findBearer('be-r', now), undefined, 'a refresh token is no bearer')
      assert.equal(await store.tokens.findBearer('be-old', now), undefined, 'expired at now')
      assert.equal(await store.tokens.findBearer('be-none', now), undefined)
      const lone = await store.users.create('bearer-lone', 'h')
      await store.tokens.insert({ tokenHash: 'bl-a', kind: 'access', userId: lone.id, familyId: 'fl', expiresAt: '2999-01-01T00:00:00.000Z' })
      assert.deepEqual(await store.tokens.findBearer('bl-a', now), { userId: lone.id, username: 'bearer-lone', expiresAt: '2999-01-01T00:00:00.000Z', memberships: [] })
      await store.users.setStatus(u.id, 'DISABLED')
      assert.equal(await store.tokens.findBearer('be-a', now), undefined, 'a disabled user holds nothing')
    })

    it('deletes a user with its memberships and tokens; its tasks keep no user', async () => {
      const acct = await store.accounts.create('delete-acct')
      const u = await store.users.create('dora', 'h')
      await store.users.grant(u.id, acct.id, 'Owner')
      await store.tokens.insert({ tokenHash: 'dora-a', kind: 'access', userId: u.id, familyId: 'fd', expiresAt: '2999-01-01T00:00:00.000Z' })
      const task = await store.tasks.create({ accountId: acct.id, userId: u.id, kind: 'export', message: 'Pending' })
      assert.equal(await store.users.delete(u.id), true)
      assert.equal(await store.users.findById(u.id), undefined)
      assert.deepEqual(await store.users.memberships(u.id), [])
      assert.equal(await store.tokens.findByHash('dora-a'), undefined)
      assert.equal((await store.tasks.findById(task.id, { accountIds: [acct.id] }))?.user_id, null)
      const [summary] = await store.accounts.summaries({ accountIds: [acct.id] })
      assert.equal(summary?.numberOfUsers, 0)
      assert.equal(await store.users.delete(u.id), false)
    })

    it('scopes zones and tasks to the caller\'s accounts', async () => {
      const a = await store.accounts.create('zone-a')
      const b = await store.accounts.create('zone-b')
      await store.zones.create({ accountId: b.id, accountNameKey: b.name_key, name: 'example.org.', type: 'PRIMARY' })
      await assert.rejects(store.zones.create({ accountId: a.id, accountNameKey: a.name_key, name: 'example.org.', type: 'PRIMARY' }), err => isZonalError(err, 'ZONE_ALREADY_EXISTS'))
      assert.equal(await store.zones.findByName('example.org.', { accountIds: [a.id] }), undefined)
      assert.equal(await store.zones.findByName('example.org.', { accountIds: [] }), undefined)
      assert.equal((await store.zones.findByName('example.org.', { accountIds: [b.id] }))?.account_id, b.id)
      assert.equal(await store.zones.delete('example.org.', { accountIds: [a.id] }), false)
      const task = await store.tasks.create({ accountId: b.id, userId: null, kind: 'export', message: 'Pending' })
      assert.equal(await store.tasks.findById(task.id, { accountIds: [a.id] }), undefined)
      assert.equal((await store.tasks.findById(task.id, { accountIds: [b.id] }))?.code, 'PENDING')
      assert.equal(await store.zones.delete('example.org.', { accountIds: [b.id] }), true)
    })

    it('rolls a failed transaction back whole', async () => {
      await assert.rejects(store.transaction(async (tx) => {
        await tx.accounts.create('rolled-back')
        await tx.accounts.create('ROLLED-BACK')
      }), err => isZonalError(err, 'ACCOUNT_ALREADY_EXISTS'))
      assert.equal(await store.accounts.findByName('rolled-back'), undefined)
    })

    it('appends audit records with their detail, newest first', async () => {
      await store.audit.append({ accountId: null, accountName: null, user: 'x', ipAddress: '192.0.2.1', objectType: 'USER', changeType: 'FAILED_LOGIN', object: 'x', changeTime: '2026-01-01T00:00:00.000Z' })
      await store.audit.append({ accountId: null, accountName: null, user: 'y', ipAddress: null, objectType: 'USER', changeType: 'FAILED_LOGIN', object: 'y', detail: { others: [{ name: 'reason', value: 'bad password' }] } })
      const rows = await store.audit.recent(10, 'FAILED_LOGIN')
      assert.deepEqual(rows.map(r => r.object), ['y', 'x'])
      assert.deepEqual(JSON.parse(rows[0]!.detail), { changes: [], others: [{ name: 'reason', value: 'bad password' }] })
    })
  })
}
