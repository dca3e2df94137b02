/**
 * The official Python client's `resign_zone` (PUT `/v1/zones/{zone}/dnssec` with `{}`) against a
 * running service, after the zone was signed through the client's own connection (POST): both
 * succeed, the keys stay (re-signing makes new signatures, not new keys), the zone is SIGNED.
 */
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { after, before, describe, it } from 'node:test'
import { pythonClients, runPython, ULTRA_REST_CLIENT } from '../../helpers/python-clients.ts'
import { startTestService, type TestService } from '../../helpers/service.ts'
import { sampleZone, storeZone } from '../../helpers/stored-zones.ts'

const SCRIPT = fileURLToPath(new URL('./fixtures/python_resign_zone.py', import.meta.url))
const clients = pythonClients(ULTRA_REST_CLIENT)

describe('the official Python client: resign_zone', { skip: 'skip' in clients ? clients.skip : undefined }, () => {
  let t: TestService
  before(async () => {
    t = await startTestService('python dnssec password')
    await storeZone(t.service.store, 'default', 'example.org.', sampleZone('example.org.'))
  })
  after(async () => await t?.stop())

  it('signs, re-signs with resign_zone and reads the details', async () => {
    if ('skip' in clients) return
    const before = await t.service.store.zones.findByName('example.org.', { accountIds: (await t.service.store.accounts.list()).map(a => a.id) })
    const run = await runPython(clients, [SCRIPT, `127.0.0.1:${t.service.httpPort}`, 'admin', 'python dnssec password', 'example.org'])
    assert.equal(run.code, 0, `the client failed:\n${run.stderr}`)
    const out = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { signed: unknown, resigned: unknown, details: { status: string, keys: Array<{ type: string }> } }
    assert.deepEqual(out.signed, { message: 'Successful' })
    assert.deepEqual(out.resigned, { message: 'Successful' })
    assert.equal(out.details.status, 'SIGNED')
    assert.deepEqual(out.details.keys.map(k => k.type).sort(), ['KSK', 'ZSK'])
    assert.equal((await t.service.store.dnssec.keys(before!.id)).length, 2, 're-signing keeps the keys')
  })
})
