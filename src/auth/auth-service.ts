import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { ZonalError } from '../errors/catalog.ts'
import type { UserRow } from '../store/schema.ts'
import type { Store } from '../store/store.ts'
import { addSeconds, iso, systemClock, type Clock } from '../util/time.ts'
import { AddressThrottle } from './login-throttle.ts'
import { DUMMY_HASH, verifyPassword } from './passwords.ts'
import { Principal } from './principal.ts'

export interface AuthSettings {
  accessTokenTtl: number
  refreshTokenTtl: number
  /** Consecutive failed logins after which a user is locked. 0 disables the lock. */
  maxFailedLogins: number
  lockSeconds: number
  /** Failed logins from one address within `addressWindowSeconds` before it is throttled. 0 disables. */
  addressMaxFailures: number
  addressWindowSeconds: number
  /**
   * Seconds a verified bearer token is remembered once {@link AuthService.watchRevocations} runs
   * (revocations clear it before that). 0: every request reads the store.
   */
  tokenCacheSeconds?: number
}

export const defaultAuthSettings: AuthSettings = {
  accessTokenTtl: 3600,
  refreshTokenTtl: 7 * 24 * 3600,
  maxFailedLogins: 5,
  lockSeconds: 900,
  addressMaxFailures: 20,
  addressWindowSeconds: 900,
  tokenCacheSeconds: 30
}

/** Verified tokens remembered at most; the cache starts again empty when full. */
const TOKEN_CACHE_ENTRIES = 10_000

interface CachedBearer {
  principal: Principal
  /** The token's expiry (ISO 8601 UTC). */
  expiresAt: string
  /** Remembered until then (clock ms). */
  until: number
}

/** The token response, in both key styles the real API sends (reference notes §2). */
export interface TokenGrant {
  tokenType: 'Bearer'
  accessToken: string
  refreshToken: string
  expiresIn: string
  refreshTokenExpiresIn?: string
  username: string
  token_type: 'Bearer'
  access_token: string
  refresh_token: string
  expires_in: string
}

/** Checks a password against a stored hash (scrypt; tests count the calls). */
export type PasswordCheck = (password: string, stored: string) => Promise<boolean>

