import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { eventually } from '../../../helpers/named.ts'
import { client } from '../../../helpers/zones.ts'

type Json = any

for (const engine of await engineCases()) {
  describe(`${engine.name}: /zones/{zoneName}/healthchecks without resolvers`, { skip: engine.skip }, () => {
    let t: TestApp
    let owner: ReturnType<typeof client>
    let reader: ReturnType<typeof client>
    let rival: ReturnType<typeof client>
    before(async () => {
      t = await buildTestApp(engine.name)
      owner = client(t.app, await t.user('owner', 'acme'))
      reader = client(t.app, await t.user('reader', 'acme', 'ReadOnly'))
      rival = client(t.app, await t.user('rival', 'other'))
      assert.equal((await owner.newPrimary('health.example.org.', 'acme')).statusCode, 201)
    })
    after(async () => await t?.close())

    it('POST answers 202 with a relative Location, and the report ends COMPLETED with the network checks NOT_APPLICABLE', async () => {
      const res = await owner.post('/v1/zones/health.example.org/healthchecks', {})
      assert.equal(res.statusCode, 202)
      assert.deepEqual(res.json(), { message: 'Pending' })
      const location = res.headers.location as string
      assert.match(location, /^\/v1\/zones\/health\.example\.org\.\/healthchecks\/\d{4}-\d{2}-\d{2}-\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
      let report: Json
      await eventually(async () => {
        report = (await owner.get(location)).json()
        return report.state !== 'IN_PROGRESS'
      })
      assert.equal(report.state, 'COMPLETED')
      const ns = report.checks.find((c: Json) => c.category === 'NS')
      // Two NS records (the default nameservers) pass; the checks asking the DNS could not run.
      assert.equal(ns.status, 'OK')
      assert.deepEqual(ns.results.map((r: Json) => r.status), ['NOT_APPLICABLE', 'OK', 'NOT_APPLICABLE', 'NOT_APPLICABLE', 'NOT_APPLICABLE', 'NOT_APPLICABLE', 'NOT_APPLICABLE'])
      assert.equal(ns.results[0].messages[0].message, 'Not checked: no recursive resolver is configured (ZONAL_RESOLVERS).')
      assert.equal(report.checks.find((c: Json) => c.category === 'SOA').status, 'OK')
    })

    it('lets a read-only user read but not start a check, and hides the zone from another account', async () => {
      assert.equal((await reader.get('/v1/zones/health.example.org./healthchecks/latest')).statusCode, 200)
      assert.equal((await reader.post('/v1/zones/health.example.org./healthchecks', {})).statusCode, 403)
      const hidden = await rival.get('/v1/zones/health.example.org./healthchecks/latest')
      assert.equal(hidden.statusCode, 404)
      assert.equal(hidden.json()[0].errorCode, 1801)
    })

    it('leaves /healthchecks/dangling to the dangling DNS report\'s route', async () => {
      // The dangling DNS report's own answer before any scan (not a health check version error).
      const dangling = await owner.get('/v1/zones/health.example.org./healthchecks/dangling')
      assert.equal(dangling.statusCode, 404)
      assert.equal(dangling.json()[0].errorMessage, 'Data not found: no dangling DNS report was requested for zone health.example.org..')
    })
  })
}
