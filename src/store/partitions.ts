import { setImmediate as yieldToLoop } from 'node:timers/promises'
import { sql, type Kysely } from 'kysely'
import type { EngineName } from './engine.ts'

/**
 * Monthly range partitions on `day` ('YYYY-MM-DD' text) for the analytics tables on PostgreSQL:
 * `<table>_pYYYYMM` holds [YYYY-MM-01, the next month's 01), `<table>_default` every other day,
 * so no write ever fails for want of a partition. The primary key starts with `day`, so it is
 * the partitioned table's and `INSERT … ON CONFLICT` works as on a plain table. Retention drops
 * whole months. SQLite tables stay plain; their old rows are deleted in batches.
 */

/** 'YYYY-MM' of the month `offset` months after the one of `day` ('YYYY-MM…'). */
export function monthOf (day: string, offset = 0): string {
  const d = new Date(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1 + offset, 1))
  return d.toISOString().slice(0, 7)
}

function checkMonth (month: string): void {
  if (!/^\d{4}-\d{2}$/.test(month)) throw new Error(`not a month: ${month}`)
}

function partitionName (table: string, month: string): string {
  return `${table}_p${month.replace('-', '')}`
}

/** FROM ('YYYY-MM-01') TO (next month's first day): literals, since DDL takes no parameters. */
function bounds (month: string): ReturnType<typeof sql> {
  checkMonth(month)
  return sql`from (${sql.lit(`${month}-01`)}) to (${sql.lit(`${monthOf(month, 1)}-01`)})`
}

/**
 * For a migration: on PostgreSQL, turn the plain table `table`, whose primary key starts with
 * `day`, into one partitioned by month on `day`, keeping its rows (a partition for each month
 * they cover and for the current and next month, and the default partition). Other indexes of
 * the table are not carried over. On SQLite, or when it is partitioned already, nothing.
 */
export async function partitionByMonth (db: Kysely<any>, engine: EngineName, table: string): Promise<void> {
  if (engine !== 'postgres' || await isPartitioned(db, table)) return
  const pk = await sql<{ name: string, def: string }>`
    select conname as name, pg_get_constraintdef(oid) as def from pg_constraint
    where conrelid = to_regclass(${table}) and contype = 'p'`.execute(db)
  const key = pk.rows[0]
  if (key === undefined || !/^PRIMARY KEY \(day[,)]/.test(key.def)) throw new Error(`${table}: its primary key does not start with day`)
  const old = `${table}_unpartitioned`
  await sql`alter table ${sql.table(table)} rename to ${sql.table(old)}`.execute(db)
  await sql`alter table ${sql.table(old)} rename constraint ${sql.id(key.name)} to ${sql.id(`${old}_pk`)}`.execute(db)
  await sql`create table ${sql.table(table)} (like ${sql.table(old)} including defaults) partition by range (day)`.execute(db)
  await sql`alter table ${sql.table(table)} add constraint ${sql.id(key.name)} ${sql.raw(key.def)}`.execute(db)
  await sql`create table ${sql.table(`${table}_default`)} partition of ${sql.table(table)} default`.execute(db)
  const today = new Date().toISOString().slice(0, 10)
  const found = await sql<{ month: string }>`select distinct substr(day, 1, 7) as month from ${sql.table(old)}`.execute(db)
  const months = new Set([monthOf(today), monthOf(today, 1), ...found.rows.map(r => r.month).filter(m => /^\d{4}-\d{2}$/.test(m))])
  for (const month of [...months].sort()) {
    await sql`create table ${sql.table(partitionName(table, month))} partition of ${sql.table(table)} for values ${bounds(month)}`.execute(db)
  }
  await sql`insert into ${sql.table(table)} select * from ${sql.table(old)}`.execute(db)
  await sql`drop table ${sql.table(old)}`.execute(db)
}