/** Hash of a bearer or refresh token as stored: SHA-256, hex. */
export function hashToken (token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/**
 * Logins, token issue and refresh, bearer-token checks and revocation.
 *
 * @remarks Failed logins count per user in the store (a lock that holds across nodes) and per
 * address in memory (see {@link AuthService.login}); each failure is an audit record of change type FAILED_LOGIN, each success
 * one of LOGIN.
 */
export class AuthService {
  private readonly throttle: AddressThrottle
  /** Verified bearer tokens by hash, while revocations are watched (see {@link watchRevocations}). */
  private tokens: Map<string, CachedBearer> | undefined
  /** Moves on each revocation: a store read begun before it is not remembered. */
  private revocations = 0

  private readonly store: Store
  readonly settings: AuthSettings
  private readonly clock: Clock
  private readonly verify: PasswordCheck

  constructor (
    store: Store,
    settings: AuthSettings = defaultAuthSettings,
    clock: Clock = systemClock,
    verify: PasswordCheck = verifyPassword
  ) {
    this.store = store
    this.settings = settings
    this.clock = clock
    this.verify = verify
    this.throttle = new AddressThrottle(settings.addressMaxFailures, settings.addressWindowSeconds * 1000)
  }

  /**
   * `grant_type=password`.
   *
   * @remarks Every attempt spends one password check, whether the user exists, is locked or
   * not, and a locked user is refused with the same error as a wrong password or an unknown
   * user: the answer tells nothing about which names exist. The attempt is counted (per user in
   * the store, per address here) before the check, so concurrent guesses cannot all pass.
   * @throws ZonalError AUTH_INVALID_GRANT, AUTH_USER_INACTIVE, AUTH_ADDRESS_THROTTLED
   */
  async login (username: string, password: string, address: string): Promise<TokenGrant> {
    const now = this.clock()
    const at = now.getTime()
    const wait = this.throttle.reserve(address, at)
    if (wait > 0) throw new ZonalError('AUTH_ADDRESS_THROTTLED', wait)

    const user = await this.store.users.findByUsername(username)
    const admitted = user !== undefined &&
      await this.store.users.claimLoginAttempt(user.id, iso(now), this.settings.maxFailedLogins, iso(addSeconds(now, this.settings.lockSeconds)))
    const ok = await this.verify(password, user?.password_hash ?? DUMMY_HASH)
    if (user === undefined || !admitted || !ok) {
      const reason = user === undefined ? 'unknown user' : !admitted ? 'user locked' : 'wrong password'
      await this.store.transaction(async (tx) => {
        await this.writeAudit(tx, user, username, address, 'FAILED_LOGIN', [{ name: 'reason', value: reason }])
      })
      throw new ZonalError('AUTH_INVALID_GRANT')
    }
    if (user.status !== 'ACTIVE') {
      await this.store.transaction(async (tx) => {
        await this.writeAudit(tx, user, username, address, 'FAILED_LOGIN', [{ name: 'reason', value: 'user disabled' }])
      })
      throw new ZonalError('AUTH_USER_INACTIVE')
    }
    this.throttle.release(address, at)
    return await this.store.transaction(async (tx) => {
      await tx.users.resetFailedLogins(user.id)
      await this.writeAudit(tx, user, user.username, address, 'LOGIN', [])
      return await this.issue(tx, user, false)
    })
  }

  /**
   * `grant_type=refresh_token`: rotates the pair (the old access and refresh tokens stop working).
   * @throws ZonalError AUTH_INVALID_REFRESH, AUTH_USER_INACTIVE
   */
  async refresh (refreshToken: string): Promise<TokenGrant> {
    return await this.store.transaction(async (tx) => {
      const record = await tx.tokens.findByHash(hashToken(refreshToken))
      if (record === undefined || record.kind !== 'refresh' || record.expiresAt <= iso(this.clock())) {
        throw new ZonalError('AUTH_INVALID_REFRESH')
      }
      const user = await tx.users.findById(record.userId)
      if (user === undefined) throw new ZonalError('AUTH_INVALID_REFRESH')
      if (user.status !== 'ACTIVE') throw new ZonalError('AUTH_USER_INACTIVE')
      await tx.tokens.deleteFamily(record.familyId)
      return await this.issue(tx, user, true)
    })
  }

  /** The caller a bearer token belongs to, or undefined when it is unknown, expired or its user disabled. */
  async authenticate (bearer: string): Promise<Principal | undefined> {
    const hash = hashToken(bearer)
    const now = this.clock()
    const at = iso(now)
    const cached = this.tokens?.get(hash)
    if (cached !== undefined) {
      if (cached.expiresAt > at && cached.until > now.getTime()) return cached.principal
      this.tokens?.delete(hash)
    }
    const seen = this.revocations
    const holder = await this.store.tokens.findBearer(hash, at)
    if (holder === undefined) return undefined
    const principal = new Principal(holder.userId, holder.username, holder.memberships)
    const ttl = this.settings.tokenCacheSeconds ?? 0
    if (this.tokens !== undefined && ttl > 0 && seen === this.revocations) {
      if (this.tokens.size >= TOKEN_CACHE_ENTRIES) this.tokens.clear()
      this.tokens.set(hash, { principal, expiresAt: holder.expiresAt, until: now.getTime() + ttl * 1000 })
    }
    return principal
  }

  /**
   * Remember verified bearer tokens (for `tokenCacheSeconds`, never past their expiry), forgetting
   * them all whenever the store reports a revocation or a change of a user's access
   * (`Store.watchAuth`): at once for this process's changes, as soon as PostgreSQL delivers the
   * notification for other processes' (on SQLite, within 200 ms of another process's commit).
   * Without this call (or with `tokenCacheSeconds` 0) every check reads the store. Resolves to a
   * function that stops remembering.
   */
  async watchRevocations (): Promise<() => Promise<void>> {
    if ((this.settings.tokenCacheSeconds ?? 0) <= 0) return async () => {}
    const stop = await this.store.watchAuth(() => { this.forgetTokens() })
    this.tokens = new Map()
    return async () => {
      this.tokens = undefined
      await stop()
    }
  }

  private forgetTokens (): void {
    this.revocations++
    this.tokens?.clear()
  }

  /** Revoke every token of a user (password change, disable). */
  async revokeUser (userId: string, store: Store = this.store): Promise<number> {
    return await store.tokens.deleteForUser(userId)
  }

  private async issue (tx: Store, user: UserRow, refreshing: boolean): Promise<TokenGrant> {
    const now = this.clock()
    const familyId = randomUUID()
    const accessToken = randomBytes(32).toString('base64url')
    const refreshToken = randomBytes(32).toString('base64url')
    await tx.tokens.insert({ tokenHash: hashToken(accessToken), kind: 'access', userId: user.id, familyId, expiresAt: iso(addSeconds(now, this.settings.accessTokenTtl)) })
    await tx.tokens.insert({ tokenHash: hashToken(refreshToken), kind: 'refresh', userId: user.id, familyId, expiresAt: iso(addSeconds(now, this.settings.refreshTokenTtl)) })
    const expiresIn = String(this.settings.accessTokenTtl)
    return {
      tokenType: 'Bearer',
      refreshToken,
      accessToken,
      expiresIn,
      ...(refreshing ? { refreshTokenExpiresIn: String(this.settings.refreshTokenTtl) } : {}),
      username: user.username,
      refresh_token: refreshToken,
      access_token: accessToken,
      expires_in: expiresIn,
      token_type: 'Bearer'
    }
  }

  /** One audit record per account the user belongs to (one without account for unknown users). */
  private async writeAudit (tx: Store, user: UserRow | undefined, username: string, address: string, changeType: string, others: unknown[]): Promise<void> {
    const memberships = user === undefined ? [] : await tx.users.memberships(user.id)
    const accounts = memberships.length === 0 ? [{ accountId: null, accountName: null }] : memberships
    for (const m of accounts) {
      await tx.audit.append({
        accountId: m.accountId,
        accountName: m.accountName,
        user: user?.username ?? username.slice(0, 128),
        ipAddress: address,
        objectType: 'USER',
        changeType,
        object: user?.username ?? username.slice(0, 128),
        detail: { others }
      })
    }
  }
}
