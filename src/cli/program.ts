import { Command, CommanderError } from 'commander'
import type { Actor } from '../audit/recorder.ts'
import { AdminInputError, UserAdmin } from '../auth/user-admin.ts'
import { GROUPS } from '../auth/permissions.ts'
import { ConfigError, loadConfig } from '../config/config.ts'
import { ZonalError } from '../errors/catalog.ts'
import { openStore } from '../store/open-store.ts'
import type { Store } from '../store/store.ts'
import { VERSION } from '../version.ts'
import { promptHidden, readStdin } from './prompt.ts'

/** Who the audit records of CLI changes name. */
const CLI_ACTOR: Actor = { user: 'support (zonal cli)', ipAddress: null }

function admin (store: Store): UserAdmin {
  return new UserAdmin(store, { actor: CLI_ACTOR })
}

interface PasswordOptions {
  password?: string
  passwordStdin?: boolean
}

/** Run `fn` on the database `ZONAL_DATABASE_URL` names (migrated first), then close it. */
async function withStore<T> (fn: (store: Store) => Promise<T>, migrate = true): Promise<T> {
  const store = await openStore(loadConfig().databaseUrl)
  try {
    if (migrate) await store.migrate()
    return await fn(store)
  } finally {
    await store.close()
  }
}

async function resolvePassword (opts: PasswordOptions): Promise<string> {
  if (opts.password !== undefined) return opts.password
  if (opts.passwordStdin === true) return await readStdin()
  if (process.stdin.isTTY !== true) {
    throw new AdminInputError('no password given: use --password <pw> or --password-stdin, or run in a terminal to be prompted')
  }
  const first = await promptHidden('Password: ')
  const second = await promptHidden('Repeat password: ')
  if (first !== second) throw new AdminInputError('the two passwords differ')
  return first
}

function table (rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map(r => r[i]!.length)))
  return rows.map(r => r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n') + '\n'
}

