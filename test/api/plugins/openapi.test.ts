/**
 * /openapi.json (src/api/plugins/openapi.ts, the route schemas): every route of the app is an
 * operation with a unique operationId; the public endpoints say `security: []`, the others use
 * the bearer scheme; error responses in the catalog's shapes; optional bodies of the zone
 * actions; request examples for each zone type and for an rrset, which the API accepts.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../../helpers/app.ts'
import { engineCases } from '../../helpers/engines.ts'
import { client, errorCode } from '../../helpers/zones.ts'
import { operationIdOf } from '../../../src/api/plugins/openapi.ts'

interface Operation {
  operationId?: string
  security?: unknown[]
  requestBody?: { required?: boolean, content: Record<string, { schema: Record<string, unknown>, examples?: Record<string, { value: unknown }> }> }
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>
}
type Doc = { paths: Record<string, Record<string, Operation>>, security: unknown[], components: { securitySchemes: Record<string, unknown> } }

const PUBLIC = [['get', '/status'], ['get', '/version'], ['get', '/metrics'], ['get', '/openapi.json'], ['get', '/docs'], ['get', '/'], ['get', '/console'], ['post', '/authorization/token']]
const ZONE_ACTIONS = [['delete', '/zones/{zoneName}'], ['post', '/zones/{zoneName}/suspend'], ['post', '/zones/{zoneName}/transfer'], ['post', '/zones/{zoneName}/convert'], ['post', '/zones/{zoneName}/unalias']]

/** The routes of `app.printRoutes({ commonPrefix: false })` as `METHOD /path/{param}`. */
function routesOf (tree: string): string[] {
  const out: string[] = []
  const stack: string[] = []
  for (const line of tree.split('\n')) {
    const m = /^([│ ├└─]*?)(?:[├└]── )(\S+)(?: \(([^)]+)\))?$/.exec(line)
    if (m === null) continue
    const depth = m[1]!.length / 4
    stack.length = depth
    stack.push(m[2]!)
    for (const method of (m[3] ?? '').split(', ').filter(x => x !== '')) out.push(`${method} ${stack.join('').replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`)
  }
  return out
}

