/**
 * A transfer's result becomes a secondary zone's data in one transaction (both engines): a full
 * copy replaces the rrsets, IXFR differences are applied and journalled, an up-to-date answer
 * only moves the status; a failure sets FAILED and writes the ZONE_TRANSFER_FAILURE audit record.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { SecretBox } from '../../src/auth/secrets.ts'
import type { Store } from '../../src/store/store.ts'
import { unsuspendZone } from '../../src/zones/actions.ts'
import { canonicalSortKey, parseName } from '../../src/zone/name.ts'
import type { ZoneRecord } from '../../src/zone/record.ts'
import { withSoaSerial } from '../../src/zones/serial-bump.ts'
import { applyTransfer, markTransferStarted, recordTransferFailure } from '../../src/zones/secondary-transfer.ts'
import { transferStatusDto, transferTime } from '../../src/api/routes/zones/dto.ts'
import { parseZoneText } from '../../src/zonefile/parser.ts'
import { engineCases, freshStore } from '../helpers/engines.ts'
import { storeZone } from '../helpers/stored-zones.ts'

const ORIGIN = parseName('sec.test.')
const ZONE = `$ORIGIN sec.test.
$TTL 3600
@    IN SOA ns1 hostmaster 7 3600 900 604800 300
@    IN NS  ns1
ns1  IN A   192.0.2.53
www  IN A   192.0.2.80
www  IN A   192.0.2.81
`
const records = (text: string): ZoneRecord[] => parseZoneText(text, { origin: ORIGIN, includes: 'refuse' }).records
const NOW = new Date('2026-11-22T15:04:05Z')
const NEXT = new Date('2026-11-22T16:04:05Z')

describe('transfer status times', () => {
  it('are written MM/dd/yy hh:mm:ss AM/PM GMT', () => {
    assert.equal(transferTime(NOW.toISOString()), '11/22/26 03:04:05 PM GMT')
    assert.equal(transferTime('2027-01-02T00:30:00.000Z'), '01/02/27 12:30:00 AM GMT')
    assert.equal(transferTime('2027-01-02T12:00:09.000Z'), '01/02/27 12:00:09 PM GMT')
  })
})

for (const engine of await engineCases()) {
  describe(`${engine.name}: applying zone transfers to a secondary zone`, { skip: engine.skip }, () => {
    let store: Store
    let close: () => Promise<void>
    let zoneId: string
    before(async () => {
      ({ store, close } = await freshStore(engine.name))
      await store.accounts.create('acme')
      zoneId = (await storeZone(store, 'acme', 'sec.test.', '', { type: 'SECONDARY' })).id
    })
    after(async () => await close?.())

    const status = async (): Promise<Record<string, string>> => transferStatusDto((await store.zones.findById(zoneId))!.settings.transfer) as Record<string, string>

    it('takes a full copy: every rrset, the serial, the record count, a journal reset, SUCCESSFUL', async () => {
      await markTransferStarted(store, zoneId)
      assert.equal((await status()).lastRefreshStatus, 'IN_PROGRESS')
      const updated = await applyTransfer(store, zoneId, { kind: 'full', serial: 7, records: records(ZONE) }, NOW, NEXT)
      assert.equal(updated.serial, 7)
      assert.equal(updated.record_count, 5)
      const www = await store.rrsets.get(zoneId, canonicalSortKey(parseName('www.sec.test.')), 1)
      assert.deepEqual(www?.rdataText, ['192.0.2.80', '192.0.2.81'])
      assert.deepEqual(await status(), { lastRefresh: '11/22/26 03:04:05 PM GMT', nextRefresh: '11/22/26 04:04:05 PM GMT', lastRefreshStatus: 'SUCCESSFUL', lastRefreshStatusMessage: 'Transferred serial 7' })
      const [last] = await store.zoneChanges.latest(zoneId, 1)
      assert.equal(last?.reset, true)
    })

    it('applies IXFR differences and journals each step', async () => {
      const soa = records(ZONE).find(r => r.type === 6)!
      const soaAt = (serial: number): ZoneRecord => ({ ...soa, rdata: withSoaSerial(soa.rdata, serial) })
      const step = { serialFrom: 7, serialTo: 8, removed: [soaAt(7), ...records('www 3600 IN A 192.0.2.80\n')], added: [soaAt(8), ...records('mail 300 IN A 192.0.2.25\n')] }
      const updated = await applyTransfer(store, zoneId, { kind: 'incremental', serial: 8, steps: [step] }, NOW, NEXT)
      assert.equal(updated.serial, 8)
      assert.equal(updated.record_count, 5)
      assert.deepEqual((await store.rrsets.get(zoneId, canonicalSortKey(parseName('www.sec.test.')), 1))?.rdataText, ['192.0.2.81'])
      assert.deepEqual((await store.rrsets.get(zoneId, canonicalSortKey(parseName('mail.sec.test.')), 1))?.rdataText, ['192.0.2.25'])
      assert.match((await store.rrsets.get(zoneId, canonicalSortKey(ORIGIN), 6))!.rdataText[0]!, / 8 3600 /)
      const [last] = await store.zoneChanges.latest(zoneId, 1)
      assert.ok(last !== undefined && !last.reset)
      assert.equal(last.serialFrom, 7)
      assert.equal(last.serialTo, 8)
      assert.equal(last.added.length, 2)
    })

    it('refuses a transfer that would take the zone over its record limit, changing nothing', async () => {
      const soa = records(ZONE).find(r => r.type === 6)!
      const soaAt = (serial: number): ZoneRecord => ({ ...soa, rdata: withSoaSerial(soa.rdata, serial) })
      const version = (await store.zones.findById(zoneId))!.version
      const full = { kind: 'full' as const, serial: 9, records: [...records(ZONE).map(r => r.type === 6 ? soaAt(9) : r), ...records('extra 300 IN A 192.0.2.9\n')] }
      const over = { code: 'ZONE_TOO_MANY_RECORDS', message: 'Invalid input: the zone would have 6 records, over the limit of 5 records per zone.' }
      await assert.rejects(applyTransfer(store, zoneId, full, NOW, NEXT, 5), over)
      const step = { serialFrom: 8, serialTo: 9, removed: [soaAt(8)], added: [soaAt(9), ...records('extra 300 IN A 192.0.2.9\n')] }
      await assert.rejects(applyTransfer(store, zoneId, { kind: 'incremental', serial: 9, steps: [step] }, NOW, NEXT, 5), over)
      const zone = (await store.zones.findById(zoneId))!
      assert.equal(zone.serial, 8)
      assert.equal(zone.record_count, 5)
      assert.equal(zone.version, version)
      assert.equal(await store.rrsets.get(zoneId, canonicalSortKey(parseName('extra.sec.test.')), 1), undefined)
      assert.equal((await applyTransfer(store, zoneId, full, NOW, NEXT, 6)).record_count, 6)
      await applyTransfer(store, zoneId, { kind: 'full', serial: 8, records: records(ZONE).map(r => r.type === 6 ? soaAt(8) : r) }, NOW, NEXT)
    })

    it('moves only the status when the zone is up to date', async () => {
      const version = (await store.zones.findById(zoneId))!.version
      await applyTransfer(store, zoneId, { kind: 'current', serial: 8 }, NOW, NEXT)
      assert.equal((await status()).lastRefreshStatusMessage, 'Zone is up to date at serial 8')
      assert.equal((await store.zones.findById(zoneId))!.serial, 8)
      assert.deepEqual((await store.zoneChanges.since(zoneId, version, 10)), [])
    })

    it('asks for a full transfer when a suspended secondary comes back (unsuspend)', async () => {
      await store.zones.update(zoneId, { status: 'SUSPENDED' })
      const deps = { store, nameservers: [], secrets: new SecretBox(undefined), clock: () => NOW }
      await unsuspendZone(deps, { user: 'support', ipAddress: null }, 'sec.test.')
      const s = await status()
      assert.equal(s.lastRefreshStatus, 'IN_PROGRESS')
      assert.equal(s.lastRefreshStatusMessage, 'Full zone transfer requested')
      assert.equal((await store.zones.findById(zoneId))!.status, 'ACTIVE')
    })

    it('records a failure: FAILED with the reason, and the audit record of the failure report', async () => {
      await recordTransferFailure(store, zoneId, '127.0.0.1:15353', 'Connection refused by 127.0.0.1:15353', NOW, NEXT)
      assert.deepEqual(await status(), { lastRefresh: '11/22/26 03:04:05 PM GMT', nextRefresh: '11/22/26 04:04:05 PM GMT', lastRefreshStatus: 'FAILED', lastRefreshStatusMessage: 'Connection refused by 127.0.0.1:15353' })
      const [audit] = await store.audit.recent(1, 'ZONE_TRANSFER_FAILURE')
      assert.equal(audit?.object_type, 'PRIMARY_NAMESERVER')
      assert.equal(audit?.object, '127.0.0.1:15353')
      assert.equal(audit?.parent, 'sec.test.')
      assert.deepEqual(JSON.parse(audit.detail).others, [{ name: 'reason', value: 'Connection refused by 127.0.0.1:15353' }])
      // The data stays as it was.
      assert.equal((await store.zones.findById(zoneId))!.serial, 8)
    })

    it('keeps TXT text whole from a full copy and from IXFR steps: the strings joined, spaces and ";" kept', async () => {
      const txt = (owner: string): Promise<string[] | undefined> => store.rrsets.get(zoneId, canonicalSortKey(parseName(`${owner}.sec.test.`)), 16).then(r => r?.rdataText)
      await applyTransfer(store, zoneId, { kind: 'full', serial: 20, records: records(ZONE.replace(' 7 ', ' 20 ') + 'txt IN TXT "a b" "c;d"\nspf IN SPF "v=spf1 -all"\n') }, NOW, NEXT)
      assert.deepEqual(await txt('txt'), ['a bc;d'])
      assert.deepEqual((await store.rrsets.get(zoneId, canonicalSortKey(parseName('spf.sec.test.')), 99))?.rdataText, ['v=spf1 -all'])
      const soa = records(ZONE).find(r => r.type === 6)!
      const soaAt = (serial: number): ZoneRecord => ({ ...soa, rdata: withSoaSerial(soa.rdata, serial) })
      const step = { serialFrom: 20, serialTo: 21, removed: [soaAt(20)], added: [soaAt(21), ...records('dmarc 300 IN TXT "v=DMARC1; p=reject; " "rua=mailto:d@example.org"\n')] }
      await applyTransfer(store, zoneId, { kind: 'incremental', serial: 21, steps: [step] }, NOW, NEXT)
      assert.deepEqual(await txt('dmarc'), ['v=DMARC1; p=reject; rua=mailto:d@example.org'])
    })
  })
}
