import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { zonal, ROOT } from '../helpers/cli.ts'
import { freshDatabase, type TestDatabase } from '../helpers/engines.ts'

const BIN = fileURLToPath(new URL('../../bin/zonal.js', import.meta.url))

/** Run `zonal <args>` on a pseudo-terminal (util-linux `script`), answering each prompt in turn. */
async function onTerminal (databaseUrl: string, args: string[], answers: string[]): Promise<{ code: number | null, output: string }> {
  const command = [process.execPath, BIN, ...args].map(a => `'${a.replace(/'/g, "'\\''")}'`).join(' ')
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    cwd: ROOT,
    env: { ...process.env, ZONAL_DATABASE_URL: databaseUrl },
    stdio: ['pipe', 'pipe', 'pipe']
  })
  let output = ''
  let answered = 0
  child.stdout.on('data', (d: Buffer) => {
    output += d.toString()
    const prompts = output.match(/password: /gi)?.length ?? 0
    while (answered < prompts && answered < answers.length) child.stdin.write(`${answers[answered++]}\n`)
  })
  const code = await new Promise<number | null>(resolve => child.on('close', resolve))
  return { code, output }
}

describe('sqlite: zonal password prompt on a terminal', () => {
  let db: TestDatabase
  before(async () => { db = await freshDatabase('sqlite') })
  after(async () => { await db?.drop() })

  it('prompts twice without echoing, and creates the user', async () => {
    const res = await onTerminal(db.url, ['user', 'add', 'tty-user'], ['typed password', 'typed password'])
    assert.equal(res.code, 0, res.output)
    assert.match(res.output, /Password: /)
    assert.match(res.output, /Repeat password: /)
    assert.doesNotMatch(res.output, /typed password/)
    assert.match((await zonal(db.url, ['user', 'list'])).stdout, /tty-user\s+ACTIVE/)
  })

  it('refuses two different answers', async () => {
    const res = await onTerminal(db.url, ['user', 'add', 'other-user'], ['first answer', 'second answer'])
    assert.equal(res.code, 2)
    assert.match(res.output, /the two passwords differ/)
    assert.doesNotMatch((await zonal(db.url, ['user', 'list'])).stdout, /other-user/)
  })
})
