/**
 * A NUL character anywhere in a request's text (path parameter, query value, JSON or form body)
 * is a 400 in the catalog shape naming the field, on every route family and both engines: it
 * never reaches the database (PostgreSQL answered 500 "invalid byte sequence" before).
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../../helpers/app.ts'
import { engineCases } from '../../helpers/engines.ts'

for (const engine of await engineCases()) {
  describe(`${engine.name}: NUL characters in requests`, { skip: engine.skip }, () => {
    let t: TestApp
    let headers: Record<string, string>
    before(async () => {
      t = await buildTestApp(engine.name)
      headers = { authorization: `Bearer ${await t.user('guard', 'acme')}` }
      const res = await t.app.inject({ method: 'POST', url: '/v1/zones', headers, payload: { properties: { name: 'guard.test.', accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'NEW' } } })
      assert.equal(res.statusCode, 201, res.body)
    })
    after(async () => await t?.close())

    const refused = (res: { statusCode: number, body: string }, field: string): void => {
      assert.equal(res.statusCode, 400, res.body)
      assert.deepEqual(JSON.parse(res.body), [{ errorCode: 53005, errorMessage: `Invalid input: ${field} contains a NUL character` }])
    }

    it('answers 400 53005 for a NUL in a query value: zone list, rrset search, audit filter, task list', async () => {
      refused(await t.app.inject({ method: 'GET', url: '/v3/zones?q=name:a%00b', headers }), 'q')
      refused(await t.app.inject({ method: 'GET', url: '/v1/zones/guard.test./rrsets?q=value:%00', headers }), 'q')
      refused(await t.app.inject({ method: 'GET', url: '/v1/reports/dns_configuration/audit?filter=user:a%00', headers }), 'filter')
      refused(await t.app.inject({ method: 'GET', url: '/v1/tasks?q=x%00', headers }), 'q')
    })

    it('answers 400 53005 for a NUL in a path parameter: a task id, a zone name', async () => {
      refused(await t.app.inject({ method: 'GET', url: '/v1/tasks/abc%00def', headers }), 'taskId')
      refused(await t.app.inject({ method: 'GET', url: '/v1/zones/gu%00ard.test.', headers }), 'zoneName')
    })

    it('answers 400 53005 for a NUL in a JSON body, naming the field (rdata, the uri of a batch request)', async () => {
      refused(await t.app.inject({ method: 'POST', url: '/v1/zones/guard.test./rrsets/A/www', headers, payload: { ttl: 300, rdata: ['192.0.2.1\u0000'] } }), 'rdata[0]')
      refused(await t.app.inject({ method: 'POST', url: '/v1/batch', headers, payload: [{ method: 'GET', uri: '/v1/zones/guard.test.\u0000' }] }), '[0].uri')
    })

    it('answers the token endpoint\'s own object shape for a NUL in a username', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/v1/authorization/token', payload: 'grant_type=password&username=ad%00min&password=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
      assert.equal(res.statusCode, 400, res.body)
      const body = JSON.parse(res.body) as { errorCode: number, errorMessage: string }
      assert.equal(body.errorCode, 60006)
      assert.match(body.errorMessage, /username contains a NUL character/)
    })
  })
}
