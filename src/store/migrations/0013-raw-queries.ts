import type { Kysely } from 'kysely'
import type { EngineName } from '../engine.ts'

/**
 * Raw query samples (`analytics/raw-sample-sink.ts`): one row per sampled response, keyed by
 * (day 'YYYY-MM-DD' UTC, packet_id) with the day first (the shape monthly partitioning and the
 * retention job expect), and an index for the report: a time range per zone.
 */
export async function up (db: Kysely<any>, _engine: EngineName): Promise<void> {
  await db.schema.createTable('raw_queries')
    .addColumn('day', 'text', c => c.notNull())
    .addColumn('packet_id', 'bigint', c => c.notNull())
    .addColumn('packet_time', 'text', c => c.notNull())
    .addColumn('node', 'text', c => c.notNull())
    .addColumn('zone', 'text', c => c.notNull())
    .addColumn('qname', 'text', c => c.notNull())
    .addColumn('qtype', 'integer', c => c.notNull())
    .addColumn('opcode', 'integer', c => c.notNull())
    .addColumn('rcode', 'integer', c => c.notNull())
    .addColumn('flags', 'integer', c => c.notNull())
    .addColumn('transport', 'text', c => c.notNull())
    .addColumn('ip_version', 'integer', c => c.notNull())
    .addColumn('address', 'text', c => c.notNull())
    .addColumn('port', 'integer', c => c.notNull())
    .addColumn('ecs_address', 'text', c => c.notNull())
    .addColumn('ecs_prefix', 'integer', c => c.notNull())
    .addColumn('dns_id', 'integer', c => c.notNull())
    .addColumn('qdcount', 'integer', c => c.notNull())
    .addColumn('ancount', 'integer', c => c.notNull())
    .addColumn('nscount', 'integer', c => c.notNull())
    .addColumn('arcount', 'integer', c => c.notNull())
    .addColumn('request_size', 'integer', c => c.notNull())
    .addColumn('response_size', 'integer', c => c.notNull())
    .addColumn('response_micros', 'bigint', c => c.notNull())
    .addPrimaryKeyConstraint('raw_queries_pk', ['day', 'packet_id'])
    .execute()
  await db.schema.createIndex('raw_queries_zone_time').on('raw_queries').columns(['zone', 'packet_time', 'packet_id']).execute()
}
