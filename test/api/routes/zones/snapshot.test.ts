/**
 * Zone snapshots, on both engines, through the calls the official Python client makes
 * (`create_snapshot`, `get_snapshot`, `restore_snapshot`: `/v1/zones/{zone}/snapshot` and
 * `/v1/zones/{zone}/restore`, POST bodies `{}`, 202 + X-Task-Id): create → change records →
 * restore → the records, the SOA serial (moved on from the current one), the change journal
 * (a reset from the previous serial), the audit log, the record count and the DNS index serving
 * the restored zone (with the serial change that sends NOTIFY). Then the rules: one snapshot per
 * zone, permissions, other accounts, alias, secondary and suspended zones, no snapshot, a zone
 * deleted with its snapshot, and a snapshot larger than one page read back whole.
 */
import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { after, before, describe, it } from 'node:test'
import { SecretBox } from '../../../../src/auth/secrets.ts'
import { isZonalError } from '../../../../src/errors/catalog.ts'
import { lookup } from '../../../../src/dns/answer/lookup.ts'
import { ZoneIndex } from '../../../../src/dns/index/zone-index.ts'
import { ZoneSync } from '../../../../src/serving/zone-sync.ts'
import type { Store } from '../../../../src/store/store.ts'
import { taskHandlers } from '../../../../src/tasks/jobs/index.ts'
import { TaskRunner } from '../../../../src/tasks/runner.ts'
import { nameToString, parseName } from '../../../../src/zone/name.ts'
import { formatRdata } from '../../../../src/zone/rdata/index.ts'
import { restoreSnapshot } from '../../../../src/zones/snapshots.ts'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { sampleZone, storeZone } from '../../../helpers/stored-zones.ts'
import { client, errorCode, taskSettled } from '../../../helpers/zones.ts'

type Client = ReturnType<typeof client>
interface Rrset { ownerName: string, rrtype: string, ttl: number, rdata: string[], profile?: Record<string, unknown> }

const RD_POOL = { '@context': 'http://schemas.ultradns.com/RDPool.jsonschema', order: 'FIXED', description: 'web pool' }
const silent = { info: () => {}, error: () => {} }

/** A POST as the Python client sends it: the body `{}` as JSON text with Content-Type application/json. */
async function pythonPost (c: Client, path: string): Promise<string> {
  const res = await c.send('POST', path, '{}', { 'content-type': 'application/json', accept: 'application/json' })
  assert.equal(res.statusCode, 202, res.body)
  assert.deepEqual(res.json(), { message: 'Pending' })
  const id = String(res.headers['x-task-id'])
  assert.match(id, /^[0-9a-f-]{36}$/)
  return id
}

async function completed (c: Client, path: string): Promise<string> {
  const dto = await taskSettled(c, await pythonPost(c, path))
  assert.equal(dto.code, 'COMPLETE', dto.message)
  return dto.message
}

async function rrsets (c: Client, zone: string): Promise<Rrset[]> {
  const res = await c.get(`/zones/${zone}/rrsets?limit=1000`)
  assert.equal(res.statusCode, 200, res.body)
  return (res.json() as { rrSets: Rrset[] }).rrSets
}

const key = (r: Rrset): string => `${r.ownerName} ${r.rrtype}`
const sorted = (list: Rrset[]): Rrset[] => [...list].sort((a, b) => key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)
/** The SOA serial of an rrset list. */
const serialOf = (list: Rrset[]): number => Number(list.find(r => r.rrtype === 'SOA (6)')!.rdata[0]!.split(' ')[2])
/** The rrsets without the SOA, whose serial the service moves. */
const withoutSoa = (list: Rrset[]): Rrset[] => sorted(list.filter(r => r.rrtype !== 'SOA (6)'))

async function eventually (check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    assert.ok(Date.now() < end, `not true within ${ms} ms`)
    await sleep(10)
  }
}

/** What DNS answers for a name and type from the index, as presentation rdata. */
function served (index: ZoneIndex, name: string, type: number): string[] {
  const state = lookup(index, parseName(name), type)
  return state.kind === 'hit' ? state.answer.filter(r => r.type === type).map(r => formatRdata(type, r.rdata)).sort() : []
}

