import { sql, type Kysely } from 'kysely'
import type { Engine } from '../engine.ts'
import type { Database, FailoverEventTable, PoolObservationTable, ProbeResultTable, ProbeTable } from '../schema.ts'
import type {
  FailoverEvent, FailoverEventQuery, PoolObservation, PoolRecordHealthRow, PoolRecordKey, ProbeDefinition, ProbeRun, ProbeRunQuery, ReportedRun, RunSummary, TrafficPool, TrafficStore
} from '../store.ts'
import type { PoolProfile } from '../../zone/pools/profile.ts'
import { decodeProfile, decodeTextList } from './codec.ts'

/** The pool kinds probes and monitors watch. */
export const PROBED_KINDS = ['SB_POOLS', 'TC_POOLS', 'SF_POOLS', 'SLB_POOLS'] as const

function probeOf (r: ProbeTable): ProbeDefinition {
  return {
    id: r.id,
    zoneId: r.zone_id,
    ownerKey: r.owner_key,
    rrtype: r.rrtype,
    poolRecord: r.pool_record,
    probeType: r.probe_type,
    interval: r.interval,
    agents: JSON.parse(r.agents) as string[],
    threshold: r.threshold,
    details: JSON.parse(r.details) as unknown,
    createdAt: r.created_at
  }
}

function eventOf (r: FailoverEventTable): FailoverEvent {
  return {
    id: r.id,
    at: r.at,
    accountId: r.account_id,
    accountName: r.account_name,
    zoneId: r.zone_id,
    zoneName: r.zone_name,
    poolName: r.pool_name,
    poolRecord: r.pool_record,
    recordType: r.record_type,
    poolType: r.pool_type,
    oldState: r.old_state as FailoverEvent['oldState'],
    newState: r.new_state as FailoverEvent['newState'],
    reason: r.reason,
    allFail: Number(r.all_fail) === 1,
    node: r.node
  }
}

/** Probe runs written per statement (13 parameters a row). */
const RUNS_PER_STATEMENT = 500
/** The columns of a run's history row and of an agent's latest result, in the order the rows give them. */
const RESULT_COLUMNS: ReadonlyArray<keyof ProbeResultTable> = ['day', 'at', 'zone_id', 'owner_key', 'rrtype', 'record', 'probe_id', 'agent', 'region', 'probe_type', 'ok', 'message', 'duration_ms']
const LATEST_COLUMNS: ReadonlyArray<keyof PoolObservationTable> = ['zone_id', 'owner_key', 'rrtype', 'record', 'probe_id', 'agent', 'region', 'ok', 'message', 'at']

function resultRow (run: ProbeRun): ProbeResultTable {
  return {
    day: run.at.slice(0, 10),
    at: run.at,
    zone_id: run.zoneId,
    owner_key: run.ownerKey,
    rrtype: run.rrtype,
    record: run.record,
    probe_id: run.probeId,
    agent: run.agent,
    region: run.region,
    probe_type: run.probeType,
    ok: run.ok ? 1 : 0,
    message: run.message,
    duration_ms: Math.round(run.durationMs)
  }
}

function latestRow (run: ProbeRun): PoolObservationTable {
  return { zone_id: run.zoneId, owner_key: run.ownerKey, rrtype: run.rrtype, record: run.record, probe_id: run.probeId, agent: run.agent, region: run.region, ok: run.ok ? 1 : 0, message: run.message, at: run.at }
}

const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ')
/** SQLite: one prepared statement a run (`Engine.runEach`), for the history row and for the latest result. */
const INSERT_RUN = `insert into probe_results (${RESULT_COLUMNS.join(', ')}) values (${placeholders(RESULT_COLUMNS.length)}) on conflict do nothing`
const UPSERT_LATEST = `insert into pool_observations (${LATEST_COLUMNS.join(', ')}) values (${placeholders(LATEST_COLUMNS.length)}) ` +
  'on conflict (zone_id, owner_key, rrtype, record, probe_id, agent) do update set region = excluded.region, ok = excluded.ok, message = excluded.message, at = excluded.at where pool_observations.at <= excluded.at'

/** Per (pool record, probe, agent), the newest of `runs` (what replaces its latest result). */
function latestOf (runs: readonly ProbeRun[]): ProbeRun[] {
  const latest = new Map<string, ProbeRun>()
  for (const run of runs) {
    const key = `${run.zoneId}\u0000${run.ownerKey}\u0000${run.rrtype}\u0000${run.record}\u0000${run.probeId}\u0000${run.agent}`
    const seen = latest.get(key)
    if (seen === undefined || seen.at <= run.at) latest.set(key, run)
  }
  return [...latest.values()]
}

