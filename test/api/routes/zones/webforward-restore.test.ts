/**
 * A snapshot holds records, not web forwards: restoring one keeps the zone's forwards, so their
 * hosts must answer the forwarding server again afterwards (not what the snapshot had there,
 * nor nothing); a snapshot with a CNAME where a forward now stands is refused, the zone left as
 * it was.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Store } from '../../../../src/store/store.ts'
import { taskHandlers } from '../../../../src/tasks/jobs/index.ts'
import { TaskRunner } from '../../../../src/tasks/runner.ts'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { client, taskSettled, type TaskDto } from '../../../helpers/zones.ts'

type Client = ReturnType<typeof client>

const zoneFile = [
  '$TTL 3600',
  '@ IN SOA ns1 hostmaster 2024010101 7200 3600 1209600 300',
  '@ IN NS ns1',
  'ns1 IN A 192.0.2.53',
  'old IN CNAME ns1',
  ''
].join('\n')

/** A task started by POST (202 + X-Task-Id), polled until it ends; its final Task DTO. */
async function task (c: Client, path: string): Promise<TaskDto> {
  const res = await c.post(path, {})
  assert.equal(res.statusCode, 202, res.body)
  return await taskSettled(c, String(res.headers['x-task-id']))
}

for (const engine of await engineCases()) {
  describe(`${engine.name}: a snapshot restored beside web forwards`, { skip: engine.skip }, () => {
    let t: TestApp
    let alice: Client
    let runner: TaskRunner | undefined
    const rdata = async (type: string, owner: string): Promise<string[] | number> => {
      const res = await alice.get(`/zones/example.org/rrsets/${type}/${owner}`)
      return res.statusCode === 200 ? res.json().rrSets[0].rdata : res.statusCode
    }
    const recordCount = async (): Promise<number> => (await alice.get('/zones/example.org')).json().properties.resourceRecordCount

    before(async () => {
      t = await buildTestApp(engine.name, { tasks: (store: Store) => (runner = new TaskRunner(store, taskHandlers(), { workerId: 'forward-restore-test', pollMs: 20 })) })
      runner?.start()
      alice = client(t.app, await t.user('alice', 'acme', 'DNSAdministrators'))
      const up = await alice.upload({ properties: { name: 'example.org', accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'UPLOAD' } }, zoneFile)
      assert.equal(up.statusCode, 201, up.body)
    })
    after(async () => {
      await runner?.stop()
      await t?.close()
    })

    it('writes the forwarded hosts\' records again after the restore, counted and audited', async () => {
      assert.equal((await task(alice, '/zones/example.org/snapshot')).code, 'COMPLETE')
      const made = await alice.post('/v1/zones/example.org/webforwards', { requestTo: 'shop.example.org', defaultRedirectTo: 'https://shop.example.net', defaultForwardType: 'HTTP_302_REDIRECT' })
      assert.equal(made.statusCode, 201, made.body)
      assert.deepEqual(await rdata('A', 'shop'), ['127.0.0.1'])
      const counted = await recordCount()

      const restored = await task(alice, '/zones/example.org/restore')
      assert.equal(restored.code, 'COMPLETE', restored.message)
      assert.deepEqual(await rdata('A', 'shop'), ['127.0.0.1'], 'the forward is still there, and so is its host\'s record')
      assert.equal(await recordCount(), counted)
      const listed = (await alice.get('/v1/zones/example.org/webforwards')).json().webForwards
      assert.equal(listed.length, 1)
      const audit = (await t.store.audit.recent(100, 'RESTORE')).map(r => JSON.parse(r.detail) as { changes?: Array<{ name: string }> })
      assert.ok(audit.some(d => (d.changes ?? []).some(c => c.name === 'A shop.example.org.')), JSON.stringify(audit))
    })

    it('refuses a snapshot with a CNAME where a forward now stands, leaving the zone as it was', async () => {
      assert.equal((await alice.delete('/zones/example.org/rrsets/CNAME/old')).statusCode, 204)
      const made = await alice.post('/v1/zones/example.org/webforwards', { requestTo: 'old.example.org/page', defaultRedirectTo: 'https://new.example.net', defaultForwardType: 'HTTP_301_REDIRECT' })
      assert.equal(made.statusCode, 201, made.body)
      const restored = await task(alice, '/zones/example.org/restore')
      assert.equal(restored.code, 'ERROR')
      assert.match(restored.message, /CNAME records at old\.example\.org\./)
      assert.deepEqual(await rdata('A', 'old'), ['127.0.0.1'])
      assert.equal(await rdata('CNAME', 'old'), 404)
    })
  })
}
