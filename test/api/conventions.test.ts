import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../helpers/app.ts'

describe('API conventions', () => {
  let t: TestApp
  let token: string
  const auth = () => ({ authorization: `Bearer ${token}` })

  before(async () => {
    t = await buildTestApp('sqlite')
    token = await t.user('alice', 'acme')
  })
  after(async () => { await t.close() })

  describe('version prefixes and URL forms', () => {
    it('routes unversioned, /v1, /v2 and /v3 alike, with or without a trailing slash', async () => {
      for (const url of ['/accounts', '/v1/accounts', '/v2/accounts/', '/v3/accounts', '//accounts']) {
        const res = await t.app.inject({ method: 'GET', url, headers: auth() })
        assert.equal(res.statusCode, 200, url)
        assert.equal(res.json().accounts[0].accountName, 'acme')
      }
    })

    it('accepts a leading &, empty values, + and %20 in the query string', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/v3/accounts/?&q=name%3Aa+b&cursor=&sort=&reverse=True&x=%20', headers: auth() })
      assert.equal(res.statusCode, 200)
    })

    it('does not take /v4 or /v1x for a version prefix', async () => {
      assert.equal((await t.app.inject({ method: 'GET', url: '/v4/status' })).statusCode, 404)
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1x/status' })).statusCode, 404)
    })

    it('answers /status and /version without a token', async () => {
      assert.deepEqual((await t.app.inject({ method: 'GET', url: '/v1/status' })).json(), { message: 'Good' })
      assert.match((await t.app.inject({ method: 'GET', url: '/version' })).json().version, /^\d+\.\d+\.\d+/)
    })
  })

  describe('error shapes', () => {
    it('answers an unknown route with 404 "Status Code 404" in list form', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/no/such/route' })
      assert.equal(res.statusCode, 404)
      assert.deepEqual(res.json(), [{ errorCode: 404, errorMessage: 'Status Code 404' }])
    })

    it('answers a missing, malformed or unknown token with the spec\'s 401 message as an object', async () => {
      for (const headers of [{}, { authorization: 'Bearer nope' }, { authorization: 'Basic Og==' }, { authorization: `Bearer ${token}x` }]) {
        const res = await t.app.inject({ method: 'GET', url: '/accounts', headers })
        assert.equal(res.statusCode, 401)
        assert.deepEqual(res.json(), { errorCode: 60001, errorMessage: 'Unauthorized. Token not found, expired or invalid.' })
      }
    })

    it('accepts the legacy "Token: Bearer" header', async () => {
      assert.equal((await t.app.inject({ method: 'GET', url: '/accounts', headers: { token: `Bearer ${token}` } })).statusCode, 200)
    })

    it('answers malformed JSON with 400 in list form, without internals (a single object at the token endpoint)', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/zones', payload: '{"properties":', headers: { 'content-type': 'application/json', ...auth() } })
      assert.equal(res.statusCode, 400)
      assert.deepEqual(res.json(), [{ errorCode: 53005, errorMessage: 'Invalid input: the request body is not valid JSON.' }])
      const token = await t.app.inject({ method: 'POST', url: '/authorization/token', payload: '{"grant_type":', headers: { 'content-type': 'application/json' } })
      assert.equal(token.statusCode, 400)
      assert.equal(token.json().errorCode, 60006)
      assert.equal(token.json().errorMessage, 'invalid_request:Invalid input: the request body is not valid JSON.')
    })

    it('answers an unsupported content type with 415 in list form (a single object at the token endpoint)', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/zones', payload: '<x/>', headers: { 'content-type': 'application/xml', ...auth() } })
      assert.equal(res.statusCode, 415)
      assert.equal(res.json()[0].errorCode, 240002)
      const token = await t.app.inject({ method: 'POST', url: '/authorization/token', payload: '<x/>', headers: { 'content-type': 'application/xml' } })
      assert.equal(token.statusCode, 415)
      assert.equal(token.json().errorCode, 240002)
    })

    it('answers an oversized body with 413 in list form (a single object at the token endpoint)', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/zones', payload: JSON.stringify({ properties: { name: 'x'.repeat(70 * 1024) } }), headers: { 'content-type': 'application/json', ...auth() } })
      assert.equal(res.statusCode, 413)
      assert.deepEqual(res.json(), [{ errorCode: 413, errorMessage: 'Request body is larger than the limit of 65536 bytes.' }])
      const token = await t.app.inject({ method: 'POST', url: '/authorization/token', payload: JSON.stringify({ grant_type: 'x'.repeat(70 * 1024) }), headers: { 'content-type': 'application/json' } })
      assert.equal(token.statusCode, 413)
      assert.deepEqual(token.json(), { errorCode: 413, errorMessage: 'Request body is larger than the limit of 65536 bytes.' })
    })

    it('names the field a validation failure is about', async () => {
      const res = await t.app.inject({ method: 'GET', url: `/accounts/${'a'.repeat(300)}`, headers: auth() })
      assert.equal(res.statusCode, 400)
      assert.equal(res.json()[0].errorCode, 53005)
      assert.match(res.json()[0].errorMessage, /^Invalid input: params\.accountName /)
    })

    it('answers a driver failure with a generic 500 that carries the request id and no SQL', async () => {
      const broken = await buildTestApp('sqlite')
      const brokenToken = await broken.user('bob', 'b-acct')
      await broken.store.close()
      const res = await broken.app.inject({ method: 'GET', url: '/accounts', headers: { authorization: `Bearer ${brokenToken}`, 'x-request-id': 'req-42' } })
      assert.equal(res.statusCode, 500)
      assert.deepEqual(res.json(), [{ errorCode: 9999, errorMessage: 'System Error. Request id: req-42' }])
      assert.equal(res.headers['x-request-id'], 'req-42')
      await broken.app.close()
    })
  })

  describe('tenancy', () => {
    it('lists only the caller\'s accounts and gives 404 for other accounts', async () => {
      const otherToken = await t.user('mallory', 'other-acct')
      const mine = await t.app.inject({ method: 'GET', url: '/accounts', headers: auth() })
      assert.deepEqual(mine.json().accounts.map((a: { accountName: string }) => a.accountName), ['acme'])
      assert.equal(mine.json().resultInfo.totalCount, 1)
      const theirs = await t.app.inject({ method: 'GET', url: '/accounts/other-acct', headers: auth() })
      assert.equal(theirs.statusCode, 404)
      assert.deepEqual(theirs.json(), [{ errorCode: 70002, errorMessage: 'Data not found.' }])
      const own = await t.app.inject({ method: 'GET', url: '/accounts/OTHER-ACCT', headers: { authorization: `Bearer ${otherToken}` } })
      assert.equal(own.statusCode, 200)
      assert.equal(own.json().accountName, 'other-acct')
      assert.equal(own.json().ownerUserName, 'mallory')
    })
  })

  describe('docs and metrics', () => {
    it('serves the OpenAPI document and the interactive docs without a token', async () => {
      const doc = await t.app.inject({ method: 'GET', url: '/openapi.json' })
      assert.equal(doc.statusCode, 200)
      assert.match(doc.json().openapi, /^3\./)
      assert.ok(doc.json().paths['/authorization/token'])
      assert.ok(doc.json().paths['/accounts'])
      const ui = await t.app.inject({ method: 'GET', url: '/docs' })
      assert.ok(ui.statusCode === 200 || ui.statusCode === 302)
    })

    it('counts requests by route pattern and status in /metrics', async () => {
      await t.app.inject({ method: 'GET', url: '/accounts/acme', headers: auth() })
      const res = await t.app.inject({ method: 'GET', url: '/metrics' })
      assert.equal(res.statusCode, 200)
      assert.match(res.body, /zonal_http_requests_total\{method="GET",route="\/accounts\/:accountName",status="200"\} \d+/)
      assert.match(res.body, /zonal_http_request_duration_seconds_bucket/)
    })

    it('sets a request id and security headers on every response', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/status' })
      assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/)
      assert.equal(res.headers['x-content-type-options'], 'nosniff')
    })
  })
})

