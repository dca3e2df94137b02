import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { SecretBox } from '../../../src/auth/secrets.ts'
import { openStore } from '../../../src/store/open-store.ts'
import { isoOfTransferTime } from '../../../src/store/migrations/0008-zone-settings.ts'
import type { ZoneSettings } from '../../../src/zone/settings.ts'
import { databaseAt, engineCases } from '../../helpers/engines.ts'

const secrets = new SecretBox('migration test key')
const SEALED = secrets.seal('c2VjcmV0')

/** Zone rows as version 0.x wrote them: settings JSON in the UltraDNS DTO spelling. */
const OLD = {
  primary: {
    restrict_ip_list: JSON.stringify([{ startIP: '192.0.2.0', endIP: '192.0.2.255', comment: 'lan' }, { startIP: '2001:db8::1', endIP: '2001:db8::1', comment: '' }]),
    tsig: JSON.stringify({ tsigKeyName: 'xfr.', tsigKeyValue: SEALED, tsigAlgorithm: 'hmac-sha256', description: 'for secondaries' }),
    notify_addresses: JSON.stringify([{ notifyAddress: '192.0.2.7', description: 'sec' }, { notifyAddress: '[2001:db8::7]:5353', description: '' }, { notifyAddress: '192.0.2.8:53', description: 'explicit port' }]),
    registrar_info: JSON.stringify({ registrar: 'Example Registrar', whoisExpiration: '2027-01-02 03:04:05', nameServers: { unknown: ['ns1.example.org.'] } })
  },
  secondary: {
    primary_name_servers: JSON.stringify({
      nameServerIp10: { ip: '192.0.2.10' },
      nameServerIp2: { ip: '127.0.0.1:15353', tsigKey: 'k2.', tsigKeyValue: SEALED, tsigAlgorithm: 'hmac-sha512' },
      nameServerIp1: { ip: '192.0.2.1', tsigKey: 'k1.', tsigKeyValue: 'c2VjcmV0' }
    }),
    transfer_status: JSON.stringify({ lastRefresh: '11/22/26 03:04:05 PM GMT', nextRefresh: '11/22/26 04:04:05 PM GMT', lastRefreshStatus: 'IN_PROGRESS', lastRefreshStatusMessage: 'Full zone transfer requested' })
  }
}

/** Transfer statuses of 0.x and the state each becomes. */
const STATUSES: [Record<string, string>, ZoneSettings['transfer']][] = [
  [{ lastRefreshStatus: 'IN_PROGRESS', lastRefreshStatusMessage: 'Zone transfer requested' }, { phase: { kind: 'requested', full: false } }],
  [{ lastRefreshStatus: 'IN_PROGRESS', lastRefreshStatusMessage: 'Zone transfer in progress' }, { phase: { kind: 'running' } }],
  [{ lastRefresh: '01/02/27 12:30:00 AM GMT', lastRefreshStatus: 'SUCCESSFUL', lastRefreshStatusMessage: 'Transferred serial 7' }, { phase: { kind: 'succeeded', serial: 7, changed: true }, lastRefresh: '2027-01-02T00:30:00.000Z' }],
  [{ lastRefreshStatus: 'SUCCESSFUL', lastRefreshStatusMessage: 'Zone is up to date at serial 8' }, { phase: { kind: 'succeeded', serial: 8, changed: false } }],
  [{ lastRefreshStatus: 'FAILED', lastRefreshStatusMessage: 'Connection refused' }, { phase: { kind: 'failed', reason: 'Connection refused' } }]
]

describe('migration 0008 transfer times', () => {
  it('reads MM/dd/yy hh:mm:ss AM/PM GMT as UTC', () => {
    assert.equal(isoOfTransferTime('11/22/26 03:04:05 PM GMT'), '2026-11-22T15:04:05.000Z')
    assert.equal(isoOfTransferTime('01/02/27 12:30:00 AM GMT'), '2027-01-02T00:30:00.000Z')
    assert.equal(isoOfTransferTime('01/02/27 12:00:09 PM GMT'), '2027-01-02T12:00:09.000Z')
    assert.equal(isoOfTransferTime('yesterday'), undefined)
  })
})

