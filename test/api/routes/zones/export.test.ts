import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Store } from '../../../../src/store/store.ts'
import { taskHandlers } from '../../../../src/tasks/jobs/index.ts'
import { TaskRunner } from '../../../../src/tasks/runner.ts'
import { nameToString, parseName } from '../../../../src/zone/name.ts'
import type { PoolProfile } from '../../../../src/zone/pools/profile.ts'
import { parseZoneText } from '../../../../src/zonefile/parser.ts'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { caller } from '../../../helpers/caller.ts'
import { taskSettled } from '../../../helpers/zones.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { sampleZone, storeZone } from '../../../helpers/stored-zones.ts'
import { unzipWithPython } from '../../../helpers/zip.ts'

const haveBind = spawnSync('named-checkzone', ['-v']).status === 0
if (!haveBind && process.env.CI === 'true') throw new Error('CI requires named-checkzone (bind9-utils)')
const bindSkip = haveBind ? false : 'named-checkzone is not installed (bind9-utils)'

const RD_POOL: PoolProfile = { kind: 'RD_POOLS', order: 'ROUND_ROBIN', description: 'web pool' }

type Caller = ReturnType<typeof caller>

/** Export `zoneNames`; returns the task id once it completed. */
async function exported (as: Caller, zoneNames: unknown, path = '/zones/export'): Promise<string> {
  const res = await as.post(path, { zoneNames })
  assert.equal(res.statusCode, 202, res.body)
  assert.deepEqual(res.json(), { message: 'Pending' })
  const id = String(res.headers['x-task-id'])
  assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
  const dto = await taskSettled(as, id, 60_000)
  assert.equal(dto.code, 'COMPLETE', JSON.stringify(dto))
  return id
}

const zoneOf = (name: string, text: string) => parseZoneText(text, { origin: parseName(name), includes: 'refuse' })