describe('rate limiting', () => {
  let t: TestApp
  before(async () => { t = await buildTestApp('sqlite', { rateLimitMax: 5 }) })
  after(async () => { await t.close() })

  it('answers 429 with Retry-After once an address passes the limit', async () => {
    const codes: number[] = []
    let last
    for (let i = 0; i < 7; i++) {
      last = await t.app.inject({ method: 'GET', url: '/status' })
      codes.push(last.statusCode)
    }
    assert.deepEqual(codes, [200, 200, 200, 200, 200, 429, 429])
    assert.ok(Number(last!.headers['retry-after']) >= 1)
    assert.deepEqual(last!.json(), [{ errorCode: 340001, errorMessage: 'Too many requests.' }])
  })

  it('limits per token as well as per address', async () => {
    const other = await buildTestApp('sqlite', { rateLimitMax: 3 })
    try {
      // Token requests come from distinct addresses, so only the token key can stop them.
      const headers = { authorization: 'Bearer same-token' }
      const codes = []
      for (let i = 0; i < 4; i++) {
        codes.push((await other.app.inject({ method: 'GET', url: '/status', headers, remoteAddress: `192.0.2.${i + 1}` })).statusCode)
      }
      assert.deepEqual(codes, [200, 200, 200, 429])
    } finally {
      await other.close()
    }
  })
})
