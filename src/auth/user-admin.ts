import type { Actor, Change } from '../audit/recorder.ts'
import { ZonalError } from '../errors/catalog.ts'
import type { AccountRow, UserRow } from '../store/schema.ts'
import type { AccountMembership, Store } from '../store/store.ts'
import { hashPassword, passwordProblem } from './passwords.ts'
import { normalizeGroup, GROUPS, type Group } from './permissions.ts'

/** A rejected administrative input; the CLI prints the message and exits non-zero. */
export class AdminInputError extends Error {}

const USERNAME = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}$/
const ACCOUNT_NAME = /^[^\s\p{Cc}/][^\p{Cc}/]{0,126}[^\s\p{Cc}/]$|^[^\s\p{Cc}/]$/u

export function checkUsername (username: string): void {
  if (!USERNAME.test(username)) {
    throw new AdminInputError(`invalid username "${username}": 1-64 characters, letters, digits and . _ @ + -, starting with a letter or digit`)
  }
}

export function checkAccountName (name: string): void {
  if (!ACCOUNT_NAME.test(name)) {
    throw new AdminInputError(`invalid account name "${name}": 1-128 printable characters without "/" and without leading or trailing spaces`)
  }
}

function checkPassword (password: string): void {
  const problem = passwordProblem(password)
  if (problem !== undefined) throw new AdminInputError(problem)
}

function asGroup (name: string): Group {
  const group = normalizeGroup(name)
  if (group === undefined) throw new AdminInputError(`unknown group "${name}": one of ${GROUPS.join(', ')}`)
  return group
}

/** A group of an account given to a new user (`addUser`). */
export interface UserGrant {
  account: string
  group: string
}

export interface UserAdminOptions {
  /** Who the audit records name; default `system`. */
  actor?: Actor
}

/** The account an audit record belongs to; null for a user without accounts. */
type AuditAccount = Pick<AccountMembership, 'accountId' | 'accountName'> | { accountId: null, accountName: null }

const NO_ACCOUNT: AuditAccount = { accountId: null, accountName: null }

/**
 * Account and user administration shared by the CLI and the first-start bootstrap.
 *
 * Every change writes its audit records in its own transaction: one per account the user
 * belongs to (one without account when it has none), naming the actor. A change that fails
 * leaves no record, and a call that changes nothing writes none. Passwords and their hashes
 * never reach a record.
 */
export class UserAdmin {
  private readonly actor: Actor

  private readonly store: Store

  constructor (store: Store, options: UserAdminOptions = {}) {
    this.store = store
    this.actor = options.actor ?? { user: 'system', ipAddress: null }
  }

  /**
   * Create an account; audited as ACCOUNT ADD in it.
   * @throws AdminInputError for an invalid name or one that exists in any case
   */
  async addAccount (name: string): Promise<AccountRow> {
    checkAccountName(name)
    try {
      return await this.store.transaction(async (tx) => {
        const account = await tx.accounts.create(name)
        await this.record(tx, [{ accountId: account.id, accountName: account.name }], 'ACCOUNT', 'ADD', account.name, [])
        return account
      })
    } catch (err) {
      if (err instanceof ZonalError && err.code === 'ACCOUNT_ALREADY_EXISTS') throw new AdminInputError(`account "${name}" already exists`)
      throw err
    }
  }

  /**
   * Create a user, and put it in a group of an account when `grant` is given, in one
   * transaction; audited as USER ADD (with the group) in that account, or without account.
   * @throws AdminInputError for an invalid username or password, an unknown group or account,
   * or a username that exists in any case
   */
  async addUser (username: string, password: string, grant?: UserGrant): Promise<UserRow> {
    checkUsername(username)
    checkPassword(password)
    const granted = grant === undefined ? undefined : { account: grant.account, group: asGroup(grant.group) }
    const hash = await hashPassword(password)
    try {
      return await this.store.transaction(async (tx) => {
        const user = await tx.users.create(username, hash)
        if (granted === undefined) {
          await this.record(tx, [], 'USER', 'ADD', user.username, [])
          return user
        }
        const account = await this.requireAccount(tx, granted.account)
        await tx.users.grant(user.id, account.id, granted.group)
        await this.record(tx, [{ accountId: account.id, accountName: account.name }], 'USER', 'ADD', user.username, [{ name: 'group', to: granted.group }])
        return user
      })
    } catch (err) {
      if (err instanceof ZonalError && err.code === 'USER_ALREADY_EXISTS') throw new AdminInputError(`user "${username}" already exists`)
      throw err
    }
  }

