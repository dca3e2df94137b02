/**
 * The analytics tables' retention and, on PostgreSQL, their monthly partitions: rows older than
 * a table's limit go, younger ones stay; whole months are dropped; upserts land in the current
 * month, a future month and the default partition alike; migration 0016 keeps the rows.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { sql, type Kysely } from 'kysely'
import { ANALYTICS_TABLES, firstDayKept } from '../../src/store/analytics-tables.ts'
import { monthOf, partitionByMonth, removeDaysBefore } from '../../src/store/partitions.ts'
import type { Store } from '../../src/store/store.ts'
import { databaseAt, engineCases, freshStore } from '../helpers/engines.ts'

describe('firstDayKept', () => {
  it('counts days back, and months back to the same day or the shorter month\'s last', () => {
    assert.equal(firstDayKept({ days: 90 }, new Date('2026-05-20T23:59:59Z')), '2026-02-19')
    assert.equal(firstDayKept({ months: 13 }, new Date('2026-05-20T00:00:00Z')), '2025-04-20')
    assert.equal(firstDayKept({ months: 13 }, new Date('2026-03-31T12:00:00Z')), '2025-02-28')
    assert.equal(firstDayKept({ months: 1 }, new Date('2024-03-30T12:00:00Z')), '2024-02-29')
    assert.equal(monthOf('2026-12-05', 1), '2027-01')
  })

  it('keeps query volume 13 months (its sums per month a month longer), usage days 37, failover events 4 and the rest 90 days', () => {
    assert.deepEqual(Object.fromEntries(ANALYTICS_TABLES.map(t => [t.name, t.keep])), {
      query_volume: { months: 13 },
      query_volume_months: { months: 14 },
      response_codes: { days: 90 },
      host_volume: { days: 90 },
      raw_queries: { days: 90 },
      client_responses: { days: 90 },
      usage_days: { months: 37 },
      probe_results: { days: 90 },
      failover_events: { months: 4 }
    })
  })
})

const NOW = new Date('2026-05-20T12:00:00Z')

for (const engine of await engineCases()) {
  describe(`${engine.name}: analytics retention`, { skip: engine.skip }, () => {
    let store: Store
    let close: () => Promise<void>
    let db: Kysely<any>
    before(async () => {
      ({ store, close } = await freshStore(engine.name))
      db = (store as any).engineImpl.db
    })
    after(async () => await close?.())

    /** The partitions of a table (PostgreSQL catalog). */
    async function partitions (table: string): Promise<string[]> {
      const r = await sql<{ name: string }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = to_regclass(${table}) order by 1`.execute(db)
      return r.rows.map(x => x.name)
    }

    async function days (table: string): Promise<string[]> {
      return (await db.selectFrom(table).select('day').orderBy('day').execute()).map((r: { day: string }) => r.day)
    }

    it('removes the rows older than each table\'s limit and keeps the younger ones', async () => {
      if (engine.name === 'postgres') {
        // Months of the rows below, as the daily step would have created them at the time.
        for (const at of ['2025-03-15', '2026-01-15', '2026-05-15']) await store.analyticsData.preparePartitions(new Date(`${at}T00:00:00Z`))
        assert.ok((await partitions('host_volume')).includes('host_volume_p202601'))
      }
      const volumeDays = ['2025-03-31', '2025-04-19', '2025-04-20', '2026-05-20']
      await store.queryCounts.add({
        volume: volumeDays.map(day => ({ day, zone: 'example.org.', node: 'n1', counts: { rsp_total: 1 } })),
        rcodes: ['2026-01-10', '2026-02-18', '2026-02-19', '2026-05-20'].map(day => ({ day, zone: 'example.org.', node: 'n1', counts: { noerror: 1 } }))
      })
      // 2025-12-31 has no partition of its own: the default partition holds it, and the far future.
      const hostDays = ['2025-12-31', '2026-01-10', '2026-02-18', '2026-02-19', '2026-05-20', '2030-01-01']
      await store.hostVolume.add(hostDays.map(day => ({ day, zone: 'example.org.', host: 'www.example.org.', node: 'n1', counts: { rsp_total: 1 } })))
      await store.clientResponses.add(['2026-02-18', '2026-02-19'].map(day => ({ day, zone: 'example.org.', clientIp: '192.0.2.1', node: 'n1', country: '', region: '', city: '', classC: '192.0.2.0', responses: 1 })))

      const pruned = await store.analyticsData.prune(NOW)
      assert.deepEqual(await days('query_volume'), ['2025-04-20', '2026-05-20'])
      // Month rows (day: the month's first) go once the month's last day could not be kept: March 2025 (its limit 2025-03-20).
      assert.deepEqual(await days('query_volume_months'), ['2025-04-01', '2026-05-01'])
      assert.deepEqual(await days('response_codes'), ['2026-02-19', '2026-05-20'])
      assert.deepEqual(await days('host_volume'), ['2026-02-19', '2026-05-20', '2030-01-01'])
      assert.deepEqual(await days('client_responses'), ['2026-02-19'])
      const by = Object.fromEntries(pruned.map(p => [p.table, p]))
      assert.deepEqual([by.query_volume!.firstKept, by.host_volume!.firstKept, by.response_codes!.firstKept], ['2025-04-20', '2026-02-19', '2026-02-19'])
      if (engine.name === 'postgres') {
        // Whole months before the limit are dropped; the month straddling it is deleted by day.
        assert.deepEqual(by.query_volume!.droppedPartitions, ['query_volume_p202503'])
        // (Every table got the same months from preparePartitions.)
        assert.deepEqual(by.host_volume!.droppedPartitions, ['host_volume_p202503', 'host_volume_p202504', 'host_volume_p202601'])
        assert.deepEqual(by.response_codes!.droppedPartitions, ['response_codes_p202503', 'response_codes_p202504', 'response_codes_p202601'])
        assert.deepEqual([by.query_volume!.deleted, by.host_volume!.deleted, by.response_codes!.deleted], [1, 2, 1])
        const hosts = await partitions('host_volume')
        assert.ok(!hosts.includes('host_volume_p202601'))
        assert.ok(hosts.includes('host_volume_p202602') && hosts.includes('host_volume_default'))
        assert.ok(!(await partitions('query_volume')).includes('query_volume_p202503'))
        assert.ok((await partitions('query_volume')).includes('query_volume_p202504'))
      } else {
        assert.deepEqual([by.query_volume!.deleted, by.host_volume!.deleted, by.response_codes!.deleted], [2, 3, 2])
      }
      // Nothing more to remove the second time.
      assert.deepEqual((await store.analyticsData.prune(NOW)).map(p => p.deleted + p.droppedPartitions.length), [0, 0, 0, 0, 0, 0, 0, 0, 0])
    })

    it('deletes in batches of the given size', async () => {
      await store.hostVolume.add(['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05'].map(day => ({ day, zone: 'example.net.', host: 'a.example.net.', node: 'n1', counts: { rsp_total: 1 } })))
      const r = await removeDaysBefore(db, engine.name, 'host_volume', '2026-03-05', 2)
      // And the row of 2026-02-19 left by the test above: on PostgreSQL its month goes whole.
      if (engine.name === 'postgres') assert.deepEqual(r, { deleted: 4, dropped: ['host_volume_p202602'] })
      else assert.deepEqual(r, { deleted: 5, dropped: [] })
      assert.deepEqual(await days('host_volume'), ['2026-03-05', '2026-05-20', '2030-01-01'])
    })

    it('adds to rows of the current month, the next month and the default partition', async () => {
      const today = new Date().toISOString().slice(0, 10)
      const next = `${monthOf(today, 1)}-15`
      await store.analyticsData.preparePartitions(new Date())
      const rows = [today, next, '2031-07-04'].map(day => ({ day, zone: 'example.com.', host: 'x.example.com.', node: 'n1', counts: { rsp_total: 2, nxdomain: 1 } }))
      await store.hostVolume.add(rows)
      await store.hostVolume.add(rows)
      const found = await db.selectFrom('host_volume').select(['day', 'rsp_total', 'nxdomain']).where('zone', '=', 'example.com.').orderBy('day').execute()
      assert.deepEqual(found.map((r: any) => [r.day, Number(r.rsp_total), Number(r.nxdomain)]), [[today, 4, 2], [next, 4, 2], ['2031-07-04', 4, 2]])
      if (engine.name === 'postgres') {
        const where = await sql<{ day: string, part: string }>`select day, tableoid::regclass::text as part from host_volume where zone = 'example.com.' order by day`.execute(db)
        assert.deepEqual(where.rows.map(r => r.part), [`host_volume_p${today.slice(0, 7).replace('-', '')}`, `host_volume_p${next.slice(0, 7).replace('-', '')}`, 'host_volume_default'])
        // A month created later takes its rows out of the default partition; upserts go on.
        assert.deepEqual(await store.analyticsData.preparePartitions(new Date('2031-07-01T00:00:00Z')), ['query_volume 2031-07', 'query_volume 2031-08', 'query_volume_months 2031-07', 'query_volume_months 2031-08', 'response_codes 2031-07', 'response_codes 2031-08', 'host_volume 2031-07', 'host_volume 2031-08', 'raw_queries 2031-07', 'raw_queries 2031-08', 'client_responses 2031-07', 'client_responses 2031-08', 'usage_days 2031-07', 'usage_days 2031-08', 'probe_results 2031-07', 'probe_results 2031-08', 'failover_events 2031-07', 'failover_events 2031-08'])
        await store.hostVolume.add([rows[2]!])
        const moved = await sql<{ part: string, rsp_total: string }>`select tableoid::regclass::text as part, rsp_total from host_volume where day = '2031-07-04'`.execute(db)
        assert.deepEqual(moved.rows.map(r => [r.part, Number(r.rsp_total)]), [['host_volume_p203107', 6]])
        // Asked again, nothing is created.
        assert.deepEqual(await store.analyticsData.preparePartitions(new Date('2031-07-01T00:00:00Z')), [])
      } else {
        assert.deepEqual(await store.analyticsData.preparePartitions(new Date()), [])
      }
    })
  })

  describe(`${engine.name}: migration 0016 (analytics tables partitioned by month)`, { skip: engine.skip }, () => {
    it('keeps the rows of the tables it partitions', async () => {
      const at = await databaseAt(engine.name, '0015-host-volume')
      try {
        await at.db.insertInto('query_volume').values([
          { day: '2025-10-03', zone: 'example.org.', node: 'n1', rsp_total: 5 },
          { day: '2026-11-20', zone: '', node: 'n1', rsp_total: 2 }
        ]).execute()
        await at.db.insertInto('host_volume').values({ day: '2026-09-30', zone: 'example.org.', host: 'www.example.org.', node: 'n1', rsp_total: 3, nxdomain: 1 }).execute()
        const result = await at.migrator.migrateToLatest()
        assert.equal(result.error, undefined)
        const volume = await at.db.selectFrom('query_volume').select(['day', 'zone', 'rsp_total']).orderBy('day').execute()
        assert.deepEqual(volume.map((r: any) => [r.day, r.zone, Number(r.rsp_total)]), [['2025-10-03', 'example.org.', 5], ['2026-11-20', '', 2]])
        const hosts = await at.db.selectFrom('host_volume').select(['day', 'host', 'nxdomain']).execute()
        assert.deepEqual(hosts.map((r: any) => [r.day, r.host, Number(r.nxdomain)]), [['2026-09-30', 'www.example.org.', 1]])
        // Migration 0018 summed the stored days per month.
        const months = await at.db.selectFrom('query_volume_months').select(['day', 'zone', 'first_day', 'last_day', 'rsp_total']).orderBy('day').execute()
        assert.deepEqual(months.map((r: any) => [r.day, r.zone, r.first_day, r.last_day, Number(r.rsp_total)]), [['2025-10-01', 'example.org.', '2025-10-03', '2025-10-03', 5], ['2026-11-01', '', '2026-11-20', '2026-11-20', 2]])
        if (engine.name === 'postgres') {
          const parts = await sql<{ name: string }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = to_regclass('query_volume') order by 1`.execute(at.db)
          const today = new Date().toISOString().slice(0, 10)
          const expected = new Set(['query_volume_default', 'query_volume_p202510', 'query_volume_p202611', `query_volume_p${monthOf(today).replace('-', '')}`, `query_volume_p${monthOf(today, 1).replace('-', '')}`])
          assert.deepEqual(parts.rows.map(r => r.name), [...expected].sort())
          const partitioned = await sql<{ name: string }>`select c.relname as name from pg_partitioned_table p join pg_class c on c.oid = p.partrelid where c.relnamespace = current_schema()::regnamespace order by 1`.execute(at.db)
          assert.deepEqual(partitioned.rows.map(r => r.name), ['client_responses', 'failover_events', 'host_volume', 'probe_results', 'query_volume', 'query_volume_months', 'raw_queries', 'response_codes', 'usage_days'])
          // Asked again, a partitioned table stays as it is.
          await partitionByMonth(at.db, engine.name, 'query_volume')
          const again = await sql<{ name: string }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = to_regclass('query_volume') order by 1`.execute(at.db)
          assert.deepEqual(again.rows, parts.rows)
          // Upserts still find the key.
          await sql`insert into query_volume (day, zone, node, rsp_total) values ('2025-10-03', 'example.org.', 'n1', 1) on conflict (day, zone, node) do update set rsp_total = query_volume.rsp_total + excluded.rsp_total`.execute(at.db)
          const r = await at.db.selectFrom('query_volume').select('rsp_total').where('day', '=', '2025-10-03').executeTakeFirstOrThrow()
          assert.equal(Number(r.rsp_total), 6)
        }
      } finally {
        await at.close()
        await at.database.drop()
      }
    })

    it('refuses a table whose primary key does not start with day (PostgreSQL), leaves SQLite tables alone', async () => {
      const at = await databaseAt(engine.name, '0015-host-volume')
      try {
        await sql`create table pbm_other (k text not null, day text not null, primary key (k, day))`.execute(at.db)
        if (engine.name === 'postgres') {
          await assert.rejects(partitionByMonth(at.db, engine.name, 'pbm_other'), /primary key does not start with day/)
        } else {
          await partitionByMonth(at.db, engine.name, 'pbm_other')
          await at.db.insertInto('pbm_other').values({ k: 'a', day: '2026-01-01' }).execute()
          assert.equal((await at.db.selectFrom('pbm_other').selectAll().execute()).length, 1)
        }
      } finally {
        await at.close()
        await at.database.drop()
      }
    })
  })
}
