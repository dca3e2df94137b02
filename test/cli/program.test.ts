/**
 * Errors of every `zonal` command path follow the README: `zonal: <message>` on stderr, exit 2
 * for rejected input or configuration (usage errors included), 1 otherwise; help and version
 * exit 0.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { zonal } from '../helpers/cli.ts'
import { freshDatabase, type TestDatabase } from '../helpers/engines.ts'

describe('sqlite: zonal errors and exit codes on every command path', () => {
  let db: TestDatabase
  before(async () => {
    db = await freshDatabase('sqlite')
    assert.equal((await zonal(db.url, ['account', 'add', 'acme'])).code, 0)
    assert.equal((await zonal(db.url, ['user', 'add', 'alice', '--password', 'long enough password'])).code, 0)
  })
  after(async () => { await db?.drop() })

  /** [arguments, stderr message]: each a rejected input, so exit 2. */
  const REJECTED: [string[], RegExp][] = [
    [['frobnicate'], /^zonal: unknown command 'frobnicate'/],
    [['account'], /zonal: a command is missing/],
    [['account', 'add'], /^zonal: missing required argument 'name'/],
    [['account', 'add', 'acme'], /^zonal: account "acme" already exists/],
    [['account', 'list', '--bogus'], /^zonal: unknown option '--bogus'/],
    [['user', 'add'], /^zonal: missing required argument 'username'/],
    [['user', 'add', 'alice', '--password', 'long enough password'], /^zonal: .*alice/],
    [['user', 'list', 'extra'], /^zonal: too many arguments/],
    [['user', 'passwd', 'nobody', '--password', 'long enough password'], /^zonal: user "nobody" does not exist/],
    [['user', 'disable', 'nobody'], /^zonal: .*nobody/],
    [['user', 'enable', 'nobody'], /^zonal: .*nobody/],
    [['user', 'grant', 'alice', 'acme'], /^zonal: missing required argument 'group'/],
    [['user', 'grant', 'alice', 'acme', 'Nobody'], /^zonal: .*Nobody/],
    [['user', 'delete', 'nobody'], /^zonal: .*nobody/],
    [['zone', 'unsuspend', 'nothing.test'], /^zonal: Zone does not exist/],
    [['zonefile', 'check'], /^zonal: missing required argument 'file'/],
    [['zonefile', 'format', 'no-such.zone'], /^zonal: cannot read no-such\.zone/],
    [['migrate', 'now'], /^zonal: too many arguments/]
  ]
  for (const [args, message] of REJECTED) {
    it(`zonal ${args.join(' ')}: exit 2`, async () => {
      const res = await zonal(db.url, args)
      assert.equal(res.code, 2, res.stderr)
      assert.match(res.stderr, message)
    })
  }

  it('a configuration error exits 2 on every path that reads it (serve, migrate, the database commands)', async () => {
    for (const args of [['migrate'], ['account', 'list'], ['zone', 'unsuspend', 'x.test']]) {
      const res = await zonal('mysql://x', args)
      assert.equal(res.code, 2, args.join(' '))
      assert.match(res.stderr, /^zonal: ZONAL_DATABASE_URL: unsupported URL/)
    }
    const serve = await zonal(db.url, ['serve'], undefined, { ZONAL_HTTP_PORT: 'eighty' })
    assert.equal(serve.code, 2)
    assert.match(serve.stderr, /^zonal: ZONAL_HTTP_PORT must be a whole number/)
  })

  it('a failure that is not the input\'s exits 1 (an unreachable database)', async () => {
    const res = await zonal('postgres://postgres@127.0.0.1:1/none', ['account', 'list'])
    assert.equal(res.code, 1)
    assert.match(res.stderr, /^zonal: /)
  })

  it('help and version exit 0', async () => {
    for (const args of [['--help'], ['help'], ['user', '--help'], ['--version']]) {
      const res = await zonal(db.url, args)
      assert.equal(res.code, 0, args.join(' '))
      assert.equal(res.stderr, '')
    }
  })
})
