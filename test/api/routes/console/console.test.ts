/**
 * The web console's files served by the service (src/api/routes/console/index.ts): `/` redirects
 * to /console/, the page and its hashed assets with their Content-Security-Policy and caching,
 * client-side routes answered by the page, missing assets 404. A console folder laid out as the
 * build lays it out stands in for a built console, so these tests need no build.
 */
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../../../src/app.ts'
import { AuthService, defaultAuthSettings } from '../../../../src/auth/auth-service.ts'
import { freshStore } from '../../../helpers/engines.ts'

const INDEX = '<!doctype html><html><head><script type="module" src="/console/assets/index-AbC123.js"></script></head><body><div id="app"></div></body></html>'
const SCRIPT = 'console.log("console")'

async function appWith (consoleDir: string): Promise<{ app: FastifyInstance, close (): Promise<void> }> {
  const { store, close } = await freshStore('sqlite')
  const app = await buildApp({ store, auth: new AuthService(store, defaultAuthSettings), config: { bodyLimit: 65536, rateLimitMax: 0, rateLimitWindowSeconds: 60 }, consoleDir })
  return { app, async close () { await app.close(); await close() } }
}

describe('GET /console/', () => {
  let dir: string
  let t: Awaited<ReturnType<typeof appWith>>

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'zonal-console-'))
    mkdirSync(join(dir, 'assets'))
    writeFileSync(join(dir, 'index.html'), INDEX)
    writeFileSync(join(dir, 'assets', 'index-AbC123.js'), SCRIPT)
    writeFileSync(join(dir, 'assets', 'style-XyZ789.css'), 'body{margin:0}')
    writeFileSync(join(dir, '.built'), 'stamp')
    t = await appWith(dir)
  })
  after(async () => {
    await t.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('redirects / to /console/ with 302', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' })
    assert.equal(res.statusCode, 302)
    assert.equal(res.headers.location, '/console/')
  })

  it('answers the page without a token, uncached, under a CSP that allows no inline script', async () => {
    for (const url of ['/console/', '/console']) {
      const res = await t.app.inject({ method: 'GET', url })
      assert.equal(res.statusCode, 200, url)
      assert.equal(res.body, INDEX)
      assert.match(String(res.headers['content-type']), /^text\/html/)
      assert.equal(res.headers['cache-control'], 'no-cache')
      const csp = String(res.headers['content-security-policy'])
      for (const directive of ["script-src 'self'", "object-src 'none'", "frame-ancestors 'none'", "base-uri 'none'", "connect-src 'self'", "default-src 'self'"]) {
        assert.ok(csp.split('; ').includes(directive), `${directive} in ${csp}`)
      }
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/)
    }
  })

  it('answers client-side routes (zone names with dots too) with the page', async () => {
    for (const url of ['/console/zones', '/console/zones/example.org.', '/console/zones/0%2F24.2.0.192.in-addr.arpa.', '/console/sign-in?next=%2Fzones']) {
      const res = await t.app.inject({ method: 'GET', url })
      assert.equal(res.statusCode, 200, url)
      assert.equal(res.body, INDEX, url)
      assert.equal(res.headers['cache-control'], 'no-cache', url)
    }
  })

  it('serves hashed assets with their type and a year of immutable caching', async () => {
    const js = await t.app.inject({ method: 'GET', url: '/console/assets/index-AbC123.js' })
    assert.equal(js.statusCode, 200)
    assert.equal(js.body, SCRIPT)
    assert.match(String(js.headers['content-type']), /^text\/javascript/)
    assert.equal(js.headers['cache-control'], 'public, max-age=31536000, immutable')
    assert.ok(String(js.headers['content-security-policy']).includes("script-src 'self'"))
    const css = await t.app.inject({ method: 'GET', url: '/console/assets/style-XyZ789.css' })
    assert.match(String(css.headers['content-type']), /^text\/css/)
  })

  it('answers 304 to a request that has the current ETag', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/console/assets/index-AbC123.js' })
    const etag = String(first.headers.etag)
    assert.match(etag, /^"[A-Za-z0-9_-]+"$/)
    const again = await t.app.inject({ method: 'GET', url: '/console/assets/index-AbC123.js', headers: { 'if-none-match': etag } })
    assert.equal(again.statusCode, 304)
    assert.equal(again.body, '')
  })

  it('answers 404 for a missing asset, a dot file and a path outside the folder', async () => {
    for (const url of ['/console/assets/index-Gone000.js', '/console/assets/', '/console/assets/../../package.json', '/console/assets/%2e%2e/%2e%2e/package.json']) {
      const res = await t.app.inject({ method: 'GET', url })
      assert.equal(res.statusCode, 404, url)
      assert.deepEqual(res.json(), [{ errorCode: 404, errorMessage: 'Status Code 404' }], url)
    }
    const dot = await t.app.inject({ method: 'GET', url: '/console/.built' })
    assert.notEqual(dot.body, 'stamp')
  })

  it('keeps the API\'s own answers: a token is still needed elsewhere', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/accounts' })
    assert.equal(res.statusCode, 401)
  })
})

describe('GET /console/ before the console is built', () => {
  it('answers 503 saying how to build it, and still redirects /', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zonal-console-empty-'))
    const t = await appWith(dir)
    try {
      const res = await t.app.inject({ method: 'GET', url: '/console/zones' })
      assert.equal(res.statusCode, 503)
      assert.match(res.body, /npm run build:console/)
      assert.equal((await t.app.inject({ method: 'GET', url: '/' })).statusCode, 302)
    } finally {
      await t.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
