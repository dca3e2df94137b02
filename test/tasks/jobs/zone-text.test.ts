import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Store } from '../../../src/store/store.ts'
import { zoneFileName } from '../../../src/tasks/jobs/export-zones.ts'
import { EXPORT_PAGE_SIZE, storedZoneText } from '../../../src/tasks/jobs/zone-text.ts'
import { poolComment, type PoolProfile } from '../../../src/zone/pools/index.ts'
import { parseName } from '../../../src/zone/name.ts'
import { parseZoneText } from '../../../src/zonefile/parser.ts'
import { writeZone } from '../../../src/zonefile/writer.ts'
import { engineCases, freshStore } from '../../helpers/engines.ts'
import { sampleZone, storeZone } from '../../helpers/stored-zones.ts'

for (const engine of await engineCases()) {
  describe(`${engine.name}: storedZoneText`, { skip: engine.skip }, () => {
    let store: Store
    let close: () => Promise<void>
    before(async () => {
      ({ store, close } = await freshStore(engine.name))
      await store.accounts.create('acme')
    })
    after(async () => { await close?.() })

    it('reads a large zone a page at a time and writes what writeZone writes for the same records', async () => {
      const text = sampleZone('big.example.org.', 2600)
      const zone = await storeZone(store, 'acme', 'big.example.org.', text)
      const pages: number[] = []
      const counting: Store = Object.create(store, {
        rrsets: { value: { ...store.rrsets, listWire: async (...args: Parameters<Store['rrsets']['listWire']>) => { pages.push(args[1]); return await store.rrsets.listWire(...args) } } }
      })
      const createdAt = new Date('2026-05-06T07:08:09.000Z')
      const out = await storedZoneText(counting, (await store.zones.findById(zone.id))!, createdAt)
      const origin = parseName('big.example.org.')
      const records = parseZoneText(text, { origin, includes: 'refuse' }).records
      assert.equal(out, writeZone(records, { origin, createdAt }))
      assert.equal(pages.length, 3)
      assert.ok(pages.every(n => n === EXPORT_PAGE_SIZE))
    })

    it('writes an empty zone as its header only', async () => {
      const zone = await storeZone(store, 'acme', 'empty.example.org.', '')
      const out = await storedZoneText(store, (await store.zones.findById(zone.id))!, new Date(0))
      assert.equal(out, '; Zone empty.example.org.\n; Created 1970-01-01T00:00:00.000Z\n; Records 0\n$ORIGIN empty.example.org.\n')
    })
  })
}

describe('export file names and pool comments', () => {
  it('names zip entries after the zone without its final dot, with / and \\ as _', () => {
    assert.equal(zoneFileName('example.org.'), 'example.org.zone')
    assert.equal(zoneFileName('0/26.2.0.192.in-addr.arpa.'), '0_26.2.0.192.in-addr.arpa.zone')
    assert.equal(zoneFileName('a\\.b.example.'), 'a_.b.example.zone')
  })

  it('names the pool kind and its description, or the owner', () => {
    // Profiles stored by older versions may lack settings: those are left out of the comment.
    assert.equal(poolComment({ kind: 'SB_POOLS', description: 'backup' } as PoolProfile, 'www.example.org.'), 'SB pool www.example.org.: backup')
    assert.equal(poolComment({ kind: 'RD_POOLS' } as PoolProfile, 'www.example.org.'), 'RD pool www.example.org.')
    assert.equal(poolComment({ kind: 'RD_POOLS', order: 'FIXED' } as PoolProfile, 'www.example.org.'), 'RD pool www.example.org. (order FIXED)')
  })
})
