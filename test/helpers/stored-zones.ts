import type { Store, StoredRrset } from '../../src/store/store.ts'
import type { ZoneRow } from '../../src/store/schema.ts'
import type { Zone } from '../../src/store/store.ts'
import type { PoolProfile } from '../../src/zone/pools/profile.ts'
import { canonicalSortKey, nameToString, parseName, wireKey } from '../../src/zone/name.ts'
import { formatRdata } from '../../src/zone/rdata/index.ts'
import { parseZoneText } from '../../src/zonefile/parser.ts'

/** The rrsets of a zone text as the store keeps them (owner key, presentation owner, wire and text rdata). */
export function rrsetsOf (zoneName: string, text: string, profiles: Record<string, PoolProfile> = {}): StoredRrset[] {
  const { records, problems } = parseZoneText(text, { origin: parseName(zoneName), includes: 'refuse' })
  if (problems.length > 0) throw new Error(`bad test zone: ${problems.map(p => p.message).join('; ')}`)
  const sets = new Map<string, StoredRrset>()
  for (const r of records) {
    const key = `${wireKey(r.owner)}/${r.type}`
    let set = sets.get(key)
    if (set === undefined) {
      const ownerName = nameToString(r.owner)
      set = { ownerKey: canonicalSortKey(r.owner), ownerName, type: r.type, ttl: r.ttl, rdata: [], rdataText: [], profile: profiles[`${ownerName}/${r.type}`] ?? null }
      sets.set(key, set)
    }
    set.rdata.push(r.rdata)
    set.rdataText.push(formatRdata(r.type, r.rdata))
  }
  return [...sets.values()]
}

/**
 * Create a zone in an existing account straight through the store, with the records of `text`,
 * in one transaction as the API does: writing rrsets does not move the zone's version, so a zone
 * committed before its records would be served (here and by every node on the database) without
 * them until its next change.
 */
export async function storeZone (store: Store, accountName: string, zoneName: string, text: string, extra: { type?: ZoneRow['zone_type'], originalZoneId?: string, profiles?: Record<string, PoolProfile> } = {}): Promise<Zone> {
  const account = await store.accounts.findByName(accountName)
  if (account === undefined) throw new Error(`no account ${accountName}`)
  const rrsets = text === '' ? [] : rrsetsOf(zoneName, text, extra.profiles)
  return await store.transaction(async (tx) => {
    const zone = await tx.zones.create({
      accountId: account.id,
      accountNameKey: account.name_key,
      name: zoneName,
      type: extra.type ?? 'PRIMARY',
      originalZoneId: extra.originalZoneId
    })
    if (rrsets.length > 0) await tx.rrsets.insertMany(zone.id, rrsets)
    return zone
  })
}

/** A small valid zone: SOA, NS with glue, and a few records of common types. */
export function sampleZone (zoneName: string, extraRecords = 0): string {
  let text = `$ORIGIN ${zoneName}
$TTL 3600
@     IN SOA ns1 hostmaster 2026010101 3600 900 604800 300
@     IN NS  ns1
@     IN NS  ns2.example.net.
@     IN MX  10 mail
ns1   IN A   192.0.2.53
mail  IN A   192.0.2.25
www   IN A   192.0.2.80
www   IN A   192.0.2.81
www   IN AAAA 2001:db8::80
txt   IN TXT "v=spf1 -all" "second string"
ftp   IN CNAME www
_sip._tcp IN SRV 10 5 5060 sip
sip   IN A   192.0.2.60
`
  for (let i = 0; i < extraRecords; i++) text += `host${i} IN A 198.51.100.${i % 250}\n`
  return text
}
