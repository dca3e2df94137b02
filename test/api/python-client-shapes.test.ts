/**
 * The official Python client (`ultra_rest_client`, from its sources; see
 * `helpers/python-clients.ts`) against the service listening on a loopback port: its snapshot
 * calls (`create_snapshot`, `get_snapshot`, `restore_snapshot`, each task followed with
 * `get_task`) and the deprecated `get_zones_of_account`, whose 301 requests follows to the v3
 * list. Skipped visibly when the client's sources or Python's `requests` are missing.
 */
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Store } from '../../src/store/store.ts'
import { taskHandlers } from '../../src/tasks/jobs/index.ts'
import { TaskRunner } from '../../src/tasks/runner.ts'
import { buildTestApp, TEST_PASSWORD, type TestApp } from '../helpers/app.ts'
import { engineCases } from '../helpers/engines.ts'
import { pythonClients, runPython, ULTRA_REST_CLIENT, type PythonClients } from '../helpers/python-clients.ts'

const clients = pythonClients(ULTRA_REST_CLIENT)

/** The client's calls, printed as one JSON object. */
const SCRIPT = `
import json, sys, time
from ultra_rest_client import RestApiClient

c = RestApiClient(sys.argv[2], sys.argv[3], use_http=True, host=sys.argv[1])
out = {}

def wait(task_id):
    while True:
        t = c.get_task(task_id)
        if t['code'] not in ('PENDING', 'IN_PROCESS'):
            return t
        time.sleep(0.05)

c.create_primary_zone('acme', 'snap.example.org.')
c.create_rrset('snap.example.org.', 'A', 'www', 300, '192.0.2.1')
created = c.create_snapshot('snap.example.org.')
out['create'] = created
out['createTask'] = wait(created['task_id'])
out['snapshot'] = c.get_snapshot('snap.example.org.')
c.edit_rrset('snap.example.org.', 'A', 'www', 300, ['198.51.100.1'])
c.create_rrset('snap.example.org.', 'TXT', 'later', 300, 'added after the snapshot')
restored = c.restore_snapshot('snap.example.org.')
out['restore'] = restored
out['restoreTask'] = wait(restored['task_id'])
out['rrsets'] = c.get_rrsets('snap.example.org.')['rrSets']
out['noSnapshot'] = c.get_snapshot('nothing.example.org.')
c.create_primary_zone('acme', 'other.example.org.')
out['zonesOfAccount'] = c.get_zones_of_account('acme', q={'name': 'snap', 'zone_type': 'PRIMARY'}, offset=0, limit=5, sort='NAME', reverse=True)
out['allOfAccount'] = c.get_zones_of_account('acme')
print(json.dumps(out))
`

interface Rrset { ownerName: string, rrtype: string, rdata: string[] }
interface Output {
  create: { message: string, task_id: string }
  createTask: { code: string, message: string }
  snapshot: { zoneName: string, rrSets: Rrset[] }
  restore: { message: string, task_id: string }
  restoreTask: { code: string, message: string }
  rrsets: Rrset[]
  noSnapshot: { errorCode: number, errorMessage: string }[]
  zonesOfAccount: { queryInfo: { q: string, limit: number, reverse: boolean }, zones: { properties: { name: string } }[] }
  allOfAccount: { zones: { properties: { name: string } }[] }
}

for (const engine of await engineCases()) {
  const skip = engine.skip ?? ('skip' in clients ? clients.skip : false)
  describe(`${engine.name}: the official Python client's snapshot calls and account zone list`, { skip }, () => {
    let t: TestApp
    let runner: TaskRunner
    let base: string
    let dir: string

    before(async () => {
      t = await buildTestApp(engine.name, { tasks: (store: Store) => (runner = new TaskRunner(store, taskHandlers(), { workerId: 'python-test', pollMs: 20 })) })
      runner.start()
      await t.user('alice', 'acme', 'DNSAdministrators')
      await t.app.listen({ host: '127.0.0.1', port: 0 })
      const address = t.app.server.address()
      assert.ok(address !== null && typeof address === 'object')
      base = `127.0.0.1:${address.port}`
      dir = mkdtempSync(join(tmpdir(), 'zonal-python-'))
      writeFileSync(join(dir, 'calls.py'), SCRIPT)
    })
    after(async () => {
      await runner?.stop()
      await t?.close()
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
    })

    it('takes, reads and restores a snapshot, and follows the account zone list\'s 301', async () => {
      const run = await runPython(clients as PythonClients, [join(dir, 'calls.py'), base, 'alice', TEST_PASSWORD])
      assert.equal(run.code, 0, run.stderr)
      const out = JSON.parse(run.stdout) as Output
      assert.equal(out.create.message, 'Pending')
      assert.match(out.create.task_id, /^[0-9a-f-]{36}$/, 'the client read X-Task-Id')
      assert.equal(out.createTask.code, 'COMPLETE', out.createTask.message)
      assert.equal(out.snapshot.zoneName, 'snap.example.org.')
      assert.deepEqual(out.snapshot.rrSets.filter(r => r.ownerName === 'www.snap.example.org.').map(r => r.rdata), [['192.0.2.1']])
      assert.equal(out.restoreTask.code, 'COMPLETE', out.restoreTask.message)
      assert.deepEqual(out.rrsets.filter(r => r.ownerName === 'www.snap.example.org.').map(r => r.rdata), [['192.0.2.1']])
      assert.deepEqual(out.rrsets.filter(r => r.ownerName === 'later.snap.example.org.'), [])
      assert.deepEqual(out.noSnapshot, [{ errorCode: 1801, errorMessage: 'Zone does not exist in the system.' }])
      assert.equal(out.zonesOfAccount.queryInfo.q, 'name:snap zone_type:PRIMARY account_name:acme')
      assert.equal(out.zonesOfAccount.queryInfo.limit, 5)
      assert.equal(out.zonesOfAccount.queryInfo.reverse, true)
      assert.deepEqual(out.zonesOfAccount.zones.map(z => z.properties.name), ['snap.example.org.'])
      assert.deepEqual(out.allOfAccount.zones.map(z => z.properties.name), ['other.example.org.', 'snap.example.org.'])
    })
  })
}
