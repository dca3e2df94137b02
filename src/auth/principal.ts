import type { AccountMembership, Scope } from '../store/store.ts'
import { groupAllows, type Permission } from './permissions.ts'

/** The authenticated caller of a request. */
export class Principal {
  readonly userId: string
  readonly username: string
  readonly memberships: readonly AccountMembership[]

  constructor (
    userId: string,
    username: string,
    memberships: readonly AccountMembership[]
  ) {
    this.userId = userId
    this.username = username
    this.memberships = memberships
  }

  /** The accounts in which the caller has `permission`: the scope of a store query. */
  scope (permission: Permission = 'read'): Scope {
    return { accountIds: this.memberships.filter(m => groupAllows(m.group, permission)).map(m => m.accountId) }
  }

  /** The membership for an account name (any case), if the caller has one. */
  membership (accountName: string): AccountMembership | undefined {
    const key = accountName.toLowerCase()
    return this.memberships.find(m => m.accountName.toLowerCase() === key)
  }

  can (accountId: string, permission: Permission): boolean {
    return this.memberships.some(m => m.accountId === accountId && groupAllows(m.group, permission))
  }
}
