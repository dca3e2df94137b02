import { CnameFollower } from '../dns/client/cname-chain.ts'
import { resolverServers } from '../health/resolvers.ts'
import { RecursiveClient, ResolverUnavailableError, type RecursiveClientOptions } from '../dns/client/recursive-client.ts'
import { ZonalError } from '../errors/catalog.ts'
import type { DanglingFinding, Store } from '../store/store.ts'
import { nameToString } from '../zone/name.ts'
import { RRType } from '../zone/rrtype.ts'
import { checkScannable } from './dangling-dns.ts'

/** How scans reach the resolvers (`ZONAL_RESOLVERS`) and how hard they may press them. */
export interface DanglingScanSettings extends RecursiveClientOptions {
  /** `ip` or `ip:port` entries; none: a scan cannot run (it ends FAILED saying so). */
  resolvers: readonly string[]
  /** CNAME chains followed at once. Default 16. */
  concurrency?: number
  /** Names followed in one chain at most (loops end there). Default 16. */
  maxHops?: number
}

/** What a scan found and did. */
export interface DanglingScanResult {
  findings: DanglingFinding[]
  /** CNAME records checked. */
  checked: number
  /** Questions sent to the resolvers (names shared by records are asked once). */
  queries: number
}

/** One CNAME record of the zone. */
interface CnameRecord {
  ownerName: string
  target: Uint8Array
  targetText: string
}

/** The zone's CNAME records, read a page of rrsets at a time. */
async function cnameRecords (store: Store, zoneId: string): Promise<CnameRecord[]> {
  const out: CnameRecord[] = []
  const limit = 1000
  for (let offset = 0; ; offset += limit) {
    const page = await store.rrsets.listPage({ zoneId, type: RRType.CNAME, sort: 'OWNER', reverse: false, offset, limit })
    for (const r of page) r.rdata.forEach((target, i) => out.push({ ownerName: r.ownerName, target, targetText: r.rdataText[i] ?? nameToString(target) }))
    if (page.length < limit) return out
  }
}

/**
 * Scan one zone: every CNAME record's target followed through the recursive resolvers to where it
 * ends (`dns/client/cname-chain.ts`), at most `concurrency` chains at once, each resolver paced
 * to `queriesPerSecond`; a record whose target ends in NXDOMAIN, an error (SERVFAIL …), a loop
 * or a chain too long is a finding. `progress` is called now and then with the records checked.
 * @throws ZonalError ZONE_NOT_FOUND, DANGLING_ZONE_NOT_PRIMARY, DANGLING_ZONE_TOO_LARGE,
 *   DANGLING_NO_RESOLVERS, DANGLING_SCAN_FAILED (resolvers unusable or not answering)
 */
export async function scanZone (store: Store, zoneId: string, settings: DanglingScanSettings, progress: (checked: number, total: number) => Promise<void>, signal?: AbortSignal): Promise<DanglingScanResult> {
  const zone = await store.zones.findById(zoneId)
  if (zone === undefined) throw new ZonalError('ZONE_NOT_FOUND')
  checkScannable(zone)
  if (settings.resolvers.length === 0) throw new ZonalError('DANGLING_NO_RESOLVERS')
  let addresses
  try {
    addresses = resolverServers(settings.resolvers)
  } catch (err) {
    throw new ZonalError('DANGLING_SCAN_FAILED', (err as Error).message)
  }
  const records = await cnameRecords(store, zoneId)
  await progress(0, records.length)
  const client = new RecursiveClient(addresses, settings)
  const follower = CnameFollower.over(client, settings.maxHops ?? 16)
  const findings: DanglingFinding[] = []
  let next = 0
  let checked = 0
  let failure: unknown
  let reportedAt = performance.now()
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < records.length) {
      if (signal?.aborted === true) throw new Error('the scan was stopped')
      const r = records[next++]!
      try {
        const outcome = await follower.follow(r.target)
        if (outcome.dangling) findings.push({ ownerName: r.ownerName, type: RRType.CNAME, rdataText: r.targetText, ultimateTarget: nameToString(outcome.ultimate), description: outcome.description })
      } catch (err) {
        failure ??= err
        return
      }
      checked++
      if (performance.now() - reportedAt >= 1000) {
        reportedAt = performance.now()
        await progress(checked, records.length)
      }
    }
  }
  try {
    await Promise.all(Array.from({ length: Math.max(1, settings.concurrency ?? 16) }, worker))
  } finally {
    await client.close()
  }
  if (failure !== undefined) {
    if (failure instanceof ResolverUnavailableError) throw new ZonalError('DANGLING_SCAN_FAILED', `the resolvers gave no usable answer: ${failure.message}.`)
    throw failure
  }
  return { findings, checked, queries: follower.queries }
}
