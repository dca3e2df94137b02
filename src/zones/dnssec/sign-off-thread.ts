import type { DnssecKey, DnssecPolicy, Store, StoredRrset } from '../../store/store.ts'
import { exportPrivateKey, importZoneKey } from '../../zone/dnssec/keys.ts'
import { signZone } from '../../zone/dnssec/zone-signer.ts'
import { parseName } from '../../zone/name.ts'
import type { ZoneRecord } from '../../zone/record.ts'
import { offloaded } from '../../util/worker-pool.ts'
import { packRrsets, unpackRrsets, type PackableRrset } from '../packed-rrsets.ts'
import type { OpenKey } from './keyring.ts'
import { groupRrsets, rrsetKey, signingKeysOf, signingPolicyOf } from './signing.ts'
import { isDnssecType } from './types.ts'
import { yieldToLoop } from '../../util/yield.ts'

/** A key as it crosses to the signing thread: its row (role, state, DNSKEY fields) and its private key, PKCS#8 DER. */
export interface KeyForThread {
  row: DnssecKey
  pkcs8: Uint8Array
}

/** Rrsets read per statement while a zone's records are read for signing. */
const PAGE = 5000

/**
 * The records of a zone (its DNSSEC rrsets left out) packed for the signing thread, read a page
 * at a time (the event loop let run between pages).
 */
export async function packedZoneRecords (store: Store, zoneId: string): Promise<{ bytes: Uint8Array, rrsets: number }> {
  const rrsets: PackableRrset[] = []
  let after: { ownerKey: string, type: number } | undefined
  for (;;) {
    const page = await store.rrsets.listWire(zoneId, PAGE, after)
    for (const w of page) if (!isDnssecType(w.type)) rrsets.push(w)
    if (page.length < PAGE) break
    const last = page[page.length - 1]!
    after = { ownerKey: last.ownerKey, type: last.type }
    await yieldToLoop()
  }
  return { bytes: packRrsets(rrsets), rrsets: rrsets.length }
}

/**
 * Sign a whole zone (`signZone`) from its packed records ({@link packedZoneRecords}) with `keys`
 * under `policy` at `at` (seconds since the epoch): every DNSSEC rrset of the signed zone, grouped
 * as stored (record text included), packed (`packed-rrsets.ts`). The CPU-heavy part of signing a
 * large zone, made to run in a worker thread ({@link signPackedZoneOffThread}).
 *
 * @throws DnssecError as `signZone` (no SOA, a key the policy cannot use)
 */
export function signPackedZone (zoneName: string, records: Uint8Array, keys: readonly KeyForThread[], policy: DnssecPolicy, at: number): Uint8Array {
  const list: ZoneRecord[] = []
  for (const chunk of unpackRrsets(records, PAGE)) {
    for (const r of chunk) {
      const owner = parseName(r.ownerName)
      for (const rdata of r.rdata) list.push({ owner, type: r.type, ttl: r.ttl, rdata })
    }
  }
  const open = keys.map(({ row, pkcs8 }) => ({ row, key: importZoneKey({ role: row.role, algorithm: row.algorithm, flags: row.flags, bits: row.bits, publicKey: row.publicKey, privateKeyPkcs8: pkcs8 }) }))
  const signed = signZone(parseName(zoneName), list, signingKeysOf(open), signingPolicyOf(policy), at)
  return packRrsets(groupRrsets(signed).values())
}

/** {@link signPackedZone} in the shared worker pool: the API's event loop keeps answering while a large zone is signed. */
export const signPackedZoneOffThread = offloaded<typeof signPackedZone>(new URL(import.meta.url), 'signPackedZone')

/** A zone's DNSSEC rrsets signed from its records at `version` (by `rrsetKey`), for `bumpSerial`'s `signed`. */
export interface SignedZone {
  version: number
  rrsets: Map<string, StoredRrset>
}

/**
 * Sign a zone as it is now in a worker thread: its version read, then its records, then signed
 * there with `keys` under `policy` at `at` (seconds since the epoch). A change committed after
 * the version was read makes the result stale, which the writing transaction sees by the version.
 * `onRead` is told how many rrsets were read, before the signing starts.
 *
 * @returns undefined when the zone is gone.
 */
export async function signZoneOffThread (store: Store, zoneId: string, keys: readonly OpenKey[], policy: DnssecPolicy, at: number, onRead?: (rrsets: number) => Promise<void>): Promise<SignedZone | undefined> {
  const zone = await store.zones.findById(zoneId)
  if (zone === undefined) return undefined
  const records = await packedZoneRecords(store, zoneId)
  await onRead?.(records.rrsets)
  const packed = await signPackedZoneOffThread(zone.name, records.bytes, keys.map(k => ({ row: k.row, pkcs8: exportPrivateKey(k.key) })), policy, at)
  const rrsets = new Map<string, StoredRrset>()
  for (const chunk of unpackRrsets(packed, PAGE)) {
    for (const r of chunk) rrsets.set(rrsetKey(r.ownerKey, r.type), r)
    await yieldToLoop()
  }
  return { version: zone.version, rrsets }
}