for (const engine of await engineCases()) {
  describe(`${engine.name}: migration 0008 (zone settings in the service's own types)`, { skip: engine.skip }, () => {
    it('converts zones and pool profiles stored in the UltraDNS spelling, and adds valimail_monitor', async () => {
      const { database, db, migrator, close } = await databaseAt(engine.name, '0006-audit-object')
      try {
        const now = new Date().toISOString()
        await db.insertInto('accounts').values({ id: 'a1', name: 'acme', name_key: 'acme', account_type: 'ORGANIZATION', created_at: now }).execute()
        // Every row names every column: SQLite has no DEFAULT in a multi-row insert.
        const none = { restrict_ip_list: null, tsig: null, notify_addresses: null, registrar_info: null, primary_name_servers: null, transfer_status: null, mail_monitor: 0 }
        const zone = (id: string, name: string, type: string, columns: Record<string, unknown>) =>
          ({ id, account_id: 'a1', name, zone_type: type, status: 'ACTIVE', dnssec_status: 'UNSIGNED', serial: 5, created_at: now, updated_at: now, account_name_key: 'acme', ...none, ...columns })
        await db.insertInto('zones').values([
          zone('p', 'example.org.', 'PRIMARY', { ...OLD.primary, mail_monitor: 1 }),
          zone('s', 'sec.test.', 'SECONDARY', OLD.secondary),
          zone('plain', 'plain.test.', 'PRIMARY', {}),
          ...STATUSES.map(([status], i) => zone(`t${i}`, `t${i}.test.`, 'SECONDARY', { transfer_status: JSON.stringify(status) }))
        ]).execute()
        const rrset = (owner: string, profile: string | null) =>
          ({ zone_id: 'p', owner_key: owner, owner_name: owner, rrtype: 1, ttl: 60, rdata_text: '["192.0.2.1"]', rdata_wire: Uint8Array.of(0, 4, 192, 0, 2, 1), profile, updated_at: now })
        await db.insertInto('rrsets').values([
          rrset('rd', JSON.stringify({ '@context': 'http://schemas.ultradns.com/RDPool.jsonschema', order: 'FIXED', description: 'web' })),
          rrset('sf', JSON.stringify({ '@context': 'http://schemas.ultradns.com/SFPool.jsonschema', regionFailureSensitivity: 'LOW', backupRecord: { rdata: '192.0.2.9', description: '' } })),
          rrset('odd', JSON.stringify({ '@context': 'http://example.com/Other.jsonschema' })),
          rrset('plain', null)
        ]).execute()
        assert.equal((await migrator.migrateToLatest()).error, undefined)
      } finally {
        await close()
      }

      const store = await openStore(database.url)
      try {
        const scope = { accountIds: ['a1'] }
        const primary = (await store.zones.findByName('example.org.', scope))!.settings
        assert.deepEqual(primary.restrictList, [{ first: '192.0.2.0', last: '192.0.2.255', comment: 'lan' }, { first: '2001:db8::1', last: '2001:db8::1', comment: '' }])
        assert.deepEqual({ ...primary.tsig, secret: undefined }, { name: 'xfr.', algorithm: 'hmac-sha256', secret: undefined, description: 'for secondaries' })
        assert.equal(secrets.open(primary.tsig!.secret), 'c2VjcmV0')
        assert.deepEqual(primary.notify, [
          { endpoint: { address: '192.0.2.7' }, description: 'sec' },
          { endpoint: { address: '2001:db8::7', port: 5353 }, description: '' },
          { endpoint: { address: '192.0.2.8', port: 53 }, description: 'explicit port' }
        ])
        assert.deepEqual(primary.registrar, { registrar: 'Example Registrar', whoisExpiration: '2027-01-02T03:04:05.000Z' })
        assert.deepEqual([primary.mailMonitor, primary.certEnabled, primary.valimailMonitor], [true, false, false])

        const secondary = (await store.zones.findByName('sec.test.', scope))!.settings
        assert.deepEqual(secondary.primaries.map(p => ({ ...p, key: p.key === undefined ? undefined : { ...p.key, secret: secrets.open(p.key.secret) } })), [
          { endpoint: { address: '192.0.2.1' }, key: { name: 'k1.', algorithm: 'hmac-md5', secret: 'c2VjcmV0' } },
          { endpoint: { address: '127.0.0.1', port: 15353 }, key: { name: 'k2.', algorithm: 'hmac-sha512', secret: 'c2VjcmV0' } },
          { endpoint: { address: '192.0.2.10' }, key: undefined }
        ])
        assert.deepEqual(secondary.transfer, { phase: { kind: 'requested', full: true }, lastRefresh: '2026-11-22T15:04:05.000Z', nextRefresh: '2026-11-22T16:04:05.000Z' })
        for (const [i, [, expected]] of STATUSES.entries()) {
          assert.deepEqual((await store.zones.findByName(`t${i}.test.`, scope))!.settings.transfer, expected, `status ${i}`)
        }

        const plain = (await store.zones.findByName('plain.test.', scope))!.settings
        assert.deepEqual([plain.restrictList, plain.tsig, plain.notify, plain.primaries, plain.transfer, plain.registrar], [[], null, [], [], null, null])

        const rrsets = await store.rrsets.list('p', 10)
        const byOwner = new Map(rrsets.map(r => [r.ownerKey, r]))
        assert.deepEqual(byOwner.get('rd')?.profile, { kind: 'RD_POOLS', order: 'FIXED', description: 'web' })
        assert.deepEqual(byOwner.get('sf')?.profile, { kind: 'SF_POOLS', regionFailureSensitivity: 'LOW', backupRecord: { rdata: '192.0.2.9', description: '' } })
        // A profile naming no pool type this service knows is dropped (with its kind), not kept half-read.
        assert.equal(byOwner.get('odd')?.profile, null)
        assert.equal(byOwner.get('plain')?.profile, null)
        const kinds = await store.rrsets.listPage({ zoneId: 'p', sort: 'OWNER', reverse: false, offset: 0, limit: 10, kinds: { records: false, pools: true } })
        assert.deepEqual(kinds.map(r => r.ownerKey), ['rd', 'sf'])
      } finally {
        await store.close()
        await database.drop()
      }
    })
  })
}
