import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import { buildApp } from '../../src/app.ts'
import { AuthService, defaultAuthSettings, type AuthSettings, type PasswordCheck } from '../../src/auth/auth-service.ts'
import { UserAdmin } from '../../src/auth/user-admin.ts'
import type { Store } from '../../src/store/store.ts'
import type { Clock } from '../../src/util/time.ts'
import type { ZoneLimits } from '../../src/zones/limits.ts'
import { freshStore, type EngineCase } from './engines.ts'

export interface TestApp {
  app: FastifyInstance
  store: Store
  /** The database's URL (to open a second store on it, as another process would). */
  url: string
  auth: AuthService
  admin: UserAdmin
  /** Create a user in an account (created when missing) with a group, and return its access token. */
  user (username: string, account: string, group?: string): Promise<string>
  close (): Promise<void>
}

export const TEST_PASSWORD = 'correct horse battery'

/** Build the app once per suite on a fresh database of `engine` (STYLE.md §5 "API"). */
export async function buildTestApp (engine: EngineCase['name'], options: { auth?: Partial<AuthSettings>, verify?: PasswordCheck, clock?: Clock, rateLimitMax?: number, bodyLimit?: number, secretKey?: string, limits?: Partial<ZoneLimits>, tasks?: (store: Store) => { wake (): void }, logger?: FastifyBaseLogger } = {}): Promise<TestApp> {
  const { store, url, close } = await freshStore(engine)
  const auth = new AuthService(store, { ...defaultAuthSettings, ...options.auth }, options.clock, options.verify)
  const app = await buildApp({
    store,
    auth,
    config: { bodyLimit: options.bodyLimit ?? 64 * 1024, rateLimitMax: options.rateLimitMax ?? 0, rateLimitWindowSeconds: 60, ...(options.secretKey === undefined ? {} : { secretKey: options.secretKey }), ...options.limits },
    tasks: options.tasks?.(store),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.clock === undefined ? {} : { clock: options.clock })
  })
  const admin = new UserAdmin(store)
  return {
    app,
    store,
    url,
    auth,
    admin,
    async user (username, account, group = 'Owner') {
      if (await store.accounts.findByName(account) === undefined) await admin.addAccount(account)
      if (await store.users.findByUsername(username) === undefined) await admin.addUser(username, TEST_PASSWORD)
      await admin.grant(username, account, group)
      const res = await app.inject({
        method: 'POST',
        url: '/authorization/token',
        payload: new URLSearchParams({ grant_type: 'password', username, password: TEST_PASSWORD }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' }
      })
      if (res.statusCode !== 200) throw new Error(`login of ${username} failed: ${res.body}`)
      return (res.json() as { accessToken: string }).accessToken
    },
    async close () {
      await app.close()
      await close()
    }
  }
}
