import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { UserAdmin } from '../../src/auth/user-admin.ts'
import { openStore } from '../../src/store/open-store.ts'
import { engineCases, freshDatabase, type TestDatabase } from '../helpers/engines.ts'
import { startTestService, type TestService } from '../helpers/service.ts'

const PASSWORD = 'serve tokens password'

for (const engine of await engineCases()) {
  describe(`${engine.name}: zonal serve remembers verified tokens until they are revoked`, { skip: engine.skip }, () => {
    let t: TestService
    let database: TestDatabase
    let base: string

    before(async () => {
      database = await freshDatabase(engine.name)
      t = await startTestService(PASSWORD, { ZONAL_DATABASE_URL: database.url, ZONAL_DNS_WORKERS: '0' })
      base = `http://127.0.0.1:${t.service.httpPort}`
    })
    after(async () => {
      await t?.stop()
      await database?.drop()
    })

    async function token (form: Record<string, string>): Promise<{ accessToken: string, refreshToken: string }> {
      const res = await fetch(`${base}/authorization/token`, { method: 'POST', body: new URLSearchParams(form) })
      assert.equal(res.status, 200, await res.clone().text())
      return await res.json() as { accessToken: string, refreshToken: string }
    }
    const status = async (accessToken: string): Promise<number> => {
      const res = await fetch(`${base}/accounts`, { headers: { authorization: `Bearer ${accessToken}` } })
      await res.arrayBuffer()
      return res.status
    }

    it('refuses the old access token on the next request after a refresh', async () => {
      const first = await token({ grant_type: 'password', username: 'admin', password: PASSWORD })
      assert.equal(await status(first.accessToken), 200)
      assert.equal(await status(first.accessToken), 200)
      const second = await token({ grant_type: 'refresh_token', refresh_token: first.refreshToken })
      assert.equal(await status(first.accessToken), 401)
      assert.equal(await status(second.accessToken), 200)
    })

    it('refuses a token once another process (the CLI) disabled its user', async () => {
      const { accessToken } = await token({ grant_type: 'password', username: 'admin', password: PASSWORD })
      assert.equal(await status(accessToken), 200)
      const cli = await openStore(database.url)
      try {
        await new UserAdmin(cli).disable('admin')
      } finally {
        await cli.close()
      }
      const end = Date.now() + 10_000
      while (await status(accessToken) !== 401) {
        if (Date.now() > end) assert.fail('the token was still accepted 10 s after the user was disabled')
        await new Promise(resolve => setTimeout(resolve, 10))
      }
    })
  })
}
