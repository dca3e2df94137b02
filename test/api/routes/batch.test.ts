import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { runInTransaction } from '../../../src/store/ambient.ts'
import type { Store } from '../../../src/store/store.ts'
import { taskHandlers } from '../../../src/tasks/jobs/index.ts'
import { TaskRunner } from '../../../src/tasks/runner.ts'
import { buildTestApp, TEST_PASSWORD, type TestApp } from '../../helpers/app.ts'
import { engineCases } from '../../helpers/engines.ts'
import { client, errorCode, taskSettled } from '../../helpers/zones.ts'

type Client = ReturnType<typeof client>

const newZone = (name: string, account = 'acme'): Record<string, unknown> => ({
  method: 'POST',
  uri: '/v1/zones',
  body: { properties: { name, accountName: account, type: 'PRIMARY' }, primaryCreateInfo: { createType: 'NEW' } }
})

for (const engine of await engineCases()) {
  describe(`${engine.name}: POST /batch`, { skip: engine.skip }, () => {
    let t: TestApp
    let runner: TaskRunner
    let alice: Client
    let bob: Client

    before(async () => {
      t = await buildTestApp(engine.name, { tasks: (store: Store) => (runner = new TaskRunner(store, taskHandlers(), { workerId: 'batch-test', pollMs: 20 })) })
      runner.start()
      alice = client(t.app, await t.user('alice', 'acme'))
      bob = client(t.app, await t.user('bob', 'other'))
    })
    after(async () => {
      await runner?.stop()
      await t?.close()
    })

    it('keeps the caller\'s async context through app.inject, so a route\'s store calls join an ambient transaction', async () => {
      const token = String((await t.app.inject({
        method: 'POST',
        url: '/authorization/token',
        payload: new URLSearchParams({ grant_type: 'password', username: 'alice', password: TEST_PASSWORD }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' }
      })).json().accessToken)
      await assert.rejects(runInTransaction(t.store, async () => {
        const res = await client(t.app, token).post('/zones', newZone('ambient.test.').body)
        assert.equal(res.statusCode, 201, res.body)
        // Seen inside the transaction (on SQLite a query outside it would wait for it forever).
        assert.equal((await client(t.app, token).get('/zones/ambient.test.')).statusCode, 200)
        throw new Error('roll back')
      }), /roll back/)
      assert.equal((await alice.get('/zones/ambient.test.')).statusCode, 404)
    })

    it('runs every operation in order and commits them all: zones, an rrset, reads of uncommitted data', async () => {
      const res = await alice.post('/batch', [
        newZone('one.test.'),
        newZone('two.test.'),
        { method: 'post', uri: '/zones/one.test./rrsets/A/www', body: { ttl: 300, rdata: ['192.0.2.1'] } },
        { method: 'PATCH', uri: '/v3/zones/two.test.', body: { primaryCreateInfo: { restrictIPList: [{ startIP: '198.51.100.1', endIP: '198.51.100.9' }] } } },
        { method: 'GET', uri: '/zones/one.test./rrsets/A/www' }
      ])
      assert.equal(res.statusCode, 200, res.body)
      const results = res.json() as { status: number, response: any }[]
      assert.deepEqual(results.map(r => r.status), [201, 201, 201, 200, 200])
      assert.deepEqual(results[0], { status: 201, response: { message: 'Successful' } })
      assert.deepEqual(results[4]!.response.rrSets[0].rdata, ['192.0.2.1'])
      assert.equal((await alice.get('/zones/one.test.')).statusCode, 200)
      assert.deepEqual((await alice.get('/zones/two.test.')).json().restrictIpList, [{ startIP: '198.51.100.1', endIP: '198.51.100.9', comment: '' }])
      assert.equal((await alice.get('/zones/one.test./rrsets/A/www')).statusCode, 200)
    })

    it('answers under the version prefixes too, with null for a 204 and JSON Patch for a PATCH list', async () => {
      const res = await alice.send('POST', '/v1/batch', [
        newZone('three.test.'),
        { method: 'PATCH', uri: '/zones/three.test.', body: [{ op: 'add', path: '/notifyAddresses/-', value: { notifyAddress: '192.0.2.99', description: 'new' } }] },
        { method: 'DELETE', uri: '/zones/three.test.' }
      ])
      assert.equal(res.statusCode, 200, res.body)
      assert.deepEqual(res.json(), [
        { status: 201, response: { message: 'Successful' } },
        { status: 200, response: { message: 'Successful' } },
        { status: 204, response: null }
      ])
      assert.equal((await alice.get('/zones/three.test.')).statusCode, 404)
      assert.deepEqual((await alice.post('/v2/batch', [])).json(), [])
    })

    it('rolls everything back when an operation fails, answering 400 with the results up to it', async () => {
      const before = await t.store.audit.recent(1000)
      const res = await alice.post('/batch', [
        newZone('four.test.'),
        { method: 'POST', uri: '/zones/four.test./rrsets/A/www', body: { ttl: 300, rdata: ['192.0.2.1'] } },
        newZone('one.test.'),
        newZone('five.test.')
      ])
      assert.equal(res.statusCode, 400, res.body)
      assert.deepEqual(res.json(), [
        { status: 201, response: { message: 'Successful' } },
        { status: 201, response: { message: 'Successful' } },
        { status: 400, response: [{ errorCode: 1802, errorMessage: 'Zone already exists in the system.' }] }
      ])
      assert.equal(errorCode((await alice.get('/zones/four.test.')).body), 1801)
      assert.equal((await alice.get('/zones/five.test.')).statusCode, 404)
      assert.equal((await t.store.audit.recent(1000)).length, before.length, 'the audit records of the batch are rolled back too')
    })

    it('applies permissions as to single calls', async () => {
      const res = await bob.post('/batch', [newZone('bob.test.', 'other'), { method: 'DELETE', uri: '/zones/one.test.' }])
      assert.equal(res.statusCode, 400)
      assert.equal((res.json() as { status: number }[])[1]!.status, 404)
      assert.equal((await bob.get('/zones/bob.test.')).statusCode, 404)
      assert.equal((await alice.get('/zones/one.test.')).statusCode, 200)
      const anonymous = await t.app.inject({ method: 'POST', url: '/batch', payload: [newZone('anon.test.')] })
      assert.equal(anonymous.statusCode, 401)
    })

    it('checks the whole batch first, with the real error codes', async () => {
      const code = async (body: unknown): Promise<number | undefined> => {
        const res = await alice.post('/batch', body)
        assert.equal(res.statusCode, 400, res.body)
        return errorCode(res.body)
      }
      assert.equal(await code({ method: 'GET', uri: '/zones' }), 110020)
      assert.equal(await code(undefined), 110020)
      assert.equal(await code([newZone('x1.test.'), null]), 110020)
      assert.equal(await code(Array.from({ length: 101 }, () => ({ method: 'GET', uri: '/zones' }))), 110021)
      assert.equal(JSON.parse((await alice.post('/batch', Array.from({ length: 101 }, () => ({ method: 'GET', uri: '/zones' })))).body)[0].errorMessage, 'The batch of size 101 exceeds size limit (100)')
      assert.equal(await code([{ uri: '/zones' }]), 110019)
      assert.equal(await code([{ method: '', uri: '/zones' }]), 110019)
      assert.equal(await code([{ method: 'HEAD', uri: '/zones' }]), 110022)
      assert.equal(JSON.parse((await alice.post('/batch', [{ method: 'OPTIONS', uri: '/zones' }])).body)[0].errorMessage, 'Invalid request method provided; method \'OPTIONS\' is not allowed.')
      assert.equal(await code([{ method: 42, uri: '/zones' }]), 110022)
      assert.equal(await code([{ method: 'GET' }]), 110018)
      assert.equal(await code([newZone('x1.test.'), { method: 'GET', uri: '' }]), 110018)
      for (const uri of ['/batch', '/v1/batch', '//batch', '/v3//batch/', '/%62atch', '/authorization/token', 'https://api.ultradns.com/v1/zones', 'zones', '/zones/a b', 42]) {
        assert.equal(await code([{ method: 'POST', uri }]), 110006, String(uri))
      }
      assert.equal(await code([{ method: 'GET', uri: '/zones', headers: {} }]), 110006)
      assert.equal(errorCode((await alice.post('/batch?async=maybe', [])).body), 53005)
      assert.equal((await alice.get('/zones/x1.test.')).statusCode, 404)
    })

    it('counts in a later batch what an earlier one committed', async () => {
      const res = await alice.post('/batch', [{ method: 'GET', uri: '/v3/zones?q=name:one' }])
      assert.equal(res.statusCode, 200, res.body)
      const [result] = res.json() as { status: number, response: { zones: { properties: { name: string } }[] } }[]
      assert.deepEqual(result!.response.zones.map(z => z.properties.name), ['one.test.'])
    })

    describe('?async=true', () => {
      it('answers 202 Pending with X-Task-Id; the task runs the batch and keeps the results as JSON', async () => {
        const res = await alice.post('/batch?async=true', [newZone('async.test.'), { method: 'GET', uri: '/zones/async.test.' }])
        assert.equal(res.statusCode, 202, res.body)
        assert.deepEqual(res.json(), { message: 'Pending' })
        const id = String(res.headers['x-task-id'])
        const dto = await taskSettled(alice, id)
        assert.deepEqual(dto, { taskId: id, code: 'COMPLETE', message: 'Batch of 2 operations completed.', resultUri: `/tasks/${id}/result`, hasData: true })
        const result = await alice.get(`/tasks/${id}/result`)
        assert.equal(result.headers['content-type'], 'application/json')
        const results = result.json() as { status: number, response: any }[]
        assert.deepEqual(results.map(r => r.status), [201, 200])
        assert.equal(results[1]!.response.properties.name, 'async.test.')
        assert.equal((await alice.get('/zones/async.test.')).statusCode, 200)
        // The operations ran as alice: the audit names her.
        const audit = (await t.store.audit.recent(20, 'ADD')).find(r => r.object === 'async.test.')
        assert.equal(audit?.user_name, 'alice')
      })

      it('ends the task in ERROR naming the failed operation, and changes nothing', async () => {
        const res = await alice.post('/v1/batch?async=True', [newZone('async2.test.'), newZone('one.test.')])
        assert.equal(res.statusCode, 202, res.body)
        const dto = await taskSettled(alice, String(res.headers['x-task-id']))
        assert.equal(dto.code, 'ERROR')
        assert.equal(dto.message, 'Error in batch operation. Operation 2 of 2 (POST /v1/zones) answered 400: Zone already exists in the system.')
        assert.equal((await alice.get('/zones/async2.test.')).statusCode, 404)
      })

      it('checks the operations before queuing them', async () => {
        assert.equal(errorCode((await alice.post('/batch?async=true', [{ method: 'GET' }])).body), 110018)
      })
    })
  })
}

describe('POST /batch and the rate limit', () => {
  let t: TestApp
  before(async () => { t = await buildTestApp('sqlite', { rateLimitMax: 3 }) })
  after(async () => { await t?.close() })

  it('counts a batch once, however many operations it holds', async () => {
    const alice = client(t.app, await t.user('alice', 'acme'))
    const res = await alice.post('/batch', Array.from({ length: 4 }, () => ({ method: 'GET', uri: '/v3/zones' })))
    assert.equal(res.statusCode, 200, res.body)
    assert.equal((res.json() as unknown[]).length, 4)
    // The login and the batch: two of three requests of the address.
    assert.equal(res.headers['x-ratelimit-remaining'], '1')
  })
})