/** Traffic services over Kysely (migration 0022), both engines. */
export class SqlTrafficStore implements TrafficStore {
  private readonly db: Kysely<Database>
  private readonly inTransaction: <T>(fn: (db: Kysely<Database>) => Promise<T>) => Promise<T>
  private readonly engine: Pick<Engine, 'runEach'>

  /** `inTransaction` runs its function in one write transaction (the current one inside a transaction). */
  constructor (db: Kysely<Database>, inTransaction: <T>(fn: (db: Kysely<Database>) => Promise<T>) => Promise<T>, engine: Pick<Engine, 'runEach'> = {}) {
    this.db = db
    this.inTransaction = inTransaction
    this.engine = engine
  }

  async createProbe (p: ProbeDefinition): Promise<void> {
    await this.db.insertInto('probes').values({
      id: p.id,
      zone_id: p.zoneId,
      owner_key: p.ownerKey,
      rrtype: p.rrtype,
      pool_record: p.poolRecord,
      probe_type: p.probeType,
      interval: p.interval,
      agents: JSON.stringify(p.agents),
      threshold: p.threshold,
      details: JSON.stringify(p.details),
      created_at: p.createdAt
    }).execute()
  }

  async probes (zoneId: string, ownerKey: string, rrtype: number): Promise<ProbeDefinition[]> {
    const rows = await this.db.selectFrom('probes').selectAll()
      .where('zone_id', '=', zoneId).where('owner_key', '=', ownerKey).where('rrtype', '=', rrtype)
      .orderBy('created_at').orderBy('id').execute()
    return rows.map(probeOf)
  }

  async probe (zoneId: string, ownerKey: string, rrtype: number, id: string): Promise<ProbeDefinition | undefined> {
    const r = await this.db.selectFrom('probes').selectAll()
      .where('zone_id', '=', zoneId).where('owner_key', '=', ownerKey).where('rrtype', '=', rrtype).where('id', '=', id)
      .executeTakeFirst()
    return r === undefined ? undefined : probeOf(r)
  }

  async updateProbe (p: ProbeDefinition): Promise<boolean> {
    const r = await this.db.updateTable('probes')
      .set({ probe_type: p.probeType, interval: p.interval, agents: JSON.stringify(p.agents), threshold: p.threshold, details: JSON.stringify(p.details) })
      .where('zone_id', '=', p.zoneId).where('owner_key', '=', p.ownerKey).where('rrtype', '=', p.rrtype).where('id', '=', p.id)
      .executeTakeFirst()
    return Number(r.numUpdatedRows) > 0
  }

  async deleteProbe (zoneId: string, ownerKey: string, rrtype: number, id: string): Promise<boolean> {
    const r = await this.db.deleteFrom('probes')
      .where('zone_id', '=', zoneId).where('owner_key', '=', ownerKey).where('rrtype', '=', rrtype).where('id', '=', id)
      .executeTakeFirst()
    return Number(r.numDeletedRows) > 0
  }

  async forgetPool (zoneId: string, ownerKey: string, rrtype: number): Promise<void> {
    for (const table of ['probes', 'pool_observations', 'pool_health'] as const) {
      await this.db.deleteFrom(table).where('zone_id', '=', zoneId).where('owner_key', '=', ownerKey).where('rrtype', '=', rrtype).execute()
    }
  }

