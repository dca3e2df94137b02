import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { AuthService } from '../../src/auth/auth-service.ts'
import { openStore } from '../../src/store/open-store.ts'
import { zonal } from '../helpers/cli.ts'
import { engineCases, freshDatabase, type TestDatabase } from '../helpers/engines.ts'

for (const engine of await engineCases()) {
  describe(`${engine.name}: zonal account and user commands`, { skip: engine.skip }, () => {
    let db: TestDatabase

    before(async () => { db = await freshDatabase(engine.name) })
    after(async () => { await db?.drop() })

    it('migrates an empty database, then says it is up to date', async () => {
      const first = await zonal(db.url, ['migrate'])
      assert.equal(first.code, 0, first.stderr)
      assert.match(first.stdout, /applied: 0001-foundation/)
      assert.match((await zonal(db.url, ['migrate'])).stdout, /up to date/)
    })

    it('adds and lists accounts, refusing duplicates and bad names', async () => {
      assert.equal((await zonal(db.url, ['account', 'add', 'acme'])).code, 0)
      const dup = await zonal(db.url, ['account', 'add', 'ACME'])
      assert.equal(dup.code, 2)
      assert.match(dup.stderr, /zonal: account "ACME" already exists/)
      const bad = await zonal(db.url, ['account', 'add', ' spaced '])
      assert.equal(bad.code, 2)
      assert.match(bad.stderr, /invalid account name/)
      assert.match((await zonal(db.url, ['account', 'list'])).stdout, /^NAME\s+USERS\s+OWNER\s+CREATED\nacme\s+0\s+-/)
    })

    it('adds users with --password or --password-stdin, and refuses a missing or weak password', async () => {
      assert.equal((await zonal(db.url, ['user', 'add', 'alice', '--password', 'first password'])).code, 0)
      assert.equal((await zonal(db.url, ['user', 'add', 'bob', '--password-stdin'], 'piped password\n')).code, 0)
      const none = await zonal(db.url, ['user', 'add', 'carol'])
      assert.equal(none.code, 2)
      assert.match(none.stderr, /no password given/)
      const weak = await zonal(db.url, ['user', 'add', 'dave', '--password', 'short'])
      assert.equal(weak.code, 2)
      assert.match(weak.stderr, /at least 8 characters/)
      const badName = await zonal(db.url, ['user', 'add', 'no spaces', '--password', 'long enough'])
      assert.equal(badName.code, 2)
      const dup = await zonal(db.url, ['user', 'add', 'ALICE', '--password', 'long enough'])
      assert.equal(dup.code, 2)
      assert.match(dup.stderr, /already exists/)
    })

    it('grants groups by any spelling and lists them', async () => {
      const ok = await zonal(db.url, ['user', 'grant', 'alice', 'acme', 'dnsadministrators'])
      assert.equal(ok.code, 0, ok.stderr)
      assert.match(ok.stdout, /group DNSAdministrators of account "acme"/)
      assert.equal((await zonal(db.url, ['user', 'grant', 'bob', 'acme', 'read-only'])).code, 0)
      assert.match((await zonal(db.url, ['user', 'grant', 'alice', 'acme', 'wizards'])).stderr, /unknown group "wizards"/)
      assert.match((await zonal(db.url, ['user', 'grant', 'alice', 'nowhere', 'Owner'])).stderr, /account "nowhere" does not exist/)
      assert.match((await zonal(db.url, ['user', 'grant', 'nobody', 'acme', 'Owner'])).stderr, /user "nobody" does not exist/)
      const list = await zonal(db.url, ['user', 'list'])
      assert.match(list.stdout, /alice\s+ACTIVE\s+acme:DNSAdministrators/)
      assert.match(list.stdout, /bob\s+ACTIVE\s+acme:ReadOnly/)
    })

    it('adds a user in a group of an account in one step, or not at all', async () => {
      const missing = await zonal(db.url, ['user', 'add', 'erin', '--password', 'long enough', '--account', 'nowhere', '--group', 'Owner'])
      assert.equal(missing.code, 2)
      assert.match(missing.stderr, /zonal: account "nowhere" does not exist/)
      assert.doesNotMatch((await zonal(db.url, ['user', 'list'])).stdout, /erin/)
      const ok = await zonal(db.url, ['user', 'add', 'erin', '--password', 'long enough', '--account', 'acme', '--group', 'administrators'])
      assert.equal(ok.code, 0, ok.stderr)
      assert.match((await zonal(db.url, ['user', 'list'])).stdout, /erin\s+ACTIVE\s+acme:Administrators/)
      const store = await openStore(db.url)
      try {
        const [record] = await store.audit.recent(1, 'ADD')
        assert.deepEqual([record?.user_name, record?.object_type, record?.object, record?.account_name, JSON.parse(record?.detail ?? '{}').changes], [
          'support (zonal cli)', 'USER', 'erin', 'acme', [{ name: 'group', to: 'Administrators' }]
        ])
      } finally {
        await store.close()
      }
    })

    it('changes a password and disables a user, revoking tokens, while another process holds the database', async () => {
      const store = await openStore(db.url)
      try {
        const auth = new AuthService(store)
        const grant = await auth.login('alice', 'first password', '127.0.0.1')
        assert.ok(await auth.authenticate(grant.accessToken))
        const passwd = await zonal(db.url, ['user', 'passwd', 'alice', '--password-stdin'], 'second password\n')
        assert.equal(passwd.code, 0, passwd.stderr)
        assert.equal(await auth.authenticate(grant.accessToken), undefined)
        const again = await auth.login('alice', 'second password', '127.0.0.1')
        assert.equal((await zonal(db.url, ['user', 'disable', 'alice'])).code, 0)
        assert.equal(await auth.authenticate(again.accessToken), undefined)
        assert.match((await zonal(db.url, ['user', 'list'])).stdout, /alice\s+DISABLED/)
        assert.equal((await zonal(db.url, ['user', 'enable', 'alice'])).code, 0)
        assert.match((await zonal(db.url, ['user', 'passwd', 'nobody', '--password', 'whatever1'])).stderr, /user "nobody" does not exist/)
      } finally {
        await store.close()
      }
    })

    it('deletes a user, whose audit records stay, and refuses an unknown one', async () => {
      assert.equal((await zonal(db.url, ['user', 'add', 'frank', '--password', 'long enough', '--account', 'acme'])).code, 0)
      const deleted = await zonal(db.url, ['user', 'delete', 'FRANK'])
      assert.equal(deleted.code, 0, deleted.stderr)
      assert.equal(deleted.stdout, 'user "FRANK" deleted\n')
      assert.doesNotMatch((await zonal(db.url, ['user', 'list'])).stdout, /frank/)
      const again = await zonal(db.url, ['user', 'delete', 'frank'])
      assert.equal(again.code, 2)
      assert.match(again.stderr, /zonal: user "frank" does not exist/)
      const store = await openStore(db.url)
      try {
        const records = (await store.audit.recent(100)).filter(r => r.object === 'frank')
        assert.deepEqual(records.map(r => [r.change_type, r.account_name, r.user_name]), [
          ['DELETE', 'acme', 'support (zonal cli)'],
          ['ADD', 'acme', 'support (zonal cli)']
        ])
      } finally {
        await store.close()
      }
    })

    it('exits 2 with "zonal: <message>" on an unknown command and on a bad database URL (configuration)', async () => {
      const unknown = await zonal(db.url, ['frobnicate'])
      assert.equal(unknown.code, 2)
      assert.match(unknown.stderr, /^zonal: unknown command 'frobnicate'/)
      const bad = await zonal('mysql://x', ['account', 'list'])
      assert.equal(bad.code, 2)
      assert.match(bad.stderr, /^zonal: ZONAL_DATABASE_URL: unsupported URL/)
    })
  })
}