/** Whether `table` is partitioned (PostgreSQL). */
async function isPartitioned (db: Kysely<any>, table: string): Promise<boolean> {
  const r = await sql`select 1 from pg_partitioned_table where partrelid = to_regclass(${table})`.execute(db)
  return r.rows.length > 0
}

/** The monthly partitions of `table` by month ('YYYY-MM'), from the catalog (pg_inherits). */
export async function monthPartitions (db: Kysely<any>, table: string): Promise<Map<string, string>> {
  const r = await sql<{ name: string }>`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = to_regclass(${table})`.execute(db)
  const out = new Map<string, string>()
  const prefix = `${table}_p`
  for (const { name } of r.rows) {
    const m = name.startsWith(prefix) ? /^(\d{4})(\d{2})$/.exec(name.slice(prefix.length)) : null
    if (m !== null) out.set(`${m[1]!}-${m[2]!}`, name)
  }
  return out
}

/** Serialise partition changes of one table across processes, for the transaction of `db`. */
async function lockPartitions (db: Kysely<any>, table: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('zonal partitions ' || current_schema() || '.' || ${table}))`.execute(db)
}

/**
 * PostgreSQL: create the partition of `month` ('YYYY-MM') of `table` when missing, moving the
 * rows the default partition holds for that month into it (a partition cannot be added while
 * the default one has rows of its range), in one transaction.
 * Resolves to whether it was created.
 */
export async function addMonthPartition (base: Kysely<any>, table: string, month: string): Promise<boolean> {
  checkMonth(month)
  return await base.transaction().execute(async (db) => {
    if (!await isPartitioned(db, table)) return false
    await lockPartitions(db, table)
    if ((await monthPartitions(db, table)).has(month)) return false
    const name = partitionName(table, month)
    const def = `${table}_default`
    await sql`create table ${sql.table(name)} (like ${sql.table(table)} including defaults)`.execute(db)
    await sql`
      with moved as (
        delete from ${sql.table(def)} where day >= ${`${month}-01`} and day < ${`${monthOf(month, 1)}-01`} returning *
      ) insert into ${sql.table(name)} select * from moved`.execute(db)
    await sql`alter table ${sql.table(table)} attach partition ${sql.table(name)} for values ${bounds(month)}`.execute(db)
    return true
  })
}

/**
 * Remove the rows of `table` of days before `firstKept` ('YYYY-MM-DD'). PostgreSQL: drop the
 * monthly partitions wholly before it, then delete by day (in the partition straddling it and
 * the default one). SQLite: delete `batch` rows a statement, letting the event loop run between
 * statements. Resolves to the rows deleted by statement and the partitions dropped.
 */
export async function removeDaysBefore (
  db: Kysely<any>, engine: EngineName, table: string, firstKept: string, batch = 5000
): Promise<{ deleted: number, dropped: string[] }> {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(firstKept)) throw new Error(`not a day: ${firstKept}`)
  const dropped: string[] = []
  let deleted = 0
  if (engine === 'postgres') {
    await db.transaction().execute(async (tx) => {
      if (!await isPartitioned(tx, table)) return
      await lockPartitions(tx, table)
      for (const [month, name] of [...await monthPartitions(tx, table)].sort()) {
        if (`${monthOf(month, 1)}-01` > firstKept) continue
        await sql`drop table ${sql.table(name)}`.execute(tx)
        dropped.push(name)
      }
    })
    const r = await sql`delete from ${sql.table(table)} where day < ${firstKept}`.execute(db)
    deleted = Number(r.numAffectedRows ?? 0)
    return { deleted, dropped }
  }
  for (;;) {
    const r = await sql`
      delete from ${sql.table(table)} where rowid in (
        select rowid from ${sql.table(table)} where day < ${firstKept} limit ${batch})`.execute(db)
    const n = Number(r.numAffectedRows ?? 0)
    deleted += n
    if (n < batch) return { deleted, dropped }
    await yieldToLoop()
  }
}
