import type { Config } from '../config/config.ts'
import { generatePassword } from '../auth/passwords.ts'
import { UserAdmin } from '../auth/user-admin.ts'
import type { Store } from '../store/store.ts'

export interface BootstrapResult {
  account: string
  username: string
  /** Set only when the password was generated (it is shown once). */
  generatedPassword?: string
}

/**
 * First start on an empty database (no users): create the admin account and an Owner user in
 * it, in one transaction with their audit records (by the actor `bootstrap`). Returns undefined
 * when the database already has users. When several nodes start at once on one PostgreSQL, one
 * wins and the others see its user.
 */
export async function bootstrapAdmin (store: Store, config: Pick<Config, 'adminAccount' | 'adminUsername' | 'adminPassword'>): Promise<BootstrapResult | undefined> {
  if (await store.users.count() > 0) return undefined
  const password = config.adminPassword ?? generatePassword()
  try {
    await store.transaction(async (tx) => {
      if (await tx.users.count() > 0) throw new AlreadyBootstrapped()
      const admin = new UserAdmin(tx, { actor: { user: 'bootstrap', ipAddress: null } })
      if (await tx.accounts.findByName(config.adminAccount) === undefined) await admin.addAccount(config.adminAccount)
      await admin.addUser(config.adminUsername, password, { account: config.adminAccount, group: 'Owner' })
    })
  } catch (err) {
    if (err instanceof AlreadyBootstrapped || await store.users.count() > 0) return undefined
    throw err
  }
  return {
    account: config.adminAccount,
    username: config.adminUsername,
    ...(config.adminPassword === undefined ? { generatedPassword: password } : {})
  }
}

class AlreadyBootstrapped extends Error {}
