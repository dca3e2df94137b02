import { isIP } from 'node:net'
import type { Change } from '../audit/recorder.ts'
import type { RrsetWrite, Store, StoredRrset, ZoneWithAccount } from '../store/store.ts'
import { parseName } from '../zone/name.ts'
import { RRType } from '../zone/rrtype.ts'
import { rdataFrom } from './rrset-input.ts'
import type { RrsetChange } from './serial-bump.ts'

/** TTL of the A and AAAA records a web forward writes: short, so a forward removed stops being answered soon. */
export const FORWARD_RECORD_TTL = 300

/** What a forward change does to its hosts' address records. */
export interface HostRecords {
  changes: RrsetChange[]
  writes: RrsetWrite[]
  /** Records added less records removed. */
  delta: number
  /** The changed rrsets for the audit record (`A www.example.org.`: from, to). */
  audit: Change[]
}

function sameRrset (a: StoredRrset | undefined, b: StoredRrset | undefined): boolean {
  if (a === undefined || b === undefined) return a === b
  return a.ttl === b.ttl && a.profile === null && b.profile === null && JSON.stringify(a.rdataText) === JSON.stringify(b.rdataText)
}

/**
 * Bring the A and AAAA records of each host of `forwards` (deduplicated) in line with the
 * forward rows as they stand in the transaction `tx`: a host some forward still names answers
 * `addresses` (its IPv4 ones as A, its IPv6 ones as AAAA, TTL {@link FORWARD_RECORD_TTL}); a
 * host none names any more loses them, so it answers as it did before its first forward. Only
 * hosts whose forwards changed are looked at; their A/AAAA records are the forwards' (a host
 * with records of its own is refused before its first forward, and the rrsets API refuses to
 * touch a forwarded host's A, AAAA and CNAME).
 */
export async function hostRecordChanges (tx: Store, zone: ZoneWithAccount, forwards: ReadonlyArray<{ host: string, ownerKey: string }>, addresses: readonly string[]): Promise<HostRecords> {
  const origin = parseName(zone.name)
  const out: HostRecords = { changes: [], writes: [], delta: 0, audit: [] }
  const seen = new Set<string>()
  for (const { host, ownerKey } of forwards) {
    if (seen.has(ownerKey)) continue
    seen.add(ownerKey)
    const forwarded = await tx.webForwards.countAtHost(zone.id, ownerKey) > 0
    const ownerName = `${host}.`
    const [a, aaaa] = await tx.rrsets.getMany(zone.id, [{ ownerKey, type: RRType.A }, { ownerKey, type: RRType.AAAA }])
    for (const [type, before, family] of [[RRType.A, a, 4], [RRType.AAAA, aaaa, 6]] as const) {
      const values = forwarded ? addresses.filter(ip => isIP(ip) === family) : []
      const parsed = values.length === 0 ? undefined : rdataFrom(type, values, origin)
      const after: StoredRrset | undefined = parsed === undefined
        ? undefined
        : { ownerKey, ownerName, type, ttl: FORWARD_RECORD_TTL, rdata: parsed.wire, rdataText: parsed.text, profile: null }
      if (sameRrset(before, after)) continue
      out.changes.push({ ...(before === undefined ? {} : { before }), ...(after === undefined ? {} : { after }) })
      out.writes.push({ ownerKey, type, existed: before !== undefined, ...(after === undefined ? {} : { rrset: after }) })
      out.delta += (after?.rdata.length ?? 0) - (before?.rdata.length ?? 0)
      out.audit.push({ name: `${type === RRType.A ? 'A' : 'AAAA'} ${ownerName}`, ...(before === undefined ? {} : { from: before.rdataText }), ...(after === undefined ? {} : { to: after.rdataText }) })
    }
  }
  return out
}
