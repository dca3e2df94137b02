import type { Kysely } from 'kysely'
import type { Migration, MigrationProvider } from 'kysely/migration'
import type { EngineName } from '../engine.ts'
import * as m0001 from './0001-foundation.ts'
import * as m0002 from './0002-zone-order.ts'
import * as m0003 from './0003-tasks.ts'
import * as m0004 from './0004-rrsets.ts'
import * as m0005 from './0005-zone-changes.ts'
import * as m0006 from './0006-audit-object.ts'
import * as m0007 from './0007-record-text.ts'
import * as m0008 from './0008-zone-settings.ts'
import * as m0009 from './0009-zone-snapshots.ts'
import * as m0010 from './0010-zone-name-reversed.ts'
import * as m0011 from './0011-query-counts.ts'
import * as m0012 from './0012-report-requests.ts'
import * as m0013 from './0013-raw-queries.ts'
import * as m0015 from './0015-host-volume.ts'
import * as m0016 from './0016-analytics-partitions.ts'
import * as m0017 from './0017-client-responses.ts'
import * as m0018 from './0018-query-volume-months.ts'
import * as m0019 from './0019-health-checks.ts'
import * as m0020 from './0020-dangling-dns.ts'
import * as m0021 from './0021-usage.ts'
import * as m0022 from './0022-traffic.ts'
import * as m0023 from './0023-dnssec.ts'
import * as m0024 from './0024-web-forwards.ts'

interface EngineMigration {
  up (db: Kysely<any>, engine: EngineName): Promise<void>
}

/** Every migration in order. A new one is a new file and one line here; never edit a landed one. */
const migrations: Record<string, EngineMigration> = {
  '0001-foundation': m0001,
  '0002-zone-order': m0002,
  '0003-tasks': m0003,
  '0004-rrsets': m0004,
  '0005-zone-changes': m0005,
  '0006-audit-object': m0006,
  '0007-record-text': m0007,
  '0008-zone-settings': m0008,
  '0009-zone-snapshots': m0009,
  '0010-zone-name-reversed': m0010,
  '0011-query-counts': m0011,
  '0012-report-requests': m0012,
  '0013-raw-queries': m0013,
  '0015-host-volume': m0015,
  '0016-analytics-partitions': m0016,
  '0017-client-responses': m0017,
  '0018-query-volume-months': m0018,
  '0019-health-checks': m0019,
  '0020-dangling-dns': m0020,
  '0021-usage': m0021,
  '0022-traffic': m0022,
  '0023-dnssec': m0023,
  '0024-web-forwards': m0024
}

/** Kysely migration provider that hands each migration the engine it runs on. */
export class ZonalMigrationProvider implements MigrationProvider {
  private readonly engine: EngineName

  constructor (engine: EngineName) {
    this.engine = engine
  }

  async getMigrations (): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {}
    for (const [name, m] of Object.entries(migrations)) {
      out[name] = { up: (db) => m.up(db, this.engine) }
    }
    return out
  }
}
