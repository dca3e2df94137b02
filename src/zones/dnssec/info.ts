import type { DnssecKey, ZoneDnssec, ZoneWithAccount } from '../../store/store.ts'
import { dsRdata } from '../../zone/dnssec/keys.ts'
import { parseName } from '../../zone/name.ts'
import { zoneFor, type Caller, type ZoneDeps } from '../context.ts'
import { dnskeyOf } from './keyring.ts'

/** The digest types of the DS records shown for a KSK: SHA-1, SHA-256, SHA-384 (RFC 4034, 4509, 6605). */
export const DS_DIGEST_TYPES = [1, 2, 4] as const

/** What `GET /zones/{zone}/dnssec` shows: the zone, its DNSSEC row and its keys in the zone (none when unsigned). */
export interface DnssecInfo {
  zone: ZoneWithAccount
  state: ZoneDnssec | undefined
  keys: DnssecKey[]
}

/**
 * The DNSSEC state of a zone the caller may read. A signed alias shows its primary's policy and
 * keys (it is signed with them, under its own name: the DS records shown are computed with the
 * alias's name).
 * @throws ZonalError ZONE_NOT_FOUND (1801), PERMISSION_DENIED
 */
export async function dnssecInfo (deps: ZoneDeps, caller: Caller, name: string): Promise<DnssecInfo> {
  const zone = await zoneFor(deps, caller, name, 'read')
  if (zone.dnssec_status !== 'SIGNED') return { zone, state: undefined, keys: [] }
  const signer = zone.zone_type === 'ALIAS' && zone.original_zone_id !== null ? zone.original_zone_id : zone.id
  const [state, keys] = await Promise.all([deps.store.dnssec.find(signer), deps.store.dnssec.keys(signer)])
  return { zone, state, keys }
}

/** The DS records of a KSK in presentation form, "tag algorithm digestType HEX", for each of {@link DS_DIGEST_TYPES}. */
export function dsRecordsOf (zoneName: string, key: Pick<DnssecKey, 'flags' | 'algorithm' | 'publicKey' | 'keyTag'>): string[] {
  const owner = parseName(zoneName)
  const dnskey = dnskeyOf(key)
  return DS_DIGEST_TYPES.map(d => `${key.keyTag} ${key.algorithm} ${d} ${Buffer.from(dsRdata(owner, dnskey, d).subarray(4)).toString('hex').toUpperCase()}`)
}
