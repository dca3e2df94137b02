/**
 * The audit log shows what real operations recorded: a record for every change type the issue
 * names (zones, rrsets, pools and users added, changed and deleted; suspension, conversion,
 * unalias, export, logins good and bad, zone transfers and their failures), read back through
 * `GET /reports/dns_configuration/audit`; and a change whose audit record cannot be written does
 * not happen (one transaction).
 */
import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { after, before, describe, it } from 'node:test'
import { SqlAuditStore } from '../../../../src/store/sql/audit.ts'
import { SqlZoneStore } from '../../../../src/store/sql/zones.ts'
import type { Store } from '../../../../src/store/store.ts'
import { taskHandlers } from '../../../../src/tasks/jobs/index.ts'
import { TaskRunner } from '../../../../src/tasks/runner.ts'
import { parseName } from '../../../../src/zone/name.ts'
import { parseZoneText } from '../../../../src/zonefile/parser.ts'
import { applyTransfer, recordTransferFailure } from '../../../../src/zones/secondary-transfer.ts'
import { buildTestApp, TEST_PASSWORD, type TestApp } from '../../../helpers/app.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { client } from '../../../helpers/zones.ts'

const AUDIT = '/reports/dns_configuration/audit'
const RD_POOL = { '@context': 'http://schemas.ultradns.com/RDPool.jsonschema', order: 'ROUND_ROBIN', description: 'web pool' }
const SECONDARY = (name: string) => ({ properties: { name, accountName: 'acme', type: 'SECONDARY' }, secondaryCreateInfo: { primaryNameServers: { nameServerIpList: { nameServerIp1: { ip: '127.0.0.1:15353' } } } } })

type Row = Record<string, unknown> & { detail: { changes: { name: string, from: unknown, to: unknown }[], others: { name: string, value: unknown }[] } }

