import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import { ZonalError } from '../../errors/catalog.ts'
import type { Engine } from '../engine.ts'
import type { Database, ZoneRow } from '../schema.ts'
import type { NewZone, Scope, ZoneStore } from '../store.ts'

export class SqlZoneStore implements ZoneStore {
  constructor (private readonly db: Kysely<Database>, private readonly engine: Engine) {}

  async create (zone: NewZone): Promise<ZoneRow> {
    const now = new Date().toISOString()
    const row: ZoneRow = {
      id: randomUUID(),
      account_id: zone.accountId,
      name: zone.name,
      zone_type: zone.type,
      status: zone.status ?? 'ACTIVE',
      dnssec_status: 'UNSIGNED',
      owner: zone.owner ?? '',
      serial: 0,
      version: 0,
      record_count: 0,
      mail_monitor: 0,
      cert_enabled: 0,
      network2: 0,
      inherit: null,
      registrar_info: null,
      restrict_ip_list: null,
      tsig: null,
      notify_addresses: null,
      primary_name_servers: null,
      transfer_status: null,
      notification_email: null,
      original_zone_id: zone.originalZoneId ?? null,
      created_at: now,
      updated_at: now
    }
    try {
      await this.db.insertInto('zones').values(row).execute()
    } catch (err) {
      if (this.engine.isUniqueViolation(err)) throw new ZonalError('ZONE_ALREADY_EXISTS')
      throw err
    }
    return row
  }

  async findByName (name: string, scope: Scope): Promise<ZoneRow | undefined> {
    if (scope.accountIds.length === 0) return undefined
    return await this.db.selectFrom('zones').selectAll()
      .where('name', '=', name)
      .where('account_id', 'in', scope.accountIds)
      .executeTakeFirst()
  }

  async delete (name: string, scope: Scope): Promise<boolean> {
    if (scope.accountIds.length === 0) return false
    const r = await this.db.deleteFrom('zones')
      .where('name', '=', name)
      .where('account_id', 'in', scope.accountIds)
      .executeTakeFirst()
    return Number(r.numDeletedRows) > 0
  }
}
