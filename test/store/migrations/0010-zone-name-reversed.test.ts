import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { openStore } from '../../../src/store/open-store.ts'
import { reversedName } from '../../../src/store/sql/codec.ts'
import { databaseAt, engineCases } from '../../helpers/engines.ts'

const NAMES = ['example.org.', 'sub.example.org.', 'a\\.b.example.org.', 'xn--caf-dma.test.', '\\195\\169.test.', 'other.test.']

for (const engine of await engineCases()) {
  describe(`${engine.name}: migration 0010 (zone names reversed)`, { skip: engine.skip }, () => {
    it('fills name_reversed for existing zones as new zones get it, and zones below a name are found by it', async () => {
      const { database, db, migrator, close } = await databaseAt(engine.name, '0009-zone-snapshots')
      try {
        const now = new Date().toISOString()
        await db.insertInto('accounts').values({ id: 'a1', name: 'acme', name_key: 'acme', account_type: 'ORGANIZATION', created_at: now }).execute()
        await db.insertInto('zones').values(NAMES.map((name, i) => ({ id: `z${i}`, account_id: 'a1', name, zone_type: 'PRIMARY', status: 'ACTIVE', dnssec_status: 'UNSIGNED', created_at: now, updated_at: now, account_name_key: 'acme' }))).execute()
        assert.equal((await migrator.migrateToLatest()).error, undefined)
        const rows = await db.selectFrom('zones').select(['name', 'name_reversed']).execute() as Array<{ name: string, name_reversed: string }>
        for (const row of rows) assert.equal(row.name_reversed, reversedName(row.name), row.name)
        assert.equal(rows.length, NAMES.length)
      } finally {
        await close()
      }

      const store = await openStore(database.url)
      try {
        const bigco = await store.accounts.create('bigco')
        await store.zones.create({ accountId: bigco.id, accountNameKey: 'bigco', name: 'deep.sub.example.org.', type: 'PRIMARY' })
        const around = async (name: string, ancestors: string[], accountId: string) =>
          (await store.transaction(async (tx) => await tx.zones.othersAround(name, ancestors, accountId, 10))).map(z => z.name).sort()
        // Below example.org.: the migrated zones of acme and the new one of bigco; not other.test.
        assert.deepEqual(await around('example.org.', ['org.'], 'none'), ['a\\.b.example.org.', 'deep.sub.example.org.', 'sub.example.org.'])
        assert.deepEqual(await around('example.org.', ['org.'], 'a1'), ['deep.sub.example.org.'])
        assert.deepEqual(await around('x.sub.example.org.', ['sub.example.org.', 'example.org.', 'org.'], bigco.id), ['example.org.', 'sub.example.org.'])
        assert.deepEqual(await around('test.', [], 'none'), ['\\195\\169.test.', 'other.test.', 'xn--caf-dma.test.'])
      } finally {
        await store.close()
      }
    })
  })
}