  async pools (): Promise<TrafficPool[]> {
    const rows = await this.db.selectFrom('rrsets as r')
      .innerJoin('zones as z', 'z.id', 'r.zone_id')
      .innerJoin('accounts as a', 'a.id', 'z.account_id')
      .select(['r.zone_id', 'z.name as zone_name', 'a.id as account_id', 'a.name as account_name', 'r.owner_key', 'r.owner_name', 'r.rrtype', 'r.rdata_text', 'r.profile'])
      .where('r.kind', 'in', [...PROBED_KINDS])
      .where('z.zone_type', '=', 'PRIMARY')
      .where('z.status', '=', 'ACTIVE')
      .orderBy('r.zone_id').orderBy('r.owner_key').orderBy('r.rrtype')
      .execute()
    const probes = rows.length === 0
      ? []
      : await this.db.selectFrom('probes as p').innerJoin('rrsets as r', (j) => j.onRef('r.zone_id', '=', 'p.zone_id').onRef('r.owner_key', '=', 'p.owner_key').onRef('r.rrtype', '=', 'p.rrtype'))
        .selectAll('p').where('r.kind', 'in', ['SB_POOLS', 'TC_POOLS']).orderBy('p.created_at').orderBy('p.id').execute()
    const byPool = new Map<string, ProbeDefinition[]>()
    for (const p of probes) {
      const key = `${p.zone_id}\u0000${p.owner_key}\u0000${p.rrtype}`
      const list = byPool.get(key) ?? []
      list.push(probeOf(p))
      byPool.set(key, list)
    }
    return rows.map(r => ({
      zoneId: r.zone_id,
      zoneName: r.zone_name,
      accountId: r.account_id,
      accountName: r.account_name,
      ownerKey: r.owner_key,
      ownerName: r.owner_name,
      rrtype: r.rrtype,
      rdataText: decodeTextList(r.rdata_text),
      profile: decodeProfile(r.profile) as PoolProfile,
      probes: byPool.get(`${r.zone_id}\u0000${r.owner_key}\u0000${r.rrtype}`) ?? []
    }))
  }

  async record (run: ProbeRun): Promise<void> {
    await this.recordMany([run])
  }

  /**
   * Several runs in one transaction, in statements of up to {@link RUNS_PER_STATEMENT} rows: the
   * history rows, then each (record, probe, agent)'s latest result, the newest of the batch, which
   * replaces the stored one unless that one is newer (a slow run finishing after a later one).
   */
  async recordMany (runs: readonly ProbeRun[]): Promise<void> {
    if (runs.length === 0) return
    await this.inTransaction(async (db) => {
      const runEach = this.engine.runEach
      if (runEach !== undefined) {
        // SQLite: prepared statements a row; building multi-row INSERTs through Kysely cost more
        // than SQLite's own work (BENCHMARKS.md, traffic).
        runEach(INSERT_RUN, runs.map(run => { const row = resultRow(run); return RESULT_COLUMNS.map(c => row[c]) }))
        runEach(UPSERT_LATEST, latestOf(runs).map(run => { const row = latestRow(run); return LATEST_COLUMNS.map(c => row[c]) }))
        return
      }
      for (let from = 0; from < runs.length; from += RUNS_PER_STATEMENT) {
        const part = runs.slice(from, from + RUNS_PER_STATEMENT)
        await db.insertInto('probe_results').values(part.map(resultRow)).onConflict(oc => oc.doNothing()).execute()
        await db.insertInto('pool_observations').values(latestOf(part).map(latestRow)).onConflict(oc => oc.columns(['zone_id', 'owner_key', 'rrtype', 'record', 'probe_id', 'agent']).doUpdateSet({
          region: sql`excluded.region`, ok: sql`excluded.ok`, message: sql`excluded.message`, at: sql`excluded.at`
        })
          // A run that finished after a newer one (a slow target) does not replace it.
          .where(sql<boolean>`pool_observations.at <= excluded.at`))
          .execute()
      }
    })
  }

  async observations (zoneId: string, ownerKey: string, rrtype: number): Promise<PoolObservation[]> {
    const rows = await this.db.selectFrom('pool_observations').select(['record', 'probe_id', 'agent', 'region', 'ok', 'message', 'at'])
      .where('zone_id', '=', zoneId).where('owner_key', '=', ownerKey).where('rrtype', '=', rrtype)
      .execute()
    return rows.map(r => ({ record: r.record, probeId: r.probe_id, agent: r.agent, region: r.region, ok: Number(r.ok) === 1, message: r.message, at: r.at }))
  }

  async lastRuns (agent: string): Promise<Array<Pick<ProbeRun, 'zoneId' | 'ownerKey' | 'rrtype' | 'record' | 'probeId' | 'at'>>> {
    const rows = await this.db.selectFrom('pool_observations').select(['zone_id', 'owner_key', 'rrtype', 'record', 'probe_id', 'at'])
      .where('agent', '=', agent)
      .execute()
    return rows.map(r => ({ zoneId: r.zone_id, ownerKey: r.owner_key, rrtype: r.rrtype, record: r.record, probeId: r.probe_id, at: r.at }))
  }