for (const engine of await engineCases()) {
  describe(`${engine.name}: the audit log of real operations`, { skip: engine.skip }, () => {
    let t: TestApp
    let runner: TaskRunner
    let alice: ReturnType<typeof client>

    before(async () => {
      t = await buildTestApp(engine.name, { tasks: (store: Store) => (runner = new TaskRunner(store, taskHandlers(), { workerId: 'audit-test', pollMs: 20 })) })
      runner.start()
      alice = client(t.app, await t.user('alice', 'acme', 'Owner'))
    })
    after(async () => {
      await runner?.stop()
      await t.close()
    })

    /** The records of one change type in the last hour, newest first. */
    const records = async (changeType: string, extra = ''): Promise<Row[]> => {
      const res = await alice.get(`${AUDIT}?limit=250&filter=${encodeURIComponent(`change_type:${changeType}::date_range:1h${extra}`)}`)
      assert.equal(res.statusCode, 200, res.body)
      return (res.json() as { auditRecords: Row[] }).auditRecords
    }
    const find = async (changeType: string, objectType: string, object: string): Promise<Row> => {
      const row = (await records(changeType)).find(r => r.objectType === objectType && r.object === object)
      assert.ok(row !== undefined, `no ${changeType} record of ${objectType} ${object}`)
      return row
    }

    it('records zones, rrsets and pools added, changed and deleted, with who, from where and the comment', async () => {
      assert.equal((await alice.post('/zones', { properties: { name: 'example.org', accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'NEW' }, changeComment: 'new zone' })).statusCode, 201)
      const zone = await find('ADD', 'ZONE', 'example.org.')
      assert.deepEqual([zone.user, zone.ipAddress, zone.account, zone.changeComment], ['alice', '127.0.0.1', 'acme', 'new zone'])

      assert.equal((await alice.patch('/zones/example.org', { primaryCreateInfo: { notifyAddresses: [{ notifyAddress: '192.0.2.9' }] } })).statusCode, 200)
      assert.ok((await find('MODIFY', 'ZONE', 'example.org.')).detail.changes.length > 0)

      assert.equal((await alice.post('/zones/example.org/rrsets/A/www', { ttl: 300, rdata: ['192.0.2.1'] })).statusCode, 201)
      const add = await find('ADD', 'A', 'www.example.org.')
      assert.equal(add.parent, 'example.org.')
      assert.deepEqual(add.detail.changes, [{ name: 'rdata', from: null, to: ['192.0.2.1'] }, { name: 'ttl', from: null, to: 300 }])
      assert.equal((await alice.put('/zones/example.org/rrsets/A/www', { ttl: 300, rdata: ['192.0.2.2'] })).statusCode, 200)
      assert.deepEqual((await find('MODIFY', 'A', 'www.example.org.')).detail.changes, [{ name: 'rdata', from: ['192.0.2.1'], to: ['192.0.2.2'] }])
      assert.equal((await alice.delete('/zones/example.org/rrsets/A/www')).statusCode, 204)
      assert.deepEqual((await find('DELETE', 'A', 'www.example.org.')).detail.changes, [{ name: 'rdata', from: ['192.0.2.2'], to: null }, { name: 'ttl', from: 300, to: null }])

      assert.equal((await alice.post('/zones/example.org/rrsets/A/pool', { ttl: 300, rdata: ['192.0.2.5', '192.0.2.6'], profile: RD_POOL })).statusCode, 201)
      await find('ADD', 'RD_POOL', 'pool.example.org.')
      assert.equal((await alice.patch('/zones/example.org/rrsets/A/pool', { profile: { ...RD_POOL, order: 'FIXED' } })).statusCode, 200)
      await find('MODIFY', 'RD_POOL', 'pool.example.org.')
      assert.equal((await alice.delete('/zones/example.org/rrsets/A/pool')).statusCode, 204)
      await find('DELETE', 'RD_POOL', 'pool.example.org.')
      const pools = await alice.get(`${AUDIT}?filter=${encodeURIComponent('object_type:RD_POOL::date_range:1h')}`)
      assert.deepEqual((pools.json() as { auditRecords: Row[] }).auditRecords.map(r => r.changeType), ['DELETE', 'MODIFY', 'ADD'])

      assert.equal((await alice.newPrimary('gone.test', 'acme')).statusCode, 201)
      assert.equal((await alice.delete('/zones/gone.test', { changeComment: 'retired' })).statusCode, 204)
      assert.equal((await find('DELETE', 'ZONE', 'gone.test.')).changeComment, 'retired')
    })

    it('records suspension, conversion, unalias and export', async () => {
      assert.equal((await alice.newPrimary('susp.test', 'acme')).statusCode, 201)
      assert.equal((await alice.post('/zones/susp.test/suspend', { changeComment: 'abuse' })).statusCode, 200)
      assert.equal((await find('SUSPEND', 'ZONE', 'susp.test.')).changeComment, 'abuse')

      assert.equal((await alice.post('/zones', SECONDARY('sec.test'))).statusCode, 201)
      assert.equal((await alice.post('/zones/sec.test/convert')).statusCode, 201)
      assert.deepEqual((await find('CONVERT', 'ZONE', 'sec.test.')).detail.changes, [{ name: 'type', from: 'SECONDARY', to: 'PRIMARY' }])

      assert.equal((await alice.post('/zones', { properties: { name: 'alias.test', accountName: 'acme', type: 'ALIAS' }, aliasCreateInfo: { originalZoneName: 'example.org.' } })).statusCode, 201)
      assert.equal((await alice.post('/zones/alias.test/unalias')).statusCode, 200)
      await find('UNALIAS', 'ZONE', 'alias.test.')

      const res = await alice.post('/zones/export', { zoneNames: 'example.org' })
      assert.equal(res.statusCode, 202)
      const id = String(res.headers['x-task-id'])
      for (let i = 0; i < 500 && (await alice.get(`/tasks/${id}`)).json().code !== 'COMPLETE'; i++) await sleep(20)
      const exported = await find('EXPORT', 'ZONE', 'example.org.')
      assert.equal(exported.user, 'alice')
    })

    it('records logins, failed logins (with the reason) and user changes', async () => {
      const login = async (password: string): Promise<number> => (await t.app.inject({
        method: 'POST',
        url: '/authorization/token',
        payload: new URLSearchParams({ grant_type: 'password', username: 'alice', password }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        remoteAddress: '192.0.2.77'
      })).statusCode
      assert.equal(await login('wrong password!'), 400)
      assert.equal(await login(TEST_PASSWORD), 200)
      const failed = (await records('FAILED_LOGIN', '::users:alice'))[0]!
      assert.deepEqual([failed.objectType, failed.object, failed.ipAddress, failed.account], ['USER', 'alice', '192.0.2.77', 'acme'])
      assert.deepEqual(failed.detail.others, [{ name: 'reason', value: 'wrong password' }])
      assert.equal((await records('LOGIN', '::users:alice'))[0]!.ipAddress, '192.0.2.77')

      await t.admin.addUser('carol', 'carol password 1', { account: 'acme', group: 'ReadOnly' })
      assert.deepEqual((await find('ADD', 'USER', 'carol')).detail.changes, [{ name: 'group', from: null, to: 'ReadOnly' }])
      await t.admin.grant('carol', 'acme', 'DNSAdministrators')
      assert.deepEqual((await find('MODIFY', 'USER', 'carol')).detail.changes, [{ name: 'group', from: 'ReadOnly', to: 'DNSAdministrators' }])
      await t.admin.deleteUser('carol')
      const deleted = await find('DELETE', 'USER', 'carol')
      assert.deepEqual([deleted.account, deleted.user], ['acme', 'system'])
      const history = await alice.get(`${AUDIT}?filter=${encodeURIComponent('object_type:USER::object_name:carol::date_range:1h')}`)
      assert.deepEqual((history.json() as { auditRecords: Row[] }).auditRecords.map(r => r.changeType), ['DELETE', 'MODIFY', 'ADD'])
    })

    it('records zone transfers and their failures (objectType PRIMARY_NAMESERVER, with the reason)', async () => {
      assert.equal((await alice.post('/zones', SECONDARY('xfr.test'))).statusCode, 201)
      const zone = (await t.store.zones.findByName('xfr.test.', { accountIds: (await t.store.accounts.list()).map(a => a.id) }))!
      await recordTransferFailure(t.store, zone.id, '127.0.0.1:15353', 'Connection refused', new Date(), undefined)
      const failure = await find('ZONE_TRANSFER_FAILURE', 'PRIMARY_NAMESERVER', '127.0.0.1:15353')
      assert.equal(failure.parent, 'xfr.test.')
      assert.ok(failure.detail.others.some(o => o.name === 'reason' && o.value === 'Connection refused'), JSON.stringify(failure.detail))
      const { records: zoneRecords } = parseZoneText('$TTL 300\n@ SOA ns1 host 7 3600 600 86400 300\n@ NS ns1\nns1 A 192.0.2.1\n', { origin: parseName('xfr.test.'), includes: 'refuse' })
      await applyTransfer(t.store, zone.id, { kind: 'full', serial: 7, records: zoneRecords }, new Date(), undefined)
      const transfer = await find('ZONE_TRANSFER', 'ZONE', 'xfr.test.')
      assert.deepEqual(transfer.detail.changes, [{ name: 'serial', from: 0, to: 7 }])
      assert.equal(transfer.user, 'zonal')
    })

    it('writes the record in the change\'s transaction: no record, no change', async () => {
      const append = SqlAuditStore.prototype.append
      SqlAuditStore.prototype.append = async () => { throw new Error('audit store unavailable') }
      // An rrset change writes its audit record with the zone's other writes (one statement on
      // PostgreSQL): a record the database refuses (no user) fails the change there.
      const writeChange = SqlZoneStore.prototype.writeChange
      SqlZoneStore.prototype.writeChange = async function (id, change) {
        return await writeChange.call(this, id, { ...change, ...(change.audit === undefined ? {} : { audit: { ...change.audit, user: null as unknown as string } }) })
      }
      try {
        const res = await alice.newPrimary('unrecorded.test', 'acme')
        assert.equal(res.statusCode, 500)
        const rrset = await alice.post('/zones/example.org/rrsets/TXT/note', { rdata: ['"x"'] })
        assert.equal(rrset.statusCode, 500)
      } finally {
        SqlAuditStore.prototype.append = append
        SqlZoneStore.prototype.writeChange = writeChange
      }
      assert.equal((await alice.get('/zones/unrecorded.test')).statusCode, 404)
      assert.equal((await alice.get('/zones/example.org/rrsets/TXT/note')).statusCode, 404)
      assert.deepEqual((await records('ADD', '::object_name:unrecorded.test')).length, 0)
    })
  })
}
