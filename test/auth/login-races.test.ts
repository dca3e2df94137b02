import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { verifyPassword } from '../../src/auth/passwords.ts'
import { buildTestApp, TEST_PASSWORD, type TestApp } from '../helpers/app.ts'
import { engineCases } from '../helpers/engines.ts'

/** The reasons of the failed logins recorded for `user`. */
async function failureReasons (t: TestApp, user: string): Promise<string[]> {
  const rows = await t.store.audit.recent(10_000, 'FAILED_LOGIN')
  return rows.filter(r => r.object === user).map(r => (JSON.parse(r.detail) as { others: Array<{ value: string }> }).others[0]?.value ?? '')
}

const form = (fields: Record<string, string>) => ({
  payload: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' }
})

for (const engine of await engineCases()) {
  describe(`${engine.name}: logins under attack`, { skip: engine.skip }, () => {
    let t: TestApp
    /** Password checks done (each is one scrypt). */
    let checks = 0
    /** While set, password checks wait until `count` of them have started (every claim is made by then). */
    let gate: { count: number, open: () => void, opened: Promise<void> } | undefined

    before(async () => {
      t = await buildTestApp(engine.name, {
        auth: { maxFailedLogins: 5, lockSeconds: 900, addressMaxFailures: 20, addressWindowSeconds: 900 },
        verify: async (password, stored) => {
          checks++
          if (gate !== undefined) {
            if (checks >= gate.count) gate.open()
            await gate.opened
          }
          return await verifyPassword(password, stored)
        }
      })
      await t.admin.addAccount('acme')
      for (const name of ['burst', 'mixed-burst', 'locked', 'own', 'victim']) {
        await t.admin.addUser(name, TEST_PASSWORD)
        await t.admin.grant(name, 'acme', 'Owner')
      }
    })
    after(async () => { await t.close() })

    const login = (username: string, password: string, remoteAddress = '192.0.2.1') =>
      t.app.inject({ method: 'POST', url: '/authorization/token', remoteAddress, ...form({ grant_type: 'password', username, password }) })

    it('locks a user against 100 concurrent wrong passwords from 100 addresses', async () => {
      const answers = await Promise.all(Array.from({ length: 100 }, async (_, i) => await login('burst', `wrong ${i}`, `198.51.100.${i + 1}`)))
      assert.ok(answers.every(a => a.statusCode === 400 && a.json().errorCode === 60001))
      const row = await t.store.users.findByUsername('burst')
      assert.ok(row?.locked_until !== null && row?.locked_until !== undefined, 'the user is locked')
      // The right password is refused now, from an address that never failed.
      const after = await login('burst', TEST_PASSWORD, '203.0.113.9')
      assert.equal(after.statusCode, 400)
      assert.equal(after.json().errorCode, 60001)
      // Only five guesses were judged; the others were refused as the lock holds.
      const reasons = await failureReasons(t, 'burst')
      assert.equal(reasons.filter(r => r === 'wrong password').length, 5)
      assert.equal(reasons.filter(r => r === 'user locked').length, 96)
    })

    it('judges no more passwords than the limit in a burst that holds the right one', async () => {
      // 60 concurrent attempts, every other one with the right password, all claimed before any
      // password check ends: five are judged, whatever their order, and the other 55 refused.
      let open = (): void => {}
      const opened = new Promise<void>(resolve => { open = resolve })
      gate = { count: checks + 60, open, opened }
      const answers = await Promise.all(Array.from({ length: 60 }, async (_, i) =>
        await login('mixed-burst', i % 2 === 1 ? TEST_PASSWORD : `wrong ${i}`, `198.51.100.${i + 1}`)))
      gate = undefined
      const ok = answers.filter(a => a.statusCode === 200).length
      const reasons = await failureReasons(t, 'mixed-burst')
      const wrong = reasons.filter(r => r === 'wrong password').length
      assert.equal(ok + wrong, 5, `${ok} logins and ${wrong} wrong passwords judged`)
      assert.equal(reasons.filter(r => r === 'user locked').length, 55)
    })

    it('answers a locked user exactly as an unknown one, after the same password check', async () => {
      for (let i = 0; i < 5; i++) await login('locked', `wrong ${i}`, `198.51.100.${200 + i}`)
      const before = checks
      const locked = await login('locked', TEST_PASSWORD, '203.0.113.20')
      const lockedChecks = checks - before
      const unknown = await login('nobody-by-this-name', TEST_PASSWORD, '203.0.113.21')
      const unknownChecks = checks - before - lockedChecks
      const wrong = await login('victim', 'not the password', '203.0.113.22')
      assert.equal(locked.statusCode, unknown.statusCode)
      assert.deepEqual(locked.json(), unknown.json())
      assert.deepEqual(wrong.json(), unknown.json())
      assert.deepEqual(locked.json(), { errorCode: 60001, errorMessage: 'invalid_grant:Invalid username & password combination.', error: 'invalid_grant', error_description: '60001: invalid_grant:Invalid username & password combination.' })
      assert.equal(lockedChecks, 1)
      assert.equal(unknownChecks, 1)
      assert.equal(locked.headers['retry-after'], undefined)
    })

    it('keeps counting an address\'s failures across its successful logins', async () => {
      // 19 failures, then a login to one's own account, repeated: the 21st failure is throttled.
      const address = '192.0.2.77'
      let throttled
      for (let round = 0; round < 3 && throttled === undefined; round++) {
        for (let i = 0; i < 19; i++) {
          const a = await login(`guess-${round}-${i}`, 'guess', address)
          if (a.statusCode === 429) { throttled = a; break }
        }
        if (throttled !== undefined) break
        const own = await login('own', TEST_PASSWORD, address)
        if (own.statusCode === 429) throttled = own
      }
      assert.ok(throttled !== undefined, 'the address is throttled')
      assert.equal(throttled.json().errorCode, 340001)
      assert.ok(Number(throttled.headers['retry-after']) > 0)
    })

    it('throttles an address by its concurrent failures too', async () => {
      const answers = await Promise.all(Array.from({ length: 40 }, async (_, i) => await login(`unknown-${i}`, 'guess', '192.0.2.88')))
      assert.equal(answers.filter(a => a.statusCode === 400).length, 20)
      assert.equal(answers.filter(a => a.statusCode === 429).length, 20)
    })
  })
}
