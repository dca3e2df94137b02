/**
 * The console's reading of the web forward API's errors (console/src/forward-fields.ts) against
 * the service's own answers: each bad forward sent as the zone page sends it (POST, and PATCH
 * of the default target and types) is refused with a message the console puts under the input
 * that holds the bad value.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { forwardFieldOf } from '../../console/src/forward-fields.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { client } from '../helpers/zones.ts'

describe('console: the field of a web forward error', () => {
  let t: TestApp
  let api: ReturnType<typeof client>
  let guid = ''

  before(async () => {
    t = await buildTestApp('sqlite')
    api = client(t.app, await t.user('alice', 'acme', 'DNSAdministrators'))
    assert.equal((await api.newPrimary('fields.test', 'acme')).statusCode, 201)
    assert.equal((await api.post('/zones/fields.test/rrsets/A/taken.fields.test', { ttl: 300, rdata: ['192.0.2.7'] })).statusCode, 201)
    const res = await api.post('/zones/fields.test/webforwards', { requestTo: 'www.fields.test', defaultRedirectTo: 'https://brand.example/', defaultForwardType: 'HTTP_301_REDIRECT' })
    assert.equal(res.statusCode, 201, res.body)
    guid = (res.json() as { guid: string }).guid
  })
  after(async () => { await t.close() })

  /** The console's field for the service's first error of a request the form sends. */
  async function fieldOf (method: 'POST' | 'PATCH', body: Record<string, unknown>): Promise<string> {
    const res = method === 'POST' ? await api.post('/zones/fields.test/webforwards', body) : await api.patch(`/zones/fields.test/webforwards/${guid}`, body)
    assert.equal(res.statusCode, 400, res.body)
    const [error] = res.json() as Array<{ errorMessage: string }>
    return forwardFieldOf(error!.errorMessage)
  }
  const forward = (extra: Record<string, unknown>): Record<string, unknown> => ({ requestTo: 'new.fields.test', defaultRedirectTo: 'https://brand.example/', defaultForwardType: 'HTTP_302_REDIRECT', ...extra })

  it('puts a bad, foreign, taken or missing address at the forwarded address', async () => {
    assert.equal(await fieldOf('POST', forward({ requestTo: 'www.elsewhere.test' })), 'request-to', 'outside the zone')
    assert.equal(await fieldOf('POST', forward({ requestTo: 'www.fields.test' })), 'request-to', 'a forward there already')
    assert.equal(await fieldOf('POST', forward({ requestTo: 'taken.fields.test' })), 'request-to', 'records no forward wrote')
    assert.equal(await fieldOf('POST', forward({ requestTo: 'ftp://x.fields.test/' })), 'request-to', 'not a web address')
    assert.equal(await fieldOf('POST', forward({ requestTo: undefined })), 'request-to', 'missing')
  })

  it('puts a bad target at the target, a bad type at the type, a bad relative type at it', async () => {
    assert.equal(await fieldOf('POST', forward({ defaultRedirectTo: 'ftp://files.example/' })), 'target')
    assert.equal(await fieldOf('PATCH', { defaultRedirectTo: 'ftp://files.example/' }), 'target')
    assert.equal(await fieldOf('PATCH', { defaultForwardType: 'HTTP_308_REDIRECT' }), 'type')
    assert.equal(await fieldOf('PATCH', { relativeForwardType: 'QUERY' }), 'relative')
  })

  it('keeps a message naming no input for the form', () => {
    assert.equal(forwardFieldOf('The zone is suspended.'), 'form')
  })
})
