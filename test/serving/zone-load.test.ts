/**
 * Loading a large zone into the DNS index lets the API's event loop run between pages of
 * rrsets, and keeps a load only if the zone did not change meanwhile (pages read before and
 * after a change would mix two versions): such a load is made again. Both engines.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { SecretBox } from '../../src/auth/secrets.ts'
import { ZoneIndex } from '../../src/dns/index/zone-index.ts'
import { ZoneSync } from '../../src/serving/zone-sync.ts'
import type { Store } from '../../src/store/store.ts'
import { parseName } from '../../src/zone/name.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { engineCases } from '../helpers/engines.ts'
import { storeZone } from '../helpers/stored-zones.ts'
import { client } from '../helpers/zones.ts'

const silent = { info: () => {}, error: () => {} }
/** Three pages of the loader's 5,000 rrsets. */
const RRSETS = 12_000

type ListWire = Store['rrsets']['listWire']

/** The store with its `rrsets.listWire` replaced (everything else as it is). */
function withListWire (store: Store, listWire: ListWire): Store {
  const bound = <T extends object>(target: T, prop: string | symbol): unknown => {
    const v = Reflect.get(target, prop) as unknown
    return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v
  }
  const rrsets = new Proxy(store.rrsets, { get: (target, prop) => prop === 'listWire' ? listWire : bound(target, prop) })
  return new Proxy(store, { get: (target, prop) => prop === 'rrsets' ? rrsets : bound(target, prop) })
}

function zoneText (records: number): string {
  const lines = ['@ 3600 IN SOA ns1.example.net. hostmaster.big.test. 1 7200 3600 1209600 300', '@ 3600 IN NS ns1.example.net.']
  for (let i = 0; i < records - 2; i++) lines.push(`h${i} 300 IN A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`)
  return lines.join('\n') + '\n'
}

for (const engine of await engineCases()) {
  describe(`${engine.name}: loading a large zone into the DNS index`, { skip: engine.skip }, () => {
    let t: TestApp
    let api: ReturnType<typeof client>
    let zoneId: string
    before(async () => {
      t = await buildTestApp(engine.name)
      api = client(t.app, await t.user('loader', 'acme'))
      zoneId = (await storeZone(t.store, 'acme', 'big.test.', zoneText(RRSETS))).id
    })
    after(async () => await t?.close())

    it('lets other work run between its pages', async () => {
      let ticks = 0
      const ticker = (): void => {
        ticks++
        if (running) setImmediate(ticker)
      }
      let running = true
      setImmediate(ticker)
      const seen: number[] = []
      const store = withListWire(t.store, async (id, limit, after) => {
        if (id === zoneId) seen.push(ticks)
        return await t.store.rrsets.listWire(id, limit, after)
      })
      const sync = new ZoneSync(store, new ZoneIndex(), silent, new SecretBox(undefined), { fullSyncMs: 600_000 })
      try {
        await sync.start()
      } finally {
        running = false
        await sync.stop()
      }
      assert.ok(seen.length >= 3, `pages read: ${seen.length}`)
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i]! > seen[i - 1]!, `the loop ran between pages ${i - 1} and ${i} (ticks ${seen.join(', ')})`)
    })

    it('loads the zone again when it changed between two pages', async () => {
      let firstPages = 0
      let changed = false
      const store = withListWire(t.store, async (id, limit, after) => {
        const page = await t.store.rrsets.listWire(id, limit, after)
        if (id !== zoneId) return page
        if (after === undefined) firstPages++
        else if (!changed) {
          // A change committed while the load is between its first and second page.
          changed = true
          const put = await api.put('/zones/big.test/rrsets/A/h0', { ttl: 300, rdata: ['192.0.2.200'] })
          assert.equal(put.statusCode, 200, put.body)
        }
        return page
      })
      const index = new ZoneIndex()
      const sync = new ZoneSync(store, index, silent, new SecretBox(undefined), { fullSyncMs: 600_000 })
      try {
        await sync.start()
        await sync.settled()
      } finally {
        await sync.stop()
      }
      assert.ok(changed)
      assert.ok(firstPages >= 2, `the zone was loaded ${firstPages} time(s)`)
      const h0 = index.get(parseName('big.test.'))?.node(parseName('h0.big.test.'))?.rrsets.get(1)
      assert.deepEqual(h0?.rdata.map(d => [...d].join('.')), ['192.0.2.200'])
    })
  })
}