/** The `zonal` command line. */
export function buildProgram (): Command {
  const program = new Command('zonal')
    .description('Zonal: DNS zone management with an UltraDNS-compatible API and an authoritative DNS server.\nConfiguration comes from ZONAL_* environment variables (see README).')
    .version(VERSION)
    .showHelpAfterError()
    // Usage errors as every other error (README): `zonal: <message>`; set before the
    // subcommands are added, which inherit both settings.
    .configureOutput({ outputError: (text, write) => { write(`zonal: ${text.replace(/^error: /, '')}`) } })
    .exitOverride()

  program.command('serve')
    .description('run the HTTP API (and DNS) on ZONAL_DATABASE_URL; migrations are applied at start')
    .action(async () => {
      // Loaded on demand: the account and user commands start faster without the HTTP stack.
      const { serveUntilSignal, startService } = await import('./serve.ts')
      const config = loadConfig()
      await serveUntilSignal(async () => await startService(config))
    })

  program.command('migrate')
    .description('apply pending database migrations')
    .action(async () => {
      const applied = await withStore(async (store) => store.migrate(), false)
      process.stdout.write(applied.length === 0 ? 'database is up to date\n' : `applied: ${applied.join(', ')}\n`)
    })

  const account = program.command('account').description('manage accounts')
  account.command('add <name>')
    .description('create an account')
    .action(async (name: string) => {
      await withStore(async (store) => admin(store).addAccount(name))
      process.stdout.write(`account "${name}" created\n`)
    })
  account.command('list')
    .description('list accounts')
    .action(async () => {
      const rows = await withStore(async (store) => store.accounts.summaries({ accountIds: (await store.accounts.list()).map(a => a.id) }))
      process.stdout.write(table([['NAME', 'USERS', 'OWNER', 'CREATED'], ...rows.map(a => [a.name, String(a.numberOfUsers), a.ownerUserName ?? '-', a.created_at])]))
    })

  const user = program.command('user').description('manage users')
  user.command('add <username>')
    .description('create a user (prompted for the password when it is not given and a terminal is attached)')
    .option('--password <password>', 'the password (visible in the process list; prefer the prompt or --password-stdin)')
    .option('--password-stdin', 'read the password from standard input')
    .option('--account <account>', 'also grant a group in this account')
    .option('--group <group>', `group for --account: ${GROUPS.join(', ')}`, 'ReadOnly')
    .action(async (username: string, opts: PasswordOptions & { account?: string, group: string }) => {
      const password = await resolvePassword(opts)
      const grant = opts.account === undefined ? undefined : { account: opts.account, group: opts.group }
      await withStore(async (store) => admin(store).addUser(username, password, grant))
      process.stdout.write(`user "${username}" created\n`)
    })
  user.command('list')
    .description('list users with their accounts and groups')
    .action(async () => {
      const rows = await withStore(async (store) => Promise.all((await store.users.list()).map(async u => {
        const ms = await store.users.memberships(u.id)
        return [u.username, u.status, ms.map(m => `${m.accountName}:${m.group}`).join(',') || '-']
      })))
      process.stdout.write(table([['USERNAME', 'STATUS', 'ACCOUNTS'], ...rows]))
    })
  user.command('passwd <username>')
    .description('set a new password (revokes the user\'s tokens)')
    .option('--password <password>', 'the new password')
    .option('--password-stdin', 'read the new password from standard input')
    .action(async (username: string, opts: PasswordOptions) => {
      await withStore(async (store) => {
        if (await store.users.findByUsername(username) === undefined) throw new AdminInputError(`user "${username}" does not exist`)
      })
      const password = await resolvePassword(opts)
      await withStore(async (store) => admin(store).setPassword(username, password))
      process.stdout.write(`password of "${username}" changed; its tokens are revoked\n`)
    })
  user.command('disable <username>')
    .description('disable a user (revokes its tokens)')
    .action(async (username: string) => {
      await withStore(async (store) => admin(store).disable(username))
      process.stdout.write(`user "${username}" disabled\n`)
    })
  user.command('enable <username>')
    .description('enable a disabled user')
    .action(async (username: string) => {
      await withStore(async (store) => admin(store).enable(username))
      process.stdout.write(`user "${username}" enabled\n`)
    })
  user.command('grant <username> <account> <group>')
    .description(`put a user in a group of an account (${GROUPS.join(', ')})`)
    .action(async (username: string, accountName: string, group: string) => {
      const granted = await withStore(async (store) => admin(store).grant(username, accountName, group))
      process.stdout.write(`user "${username}" is in group ${granted} of account "${accountName}"\n`)
    })
  user.command('delete <username>')
    .description('delete a user with its memberships and tokens (its audit records stay)')
    .action(async (username: string) => {
      await withStore(async (store) => admin(store).deleteUser(username))
      process.stdout.write(`user "${username}" deleted\n`)
    })

  const zone = program.command('zone').description('support operations on zones')
  zone.command('unsuspend <name>')
    .description('make a suspended zone active again (support only; a primary\'s SOA serial is incremented)')
    .action(async (name: string) => {
      const updated = await withStore(async (store) => {
        const { unsuspendZone } = await import('../zones/actions.ts')
        const { SecretBox } = await import('../auth/secrets.ts')
        const config = loadConfig()
        return await unsuspendZone({ store, nameservers: config.nameservers, secrets: new SecretBox(config.secretKey), clock: () => new Date() }, CLI_ACTOR, name)
      })
      process.stdout.write(`zone ${updated.name} is active again (serial ${updated.serial})\n`)
    })

  const zonefile = program.command('zonefile').description('check and format BIND zone files')
  zonefile.command('check <file>')
    .description('print every problem (line, code, message); exit 1 when there is an error')
    .option('--origin <name>', 'the zone name (default: the $ORIGIN before the file\'s first record)')
    .action(async (file: string, opts: { origin?: string }) => {
      const { checkCommand } = await import('./zonefile.ts')
      await checkCommand(file, opts.origin)
    })
  zonefile.command('format <file>')
    .description('write the zone in canonical BIND text to standard output')
    .option('--origin <name>', 'the zone name (default: the $ORIGIN before the file\'s first record)')
    .action(async (file: string, opts: { origin?: string }) => {
      const { formatCommand } = await import('./zonefile.ts')
      await formatCommand(file, opts.origin)
    })

  return program
}

/**
 * Run the CLI and set the exit code (README "Users and accounts"): errors are printed as
 * `zonal: <message>` on stderr; rejected input or configuration (usage errors, AdminInputError,
 * ConfigError, a ZonalError of a 4xx kind) exits 2, anything else 1. Help and version exit 0.
 */
export async function runCli (argv: string[]): Promise<void> {
  const program = buildProgram()
  try {
    await program.parseAsync(argv)
  } catch (err) {
    if (err instanceof CommanderError) {
      // Commander has printed its message (through outputError) or the help already.
      if (err.exitCode !== 0 && err.code === 'commander.help') process.stderr.write('zonal: a command is missing (see the usage above)\n')
      process.exitCode = err.exitCode === 0 ? 0 : 2
      return
    }
    if (err instanceof AdminInputError || err instanceof ConfigError || (err instanceof ZonalError && err.def.status < 500)) {
      process.stderr.write(`zonal: ${err.message}\n`)
      process.exitCode = 2
      return
    }
    process.stderr.write(`zonal: ${(err as Error).message ?? String(err)}\n`)
    process.exitCode = 1
  }
}
