import type { EngineName } from './engine.ts'
import type { AccountRow, AuditRow, TaskRow, UserRow, ZoneRow } from './schema.ts'

/**
 * The store interfaces: the only way the rest of the service reaches the database.
 * Lookups return `undefined` for "not found" (STYLE.md §4.4); the domain layer decides which
 * error that is. Driver errors never leave the store: a unique violation becomes the domain
 * error named by each method, anything else propagates as an unexpected error (a 500).
 *
 * Reads of tenant data take a {@link Scope}: the accounts the caller may read. The scope is part
 * of the query itself, so objects of other accounts are simply not found.
 */
export interface Scope {
  readonly accountIds: readonly string[]
}

export interface AccountMembership {
  accountId: string
  accountName: string
  group: string
}

export interface AccountSummary extends AccountRow {
  numberOfUsers: number
  numberOfGroups: number
  ownerUserName: string | null
}

export interface AccountStore {
  /** @throws ZonalError ACCOUNT_ALREADY_EXISTS */
  create (name: string, accountType?: string): Promise<AccountRow>
  findByName (name: string): Promise<AccountRow | undefined>
  findById (id: string): Promise<AccountRow | undefined>
  list (): Promise<AccountRow[]>
  /** Accounts of `scope` with their user counts and first Owner, ordered by name. */
  summaries (scope: Scope): Promise<AccountSummary[]>
  count (): Promise<number>
}

export interface UserStore {
  /** @throws ZonalError USER_ALREADY_EXISTS */
  create (username: string, passwordHash: string): Promise<UserRow>
  findByUsername (username: string): Promise<UserRow | undefined>
  findById (id: string): Promise<UserRow | undefined>
  list (): Promise<UserRow[]>
  count (): Promise<number>
  setPassword (userId: string, passwordHash: string): Promise<void>
  setStatus (userId: string, status: UserRow['status']): Promise<void>
  /** Count one failed login; returns the new count. `lockedUntil` locks the user until then. */
  recordFailedLogin (userId: string, lockedUntil: string | null): Promise<number>
  resetFailedLogins (userId: string): Promise<void>
  /** Put the user in `group` of the account, replacing an earlier group there. */
  grant (userId: string, accountId: string, group: string): Promise<void>
  memberships (userId: string): Promise<AccountMembership[]>
}

export interface NewToken {
  tokenHash: string
  kind: 'access' | 'refresh'
  userId: string
  familyId: string
  expiresAt: string
}

export interface TokenRecord extends NewToken {
  id: string
  createdAt: string
}

export interface TokenStore {
  insert (token: NewToken): Promise<TokenRecord>
  findByHash (tokenHash: string): Promise<TokenRecord | undefined>
  /** Delete one token family (an access token and the refresh token issued with it). */
  deleteFamily (familyId: string): Promise<number>
  deleteForUser (userId: string): Promise<number>
  deleteExpired (now: string): Promise<number>
}

export interface NewZone {
  accountId: string
  name: string
  type: ZoneRow['zone_type']
  status?: ZoneRow['status']
  owner?: string
  originalZoneId?: string | null
}

export interface ZoneStore {
  /** @throws ZonalError ZONE_ALREADY_EXISTS */
  create (zone: NewZone): Promise<ZoneRow>
  findByName (name: string, scope: Scope): Promise<ZoneRow | undefined>
  /** Returns whether a zone of the scope was deleted. */
  delete (name: string, scope: Scope): Promise<boolean>
}

export interface NewTask {
  accountId: string | null
  userId: string | null
  kind: string
  message: string
  payload?: unknown
}

export interface TaskStore {
  create (task: NewTask): Promise<TaskRow>
  findById (id: string, scope: Scope): Promise<TaskRow | undefined>
}

export interface NewAuditRecord {
  accountId: string | null
  accountName: string | null
  user: string
  ipAddress: string | null
  objectType: string
  changeType: string
  object: string
  parent?: string | null
  detail?: { changes?: { name: string, from?: unknown, to?: unknown }[], others?: unknown[] }
  changeComment?: string | null
  changeTime?: string
}

export interface AuditStore {
  append (record: NewAuditRecord): Promise<void>
  /** Newest first; for tests and the CLI until the audit report lands. */
  recent (limit: number, changeType?: string): Promise<AuditRow[]>
}

export interface Store {
  readonly engine: EngineName
  readonly accounts: AccountStore
  readonly users: UserStore
  readonly tokens: TokenStore
  readonly zones: ZoneStore
  readonly tasks: TaskStore
  readonly audit: AuditStore
  /** Run `fn` in one transaction; inside one, run it in the same transaction. */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>
  /** Apply pending migrations; returns the names applied. */
  migrate (): Promise<string[]>
  close (): Promise<void>
}
