import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Actor } from '../../src/audit/recorder.ts'
import { UserAdmin } from '../../src/auth/user-admin.ts'
import type { Store } from '../../src/store/store.ts'
import { engineCases, freshStore } from '../helpers/engines.ts'

const ACTOR: Actor = { user: 'tester', ipAddress: '192.0.2.7' }
const PASSWORD = 'first password'
const NEW_PASSWORD = 'second password'

/** An audit record as the tests compare it. */
interface Entry {
  objectType: string
  changeType: string
  object: string
  account: string | null
  changes: unknown[]
}

for (const engine of await engineCases()) {
  describe(`${engine.name}: audit records of account and user administration`, { skip: engine.skip }, () => {
    let store: Store
    let close: () => Promise<void>
    let admin: UserAdmin
    /** Every password hash the tests produced: none may appear in a record. */
    const hashes: string[] = []

    before(async () => {
      ({ store, close } = await freshStore(engine.name))
      admin = new UserAdmin(store, { actor: ACTOR })
    })
    after(async () => { await close?.() })

    /** The records `fn` wrote, oldest first; each must name the actor. */
    async function recorded (fn: () => Promise<unknown>): Promise<Entry[]> {
      const last = Math.max(0, ...(await store.audit.recent(1)).map(r => Number(r.id)))
      await fn()
      const rows = (await store.audit.recent(1000)).filter(r => Number(r.id) > last).reverse()
      for (const r of rows) assert.deepEqual([r.user_name, r.ip_address], [ACTOR.user, ACTOR.ipAddress])
      return rows.map(r => ({
        objectType: r.object_type,
        changeType: r.change_type,
        object: r.object,
        account: r.account_name,
        changes: (JSON.parse(r.detail) as { changes: unknown[] }).changes
      }))
    }

    /** Assert that `fn` fails with `message` and writes no record. */
    async function failsUnrecorded (fn: () => Promise<unknown>, message: RegExp): Promise<void> {
      assert.deepEqual(await recorded(async () => { await assert.rejects(fn(), message) }), [])
    }

    async function keepHash (username: string): Promise<void> {
      const user = await store.users.findByUsername(username)
      assert.ok(user)
      hashes.push(user.password_hash)
    }

    it('addAccount: ACCOUNT ADD in the new account', async () => {
      assert.deepEqual(await recorded(() => admin.addAccount('acme')), [
        { objectType: 'ACCOUNT', changeType: 'ADD', object: 'acme', account: 'acme', changes: [] }
      ])
      await admin.addAccount('globex')
    })

    it('addUser without a group: USER ADD without account', async () => {
      assert.deepEqual(await recorded(() => admin.addUser('alice', PASSWORD)), [
        { objectType: 'USER', changeType: 'ADD', object: 'alice', account: null, changes: [] }
      ])
      await keepHash('alice')
    })

    it('addUser with a group: the user, its membership and USER ADD in that account with the group', async () => {
      assert.deepEqual(await recorded(() => admin.addUser('Bob', PASSWORD, { account: 'ACME', group: 'dnsadministrators' })), [
        { objectType: 'USER', changeType: 'ADD', object: 'Bob', account: 'acme', changes: [{ name: 'group', to: 'DNSAdministrators' }] }
      ])
      const bob = await store.users.findByUsername('bob')
      assert.ok(bob)
      assert.deepEqual((await store.users.memberships(bob.id)).map(m => [m.accountName, m.group]), [['acme', 'DNSAdministrators']])
      await keepHash('bob')
    })

    it('a change that fails writes no record and leaves nothing behind', async () => {
      await failsUnrecorded(() => admin.addAccount('ACME'), /account "ACME" already exists/)
      await failsUnrecorded(() => admin.addAccount(' spaced '), /invalid account name/)
      await failsUnrecorded(() => admin.addUser('ALICE', PASSWORD), /user "ALICE" already exists/)
      await failsUnrecorded(() => admin.addUser('carol', 'short'), /at least 8 characters/)
      await failsUnrecorded(() => admin.addUser('carol', PASSWORD, { account: 'acme', group: 'wizards' }), /unknown group "wizards"/)
      // The user is created before the account is looked up: the whole transaction rolls back.
      await failsUnrecorded(() => admin.addUser('carol', PASSWORD, { account: 'nowhere', group: 'Owner' }), /account "nowhere" does not exist/)
      assert.equal(await store.users.findByUsername('carol'), undefined)
      await failsUnrecorded(() => admin.grant('alice', 'nowhere', 'Owner'), /account "nowhere" does not exist/)
      await failsUnrecorded(() => admin.grant('nobody', 'acme', 'Owner'), /user "nobody" does not exist/)
      await failsUnrecorded(() => admin.grant('alice', 'acme', 'wizards'), /unknown group "wizards"/)
      await failsUnrecorded(() => admin.setPassword('nobody', NEW_PASSWORD), /user "nobody" does not exist/)
      await failsUnrecorded(() => admin.setPassword('alice', 'short'), /at least 8 characters/)
      await failsUnrecorded(() => admin.disable('nobody'), /user "nobody" does not exist/)
      await failsUnrecorded(() => admin.enable('nobody'), /user "nobody" does not exist/)
    })

    it('a change inside a transaction that rolls back leaves no record either', async () => {
      await failsUnrecorded(() => store.transaction(async (tx) => {
        await new UserAdmin(tx, { actor: ACTOR }).addAccount('initech')
        throw new Error('later step failed')
      }), /later step failed/)
      assert.equal(await store.accounts.findByName('initech'), undefined)
    })

    it('grant: USER MODIFY in the account, from the previous group (or null); the same group again writes nothing', async () => {
      assert.deepEqual(await recorded(() => admin.grant('alice', 'acme', 'ReadOnly')), [
        { objectType: 'USER', changeType: 'MODIFY', object: 'alice', account: 'acme', changes: [{ name: 'group', from: null, to: 'ReadOnly' }] }
      ])
      assert.deepEqual(await recorded(() => admin.grant('ALICE', 'Acme', 'owner')), [
        { objectType: 'USER', changeType: 'MODIFY', object: 'alice', account: 'acme', changes: [{ name: 'group', from: 'ReadOnly', to: 'Owner' }] }
      ])
      assert.deepEqual(await recorded(() => admin.grant('alice', 'acme', 'OWNER')), [])
      assert.deepEqual(await recorded(() => admin.grant('alice', 'globex', 'Administrators')), [
        { objectType: 'USER', changeType: 'MODIFY', object: 'alice', account: 'globex', changes: [{ name: 'group', from: null, to: 'Administrators' }] }
      ])
    })

    it('setPassword: USER MODIFY per account with the password hidden', async () => {
      const password = [{ name: 'password', from: '<hidden>', to: '<changed>' }]
      assert.deepEqual(await recorded(() => admin.setPassword('alice', NEW_PASSWORD)), [
        { objectType: 'USER', changeType: 'MODIFY', object: 'alice', account: 'acme', changes: password },
        { objectType: 'USER', changeType: 'MODIFY', object: 'alice', account: 'globex', changes: password }
      ])
      await keepHash('alice')
      await admin.addUser('dave', PASSWORD)
      await keepHash('dave')
      assert.deepEqual(await recorded(() => admin.setPassword('dave', NEW_PASSWORD)), [
        { objectType: 'USER', changeType: 'MODIFY', object: 'dave', account: null, changes: password }
      ])
      await keepHash('dave')
    })

    it('disable and enable: USER MODIFY of the status per account; no change, no record', async () => {
      const status = (from: string, to: string): unknown[] => [{ name: 'status', from, to }]
      assert.deepEqual(await recorded(() => admin.disable('alice')), [
        { objectType: 'USER', changeType: 'MODIFY', object: 'alice', account: 'acme', changes: status('ACTIVE', 'DISABLED') },
        { objectType: 'USER', changeType: 'MODIFY', object: 'alice', account: 'globex', changes: status('ACTIVE', 'DISABLED') }
      ])
      assert.deepEqual(await recorded(() => admin.disable('alice')), [])
      assert.equal((await store.users.findByUsername('alice'))?.status, 'DISABLED')
      assert.deepEqual(await recorded(() => admin.enable('alice')), [
        { objectType: 'USER', changeType: 'MODIFY', object: 'alice', account: 'acme', changes: status('DISABLED', 'ACTIVE') },
        { objectType: 'USER', changeType: 'MODIFY', object: 'alice', account: 'globex', changes: status('DISABLED', 'ACTIVE') }
      ])
      assert.deepEqual(await recorded(() => admin.enable('alice')), [])
      assert.deepEqual(await recorded(() => admin.disable('dave')), [
        { objectType: 'USER', changeType: 'MODIFY', object: 'dave', account: null, changes: status('ACTIVE', 'DISABLED') }
      ])
    })

    it('deleteUser: USER DELETE per account, then the user goes with its memberships and tokens', async () => {
      const alice = await store.users.findByUsername('alice')
      assert.ok(alice)
      const acme = await store.accounts.findByName('acme')
      assert.ok(acme)
      await store.tokens.insert({ tokenHash: 'alice-access', kind: 'access', userId: alice.id, familyId: 'alice-f', expiresAt: '2999-01-01T00:00:00.000Z' })
      const task = await store.tasks.create({ accountId: acme.id, userId: alice.id, kind: 'export', message: 'Pending' })
      const earlier = (await store.audit.recent(1000)).filter(r => r.object === 'alice').length

      await failsUnrecorded(() => store.transaction(async (tx) => {
        await new UserAdmin(tx, { actor: ACTOR }).deleteUser('alice')
        throw new Error('later step failed')
      }), /later step failed/)
      assert.ok(await store.users.findByUsername('alice'))

      const deleted = [{ name: 'user', from: 'alice' }]
      assert.deepEqual(await recorded(() => admin.deleteUser('ALICE')), [
        { objectType: 'USER', changeType: 'DELETE', object: 'alice', account: 'acme', changes: deleted },
        { objectType: 'USER', changeType: 'DELETE', object: 'alice', account: 'globex', changes: deleted }
      ])
      assert.equal(await store.users.findByUsername('alice'), undefined)
      assert.deepEqual(await store.users.memberships(alice.id), [])
      assert.equal(await store.tokens.findByHash('alice-access'), undefined)
      assert.equal((await store.tasks.findById(task.id, { accountIds: [acme.id] }))?.user_id, null)
      assert.equal((await store.audit.recent(1000)).filter(r => r.object === 'alice').length, earlier + 2, 'earlier records stay')

      assert.deepEqual(await recorded(() => admin.deleteUser('dave')), [
        { objectType: 'USER', changeType: 'DELETE', object: 'dave', account: null, changes: [{ name: 'user', from: 'dave' }] }
      ])
      await failsUnrecorded(() => admin.deleteUser('dave'), /user "dave" does not exist/)
    })

    it('names the actor `system` when none is given', async () => {
      await new UserAdmin(store).addAccount('default-actor')
      const [record] = await store.audit.recent(1)
      assert.deepEqual([record?.object, record?.user_name, record?.ip_address], ['default-actor', 'system', null])
    })

    it('no record carries a password or a password hash', async () => {
      const rows = await store.audit.recent(1000)
      assert.ok(rows.length > 10)
      const text = JSON.stringify(rows)
      for (const secret of [PASSWORD, NEW_PASSWORD, ...hashes, ...hashes.map(h => h.split('$').at(-1)!)]) {
        assert.ok(!text.includes(secret), `a record holds ${secret}`)
      }
    })
  })
}