  /**
   * Set a new password and revoke the user's tokens; audited as USER MODIFY without the
   * password or its hash.
   * @throws AdminInputError for a weak password or an unknown user
   */
  async setPassword (username: string, password: string): Promise<void> {
    checkPassword(password)
    await this.requireUser(this.store, username)
    const hash = await hashPassword(password)
    await this.store.transaction(async (tx) => {
      const user = await this.requireUser(tx, username)
      await tx.users.setPassword(user.id, hash)
      await tx.tokens.deleteForUser(user.id)
      await this.record(tx, await tx.users.memberships(user.id), 'USER', 'MODIFY', user.username, [{ name: 'password', from: '<hidden>', to: '<changed>' }])
    })
  }

  /**
   * Disable the user and revoke its tokens.
   * @throws AdminInputError for an unknown user
   */
  async disable (username: string): Promise<void> {
    await this.store.transaction(async (tx) => {
      const user = await this.requireUser(tx, username)
      await this.setStatus(tx, user, 'DISABLED')
      await tx.tokens.deleteForUser(user.id)
    })
  }

  /**
   * Enable a disabled user.
   * @throws AdminInputError for an unknown user
   */
  async enable (username: string): Promise<void> {
    await this.store.transaction(async (tx) => {
      await this.setStatus(tx, await this.requireUser(tx, username), 'ACTIVE')
    })
  }

  /**
   * Put the user in a group of an account (replacing its earlier group there); takes effect on
   * the next request. Audited as USER MODIFY in that account; the same group again changes
   * nothing and writes nothing.
   * @returns the group, spelled as the service spells it
   * @throws AdminInputError for an unknown group, user or account
   */
  async grant (username: string, accountName: string, groupName: string): Promise<Group> {
    const group = asGroup(groupName)
    return await this.store.transaction(async (tx) => {
      const user = await this.requireUser(tx, username)
      const account = await this.requireAccount(tx, accountName)
      const previous = (await tx.users.memberships(user.id)).find(m => m.accountId === account.id)?.group ?? null
      if (previous === group) return group
      await tx.users.grant(user.id, account.id, group)
      await this.record(tx, [{ accountId: account.id, accountName: account.name }], 'USER', 'MODIFY', user.username, [{ name: 'group', from: previous, to: group }])
      return group
    })
  }

  /**
   * Delete a user with its memberships and tokens; audited as USER DELETE in each account it
   * belonged to (or without account). Its tasks stay, without a user; audit records keep its name.
   * @throws AdminInputError for an unknown user
   */
  async deleteUser (username: string): Promise<void> {
    await this.store.transaction(async (tx) => {
      const user = await this.requireUser(tx, username)
      await this.record(tx, await tx.users.memberships(user.id), 'USER', 'DELETE', user.username, [{ name: 'user', from: user.username }])
      await tx.users.delete(user.id)
    })
  }

  /** Move the user to `status` with its audit records; nothing when it is there already. */
  private async setStatus (tx: Store, user: UserRow, status: UserRow['status']): Promise<void> {
    if (user.status === status) return
    await tx.users.setStatus(user.id, status)
    await this.record(tx, await tx.users.memberships(user.id), 'USER', 'MODIFY', user.username, [{ name: 'status', from: user.status, to: status }])
  }

  /** One audit record per account of `accounts`, or one without account when there is none. */
  private async record (tx: Store, accounts: readonly AuditAccount[], objectType: string, changeType: string, object: string, changes: Change[]): Promise<void> {
    for (const account of accounts.length === 0 ? [NO_ACCOUNT] : accounts) {
      await tx.audit.append({
        accountId: account.accountId,
        accountName: account.accountName,
        user: this.actor.user,
        ipAddress: this.actor.ipAddress,
        objectType,
        changeType,
        object,
        parent: null,
        detail: { changes, others: [] },
        changeComment: null
      })
    }
  }

  private async requireUser (store: Store, username: string): Promise<UserRow> {
    const user = await store.users.findByUsername(username)
    if (user === undefined) throw new AdminInputError(`user "${username}" does not exist`)
    return user
  }

  private async requireAccount (store: Store, name: string): Promise<AccountRow> {
    const account = await store.accounts.findByName(name)
    if (account === undefined) throw new AdminInputError(`account "${name}" does not exist`)
    return account
  }
}
