import { randomBytes } from 'node:crypto'
import { ZonalError } from '../errors/catalog.ts'
import type { ProbeDefinition, Store, StoredRrset, ZoneWithAccount } from '../store/store.ts'
import type { Caller, ZoneDeps } from '../zones/context.ts'
import { zoneFor } from '../zones/context.ts'
import { targetIn, type RrsetPath, type RrsetTarget } from '../zones/rrset-target.ts'
import { validateProbe } from './probe-definition.ts'

/**
 * The probes of SiteBacker and Traffic Controller pools (`/zones/{zone}/rrsets/{type}/{owner}/probes`,
 * the real API's "Pool Probes" page): create, list, read, replace, merge and delete, each on a
 * pool the caller can see (reads) or update (writes), with an audit record per change.
 */

/** A pool's probes and the pool itself. */
interface Pool {
  target: RrsetTarget
  rrset: StoredRrset
}

function newProbeId (): string {
  return randomBytes(8).toString('hex').toUpperCase()
}

/**
 * The SB or TC pool at `path` in a zone the caller can see.
 *
 * @throws ZonalError ZONE_NOT_FOUND, PERMISSION_DENIED, INVALID_INPUT (type, owner),
 *   PROBE_POOL_NOT_FOUND (no rrset there), PROBE_POOL_NOT_SBTC (another kind of rrset).
 */
async function poolAt (deps: ZoneDeps, caller: Caller, path: RrsetPath, permission: 'read' | 'update'): Promise<Pool> {
  const zone: ZoneWithAccount = await zoneFor(deps, caller, path.zoneName, permission)
  const target = targetIn(zone, path)
  const rrset = await deps.store.rrsets.get(zone.id, target.ownerKey, target.type)
  if (rrset === undefined) throw new ZonalError('PROBE_POOL_NOT_FOUND')
  if (rrset.profile?.kind !== 'SB_POOLS' && rrset.profile?.kind !== 'TC_POOLS') throw new ZonalError('PROBE_POOL_NOT_SBTC', target.ownerName)
  return { target, rrset }
}

/** The record of a record-level probe: one of the pool's rdata. @throws ZonalError PROBE_POOL_RECORD_NOT_FOUND */
function poolRecordOf (body: unknown, rrset: StoredRrset): string | null {
  const value = (body as Record<string, unknown>).poolRecord
  if (value === undefined || value === null || value === '') return null
  const record = typeof value === 'string' ? rrset.rdataText.find(r => r.toLowerCase() === value.trim().toLowerCase().replace(/\.$/, '')) : undefined
  if (record === undefined) throw new ZonalError('PROBE_POOL_RECORD_NOT_FOUND', String(value).slice(0, 64))
  return record
}

async function audit (store: Store, caller: Caller, pool: Pool, changeType: 'ADD' | 'MODIFY' | 'DELETE', probe: ProbeDefinition, before?: ProbeDefinition): Promise<void> {
  const shown = (p: ProbeDefinition): unknown => ({ type: p.probeType, interval: p.interval, agents: p.agents, threshold: p.threshold, details: p.details, ...(p.poolRecord === null ? {} : { poolRecord: p.poolRecord }) })
  await store.audit.append({
    accountId: pool.target.zone.account_id,
    accountName: pool.target.zone.account_name,
    user: caller.actor.user,
    ipAddress: caller.actor.ipAddress,
    objectType: 'PROBE',
    changeType,
    object: probe.id,
    parent: pool.target.ownerName,
    detail: { changes: [{ name: 'probe', ...(before === undefined ? {} : { from: shown(before) }), ...(changeType === 'DELETE' ? {} : { to: shown(probe) }) }] }
  })
}

/** Create a probe of the pool (or of one of its records, `poolRecord`); resolves to it. */
export async function createProbe (deps: ZoneDeps, caller: Caller, path: RrsetPath, body: unknown): Promise<{ probe: ProbeDefinition, target: RrsetTarget }> {
  const pool = await poolAt(deps, caller, path, 'update')
  const settings = validateProbe(body, pool.target.zone.account_name)
  const probe: ProbeDefinition = {
    id: newProbeId(),
    zoneId: pool.target.zone.id,
    ownerKey: pool.target.ownerKey,
    rrtype: pool.target.type,
    poolRecord: poolRecordOf(body, pool.rrset),
    ...settings,
    createdAt: new Date().toISOString()
  }
  await deps.store.transaction(async (tx) => {
    await tx.traffic.createProbe(probe)
    await audit(tx, caller, pool, 'ADD', probe)
  })
  return { probe, target: pool.target }
}

