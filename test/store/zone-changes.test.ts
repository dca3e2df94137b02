/** The zone change journal on both engines: records kept exactly, read in order, trimmed by count. */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { JOURNAL_KEEP_VERSIONS, packRecords, unpackRecords } from '../../src/store/sql/zone-changes.ts'
import type { Store } from '../../src/store/store.ts'
import { parseName } from '../../src/zone/name.ts'
import type { ZoneRecord } from '../../src/zone/record.ts'
import { engineCases, freshStore } from '../helpers/engines.ts'
import { storeZone } from '../helpers/stored-zones.ts'

const A: ZoneRecord = { owner: parseName('www.example.org.'), type: 1, ttl: 300, rdata: new Uint8Array([192, 0, 2, 1]) }
const TXT: ZoneRecord = { owner: parseName('t.example.org.'), type: 16, ttl: 4294967295, rdata: new Uint8Array(300).fill(65) }

describe('journal record packing', () => {
  it('round-trips owners, types, TTLs and rdata of any length', () => {
    assert.deepEqual(unpackRecords(packRecords([A, TXT, A])), [A, TXT, A])
    assert.deepEqual(unpackRecords(packRecords([])), [])
  })
})

for (const engine of await engineCases()) {
  describe(`${engine.name}: zone change journal`, { skip: engine.skip }, () => {
    let store: Store
    let close: () => Promise<void>
    let zoneId: string
    before(async () => {
      ({ store, close } = await freshStore(engine.name))
      await store.accounts.create('acme')
      zoneId = (await storeZone(store, 'acme', 'example.org.', '')).id
    })
    after(async () => await close?.())

    it('reads entries after a version, and the newest ones, oldest first', async () => {
      await store.zoneChanges.append(zoneId, { version: 2, serialFrom: 4294967295, serialTo: 0, reset: false, removed: [A], added: [TXT] })
      await store.zoneChanges.append(zoneId, { version: 3, serialFrom: 0, serialTo: 1, reset: true })
      await store.zoneChanges.append(zoneId, { version: 4, serialFrom: 1, serialTo: 2, reset: false, removed: [], added: [A] })
      assert.deepEqual(await store.zoneChanges.since(zoneId, 1, 10), [
        { version: 2, serialFrom: 4294967295, serialTo: 0, reset: false, removed: [A], added: [TXT] },
        { version: 3, serialFrom: 0, serialTo: 1, reset: true },
        { version: 4, serialFrom: 1, serialTo: 2, reset: false, removed: [], added: [A] }
      ])
      assert.deepEqual((await store.zoneChanges.since(zoneId, 2, 1)).map(c => c.version), [3])
      assert.deepEqual((await store.zoneChanges.latest(zoneId, 2)).map(c => c.version), [3, 4])
    })

    it('keeps the newest versions only', async () => {
      // Trimming runs every 64 versions.
      const last = Math.ceil((JOURNAL_KEEP_VERSIONS + 1) / 64) * 64
      await store.transaction(async (tx) => {
        for (let v = 5; v <= last; v++) await tx.zoneChanges.append(zoneId, { version: v, serialFrom: v, serialTo: v + 1, reset: false, removed: [], added: [] })
      })
      const kept = await store.zoneChanges.since(zoneId, 0, 10_000)
      assert.equal(kept[0]!.version, last - JOURNAL_KEEP_VERSIONS + 1)
      assert.equal(kept.at(-1)!.version, last)
    })

    it('goes with its zone', async () => {
      await store.zones.deleteById(zoneId)
      assert.deepEqual(await store.zoneChanges.latest(zoneId, 10), [])
    })
  })
}
