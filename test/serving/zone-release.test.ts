/**
 * A deleted zone's memory goes back: once the zone sync drops it, nothing the DNS side keeps
 * (the index, the zone sync's own maps, the reply cache) still holds its data, so a garbage
 * collection takes it (checked with a WeakRef and a forced collection, not with memory figures).
 */
import assert from 'node:assert/strict'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { after, before, describe, it } from 'node:test'
import { SecretBox } from '../../src/auth/secrets.ts'
import { ZoneIndex } from '../../src/dns/index/zone-index.ts'
import { ZoneSync } from '../../src/serving/zone-sync.ts'
import { parseName } from '../../src/zone/name.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { engineCases } from '../helpers/engines.ts'
import { bigZoneText } from '../helpers/generated.ts'
import { client } from '../helpers/zones.ts'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const ORIGIN = parseName('release.test.')
const REQUEST = Uint8Array.from([0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0x61, 0, 0, 1, 0, 1])

/** Collect until `ref` is gone (a WeakRef's target lives at least to the end of the current job). */
async function collected (ref: WeakRef<object>): Promise<boolean> {
  for (let i = 0; i < 10 && ref.deref() !== undefined; i++) {
    await new Promise(resolve => setImmediate(resolve))
    gc()
  }
  return ref.deref() === undefined
}

/** Wait for `check` to hold, as the zone sync applies the store's notifications. */
async function until (check: () => boolean): Promise<void> {
  const end = Date.now() + 10_000
  while (!check()) {
    assert.ok(Date.now() < end, 'not true within 10 s')
    await new Promise(resolve => setTimeout(resolve, 10))
  }
}

for (const engine of await engineCases()) {
  describe(`${engine.name}: a deleted zone's memory`, { skip: engine.skip }, () => {
    let t: TestApp
    let api: ReturnType<typeof client>
    let index: ZoneIndex
    let sync: ZoneSync

    before(async () => {
      t = await buildTestApp(engine.name, { bodyLimit: 1024 * 1024 })
      api = client(t.app, await t.user('releaser', 'acme'))
      index = new ZoneIndex()
      sync = new ZoneSync(t.store, index, { info: () => {}, error: () => {} }, new SecretBox(undefined), { fullSyncMs: 600_000 })
      await sync.start()
    })
    after(async () => {
      await sync?.stop()
      await t?.close()
    })

    it('is let go by the index, the zone sync and the reply cache once the zone is deleted', async () => {
      const upload = await api.upload({ properties: { name: 'release.test.', accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'UPLOAD' } }, bigZoneText('release.test.', 5000))
      assert.equal(upload.statusCode, 201, upload.body)
      await until(() => index.get(ORIGIN) !== undefined)
      // The served data is only ever held here through the WeakRef.
      const ref = ((): WeakRef<object> => {
        const served = index.get(ORIGIN)!
        assert.ok(served.node(parseName('h4996.release.test.')) !== undefined)
        index.replies.put('release-key', served, '', new Uint8Array(100), REQUEST, 15, false, [])
        assert.equal(index.replies.entriesOf(served), 1)
        return new WeakRef(served)
      })()

      assert.equal((await api.delete('/zones/release.test.')).statusCode, 204)
      await until(() => index.get(ORIGIN) === undefined)
      await sync.settled()
      assert.equal(index.replies.size, 0, 'no reply of the deleted zone is kept')
      assert.equal(index.replies.bytes, 0)
      assert.ok(await collected(ref), 'the deleted zone\'s data is still reachable')
    })
  })
}
