/**
 * The store's usage accounting (`store.usage`, migration 0021) on both engines: a day's peak
 * holds the value the day began with when no snapshot ran; days without a change carry the last
 * values; two stores on one database (two nodes) writing zones of one account at once add up;
 * a zone's queries count for the account that had it that day, also after its deletion; the
 * migration fills the tables from the zones already stored.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { openStore } from '../../src/store/open-store.ts'
import type { Store } from '../../src/store/store.ts'
import { UserAdmin } from '../../src/auth/user-admin.ts'
import { databaseAt, engineCases, freshStore } from '../helpers/engines.ts'
import { storeZone } from '../helpers/stored-zones.ts'

const SOA = (zone: string): string => `$ORIGIN ${zone}\n@ 3600 IN SOA ns1 hostmaster 1 3600 900 604800 300\n@ 3600 IN NS ns1.example.net.\n`

for (const engine of await engineCases()) {
  describe(`${engine.name}: usage store`, { skip: engine.skip }, () => {
    let store: Store
    let url: string
    let close: () => Promise<void>
    let now = new Date('2027-03-01T10:00:00.000Z')

    before(async () => {
      ({ store, url, close } = await freshStore(engine.name))
      store.usage.useClock(() => now)
      const admin = new UserAdmin(store)
      for (const name of ['acme', 'busy']) await admin.addAccount(name)
    })
    after(async () => { await close?.() })

    const accountId = async (name: string): Promise<string> => (await store.accounts.findByName(name))!.id

    it('a day\'s peak holds the value it began with, with no snapshot taken; days without changes carry the last values', async () => {
      const acme = await accountId('acme')
      const a = await storeZone(store, 'acme', 'a.example.', SOA('a.example.'))
      await storeZone(store, 'acme', 'b.example.', SOA('b.example.'))
      now = new Date('2027-03-03T08:00:00.000Z')
      await store.zones.deleteById(a.id)
      const days = await store.usage.days([acme], '2027-02-28', '2027-03-04')
      assert.deepEqual(days.map(d => [d.day, d.peaks.domains]), [
        ['2027-02-28', 0], ['2027-03-01', 2], ['2027-03-02', 2], ['2027-03-03', 2], ['2027-03-04', 1]
      ])
    })

    it('two stores on one database (two nodes) adding zones of one account at once: every zone counted', async () => {
      // SQLite: one store (better-sqlite3 waits for another connection's lock synchronously, so two
      // stores in one process cannot interleave transactions); PostgreSQL: a second pool, as a node.
      const other = engine.name === 'postgres' ? await openStore(url) : store
      other.usage.useClock(() => now)
      try {
        const busy = await accountId('busy')
        const zones = await Promise.all([
          ...Array.from({ length: 8 }, async (_, i) => await storeZone(store, 'busy', `n1-${i}.example.`, SOA(`n1-${i}.example.`))),
          ...Array.from({ length: 8 }, async (_, i) => await storeZone(other, 'busy', `n2-${i}.example.`, SOA(`n2-${i}.example.`)))
        ])
        const [day] = await store.usage.days([busy], '2027-03-03', '2027-03-03')
        assert.equal(day!.peaks.domains, 16)
        await Promise.all(zones.slice(3, 13).map(async ({ id }, i) => { await (i % 2 === 0 ? store : other).zones.deleteById(id) }))
        now = new Date('2027-03-04T00:30:00.000Z')
        await store.usage.closeDays(now)
        const [next] = await store.usage.days([busy], '2027-03-04', '2027-03-04')
        assert.equal(next!.peaks.domains, 6)
      } finally {
        if (other !== store) await other.close()
      }
    })

    it('queries count for the account that had the zone that day, also once it is deleted; closed days keep them', async () => {
      now = new Date('2027-03-10T12:00:00.000Z')
      const acme = await accountId('acme')
      const busy = await accountId('busy')
      const z = await storeZone(store, 'acme', 'moved.example.', SOA('moved.example.'))
      await store.queryCounts.add({ volume: [{ day: '2027-03-10', zone: 'moved.example.', node: 'n1', counts: { rsp_total: 6 } }], rcodes: [] })
      await store.zones.deleteById(z.id)
      now = new Date('2027-03-11T12:00:00.000Z')
      await storeZone(store, 'busy', 'moved.example.', SOA('moved.example.'))
      await store.queryCounts.add({ volume: [{ day: '2027-03-11', zone: 'moved.example.', node: 'n1', counts: { rsp_total: 4 } }], rcodes: [] })
      const live = async (id: string): Promise<number[]> => (await store.usage.days([id], '2027-03-10', '2027-03-11')).map(d => d.queryResponses)
      assert.deepEqual(await live(acme), [6, 0])
      assert.deepEqual(await live(busy), [0, 4])
      now = new Date('2027-03-12T00:10:00.000Z')
      assert.deepEqual(await store.usage.closeDays(now), ['2027-03-10', '2027-03-11'])
      assert.deepEqual(await live(acme), [6, 0])
      assert.deepEqual(await live(busy), [0, 4])
    })
    it('today\'s row comes from the account\'s totals, also after every older row is past its retention', async () => {
      const acme = await accountId('acme')
      now = new Date('2031-06-15T00:05:00.000Z')
      await store.analyticsData.prune(now)
      assert.deepEqual((await store.usage.days([acme], '2031-06-15', '2031-06-15')).map(d => d.peaks.domains), [0])
      await store.usage.closeDays(now)
      assert.deepEqual((await store.usage.days([acme], '2031-06-15', '2031-06-16')).map(d => d.peaks.domains), [1, 1])
    })
  })

  describe(`${engine.name}: migration 0021-usage`, { skip: engine.skip }, () => {
    it('fills the usage tables from the zones stored (today\'s row holds their counts) and the days of the query volume stored', async () => {
      const { db, migrator, close } = await databaseAt(engine.name, '0018-query-volume-months')
      try {
        const created = '2026-01-01T00:00:00.000Z'
        await db.insertInto('accounts').values({ id: 'acc1', name: 'acme', name_key: 'acme', account_type: 'ORGANIZATION', created_at: created }).execute()
        for (const [id, name, count] of [['z1', 'a.example.', 5], ['z2', 'b.example.', 7]] as const) {
          const zone = { id, account_id: 'acc1', name, zone_type: 'PRIMARY', status: 'ACTIVE', dnssec_status: 'UNSIGNED', owner: '', serial: 1, version: 1, record_count: count }
          const flags = { mail_monitor: 0, cert_enabled: 0, valimail_monitor: 0, network2: 0, account_name_key: 'acme', created_at: created, updated_at: created }
          await db.insertInto('zones').values({ ...zone, ...flags }).execute()
        }
        const rrset = (owner: string, kind: string | null, rdata: string[]): Record<string, unknown> => ({
          zone_id: 'z1', owner_key: owner, owner_name: owner, rrtype: 1, ttl: 60, rdata_text: JSON.stringify(rdata), rdata_wire: new Uint8Array(0), profile: kind === null ? null : '{}', kind, value_key: '', updated_at: created
        })
        await db.insertInto('rrsets').values([
          rrset('sb', 'SB_POOLS', ['192.0.2.1', '192.0.2.2']),
          rrset('sf', 'SF_POOLS', ['192.0.2.3']),
          rrset('tc', 'TC_POOLS', ['192.0.2.4']),
          rrset('dir', 'DIR_POOLS', ['192.0.2.5', '192.0.2.6', '192.0.2.7']),
          rrset('rd', 'RD_POOLS', ['192.0.2.8']),
          rrset('www', null, ['192.0.2.9'])
        ] as never).execute()
        await db.insertInto('query_volume').values([
          { day: '2026-02-10', zone: 'a.example.', node: 'n1', rsp_total: 5 },
          { day: '2026-02-10', zone: 'b.example.', node: 'n2', rsp_total: 2 },
          { day: '2026-02-11', zone: 'a.example.', node: 'n1', rsp_total: 3 },
          { day: '2026-02-11', zone: '', node: 'n1', rsp_total: 100 },
          { day: '2026-02-11', zone: 'gone.example.', node: 'n1', rsp_total: 100 }
        ]).execute()
        const result = await migrator.migrateTo('0021-usage')
        assert.equal(result.error, undefined)
        const today = new Date().toISOString().slice(0, 10)
        const rows = await db.selectFrom('usage_days').selectAll().orderBy('day').execute()
        // The days of the query volume stored, closed with their responses; today's row with the counts.
        assert.deepEqual(rows.map(r => [r.day, Number(r.query_responses), Number(r.closed), Number(r.domains)]), [
          ['2026-02-10', 7, 1, 0], ['2026-02-11', 3, 1, 0], [today, 0, 0, 2]
        ])
        const row = rows[2]!
        assert.equal(row.day, today)
        assert.deepEqual([row.domains, row.records, row.failover_records, row.tc_records, row.dir_records, row.last_domains, row.last_records].map(Number), [2, 12, 3, 1, 3, 2, 12])
      } finally {
        await close()
      }
    })
  })
}