/**
 * The pool's probes; `q` may say `type:POOL` (pool-level), `type:RECORD` (record-level),
 * `type:ALL` (the default) and `poolRecord:<address>` (that record's).
 */
export async function listProbes (deps: ZoneDeps, caller: Caller, path: RrsetPath, q: string | undefined): Promise<ProbeDefinition[]> {
  let level = 'ALL'
  let record: string | undefined
  for (const part of (q ?? '').split(/\s+/).filter(p => p !== '')) {
    const [key, ...rest] = part.split(':')
    const value = rest.join(':')
    if (key?.toLowerCase() === 'type' && ['ALL', 'POOL', 'RECORD'].includes(value.toUpperCase())) level = value.toUpperCase()
    else if (key?.toLowerCase() === 'poolrecord' && value !== '') record = value.toLowerCase().replace(/\.$/, '')
    else throw new ZonalError('INVALID_INPUT', `q.${(key ?? '').slice(0, 32)}`)
  }
  const pool = await poolAt(deps, caller, path, 'read')
  return (await deps.store.traffic.probes(pool.target.zone.id, pool.target.ownerKey, pool.target.type)).filter(p => {
    if (record !== undefined) return p.poolRecord?.toLowerCase() === record
    return level === 'ALL' || (level === 'POOL') === (p.poolRecord === null)
  })
}

/** One probe of the pool. @throws ZonalError PROBE_NOT_FOUND and the errors of the pool's lookup */
export async function getProbe (deps: ZoneDeps, caller: Caller, path: RrsetPath, id: string): Promise<ProbeDefinition> {
  const pool = await poolAt(deps, caller, path, 'read')
  const probe = await deps.store.traffic.probe(pool.target.zone.id, pool.target.ownerKey, pool.target.type, id.toUpperCase())
  if (probe === undefined) throw new ZonalError('PROBE_NOT_FOUND')
  return probe
}

/**
 * Replace a probe's settings (`merge`: PATCH, the body's fields over the stored ones). Its id and
 * record stay.
 */
export async function updateProbe (deps: ZoneDeps, caller: Caller, path: RrsetPath, id: string, body: unknown, merge: boolean): Promise<ProbeDefinition> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ZonalError('PAYLOAD_REQUIRED')
  const pool = await poolAt(deps, caller, path, 'update')
  const before = await deps.store.traffic.probe(pool.target.zone.id, pool.target.ownerKey, pool.target.type, id.toUpperCase())
  if (before === undefined) throw new ZonalError('PROBE_NOT_FOUND')
  const { headers, ...details } = before.details as Record<string, unknown>
  const stored = { type: before.probeType, interval: before.interval, agents: before.agents, threshold: before.threshold, details, ...(headers === undefined ? {} : { headers }) }
  const { id: _id, poolRecord: _record, ...given } = body as Record<string, unknown>
  const settings = validateProbe(merge ? { ...stored, ...given } : given, pool.target.zone.account_name)
  const probe: ProbeDefinition = { ...before, ...settings }
  await deps.store.transaction(async (tx) => {
    if (!await tx.traffic.updateProbe(probe)) throw new ZonalError('PROBE_NOT_FOUND')
    await audit(tx, caller, pool, 'MODIFY', probe, before)
  })
  return probe
}

/** Delete a probe. */
export async function deleteProbe (deps: ZoneDeps, caller: Caller, path: RrsetPath, id: string): Promise<void> {
  const pool = await poolAt(deps, caller, path, 'update')
  await deps.store.transaction(async (tx) => {
    const probe = await tx.traffic.probe(pool.target.zone.id, pool.target.ownerKey, pool.target.type, id.toUpperCase())
    if (probe === undefined || !await tx.traffic.deleteProbe(probe.zoneId, probe.ownerKey, probe.rrtype, probe.id)) throw new ZonalError('PROBE_NOT_FOUND')
    await audit(tx, caller, pool, 'DELETE', probe)
  })
}
