/**
 * Directional (DIR) pools answer by the client's place (issue 18), from two DNS workers: by the
 * country of the EDNS Client Subnet (RFC 7871; the option comes back with its scope) unless the
 * pool ignores it, by source IP ranges (loopback sources 127.0.0.x), with the default record
 * for the others, NODATA for the no-response group and where nothing matches without a default;
 * answers for one client never reach another through the reply cache. The countries of the
 * public addresses used are read from the shipped database, not assumed.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { shippedDatabases } from '../../src/analytics/geoip.ts'
import { geoLocator, readGeoDatabases } from '../../src/serving/geo-locator.ts'
import { parseIp } from '../../src/zone/ip.ts'
import { parseName } from '../../src/zone/name.ts'
import type { PoolProfile } from '../../src/zone/pools/profile.ts'
import { addressesOf, askFrom, ecsOption, poolProfile, poolQuery, storePoolZone } from '../helpers/pool-zone.ts'
import { eventually } from '../helpers/named.ts'
import { startTestService, type TestService } from '../helpers/service.ts'

const EXTRA = `dir    IN A   192.0.2.41
dir    IN A   192.0.2.42
dir    IN A   192.0.2.43
dir    IN A   192.0.2.44
dirx   IN A   192.0.2.51
diri   IN A   192.0.2.61
diri   IN A   192.0.2.62
`

/** Public addresses in two different countries, as the shipped database places them. */
async function twoCountries (): Promise<{ a: string, ca: string, b: string, cb: string }> {
  const locate = geoLocator(await readGeoDatabases([shippedDatabases()[0]!]))
  const candidates = ['8.8.8.8', '193.0.6.139', '202.12.29.1', '200.160.0.8', '196.216.2.1', '1.1.1.1']
  const placed = candidates.map(ip => ({ ip, code: locate(parseIp(ip)!) })).filter((p): p is { ip: string, code: string } => p.code !== undefined)
  const first = placed[0]!
  const second = placed.find(p => p.code !== first.code)
  assert.ok(second !== undefined, `two countries among ${JSON.stringify(placed)}`)
  return { a: first.ip, ca: first.code, b: second.ip, cb: second.code }
}

describe('directional pool answers', () => {
  let t: TestService
  let where: Awaited<ReturnType<typeof twoCountries>>
  const ask = async (name: string, from = '127.0.0.1', ecs?: Uint8Array) => await askFrom(t.service.dns.port, poolQuery(name, 'A', ecs), from)
  const subnet = (ip: string): Uint8Array => ecsOption(ip, 24)

  before(async () => {
    where = await twoCountries()
    const dirRdata = ['192.0.2.41', '192.0.2.42', '192.0.2.43', '192.0.2.44']
    const profiles: Record<string, PoolProfile> = {
      'dir.example.org./1': poolProfile('dir.example.org.', 'DirPool', {
        rdataInfo: [
          { allNonConfigured: true },
          { geoInfo: { name: 'first', codes: [where.ca] } },
          { geoInfo: { name: 'second', codes: [where.cb] } },
          { ipInfo: { name: 'lab', ips: [{ address: '127.0.0.2' }] } }
        ],
        noResponse: { ipInfo: { name: 'blocked', ips: [{ cidr: '127.0.0.3/32' }] } }
      }, dirRdata),
      'dirx.example.org./1': poolProfile('dirx.example.org.', 'DirPool', { rdataInfo: [{ geoInfo: { name: 'first', codes: [where.ca] } }] }, ['192.0.2.51']),
      'diri.example.org./1': poolProfile('diri.example.org.', 'DirPool', {
        ignoreECS: true, rdataInfo: [{ allNonConfigured: true }, { geoInfo: { name: 'first', codes: [where.ca] } }]
      }, ['192.0.2.61', '192.0.2.62'])
    }
    t = await startTestService('admin password', { ZONAL_DNS_WORKERS: '2', ZONAL_GEOIP_DB: shippedDatabases().join(',') })
    await storePoolZone(t.service.store, profiles, EXTRA)
    await eventually(async () => t.service.dns.index.find(parseName('example.org.')) !== undefined, 10_000, 'zone loaded')
    await t.service.dns.settled()
  })
  after(async () => { await t?.stop() })

  it('answers by the country of the Client Subnet and carries the option back with its scope', async () => {
    for (let i = 0; i < 4; i++) {
      const m = await ask('dir.example.org.', '127.0.0.1', subnet(where.a))
      assert.deepEqual(addressesOf(m), ['192.0.2.42'])
      const ecs = m.edns?.options.find(o => o.code === 8)
      assert.ok(ecs !== undefined, 'the Client Subnet option comes back')
      assert.deepEqual([...ecs.data], [...subnet(where.a).subarray(0, 3), 24, ...subnet(where.a).subarray(4)])
      assert.deepEqual(addressesOf(await ask('dir.example.org.', '127.0.0.1', subnet(where.b))), ['192.0.2.43'])
    }
  })

  it('answers the default record to a client no group holds (loopback has no country), and never another client\'s answer', async () => {
    for (let i = 0; i < 4; i++) {
      const m = await ask('dir.example.org.')
      assert.deepEqual(addressesOf(m), ['192.0.2.41'])
      assert.equal(m.edns?.options.find(o => o.code === 8), undefined)
    }
  })

  it('answers by source IP range, and NODATA to the no-response group', async () => {
    for (let i = 0; i < 4; i++) {
      assert.deepEqual(addressesOf(await ask('dir.example.org.', '127.0.0.2')), ['192.0.2.44'])
      const none = await ask('dir.example.org.', '127.0.0.3')
      assert.equal(none.rcode, 0)
      assert.deepEqual(none.answers, [])
      assert.equal(none.authority[0]?.type, 6, 'NODATA carries the SOA')
      assert.deepEqual(addressesOf(await ask('dir.example.org.', '127.0.0.1')), ['192.0.2.41'])
    }
  })

  it('answers NODATA where nothing matches and there is no default', async () => {
    assert.deepEqual(addressesOf(await ask('dirx.example.org.', '127.0.0.1', subnet(where.a))), ['192.0.2.51'])
    const m = await ask('dirx.example.org.', '127.0.0.1', subnet(where.b))
    assert.equal(m.rcode, 0)
    assert.deepEqual(m.answers, [])
  })

  it('places the resolver, not its Client Subnet, when the pool sets ignoreECS', async () => {
    const m = await ask('diri.example.org.', '127.0.0.1', subnet(where.a))
    assert.deepEqual(addressesOf(m), ['192.0.2.61'])
    assert.equal(m.edns?.options.find(o => o.code === 8), undefined)
  })

  it('answers a malformed Client Subnet option by the source address, without failing', async () => {
    // Prefix 24 with four address octets (RFC 7871 §6 wants three), and an unknown family.
    for (const bad of [new Uint8Array([0, 1, 24, 0, 8, 8, 8, 8]), new Uint8Array([0, 9, 24, 0, 8, 8, 8]), new Uint8Array([0, 1])]) {
      const m = await ask('dir.example.org.', '127.0.0.1', bad)
      assert.equal(m.rcode, 0)
      assert.deepEqual(addressesOf(m), ['192.0.2.41'])
    }
  })
})