  async health (zoneId: string, pool?: { ownerKey: string, rrtype: number }): Promise<PoolRecordHealthRow[]> {
    let q = this.db.selectFrom('pool_health as h')
      .innerJoin('rrsets as r', (j) => j.onRef('r.zone_id', '=', 'h.zone_id').onRef('r.owner_key', '=', 'h.owner_key').onRef('r.rrtype', '=', 'h.rrtype'))
      .select(['h.owner_key', 'r.owner_name', 'h.rrtype', 'h.record', 'h.state', 'h.changed_at', 'h.pending_state', 'h.pending_since'])
      .where('h.zone_id', '=', zoneId)
    if (pool !== undefined) q = q.where('h.owner_key', '=', pool.ownerKey).where('h.rrtype', '=', pool.rrtype)
    const rows = await q.orderBy('h.owner_key').orderBy('h.rrtype').orderBy('h.record').execute()
    return rows.map(r => ({
      ownerKey: r.owner_key,
      ownerName: r.owner_name,
      rrtype: r.rrtype,
      record: r.record,
      state: r.state,
      changedAt: r.changed_at,
      pendingState: r.pending_state,
      pendingSince: r.pending_since
    }))
  }

  private async ensureRow (key: PoolRecordKey): Promise<void> {
    await this.db.insertInto('pool_health')
      .values({ zone_id: key.zoneId, owner_key: key.ownerKey, rrtype: key.rrtype, record: key.record, state: 'UP', changed_at: null, pending_state: null, pending_since: null })
      .onConflict(oc => oc.doNothing()).execute()
  }

  async setPending (key: PoolRecordKey, pending: { state: 'UP' | 'DOWN', since: string } | null): Promise<void> {
    await this.ensureRow(key)
    await this.db.updateTable('pool_health')
      .set({ pending_state: pending?.state ?? null, pending_since: pending?.since ?? null })
      .where('zone_id', '=', key.zoneId).where('owner_key', '=', key.ownerKey).where('rrtype', '=', key.rrtype).where('record', '=', key.record)
      .execute()
  }

  async changeState (key: PoolRecordKey, from: 'UP' | 'DOWN', to: 'UP' | 'DOWN', at: string): Promise<boolean> {
    await this.ensureRow(key)
    const r = await this.db.updateTable('pool_health')
      .set({ state: to, changed_at: at, pending_state: null, pending_since: null })
      .where('zone_id', '=', key.zoneId).where('owner_key', '=', key.ownerKey).where('rrtype', '=', key.rrtype).where('record', '=', key.record)
      .where('state', '=', from)
      .executeTakeFirst()
    return Number(r.numUpdatedRows) > 0
  }

  async appendEvent (e: FailoverEvent): Promise<void> {
    await this.db.insertInto('failover_events').values({
      day: e.at.slice(0, 10),
      id: e.id,
      at: e.at,
      account_id: e.accountId,
      account_name: e.accountName,
      zone_id: e.zoneId,
      zone_name: e.zoneName,
      pool_name: e.poolName,
      pool_record: e.poolRecord,
      record_type: e.recordType,
      pool_type: e.poolType,
      old_state: e.oldState,
      new_state: e.newState,
      reason: e.reason,
      all_fail: e.allFail ? 1 : 0,
      node: e.node
    }).execute()
  }

  async events (q: FailoverEventQuery): Promise<FailoverEvent[]> {
    let s = this.db.selectFrom('failover_events').selectAll()
      .where('account_id', '=', q.accountId)
      .where('day', '>=', q.from.slice(0, 10)).where('day', '<=', q.to.slice(0, 10))
      .where('at', '>=', q.from).where('at', '<', q.to)
    if (q.zoneName !== undefined) s = s.where('zone_name', '=', q.zoneName)
    if (q.poolName !== undefined) s = s.where('pool_name', '=', q.poolName)
    if (q.poolRecord !== undefined) s = s.where('pool_record', '=', q.poolRecord)
    if (q.recordType !== undefined) s = s.where('record_type', '=', q.recordType)
    if (q.poolType !== undefined) s = s.where('pool_type', '=', q.poolType)
    if (q.before !== undefined) {
      const b = q.before
      s = s.where(eb => eb.or([eb('at', '<', b.at), eb.and([eb('at', '=', b.at), eb('id', '<', b.id)])]))
      const rows = await s.orderBy('at', 'desc').orderBy('id', 'desc').limit(q.limit).execute()
      return rows.reverse().map(eventOf)
    }
    if (q.after !== undefined) {
      const a = q.after
      s = s.where(eb => eb.or([eb('at', '>', a.at), eb.and([eb('at', '=', a.at), eb('id', '>', a.id)])]))
    }
    const rows = await s.orderBy('at').orderBy('id').limit(q.limit).execute()
    return rows.map(eventOf)
  }

