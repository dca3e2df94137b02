import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import type { RawQueryRow, RawQueryStore } from '../store.ts'

/** Rows per INSERT: 24 parameters a row, 9,600 a statement, below both engines' limits. */
const ROWS_PER_STATEMENT = 400

export class SqlRawQueryStore implements RawQueryStore {
  private readonly inTransaction: <T>(fn: (db: Kysely<Database>) => Promise<T>) => Promise<T>

  /** `inTransaction` runs its function in one write transaction (the current one inside a transaction). */
  constructor (inTransaction: <T>(fn: (db: Kysely<Database>) => Promise<T>) => Promise<T>) {
    this.inTransaction = inTransaction
  }

  async add (rows: readonly RawQueryRow[]): Promise<number> {
    if (rows.length === 0) return 0
    return await this.inTransaction(async (db) => {
      let added = 0
      for (let from = 0; from < rows.length; from += ROWS_PER_STATEMENT) {
        const values = rows.slice(from, from + ROWS_PER_STATEMENT).map(r => ({
          day: r.day,
          packet_id: r.packetId,
          packet_time: r.time,
          node: r.node,
          zone: r.zone,
          qname: r.qname,
          qtype: r.qtype,
          opcode: r.opcode,
          rcode: r.rcode,
          flags: r.flags,
          transport: r.transport,
          ip_version: r.ipVersion,
          address: r.address,
          port: r.port,
          ecs_address: r.ecsAddress,
          ecs_prefix: r.ecsPrefix,
          dns_id: r.dnsId,
          qdcount: r.qdcount,
          ancount: r.ancount,
          nscount: r.nscount,
          arcount: r.arcount,
          request_size: r.requestSize,
          response_size: r.responseSize,
          response_micros: r.responseMicros
        }))
        const result = await db.insertInto('raw_queries').values(values)
          .onConflict(oc => oc.columns(['day', 'packet_id']).doNothing())
          .executeTakeFirst()
        added += Number(result.numInsertedOrUpdatedRows ?? 0)
      }
      return added
    })
  }
}