for (const engine of await engineCases()) {
  describe(`${engine.name}: GET /openapi.json`, { skip: engine.skip }, () => {
    let t: TestApp
    let doc: Doc

    before(async () => {
      t = await buildTestApp(engine.name)
      const res = await t.app.inject({ method: 'GET', url: '/openapi.json' })
      assert.equal(res.statusCode, 200)
      doc = res.json()
    })
    after(async () => { await t.close() })

    const operations = (): [string, string, Operation][] => Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => [method, path, op] as [string, string, Operation]))
    const op = (method: string, path: string): Operation => {
      const found = doc.paths[path]?.[method]
      assert.ok(found, `${method} ${path} is in the document`)
      return found
    }

    it('lists every route of the app (not HEAD, not the files of the UI and of the console) with a unique operationId', () => {
      const routes = routesOf(t.app.printRoutes({ commonPrefix: false })).filter(r => !r.startsWith('HEAD ') && !/^GET \/(docs|console)./.test(r))
      assert.ok(routes.length > 30, routes.join('\n'))
      for (const route of routes) {
        const [method, path] = route.split(' ') as [string, string]
        assert.ok(op(method.toLowerCase(), path).operationId, route)
      }
      const ids = operations().map(([, , o]) => o.operationId)
      assert.equal(ids.length, routes.length)
      assert.equal(new Set(ids).size, ids.length, 'operationIds are unique')
      assert.equal(op('post', '/zones').operationId, 'createZone')
      assert.equal(op('get', '/zones/{zoneName}').operationId, 'getZone')
    })

    it('makes an operationId of method and path for routes without one', () => {
      assert.equal(operationIdOf('GET', '/zones/{zoneName}/rrsets/{rrType}'), 'getZonesByZoneNameRrsetsByRrType')
      assert.equal(operationIdOf('get', '/reports/dns_configuration/audit'), 'getReportsDnsConfigurationAudit')
      assert.equal(op('get', '/reports/dns_configuration/audit').operationId, 'getReportsDnsConfigurationAudit')
    })

    it('marks the endpoints without authentication with security: [] and the others with the bearer scheme', () => {
      assert.deepEqual(doc.components.securitySchemes.bearer, { type: 'http', scheme: 'bearer', description: 'The accessToken of POST /authorization/token' })
      assert.deepEqual(doc.security, [{ bearer: [] }])
      for (const [method, path] of PUBLIC) assert.deepEqual(op(method!, path!).security, [], `${method} ${path}`)
      const isPublic = (m: string, p: string) => PUBLIC.some(([pm, pp]) => pm === m && pp === p)
      for (const [method, path, o] of operations()) if (!isPublic(method, path)) assert.equal(o.security, undefined, `${method} ${path} uses the document's bearer security`)
    })

    it('documents the error responses of the zone routes in the catalog shape (the token endpoint\'s as one object)', () => {
      const zoneOps = operations().filter(([, path]) => path.startsWith('/zones'))
      assert.ok(zoneOps.length >= 15)
      for (const [method, path, o] of zoneOps) {
        for (const status of ['400', '401', '403', '429', ...(path.includes('{') ? ['404'] : [])]) {
          const schema = o.responses[status]?.content?.['application/json']?.schema
          assert.ok(schema, `${method} ${path} ${status}`)
          const item = status === '401' ? schema : schema.items as Record<string, unknown>
          assert.equal(schema.type, status === '401' ? 'object' : 'array', `${method} ${path} ${status}`)
          assert.deepEqual(Object.keys(item.properties as object).slice(0, 2), ['errorCode', 'errorMessage'])
        }
      }
      const token = op('post', '/authorization/token').responses['400']?.content?.['application/json']?.schema
      assert.equal(token?.type, 'object')
      assert.equal(op('post', '/authorization/token').responses['401'], undefined)
      assert.ok(op('get', '/accounts').responses['401'], 'other routes too')
    })

    it('gives DELETE, suspend, transfer, convert and unalias an optional body with changeComment', () => {
      for (const [method, path] of ZONE_ACTIONS) {
        const body = op(method!, path!).requestBody
        assert.equal(body?.required, false, `${method} ${path}`)
        const schema = body.content['application/json']!.schema
        assert.equal(schema.required, undefined)
        assert.deepEqual((schema.properties as Record<string, Record<string, unknown>>).changeComment!.maxLength, 512)
      }
      assert.equal(op('post', '/zones').requestBody?.required, true)
      assert.equal(op('put', '/zones/{zoneName}').requestBody?.required, true)
      assert.deepEqual(Object.keys(op('patch', '/zones/{zoneName}').requestBody!.content).sort(), ['application/json', 'application/json-patch+json'])
    })

    it('has an example for creating each zone type and an rrset, and the API accepts them', async () => {
      const alice = client(t.app, await t.user('alice', 'acme'))
      const json = op('post', '/zones').requestBody!.content['application/json']!.examples!
      const kinds = Object.values(json).map(e => {
        const v = e.value as { properties: { type: string }, primaryCreateInfo?: { createType: string } }
        return `${v.properties.type}${v.primaryCreateInfo === undefined ? '' : ' ' + v.primaryCreateInfo.createType}`
      })
      assert.deepEqual(kinds.sort(), ['ALIAS', 'PRIMARY COPY', 'PRIMARY NEW', 'PRIMARY TRANSFER', 'SECONDARY'])
      const upload = op('post', '/zones').requestBody!.content['multipart/form-data']!.examples!
      assert.equal(JSON.parse((Object.values(upload)[0]!.value as { zone: string }).zone).primaryCreateInfo.createType, 'UPLOAD')

      const byKind = (kind: string) => Object.values(json).find(e => JSON.stringify(e.value).includes(kind))!.value
      assert.equal((await alice.post('/zones', byKind('"NEW"'))).statusCode, 201)
      assert.equal((await alice.post('/zones', byKind('"COPY"'))).statusCode, 201)
      assert.equal((await alice.post('/zones', byKind('"SECONDARY"'))).statusCode, 201)
      assert.equal((await alice.post('/zones', byKind('"ALIAS"'))).statusCode, 201)
      assert.equal(errorCode((await alice.post('/zones', byKind('"TRANSFER"'))).body), 53004, 'valid, but this app has no AXFR client')

      const rrset = op('post', '/zones/{zoneName}/rrsets/{rrType}/{ownerName}').requestBody!.content['application/json']!.examples!
      assert.equal((await alice.post('/zones/example.org./rrsets/A/www', rrset.a!.value)).statusCode, 201)
      assert.equal((await alice.post('/zones/example.org./rrsets/MX/@', rrset.mx!.value)).statusCode, 201)
      assert.equal((await alice.post('/zones/example.org./rrsets/A/pool', rrset.rdPool!.value)).statusCode, 201)
      for (const example of Object.values(op('put', '/zones/{zoneName}').requestBody!.content['application/json']!.examples!)) {
        const target = JSON.stringify(example.value).includes('secondaryCreateInfo') ? 'secondary.example.' : 'example.org.'
        assert.equal((await alice.put(`/zones/${target}`, example.value)).statusCode, 200, JSON.stringify(example.value))
      }
    })
  })
}
