/**
 * Secondary zones refreshed from their primaries (both engines), with a transfer function that
 * stands in for the network: a new zone is transferred at once (AXFR), a requested refresh asks
 * for IXFR from the zone's serial, primaries are tried in order and every failed attempt leaves
 * its audit record, a zone past its SOA expire time is reported expired until a transfer succeeds,
 * suspended zones are left alone.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { SecretBox } from '../../src/auth/secrets.ts'
import { SecondaryRefresher, type PrimarySource, type TransferFn } from '../../src/serving/secondary-refresh.ts'
import type { Store } from '../../src/store/store.ts'
import { canonicalSortKey, nameToString, parseName } from '../../src/zone/name.ts'
import { requestedState, type TransferredZone } from '../../src/zones/secondary-transfer.ts'
import { transferStatusDto } from '../../src/api/routes/zones/dto.ts'
import type { PrimaryServer } from '../../src/zone/settings.ts'
import { parseZoneText } from '../../src/zonefile/parser.ts'
import { engineCases, freshStore } from '../helpers/engines.ts'

const silent = { info: () => {}, warn: () => {}, error: () => {} }

/** A zone whose SOA asks for a refresh every 600 s, a retry every second and expiry after 2 s. */
function zoneText (serial: number, extra = ''): string {
  return `$ORIGIN sec.test.\n$TTL 300\n@ IN SOA ns1 hostmaster ${serial} 600 1 2 300\n@ IN NS ns1\nns1 IN A 192.0.2.53\n${extra}`
}

async function eventually (check: () => Promise<boolean> | boolean, ms = 8000): Promise<void> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await check()) return
    await new Promise(resolve => setTimeout(resolve, 20))
  }
  assert.fail(`not true within ${ms} ms`)
}

