import { json } from './api.ts'

/** One account of the signed-in user with their group and what it allows (GET /authorization/me). */
export interface MyAccount {
  accountName: string
  group: string
  permissions: string[]
}

export interface Me {
  username: string
  accounts: MyAccount[]
}

/** Who is signed in and what they may do in each account: GET /authorization/me. */
export async function fetchMe (): Promise<Me> {
  return await json<Me>('GET', '/authorization/me')
}

/** Whether `me` has `permission` in `accountName` (any case). */
export function may (me: Me | undefined, accountName: string, permission: string): boolean {
  const key = accountName.toLowerCase()
  return me?.accounts.some(a => a.accountName.toLowerCase() === key && a.permissions.includes(permission)) ?? false
}

/** The accounts in which `me` has `permission`. */
export function accountsWhere (me: Me | undefined, permission: string): string[] {
  return me?.accounts.filter(a => a.permissions.includes(permission)).map(a => a.accountName) ?? []
}
