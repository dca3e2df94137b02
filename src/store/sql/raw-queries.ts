import type { Kysely } from 'kysely'
import type { Engine } from '../engine.ts'
import type { Database } from '../schema.ts'
import type { RawQueryReportQuery, RawQueryRow, RawQueryStore } from '../store.ts'

/** Rows per INSERT (PostgreSQL): 24 parameters a row, 9,600 a statement, below its limit. */
const ROWS_PER_STATEMENT = 400
/** The columns of a stored sample, in the order of {@link columnsOf}. */
const COLUMNS = ['day', 'packet_id', 'packet_time', 'node', 'zone', 'qname', 'qtype', 'opcode', 'rcode', 'flags', 'transport', 'ip_version',
  'address', 'port', 'ecs_address', 'ecs_prefix', 'dns_id', 'qdcount', 'ancount', 'nscount', 'arcount', 'request_size', 'response_size', 'response_micros'] as const
/** SQLite: one prepared statement a sample (`Engine.runEach`). */
const INSERT_ONE = `insert into raw_queries (${COLUMNS.join(', ')}) values (${COLUMNS.map(() => '?').join(', ')}) on conflict (day, packet_id) do nothing`

function columnsOf (r: RawQueryRow): unknown[] {
  return [r.day, r.packetId, r.time, r.node, r.zone, r.qname, r.qtype, r.opcode, r.rcode, r.flags, r.transport, r.ipVersion,
    r.address, r.port, r.ecsAddress, r.ecsPrefix, r.dnsId, r.qdcount, r.ancount, r.nscount, r.arcount, r.requestSize, r.responseSize, r.responseMicros]
}

export class SqlRawQueryStore implements RawQueryStore {
  private readonly db: Kysely<Database>
  private readonly inTransaction: <T>(fn: (db: Kysely<Database>) => Promise<T>) => Promise<T>
  private readonly engine: Engine

  /** `inTransaction` runs its function in one write transaction (the current one inside a transaction). */
  constructor (db: Kysely<Database>, inTransaction: <T>(fn: (db: Kysely<Database>) => Promise<T>) => Promise<T>, engine: Engine) {
    this.db = db
    this.inTransaction = inTransaction
    this.engine = engine
  }

  /**
   * The days of the range bound the key's first column too (partition pruning once the table
   * is partitioned by day); the zone and time filter is the (zone, packet_time, packet_id) index.
   */
  async report (q: RawQueryReportQuery): Promise<Array<RawQueryRow & { accountName: string }>> {
    if (q.accountIds.length === 0) return []
    let query = this.db.selectFrom('raw_queries as r')
      .innerJoin('zones as z', 'z.name', 'r.zone')
      .innerJoin('accounts as a', 'a.id', 'z.account_id')
      .where('z.account_id', 'in', q.accountIds)
      .where('r.day', '>=', q.from.slice(0, 10))
      .where('r.day', '<=', q.to.slice(0, 10))
      .where('r.packet_time', '>=', q.from)
      .where('r.packet_time', '<=', q.to)
    if (q.zone !== undefined) query = query.where('r.zone', '=', q.zone)
    const rows = await query.selectAll('r').select('a.name as account_name')
      .orderBy('r.packet_time').orderBy('r.packet_id')
      .offset(q.offset).limit(q.limit)
      .execute()
    return rows.map(r => ({
      day: r.day,
      packetId: Number(r.packet_id),
      time: r.packet_time,
      node: r.node,
      zone: r.zone,
      qname: r.qname,
      qtype: r.qtype,
      opcode: r.opcode,
      rcode: r.rcode,
      flags: r.flags,
      transport: r.transport === 'tcp' ? 'tcp' : 'udp',
      ipVersion: r.ip_version === 6 ? 6 : 4,
      address: r.address,
      port: r.port,
      ecsAddress: r.ecs_address,
      ecsPrefix: r.ecs_prefix,
      dnsId: r.dns_id,
      qdcount: r.qdcount,
      ancount: r.ancount,
      nscount: r.nscount,
      arcount: r.arcount,
      requestSize: r.request_size,
      responseSize: r.response_size,
      responseMicros: Number(r.response_micros),
      accountName: r.account_name
    }))
  }

  async add (rows: readonly RawQueryRow[]): Promise<number> {
    if (rows.length === 0) return 0
    return await this.inTransaction(async (db) => {
      const runEach = this.engine.runEach
      if (runEach !== undefined) return runEach(INSERT_ONE, rows.map(columnsOf))
      let added = 0
      for (let from = 0; from < rows.length; from += ROWS_PER_STATEMENT) {
        const values = rows.slice(from, from + ROWS_PER_STATEMENT).map(r => {
          const v = columnsOf(r)
          return Object.fromEntries(COLUMNS.map((c, i) => [c, v[i]]))
        })
        const result = await db.insertInto('raw_queries').values(values as any)
          .onConflict(oc => oc.columns(['day', 'packet_id']).doNothing())
          .executeTakeFirst()
        added += Number(result.numInsertedOrUpdatedRows ?? 0)
      }
      return added
    })
  }
}