for (const engine of await engineCases()) {
  describe(`${engine.name}: secondary zone refresh`, { skip: engine.skip }, () => {
    let store: Store
    let close: () => Promise<void>
    let zoneId: string
    let refresher: SecondaryRefresher
    const calls: { source: string, serial: number | undefined }[] = []
    const expiries: boolean[] = []
    /** What the fake primaries do next, by address label. */
    let behaviour: (source: PrimarySource, serial: number | undefined) => TransferredZone = () => { throw new Error('unset') }

    before(async () => {
      ({ store, close } = await freshStore(engine.name))
      const account = await store.accounts.create('acme')
      const primaries: PrimaryServer[] = [{ endpoint: { address: '127.0.0.1', port: 15301 } }, { endpoint: { address: '127.0.0.1', port: 15302 } }]
      zoneId = (await store.zones.create({ accountId: account.id, accountNameKey: 'acme', name: 'sec.test.', type: 'SECONDARY', settings: { primaries } })).id
      const transfer: TransferFn = async (zone, source, serial) => {
        assert.equal(nameToString(zone), 'sec.test.')
        calls.push({ source: source.label, serial })
        return behaviour(source, serial)
      }
      refresher = new SecondaryRefresher({ store, transfer, secrets: new SecretBox(undefined), logger: silent, onExpired: (_id, expired) => expiries.push(expired), maxRecords: 6 })
    })
    after(async () => {
      await refresher?.stop()
      await close?.()
    })

    const status = async (): Promise<Record<string, string>> => transferStatusDto((await store.zones.findById(zoneId))!.settings.transfer) as Record<string, string>

    it('transfers a zone it has no copy of at once, by AXFR from the first primary', async () => {
      behaviour = () => ({ kind: 'full', serial: 10, records: parseZoneText(zoneText(10, 'www IN A 192.0.2.80\n'), { origin: parseName('sec.test.'), includes: 'refuse' }).records })
      await refresher.start()
      await eventually(async () => (await status()).lastRefreshStatus === 'SUCCESSFUL')
      assert.deepEqual(calls, [{ source: '127.0.0.1:15301', serial: undefined }])
      assert.equal((await store.zones.findById(zoneId))!.serial, 10)
      assert.ok(await store.rrsets.get(zoneId, canonicalSortKey(parseName('www.sec.test.')), 1))
    })

    it('refuses a transfer bringing more records than a zone may hold: FAILED with the reason, the copy kept', async () => {
      calls.length = 0
      const more = 'www IN A 192.0.2.80\n' + Array.from({ length: 5 }, (_, i) => `h${i} IN A 192.0.2.${i + 1}\n`).join('')
      behaviour = () => ({ kind: 'full', serial: 11, records: parseZoneText(zoneText(11, more), { origin: parseName('sec.test.'), includes: 'refuse' }).records })
      refresher.request(zoneId)
      await eventually(() => calls.length === 2)
      await eventually(async () => (await status()).lastRefreshStatus === 'FAILED')
      assert.equal((await status()).lastRefreshStatusMessage, 'Invalid input: the zone would have 9 records, over the limit of 6 records per zone.')
      const zone = (await store.zones.findById(zoneId))!
      assert.equal(zone.serial, 10)
      assert.equal(zone.record_count, 4)
      const [audit] = await store.audit.recent(1, 'ZONE_TRANSFER_FAILURE')
      assert.deepEqual(JSON.parse(audit!.detail).others, [{ name: 'reason', value: 'Invalid input: the zone would have 9 records, over the limit of 6 records per zone.' }])
    })

    it('asks for IXFR from its serial when a refresh is requested (NOTIFY, transfer request)', async () => {
      calls.length = 0
      behaviour = (_source, serial) => ({ kind: 'current', serial: serial! })
      refresher.request(zoneId)
      await eventually(async () => (await status()).lastRefreshStatusMessage === 'Zone is up to date at serial 10')
      assert.deepEqual(calls, [{ source: '127.0.0.1:15301', serial: 10 }])
    })

    it('tries the primaries in order and records every failed attempt', async () => {
      calls.length = 0
      behaviour = (source, serial) => {
        if (source.port === 15301) throw new Error('Connection refused by 127.0.0.1:15301')
        return { kind: 'current', serial: serial! }
      }
      refresher.request(zoneId)
      await eventually(() => calls.length === 2)
      await eventually(async () => (await status()).lastRefreshStatus === 'SUCCESSFUL')
      assert.deepEqual(calls.map(c => c.source), ['127.0.0.1:15301', '127.0.0.1:15302'])
      const [audit] = await store.audit.recent(1, 'ZONE_TRANSFER_FAILURE')
      assert.equal(audit?.object, '127.0.0.1:15301')
      assert.equal(audit?.parent, 'sec.test.')
    })

    it('reports the zone expired when no refresh succeeds for its expire time, and back when one does', async () => {
      behaviour = (source) => { throw new Error(`Timed out waiting for ${source.label}`) }
      refresher.request(zoneId)
      // Retry every second; expire after 2 s without success.
      await eventually(() => refresher.expired(zoneId), 10_000)
      assert.deepEqual(expiries, [true])
      const s = await status()
      assert.equal(s.lastRefreshStatus, 'FAILED')
      assert.match(s.lastRefreshStatusMessage!, /^Timed out waiting for 127\.0\.0\.1:1530[12]$/)
      assert.match(s.lastRefresh!, /^\d\d\/\d\d\/\d\d \d\d:\d\d:\d\d [AP]M GMT$/)
      behaviour = (_source, serial) => ({ kind: 'current', serial: serial! })
      refresher.request(zoneId)
      await eventually(() => !refresher.expired(zoneId))
      assert.deepEqual(expiries, [true, false])
    })

    it('runs a transfer asked for through the store (POST …/transfer on any node)', async () => {
      calls.length = 0
      behaviour = (_source, serial) => ({ kind: 'current', serial: serial! })
      const row = (await store.zones.findById(zoneId))!
      await store.zones.update(zoneId, { settings: { transfer: requestedState(row.settings.transfer) } })
      await eventually(() => calls.length === 1)
      await eventually(async () => (await status()).lastRefreshStatus === 'SUCCESSFUL')
    })

    it('asks for the whole zone (AXFR) when a full transfer is asked for (unsuspend)', async () => {
      calls.length = 0
      behaviour = () => ({ kind: 'full', serial: 10, records: parseZoneText(zoneText(10, 'www IN A 192.0.2.80\n'), { origin: parseName('sec.test.'), includes: 'refuse' }).records })
      const row = (await store.zones.findById(zoneId))!
      await store.zones.update(zoneId, { settings: { transfer: requestedState(row.settings.transfer, true) } })
      await eventually(() => calls.length === 1)
      assert.deepEqual(calls, [{ source: '127.0.0.1:15301', serial: undefined }])
      await eventually(async () => (await status()).lastRefreshStatus === 'SUCCESSFUL')
    })

    it('stops refreshing a zone converted to primary (its data stays)', async () => {
      const count = (await store.zones.findById(zoneId))!.record_count
      await store.zones.update(zoneId, { zone_type: 'PRIMARY', settings: { primaries: [], transfer: null } })
      await refresher.follow(zoneId)
      calls.length = 0
      refresher.request(zoneId)
      await new Promise(resolve => setTimeout(resolve, 200))
      assert.deepEqual(calls, [])
      assert.equal((await store.zones.findById(zoneId))!.record_count, count)
      await store.zones.update(zoneId, { zone_type: 'SECONDARY', settings: { primaries: [{ endpoint: { address: '127.0.0.1', port: 15301 } }] } })
      await refresher.follow(zoneId)
      // A secondary again: refreshed at once (and settled before the next test).
      await eventually(async () => (await status()).lastRefreshStatus === 'SUCCESSFUL')
    })

    it('leaves a suspended zone alone', async () => {
      await store.zones.update(zoneId, { status: 'SUSPENDED' })
      await refresher.follow(zoneId)
      // A refresh that read the zone just before the suspension may still finish.
      await new Promise(resolve => setTimeout(resolve, 300))
      calls.length = 0
      refresher.request(zoneId)
      await new Promise(resolve => setTimeout(resolve, 200))
      assert.deepEqual(calls, [])
    })
  })
}

