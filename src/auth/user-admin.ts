import { ZonalError } from '../errors/catalog.ts'
import type { AccountRow, UserRow } from '../store/schema.ts'
import type { Store } from '../store/store.ts'
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

/** Account and user administration shared by the CLI and the first-start bootstrap. */
export class UserAdmin {
  constructor (private readonly store: Store) {}

  async addAccount (name: string): Promise<AccountRow> {
    checkAccountName(name)
    try {
      return await this.store.accounts.create(name)
    } catch (err) {
      if (err instanceof ZonalError && err.code === 'ACCOUNT_ALREADY_EXISTS') throw new AdminInputError(`account "${name}" already exists`)
      throw err
    }
  }

  async addUser (username: string, password: string): Promise<UserRow> {
    checkUsername(username)
    checkPassword(password)
    const hash = await hashPassword(password)
    try {
      return await this.store.users.create(username, hash)
    } catch (err) {
      if (err instanceof ZonalError && err.code === 'USER_ALREADY_EXISTS') throw new AdminInputError(`user "${username}" already exists`)
      throw err
    }
  }

  /** Set a new password and revoke the user's tokens. */
  async setPassword (username: string, password: string): Promise<void> {
    checkPassword(password)
    const user = await this.requireUser(username)
    const hash = await hashPassword(password)
    await this.store.transaction(async (tx) => {
      await tx.users.setPassword(user.id, hash)
      await tx.tokens.deleteForUser(user.id)
    })
  }

  /** Disable the user and revoke its tokens. */
  async disable (username: string): Promise<void> {
    const user = await this.requireUser(username)
    await this.store.transaction(async (tx) => {
      await tx.users.setStatus(user.id, 'DISABLED')
      await tx.tokens.deleteForUser(user.id)
    })
  }

  async enable (username: string): Promise<void> {
    const user = await this.requireUser(username)
    await this.store.users.setStatus(user.id, 'ACTIVE')
  }

  /** Put the user in a group of an account (replacing its earlier group there); takes effect on the next request. */
  async grant (username: string, accountName: string, groupName: string): Promise<Group> {
    const group = asGroup(groupName)
    const user = await this.requireUser(username)
    const account = await this.store.accounts.findByName(accountName)
    if (account === undefined) throw new AdminInputError(`account "${accountName}" does not exist`)
    await this.store.users.grant(user.id, account.id, group)
    return group
  }

  private async requireUser (username: string): Promise<UserRow> {
    const user = await this.store.users.findByUsername(username)
    if (user === undefined) throw new AdminInputError(`user "${username}" does not exist`)
    return user
  }
}