  async runs (key: Omit<PoolRecordKey, 'record'> & { record?: string }, from: string, to: string, limit: number): Promise<ProbeRun[]> {
    let s = this.db.selectFrom('probe_results').selectAll()
      .where('day', '>=', from.slice(0, 10)).where('day', '<=', to.slice(0, 10))
      .where('zone_id', '=', key.zoneId).where('owner_key', '=', key.ownerKey).where('rrtype', '=', key.rrtype)
      .where('at', '>=', from).where('at', '<', to)
    if (key.record !== undefined) s = s.where('record', '=', key.record)
    const rows = await s.orderBy('at').orderBy('record').orderBy('probe_id').orderBy('agent').limit(limit).execute()
    return rows.map(r => ({
      at: r.at,
      zoneId: r.zone_id,
      ownerKey: r.owner_key,
      rrtype: r.rrtype,
      record: r.record,
      probeId: r.probe_id,
      agent: r.agent,
      region: r.region,
      probeType: r.probe_type,
      ok: Number(r.ok) === 1,
      message: r.message,
      durationMs: r.duration_ms
    }))
  }

  /** The runs of a probe report's query, with their pool's names (current pools of the account). */
  private runsOf (q: ProbeRunQuery) {
    let s = this.db.selectFrom('probe_results as r')
      .innerJoin('zones as z', 'z.id', 'r.zone_id')
      .innerJoin('rrsets as p', (j) => j.onRef('p.zone_id', '=', 'r.zone_id').onRef('p.owner_key', '=', 'r.owner_key').onRef('p.rrtype', '=', 'r.rrtype'))
      .where('z.account_id', '=', q.accountId)
      .where('r.day', '>=', q.from.slice(0, 10)).where('r.day', '<=', q.to.slice(0, 10))
      .where('r.at', '>=', q.from).where('r.at', '<', q.to)
    if (q.zoneName !== undefined) s = s.where('z.name', '=', q.zoneName)
    if (q.poolName !== undefined) s = s.where(sql<string>`lower(p.owner_name)`, '=', q.poolName)
    if (q.poolKinds !== undefined) s = s.where('p.kind', 'in', [...q.poolKinds])
    if (q.poolRecord !== undefined) s = s.where('r.record', '=', q.poolRecord)
    if (q.rrtype !== undefined) s = s.where('r.rrtype', '=', q.rrtype)
    if (q.region !== undefined) s = s.where('r.region', '=', q.region)
    if (q.ok !== undefined) s = s.where('r.ok', '=', q.ok ? 1 : 0)
    return s
  }

  async runReport (q: ProbeRunQuery, offset: number, limit: number): Promise<ReportedRun[]> {
    const rows = await this.runsOf(q)
      .select(['z.name as zone_name', 'p.owner_name', 'p.kind', 'r.record', 'r.rrtype', 'r.region', 'r.at', 'r.ok', 'r.message', 'r.probe_type'])
      .orderBy('r.at').orderBy('z.name').orderBy('r.owner_key').orderBy('r.record').orderBy('r.probe_id').orderBy('r.agent')
      .offset(offset).limit(limit).execute()
    return rows.map(r => ({
      zoneName: r.zone_name,
      poolName: r.owner_name.toLowerCase(),
      poolKind: r.kind ?? '',
      record: r.record,
      rrtype: r.rrtype,
      region: r.region,
      at: r.at,
      ok: Number(r.ok) === 1,
      message: r.message,
      probeType: r.probe_type
    }))
  }

  async runSummary (q: ProbeRunQuery, offset: number, limit: number): Promise<RunSummary[]> {
    const rows = await this.runsOf(q)
      .select(['z.name as zone_name', 'p.owner_name', 'p.kind', 'r.record', 'r.rrtype', 'r.region', 'r.owner_key'])
      .select(sql<number>`sum(r.ok)`.as('successes'))
      .select(sql<number>`count(*)`.as('total'))
      .groupBy(['z.name', 'r.owner_key', 'p.owner_name', 'p.kind', 'r.rrtype', 'r.record', 'r.region'])
      .orderBy('z.name').orderBy('r.owner_key').orderBy('r.rrtype').orderBy('r.record').orderBy('r.region')
      .offset(offset).limit(limit).execute()
    return rows.map(r => ({
      zoneName: r.zone_name,
      poolName: r.owner_name.toLowerCase(),
      poolKind: r.kind ?? '',
      record: r.record,
      rrtype: r.rrtype,
      region: r.region,
      successes: Number(r.successes),
      failures: Number(r.total) - Number(r.successes)
    }))
  }
}