for (const engine of await engineCases()) {
  describe(`${engine.name}: POST /zones/export`, { skip: engine.skip }, () => {
    let t: TestApp
    let runner: TaskRunner
    let alice: Caller
    let bob: Caller
    let dir: string

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'zonal-export-'))
      t = await buildTestApp(engine.name, { tasks: (store: Store) => (runner = new TaskRunner(store, taskHandlers(), { workerId: 'export-test', pollMs: 20 })) })
      runner.start()
      alice = caller(t.app, await t.user('alice', 'acme'))
      bob = caller(t.app, await t.user('bob', 'other'))
      const primary = await storeZone(t.store, 'acme', 'example.org.', sampleZone('example.org.'), { profiles: { 'www.example.org./1': RD_POOL } })
      await storeZone(t.store, 'acme', 'example.net.', sampleZone('example.net.'))
      await storeZone(t.store, 'acme', 'alias.test.', '', { type: 'ALIAS', originalZoneId: primary.id })
      await storeZone(t.store, 'other', 'other.test.', sampleZone('other.test.'))
    })
    after(async () => {
      await runner?.stop()
      await t?.close()
      rmSync(dir, { recursive: true, force: true })
    })

    it('answers 202 Pending with X-Task-Id; the task completes with the zone as text/plain BIND text', async () => {
      const id = await exported(alice, ['example.org'])
      assert.deepEqual((await alice.get(`/tasks/${id}`)).json(), {
        taskId: id, code: 'COMPLETE', message: 'example.org. export completed.', resultUri: `/tasks/${id}/result`, hasData: true
      })
      const res = await alice.get(`/tasks/${id}/result`)
      assert.equal(res.statusCode, 200)
      assert.equal(res.headers['content-type'], 'text/plain')
      assert.equal(res.headers['content-disposition'], `attachment; filename="${id}.zone"`)
      const lines = res.body.split('\n')
      assert.equal(lines[0], '; Zone example.org.')
      assert.match(lines[1]!, /^; Created \d{4}-\d\d-\d\dT/)
      assert.equal(lines[2], '; Records 13')
      assert.equal(lines[3], '$ORIGIN example.org.')
      assert.match(lines[4]!, /^@\t3600\tIN\tSOA\tns1\.example\.org\. hostmaster\.example\.org\. 2026010101 /)
      assert.match(lines[5]!, /^@\t3600\tIN\tNS\t/)
      assert.equal(lines[lines.indexOf('www\t3600\tIN\tA\t192.0.2.80') - 1], '; RD pool www.example.org. (order ROUND_ROBIN): web pool')
      const parsed = zoneOf('example.org.', res.body)
      assert.deepEqual(parsed.problems, [])
      assert.equal(parsed.records.length, 13)
    })

    it('writes text that named-checkzone -i local accepts', { skip: bindSkip }, async () => {
      const id = await exported(alice, 'example.org.')
      const path = join(dir, 'example.org.zone')
      writeFileSync(path, (await alice.get(`/tasks/${id}/result`)).rawPayload)
      const r = spawnSync('named-checkzone', ['-i', 'local', 'example.org', path], { encoding: 'utf8' })
      assert.equal(r.status, 0, r.stdout + r.stderr)
    })

    it('exports several zones (a comma-separated string, under /v3, duplicates collapsed) as a zip of one file per zone', async () => {
      const id = await exported(alice, 'example.org, example.net.,EXAMPLE.ORG.', '/v3/zones/export')
      assert.equal((await alice.get(`/tasks/${id}`)).json().message, 'Export of 2 zones completed.')
      const res = await alice.get(`/tasks/${id}/result`)
      assert.equal(res.headers['content-type'], 'application/zip')
      assert.equal(res.headers['content-disposition'], `attachment; filename="${id}.zip"`)
      const entries = unzipWithPython(res.rawPayload)
      assert.deepEqual(entries.map(e => e.name), ['example.org.zone', 'example.net.zone'])
      for (const e of entries) {
        const name = e.name.replace(/zone$/, '')
        const text = e.data.toString('utf8')
        assert.ok(text.startsWith(`; Zone ${name}\n`))
        assert.equal(zoneOf(name, text).records.length, 13)
      }
    })

    it('exports an alias zone as its primary\'s records under the alias name', async () => {
      const id = await exported(alice, ['alias.test'])
      const text = (await alice.get(`/tasks/${id}/result`)).body
      const { records, problems } = zoneOf('alias.test.', text)
      assert.deepEqual(problems, [])
      assert.equal(records.length, 13)
      assert.ok(records.every(r => nameToString(r.owner).endsWith('alias.test.')))
      assert.match(text, /\$ORIGIN alias\.test\.\n@\t3600\tIN\tSOA\tns1\.alias\.test\. hostmaster\.alias\.test\. /)
      // Names inside the rdata that lie in the primary move too; others stay.
      assert.match(text, /\nftp\t3600\tIN\tCNAME\twww\.alias\.test\.\n/)
      assert.match(text, /\n@\t3600\tIN\tNS\tns2\.example\.net\.\n/)
    })

    it('writes one audit record per exported zone when the task completes', async () => {
      await exported(alice, ['example.net', 'example.org'])
      const audit = await t.store.audit.recent(2, 'EXPORT')
      assert.deepEqual(audit.map(a => [a.object_type, a.change_type, a.object, a.user_name, a.account_name]).sort(), [
        ['ZONE', 'EXPORT', 'example.net.', 'alice', 'acme'],
        ['ZONE', 'EXPORT', 'example.org.', 'alice', 'acme']
      ])
    })

    it('returns 400 55001 when zoneNames is missing or empty', async () => {
      for (const body of [undefined, {}, { zoneNames: [] }, { zoneNames: '' }, { zoneNames: ' , ' }]) {
        const res = await alice.post('/zones/export', body)
        assert.equal(res.statusCode, 400, JSON.stringify(body))
        assert.deepEqual(res.json(), [{ errorCode: 55001, errorMessage: 'zoneNames is required field.' }])
      }
      assert.equal((await alice.post('/zones/export', { zoneNames: 5 })).json()[0].errorCode, 53005)
    })

    it('returns 400 53007 for more than 250 names', async () => {
      const names = Array.from({ length: 251 }, (_, i) => `z${i}.example.org`)
      const res = await alice.post('/zones/export', { zoneNames: names })
      assert.equal(res.statusCode, 400)
      assert.deepEqual(res.json(), [{ errorCode: 53007, errorMessage: 'The provided number of zones (251) exceeds allowed limit (250)' }])
    })

    it('returns 404 1801 for an unknown zone or another account\'s zone, and creates no task', async () => {
      const before = (await alice.get('/tasks')).json().resultInfo.totalCount
      for (const [as, names] of [[alice, ['example.org', 'nope.example.org']], [alice, ['other.test']], [bob, ['example.org']]] as const) {
        const res = await as.post('/zones/export', { zoneNames: names })
        assert.equal(res.statusCode, 404)
        assert.deepEqual(res.json(), [{ errorCode: 1801, errorMessage: 'Zone does not exist in the system.' }])
      }
      assert.equal((await alice.post('/zones/export', { zoneNames: ['bad..name'] })).json()[0].errorCode, 2507)
      assert.equal((await alice.get('/tasks')).json().resultInfo.totalCount, before)
    })

    it('keeps the task of an export visible to its account only', async () => {
      const id = await exported(alice, ['example.org'])
      assert.equal((await bob.get(`/tasks/${id}`)).json()[0].errorCode, 54001)
      assert.equal((await bob.get(`/tasks/${id}/result`)).json()[0].errorCode, 54001)
      assert.ok(!(await bob.get('/tasks')).json().tasks.some((x: { taskId: string }) => x.taskId === id))
    })

    it('exports 250 zones of 40 records in one task, as a zip of 250 files', { timeout: 120_000 }, async () => {
      const bulk = caller(t.app, await t.user('carol', 'bulk'))
      const names: string[] = []
      for (let i = 0; i < 250; i++) {
        const name = `z${String(i).padStart(3, '0')}.bulk.test.`
        await storeZone(t.store, 'bulk', name, sampleZone(name, 27))
        names.push(name)
      }
      const id = await exported(bulk, names)
      const dto = (await bulk.get(`/tasks/${id}`)).json()
      assert.equal(dto.message, 'Export of 250 zones completed.')
      const entries = unzipWithPython((await bulk.get(`/tasks/${id}/result`)).rawPayload)
      assert.equal(entries.length, 250)
      assert.deepEqual(entries.map(e => e.name), names.map(n => n.slice(0, -1) + '.zone'))
      for (const [i, e] of entries.entries()) {
        const { records, problems } = zoneOf(names[i]!, e.data.toString('utf8'))
        assert.deepEqual(problems, [])
        assert.equal(records.length, 40, e.name)
      }
    })
  })
}

describe('POST /zones/export without a running runner', () => {
  let t: TestApp
  let wakes = 0
  before(async () => { t = await buildTestApp('sqlite', { tasks: () => ({ wake: () => { wakes++ } }) }) })
  after(async () => { await t?.close() })

  it('wakes the runner and leaves the task PENDING; its result is 54004 until it completes', async () => {
    const alice = caller(t.app, await t.user('alice', 'acme'))
    await storeZone(t.store, 'acme', 'example.org.', sampleZone('example.org.'))
    const res = await alice.post('/zones/export', { zoneNames: ['example.org.'] })
    assert.equal(res.statusCode, 202)
    assert.equal(wakes, 1)
    const id = String(res.headers['x-task-id'])
    assert.deepEqual((await alice.get(`/tasks/${id}`)).json(), { taskId: id, code: 'PENDING', message: 'Pending', hasData: false })
    const result = await alice.get(`/tasks/${id}/result`)
    assert.equal(result.statusCode, 400)
    assert.deepEqual(result.json(), [{ errorCode: 54004, errorMessage: 'Invalid task status; Task not yet completed' }])
  })
})
