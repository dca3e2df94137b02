/**
 * The zone list's `properties` schema (src/api/schemas/zone-list.ts) passes the flags clients read
 * from lists: octodns-ultra reads `valimailMonitor` of primary zones from `GET /zones`, and plans
 * a change on every run when it is missing.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import { ZoneList } from '../../../src/api/schemas/zone-list.ts'

describe('zone list response schema', () => {
  let app: FastifyInstance
  const list = {
    queryInfo: { q: 'zone_type:PRIMARY', sort: 'NAME', reverse: false, limit: 1000 },
    cursorInfo: {},
    zones: [{
      properties: {
        name: 'example.org.',
        accountName: 'acme',
        type: 'PRIMARY',
        dnssecStatus: 'UNSIGNED',
        status: 'ACTIVE',
        owner: '',
        lastModifiedDateTime: '2026-11-24T08:00Z',
        resourceRecordCount: 3,
        mailMonitor: false,
        certEnabled: false,
        valimailMonitor: true,
        network2: false
      }
    }]
  }

  before(async () => {
    app = Fastify()
    app.get('/zones', { schema: { response: { 200: ZoneList } } }, async () => ({ ...list, zones: list.zones.map(z => ({ properties: { ...z.properties, internal: 'x' } })) }))
    await app.ready()
  })
  after(async () => { await app.close() })

  it('writes valimailMonitor, mailMonitor and certEnabled of a primary zone, and nothing undeclared', async () => {
    const res = await app.inject({ method: 'GET', url: '/zones' })
    assert.deepEqual(res.json(), list)
  })
})