for (const engine of await engineCases()) {
  describe(`${engine.name}: zone snapshots`, { skip: engine.skip }, () => {
    let t: TestApp
    let runner: TaskRunner
    let alice: Client
    let reader: Client
    let mallory: Client
    let index: ZoneIndex
    let sync: ZoneSync
    const serialChanges: number[] = []

    before(async () => {
      t = await buildTestApp(engine.name, { tasks: (store: Store) => (runner = new TaskRunner(store, taskHandlers(), { workerId: 'snapshot-test', pollMs: 20 })) })
      runner.start()
      alice = client(t.app, await t.user('alice', 'acme', 'DNSAdministrators'))
      reader = client(t.app, await t.user('rita', 'acme', 'ReadOnly'))
      mallory = client(t.app, await t.user('mallory', 'other', 'Owner'))
      assert.equal((await alice.newPrimary('example.org.', 'acme')).statusCode, 201)
      for (const [type, owner, body] of [
        ['A', 'www', { ttl: 300, rdata: ['192.0.2.80'] }],
        ['A', 'pool', { ttl: 60, rdata: ['192.0.2.1', '192.0.2.2'], profile: RD_POOL }],
        ['TXT', 'txt', { ttl: 600, rdata: ['kept; with text'] }],
        ['MX', '@', { ttl: 3600, rdata: ['10 mail.example.org.'] }]
      ] as const) assert.equal((await alice.post(`/zones/example.org/rrsets/${type}/${owner}`, body)).statusCode, 201)
      index = new ZoneIndex()
      sync = new ZoneSync(t.store, index, silent, new SecretBox(undefined), { fullSyncMs: 600_000, onSerialChange: z => serialChanges.push(z.serial) })
      await sync.start()
    })
    after(async () => {
      await sync?.stop()
      await runner?.stop()
      await t?.close()
    })

    it('takes a snapshot (202 + X-Task-Id), reads it back, restores it after changes: records, serial, journal, audit, count and DNS', async () => {
      const original = await rrsets(alice, 'example.org.')
      const message = await completed(alice, '/v1/zones/example.org./snapshot')
      assert.match(message, /^Snapshot of example\.org\. taken with 8 records at serial \d+\.$/)

      const got = await alice.get('/v1/zones/example.org./snapshot')
      assert.equal(got.statusCode, 200, got.body)
      assert.match(String(got.headers['content-type']), /^application\/json/)
      const snapshot = got.json() as { zoneName: string, rrSets: Rrset[] }
      assert.equal(snapshot.zoneName, 'example.org.')
      assert.deepEqual(Object.keys(snapshot), ['zoneName', 'rrSets'])
      assert.deepEqual(sorted(snapshot.rrSets), sorted(original), 'the snapshot holds the zone as it was, pool profile included')

      // Changes after the snapshot: one rrset changed, one deleted, one added.
      assert.equal((await alice.put('/zones/example.org/rrsets/A/www', { ttl: 300, rdata: ['198.51.100.80'] })).statusCode, 200)
      assert.equal((await alice.delete('/zones/example.org/rrsets/TXT/txt')).statusCode, 204)
      assert.equal((await alice.post('/zones/example.org/rrsets/A/new', { ttl: 300, rdata: ['198.51.100.1', '198.51.100.2'] })).statusCode, 201)
      await eventually(() => served(index, 'new.example.org.', 1).length === 2)
      const changed = await rrsets(alice, 'example.org.')
      const before = serialOf(changed)
      const lastVersion = (await t.store.zones.findByName('example.org.', { accountIds: (await t.store.accounts.list()).map(a => a.id) }))!.version
      assert.deepEqual(served(index, 'www.example.org.', 1), ['198.51.100.80'])

      const restored = await completed(alice, '/v1/zones/example.org./restore')
      assert.match(restored, /^example\.org\. restored from its snapshot of .* with 8 records; serial \d+\.$/)

      // Records: the snapshot's again; the SOA serial moved on from the zone's, not back to the snapshot's.
      const after = await rrsets(alice, 'example.org.')
      assert.deepEqual(withoutSoa(after), withoutSoa(original))
      const serial = serialOf(after)
      assert.ok(serial > before, `serial ${serial} after ${before}`)
      assert.ok(serial > serialOf(original))
      const zone = (await alice.get('/zones/example.org.')).json() as { properties: { resourceRecordCount: number } }
      assert.equal(zone.properties.resourceRecordCount, 8)

      // Journal: one reset entry from the serial before the restore to the new one.
      const row = (await t.store.zones.findByName('example.org.', { accountIds: (await t.store.accounts.list()).map(a => a.id) }))!
      assert.equal(row.serial, serial)
      const [entry] = await t.store.zoneChanges.since(row.id, lastVersion, 10)
      assert.deepEqual(entry, { version: row.version, serialFrom: before, serialTo: serial, reset: true })

      // Audit: who took the snapshot and who restored it, with the serial step and counts.
      const audit = (await alice.get(`/reports/dns_configuration/audit?filter=${encodeURIComponent('object_type:ZONE::object_name:example.org')}`)).json() as { auditRecords: { changeType: string, user: string, object: string, detail: { changes: { name: string, from: unknown, to: unknown }[] } }[] }
      const restore = audit.auditRecords.find(r => r.changeType === 'RESTORE')!
      assert.equal(restore.user, 'alice')
      assert.deepEqual(restore.detail.changes, [{ name: 'serial', from: before, to: serial }, { name: 'recordCount', from: 9, to: 8 }])
      assert.equal(audit.auditRecords.find(r => r.changeType === 'SNAPSHOT')?.user, 'alice')

      // DNS: the index reloaded the restored zone and reported the new serial (NOTIFY follows it).
      await eventually(() => index.get(parseName('example.org.'))?.serial === serial)
      assert.deepEqual(served(index, 'www.example.org.', 1), ['192.0.2.80'])
      assert.deepEqual(served(index, 'txt.example.org.', 16), ['"kept; with text"'])
      assert.deepEqual(served(index, 'new.example.org.', 1), [])
      assert.deepEqual(served(index, 'pool.example.org.', 1), ['192.0.2.1', '192.0.2.2'])
      assert.equal(index.get(parseName('example.org.'))!.node(parseName('pool.example.org.'))!.rrsets.get(1)!.order, 'FIXED')
      assert.ok(serialChanges.includes(serial))
    })

    it('keeps one snapshot per zone: a new one replaces the old', async () => {
      assert.equal((await alice.post('/zones/example.org/rrsets/TXT/second', { ttl: 60, rdata: ['"two"'] })).statusCode, 201)
      await completed(alice, '/v1/zones/example.org./snapshot')
      const snapshot = (await alice.get('/zones/example.org/snapshot')).json() as { rrSets: Rrset[] }
      assert.deepEqual(snapshot.rrSets.filter(r => r.ownerName === 'second.example.org.').map(r => r.rdata), [['"two"']])
      assert.equal(snapshot.rrSets.filter(r => r.rrtype === 'SOA (6)').length, 1)
    })

    it('needs write to take or restore and read to see; other accounts\' zones do not exist', async () => {
      assert.equal((await reader.get('/v1/zones/example.org./snapshot')).statusCode, 200)
      for (const path of ['/v1/zones/example.org./snapshot', '/v1/zones/example.org./restore']) {
        const denied = await reader.post(path, {})
        assert.equal(denied.statusCode, 403, denied.body)
        const hidden = await mallory.post(path, {})
        assert.equal(hidden.statusCode, 404)
        assert.equal(errorCode(hidden.body), 1801)
      }
      assert.equal(errorCode((await mallory.get('/v1/zones/example.org./snapshot')).body), 1801)
    })

    it('answers 404 70002 without a snapshot, and refuses alias, secondary and suspended zones with 370002', async () => {
      assert.equal((await alice.newPrimary('empty.test.', 'acme')).statusCode, 201)
      for (const res of [await alice.get('/v1/zones/empty.test./snapshot'), await alice.post('/v1/zones/empty.test./restore', {})]) {
        assert.equal(res.statusCode, 404)
        assert.deepEqual(res.json(), [{ errorCode: 70002, errorMessage: 'Data not found.' }])
      }
      const primary = (await t.store.zones.findByName('example.org.', { accountIds: (await t.store.accounts.list()).map(a => a.id) }))!
      await storeZone(t.store, 'acme', 'alias.test.', '', { type: 'ALIAS', originalZoneId: primary.id })
      await storeZone(t.store, 'acme', 'secondary.test.', sampleZone('secondary.test.'), { type: 'SECONDARY' })
      for (const zone of ['alias.test.', 'secondary.test.']) {
        for (const res of [await alice.post(`/v1/zones/${zone}/snapshot`, {}), await alice.post(`/v1/zones/${zone}/restore`, {}), await alice.get(`/v1/zones/${zone}/snapshot`)]) {
          assert.equal(res.statusCode, 400, res.body)
          assert.equal(errorCode(res.body), 370002)
          assert.match(res.body, new RegExp(`Zone ${zone.replace(/\./g, '\\.')} is not eligible for (snapshot|restore)\\. .*primary zones only`))
        }
      }
      assert.equal((await alice.newPrimary('paused.test.', 'acme')).statusCode, 201)
      await completed(alice, '/zones/paused.test/snapshot')
      assert.equal((await alice.post('/zones/paused.test/suspend', {})).statusCode, 200)
      for (const path of ['/zones/paused.test/snapshot', '/zones/paused.test/restore']) {
        const res = await alice.post(path, {})
        assert.equal(res.statusCode, 400)
        assert.deepEqual(res.json(), [{ errorCode: 370002, errorMessage: `Zone paused.test. is not eligible for ${path.endsWith('snapshot') ? 'snapshot' : 'restore'}. It is suspended.` }])
      }
      assert.equal((await alice.get('/zones/paused.test/snapshot')).statusCode, 200, 'a suspended zone\'s snapshot can still be read')
    })

    it('checks the zone again when the task runs: a zone suspended meanwhile is not restored', async () => {
      assert.equal((await alice.newPrimary('race.test.', 'acme')).statusCode, 201)
      await completed(alice, '/zones/race.test/snapshot')
      const zone = (await t.store.zones.findByName('race.test.', { accountIds: (await t.store.accounts.list()).map(a => a.id) }))!
      assert.equal((await alice.post('/zones/race.test/suspend', {})).statusCode, 200)
      await assert.rejects(restoreSnapshot(t.store, zone.id, { user: 'alice', ipAddress: null }, new Date()), (err: unknown) =>
        isZonalError(err, 'ZONE_NOT_ELIGIBLE_RESTORE') && err.message === 'Zone race.test. is not eligible for restore. It is suspended.')
      const after = (await t.store.zones.findById(zone.id))!
      assert.equal(after.version, zone.version + 1, 'only the suspension changed the zone')
    })

    it('deletes the snapshot with its zone', async () => {
      assert.equal((await alice.newPrimary('gone.test.', 'acme')).statusCode, 201)
      await completed(alice, '/zones/gone.test/snapshot')
      const scope = { accountIds: (await t.store.accounts.list()).map(a => a.id) }
      const old = (await t.store.zones.findByName('gone.test.', scope))!
      assert.ok(await t.store.snapshots.find(old.id) !== undefined)
      assert.equal((await alice.delete('/zones/gone.test')).statusCode, 204)
      assert.equal(await t.store.snapshots.find(old.id), undefined)
      assert.deepEqual(await t.store.snapshots.list(old.id, 10), [])
      assert.equal((await alice.newPrimary('gone.test.', 'acme')).statusCode, 201)
      assert.equal((await alice.get('/zones/gone.test/snapshot')).statusCode, 404)
    })

    it('reads back a snapshot of several pages whole, in canonical order', async () => {
      const zone = await storeZone(t.store, 'acme', 'big.test.', sampleZone('big.test.', 2500))
      const rrsetCount = (await t.store.rrsets.list(zone.id, 10_000)).length
      assert.ok(rrsetCount > 2000)
      await completed(alice, '/zones/big.test/snapshot')
      const res = await alice.get('/zones/big.test/snapshot')
      assert.equal(res.statusCode, 200)
      const snapshot = res.json() as { rrSets: Rrset[] }
      assert.equal(snapshot.rrSets.length, rrsetCount)
      const stored = await t.store.rrsets.list(zone.id, 10_000)
      assert.deepEqual(snapshot.rrSets.map(r => r.ownerName), stored.map(r => nameToString(parseName(r.ownerName))))
    })
  })
}
