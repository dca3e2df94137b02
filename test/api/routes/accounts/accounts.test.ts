/**
 * The deprecated account zone list, `GET /accounts/{accountName}/zones`: a 301 to the v3 list of
 * that account, tried with the request the official Python client's `get_zones_of_account` builds
 * (`/v1/accounts/{account}/zones`, its keyword arguments then `q` as `k:v` terms joined by spaces,
 * form-encoded as requests does) and followed as requests follows a 301 (the relative Location
 * resolved against the request's URL, RFC 3986 §5).
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { accountZonesQ } from '../../../../src/api/routes/accounts/index.ts'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { client } from '../../../helpers/zones.ts'

type Client = ReturnType<typeof client>
interface ZonePage { queryInfo: { q: string, limit: number, reverse: boolean }, zones: { properties: { name: string, accountName: string, type: string } }[] }

const BASE = 'http://127.0.0.1:8080'

/** `build_params(q, kwargs)` of the Python client, form-encoded as requests encodes params. */
function pythonQuery (q: Record<string, string> | undefined, kwargs: Record<string, string>): string {
  const params = new URLSearchParams(kwargs)
  if (q !== undefined) params.set('q', Object.entries(q).map(([k, v]) => `${k}:${v}`).join(' '))
  return params.toString()
}

/** GET `path`, then follow one 301 as requests does; returns the redirect and the final answer. */
async function follow (c: Client, path: string): Promise<{ location: string, page: ZonePage }> {
  const moved = await c.get(path)
  assert.equal(moved.statusCode, 301, moved.body)
  const location = String(moved.headers.location)
  assert.match(location, /^\/v3\/zones\?/, 'a relative Location to the v3 list')
  const target = new URL(location, BASE + path)
  const res = await c.get(target.pathname + target.search)
  assert.equal(res.statusCode, 200, res.body)
  return { location, page: res.json() as ZonePage }
}

describe('accountZonesQ', () => {
  it('puts the account last and drops an account_name of the caller\'s own', () => {
    assert.equal(accountZonesQ('Beta Corp', undefined), 'account_name:Beta Corp')
    assert.equal(accountZonesQ('acme', ' name:shop  zone_type:PRIMARY '), 'name:shop zone_type:PRIMARY account_name:acme')
    assert.equal(accountZonesQ('acme', 'account_name:other name:shop'), 'name:shop account_name:acme')
    assert.equal(accountZonesQ('acme', 'nonsense'), 'nonsense account_name:acme')
  })
})

for (const engine of await engineCases()) {
  describe(`${engine.name}: GET /accounts/{accountName}/zones (deprecated)`, { skip: engine.skip }, () => {
    let t: TestApp
    let owner: Client
    let stranger: Client

    before(async () => {
      t = await buildTestApp(engine.name)
      await t.admin.addAccount('Beta Corp')
      owner = client(t.app, await t.user('olga', 'Beta Corp', 'Owner'))
      await t.user('olga', 'acme', 'Owner')
      stranger = client(t.app, await t.user('sam', 'elsewhere', 'Owner'))
      for (const name of ['shop1.example.org.', 'shop2.example.org.', 'shop3.example.org.', 'other.example.org.']) {
        assert.equal((await owner.newPrimary(name, 'Beta Corp')).statusCode, 201)
      }
      assert.equal((await owner.newPrimary('shop.example.net.', 'acme')).statusCode, 201)
      const alias = await owner.post('/zones', { properties: { name: 'shop4.example.org.', accountName: 'Beta Corp', type: 'ALIAS' }, aliasCreateInfo: { originalZoneName: 'shop1.example.org.' } })
      assert.equal(alias.statusCode, 201, alias.body)
    })
    after(async () => { await t.close() })

    it('redirects the Python client\'s request to the v3 list of the account, with its q, limit, sort and reverse', async () => {
      const path = `/v1/accounts/Beta%20Corp/zones?${pythonQuery({ name: 'shop', zone_type: 'PRIMARY' }, { offset: '0', limit: '2', sort: 'NAME', reverse: 'True' })}`
      assert.equal(path, '/v1/accounts/Beta%20Corp/zones?offset=0&limit=2&sort=NAME&reverse=True&q=name%3Ashop+zone_type%3APRIMARY')
      const { location, page } = await follow(owner, path)
      assert.equal(location, '/v3/zones?q=name%3Ashop+zone_type%3APRIMARY+account_name%3ABeta+Corp&limit=2&sort=NAME&reverse=True')
      assert.deepEqual(page.zones.map(z => z.properties.name), ['shop3.example.org.', 'shop2.example.org.'])
      assert.ok(page.zones.every(z => z.properties.accountName === 'Beta Corp' && z.properties.type === 'PRIMARY'))
      assert.equal(page.queryInfo.limit, 2)
      assert.equal(page.queryInfo.reverse, true)
    })

    it('lists every zone of the account without q, under any version prefix, with or without a trailing slash', async () => {
      for (const path of ['/v1/accounts/Beta%20Corp/zones', '/accounts/Beta%20Corp/zones/', '/v2/accounts/Beta%20Corp/zones/', '/v3/accounts/acme/zones']) {
        const { page } = await follow(owner, path)
        const expected = path.includes('acme') ? ['shop.example.net.'] : ['other.example.org.', 'shop1.example.org.', 'shop2.example.org.', 'shop3.example.org.', 'shop4.example.org.']
        assert.deepEqual(page.zones.map(z => z.properties.name), expected, path)
      }
    })

    it('lists the account of the path, not one named in q', async () => {
      const { page } = await follow(owner, `/v1/accounts/acme/zones?${pythonQuery({ account_name: 'Beta Corp' }, {})}`)
      assert.deepEqual(page.zones.map(z => z.properties.name), ['shop.example.net.'])
    })

    it('shows nothing of an account the caller is not in, and needs a token', async () => {
      const { page } = await follow(stranger, '/v1/accounts/Beta%20Corp/zones')
      assert.deepEqual(page.zones, [])
      const anonymous = await t.app.inject({ method: 'GET', url: '/v1/accounts/Beta%20Corp/zones' })
      assert.equal(anonymous.statusCode, 401)
    })

    it('passes a bad q on for the list to refuse', async () => {
      const moved = await owner.get('/v1/accounts/acme/zones?q=colour%3Ablue')
      assert.equal(moved.statusCode, 301)
      const res = await owner.get(String(moved.headers.location))
      assert.equal(res.statusCode, 400)
      assert.match(res.body, /q\.colour/)
    })
  })
}