describe('sqlite: many secondary zones', () => {
  it('refreshes a thousand zones with one timer, at most the per-primary limit at once', async () => {
    const { store, close } = await freshStore('sqlite')
    let refresher: SecondaryRefresher | undefined
    try {
      const account = await store.accounts.create('acme')
      const primaries: PrimaryServer[] = [{ endpoint: { address: '127.0.0.1', port: 15301 } }]
      await store.transaction(async (tx) => {
        for (let i = 0; i < 1000; i++) await tx.zones.create({ accountId: account.id, accountNameKey: 'acme', name: `z${i}.many.test.`, type: 'SECONDARY', settings: { primaries } })
      })
      let running = 0
      let most = 0
      let done = 0
      const transfer: TransferFn = async (zone) => {
        running++
        most = Math.max(most, running)
        await new Promise(resolve => setTimeout(resolve, 1))
        running--
        done++
        const name = nameToString(zone)
        return { kind: 'full', serial: 1, records: parseZoneText(`$ORIGIN ${name}\n$TTL 300\n@ IN SOA ns1 hostmaster 1 600 60 3600 300\n@ IN NS ns1\nns1 IN A 192.0.2.53\n`, { origin: zone, includes: 'refuse' }).records }
      }
      refresher = new SecondaryRefresher({ store, transfer, secrets: new SecretBox(undefined), logger: silent, perPrimary: 4 })
      await refresher.start()
      await eventually(() => done === 1000, 60_000)
      assert.ok(most <= 4, `at most 4 transfers from one primary at once, saw ${most}`)
      assert.equal((await store.zones.findByName('z999.many.test.', { accountIds: [account.id] }))!.serial, 1)
    } finally {
      await refresher?.stop()
      await close()
    }
  })
})
