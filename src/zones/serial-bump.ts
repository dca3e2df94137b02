import type { ZoneRow } from '../store/schema.ts'
import type { Store, StoredRrset, ZoneWithAccount } from '../store/store.ts'
import { canonicalSortKey, parseName } from '../zone/name.ts'
import { formatRdata } from '../zone/rdata/index.ts'
import { readSoa, soaSerialOffset } from '../zone/rdata/soa.ts'
import { nextSerial } from '../zone/serial.ts'

const SOA = 6

/** The zone's SOA rrset (at the apex), if it has one. */
export async function apexSoa (tx: Store, zone: Pick<ZoneRow, 'id' | 'name'>): Promise<StoredRrset | undefined> {
  return await tx.rrsets.get(zone.id, canonicalSortKey(parseName(zone.name)), SOA)
}

/** SOA wire rdata with its serial set to `serial` (a copy). */
export function withSoaSerial (rdata: Uint8Array, serial: number): Uint8Array {
  const out = Uint8Array.from(rdata)
  new DataView(out.buffer).setUint32(soaSerialOffset(out), serial >>> 0)
  return out
}

/**
 * The one place a change of zone data ends: inside the change's transaction `tx`, after its
 * rrsets were written, move the SOA serial on (RFC 1982 serial arithmetic: today's `YYYYMMDDnn`
 * when that is ahead, else the serial + 1, wrapping at 2^32; see {@link nextSerial}), write it into
 * the SOA rrset (wire and text) and `zones.serial`, add `recordDelta` to `zones.record_count`, and
 * bump the zone's version and modification time (`zones.update`). `zone` must be the row read
 * with `lockById` in the same transaction, so concurrent changes of one zone take serials one
 * after another. Secondary zones (no SOA of their own yet) move only `zones.serial`.
 *
 * This is where the zone change journal (IXFR, other nodes' catch-up) will be written.
 *
 * @returns the updated zone row.
 */
export async function bumpSerial (tx: Store, zone: ZoneWithAccount, now: Date, recordDelta: number): Promise<ZoneRow> {
  const soa = await apexSoa(tx, zone)
  const first = soa?.rdata[0]
  const current = first === undefined ? zone.serial : readSoa(first).serial
  const serial = nextSerial(current, now)
  if (soa !== undefined && first !== undefined) {
    const rdata = withSoaSerial(first, serial)
    await tx.rrsets.replace(zone.id, { ...soa, rdata: [rdata], rdataText: [formatRdata(SOA, rdata)] })
  }
  return await tx.zones.update(zone.id, { serial, record_count: Number(zone.record_count) + recordDelta })
}
