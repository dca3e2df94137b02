import type { Store, Zone } from '../store/store.ts'
import { canonicalSortKey, nameToString, parseName } from '../zone/name.ts'
import { readSoa } from '../zone/rdata/soa.ts'
import { RRType } from '../zone/rrtype.ts'
import { observeNetwork, type GatherOptions } from './gather.ts'
import type { Observation } from './types.ts'

const lower = (wire: Uint8Array): string => nameToString(wire).toLowerCase()

/**
 * What the service itself holds of the zone, as the checks read it: the apex SOA, NS, MX,
 * CNAME and DNSKEY of its data (an alias zone's are its primary's, the data it serves). Names in lower case
 * with the trailing dot.
 */
export async function zoneData (store: Store, zone: Zone): Promise<Omit<Observation, 'network'>> {
  const dataZone = zone.zone_type === 'ALIAS' && zone.original_zone_id !== null ? await store.zones.findById(zone.original_zone_id) ?? zone : zone
  const apex = canonicalSortKey(parseName(dataZone.name))
  const [soa, ns, mx, cname, dnskey] = await store.rrsets.getMany(dataZone.id, [RRType.SOA, RRType.NS, RRType.MX, RRType.CNAME, RRType.DNSKEY].map(type => ({ ownerKey: apex, type })))
  const soaFields = soa?.rdata[0] === undefined ? undefined : readSoa(soa.rdata[0])
  return {
    zone: zone.name,
    dnssecStatus: zone.dnssec_status,
    soa: soaFields === undefined ? undefined : { ...soaFields, mname: lower(soaFields.mname), rname: lower(soaFields.rname) },
    ns: [...new Set((ns?.rdata ?? []).map(lower))],
    mx: (mx?.rdata ?? []).map(r => ({ preference: (r[0]! << 8) | r[1]!, exchange: lower(r.subarray(2)) })),
    apexCname: cname?.rdata[0] === undefined ? undefined : lower(cname.rdata[0]),
    dnskeys: dnskey?.rdata ?? []
  }
}

/**
 * Observe a zone for its health check: its own data from the store, then the network (through
 * the resolvers and its nameservers). With no resolver configured, `network` is undefined and
 * the checks that need it are NOT_APPLICABLE.
 */
export async function observeZone (store: Store, zone: Zone, opts: GatherOptions): Promise<Observation> {
  const data = await zoneData(store, zone)
  const network = opts.resolvers.length === 0 ? undefined : await observeNetwork(data.zone, data.ns, data.mx.map(m => m.exchange), opts)
  return { ...data, network }
}
