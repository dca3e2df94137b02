import type { EngineName } from './engine.ts'
import type { AccountRow, AuditRow, ReportRequestRow, TaskRow, UserRow, ZoneRow } from './schema.ts'
import type { ClientCountRow } from '../analytics/client-count-sink.ts'
import type { RawSample } from '../analytics/raw-sample-sink.ts'
import type { ZoneRecord } from '../zone/record.ts'
import type { PoolProfile } from '../zone/pools/profile.ts'
import type { SealedSecret, ZoneSettings } from '../zone/settings.ts'
import type { StatusCounts } from '../health/score.ts'
import type { WebForward } from '../forwards/model.ts'

/**
 * The store interfaces: the only way the rest of the service reaches the database.
 * Lookups return `undefined` for "not found" (STYLE.md §4.4); the domain layer decides which
 * error that is. Driver errors never leave the store: a unique violation becomes the domain
 * error named by each method, anything else propagates as an unexpected error (a 500).
 *
 * Reads of tenant data take a {@link Scope}: the accounts the caller may read. The scope is part
 * of the query itself, so objects of other accounts are simply not found.
 */
export interface Scope {
  readonly accountIds: readonly string[]
}

export interface AccountMembership {
  accountId: string
  accountName: string
  group: string
}

export interface AccountSummary extends AccountRow {
  numberOfUsers: number
  numberOfGroups: number
  ownerUserName: string | null
}

export interface AccountStore {
  /** @throws ZonalError ACCOUNT_ALREADY_EXISTS */
  create (name: string, accountType?: string): Promise<AccountRow>
  findByName (name: string): Promise<AccountRow | undefined>
  findById (id: string): Promise<AccountRow | undefined>
  list (): Promise<AccountRow[]>
  /** Accounts of `scope` with their user counts and first Owner, ordered by name. */
  summaries (scope: Scope): Promise<AccountSummary[]>
  count (): Promise<number>
}

export interface UserStore {
  /** @throws ZonalError USER_ALREADY_EXISTS */
  create (username: string, passwordHash: string): Promise<UserRow>
  findByUsername (username: string): Promise<UserRow | undefined>
  findById (id: string): Promise<UserRow | undefined>
  list (): Promise<UserRow[]>
  count (): Promise<number>
  setPassword (userId: string, passwordHash: string): Promise<void>
  setStatus (userId: string, status: UserRow['status']): Promise<void>
  /**
   * Take one login attempt for the user, in one statement (concurrent attempts cannot all pass):
   * refused (false) while the user is locked at `now`; otherwise the attempt counts as a failure
   * until {@link resetFailedLogins} (a lock that has run out starts the count again), and the
   * attempt that brings the count to `maxFailures` (when above 0) locks the user until `lockUntil`.
   */
  claimLoginAttempt (userId: string, now: string, maxFailures: number, lockUntil: string): Promise<boolean>
  resetFailedLogins (userId: string): Promise<void>
  /** Put the user in `group` of the account, replacing an earlier group there. */
  grant (userId: string, accountId: string, group: string): Promise<void>
  memberships (userId: string): Promise<AccountMembership[]>
  /**
   * Delete a user; its memberships and tokens go with it, its tasks keep no user (foreign keys).
   * Audit records name users by text and stay. Returns whether the user existed.
   */
  delete (userId: string): Promise<boolean>
}

export interface NewToken {
  tokenHash: string
  kind: 'access' | 'refresh'
  userId: string
  familyId: string
  expiresAt: string
}

export interface TokenRecord extends NewToken {
  id: string
  createdAt: string
}

/** The holder of a valid access token: its user and the user's memberships. */
export interface BearerHolder {
  userId: string
  username: string
  /** When the token expires (ISO 8601 UTC). */
  expiresAt: string
  memberships: AccountMembership[]
}

export interface TokenStore {
  insert (token: NewToken): Promise<TokenRecord>
  findByHash (tokenHash: string): Promise<TokenRecord | undefined>
  /**
   * The holder of the access token of this hash when it has not expired at `now` and its user is
   * ACTIVE, with the user's memberships (by account name), in one statement; else undefined.
   */
  findBearer (tokenHash: string, now: string): Promise<BearerHolder | undefined>
  /** Delete one token family (an access token and the refresh token issued with it). */
  deleteFamily (familyId: string): Promise<number>
  deleteForUser (userId: string): Promise<number>
  deleteExpired (now: string): Promise<number>
}

export interface NewZone {
  accountId: string
  /** The account's name key (lower case), kept on the zone for the list's account order. */
  accountNameKey: string
  name: string
  type: ZoneRow['zone_type']
  status?: ZoneRow['status']
  owner?: string
  originalZoneId?: string | null
  serial?: number
  recordCount?: number
  /** Settings other than the defaults (`EMPTY_SETTINGS`). */
  settings?: Partial<ZoneSettings>
}

/** The zone columns the store encodes from and decodes into {@link ZoneSettings} (`sql/codec.ts`). */
export type ZoneSettingsColumn = 'restrict_ip_list' | 'tsig' | 'notify_addresses' | 'primary_name_servers' | 'transfer_status' |
  'notification_email' | 'inherit' | 'registrar_info' | 'mail_monitor' | 'cert_enabled' | 'valimail_monitor'

/** A zone as the store gives it: its row, with the settings decoded. */
export interface Zone extends Omit<ZoneRow, ZoneSettingsColumn> {
  settings: ZoneSettings
}

/**
 * What a zone update may change; `version` and `updated_at` move on every update. `settings`
 * replaces the settings it names and keeps the others.
 */
export type ZoneChanges = Partial<Pick<ZoneRow, 'zone_type' | 'status' | 'dnssec_status' | 'serial' | 'record_count' | 'original_zone_id'>> & {
  settings?: Partial<ZoneSettings>
}

/** A zone with its account's display name. */
export interface ZoneWithAccount extends Zone {
  account_name: string
}

/**
 * A zone as the zone list reads it: its row without the settings kept as JSON (never read for a
 * list), with its account's display name and the settings a list shows.
 */
export interface ListedZone extends Omit<ZoneRow, ZoneSettingsColumn> {
  account_name: string
  settings: Pick<ZoneSettings, 'mailMonitor' | 'certEnabled' | 'valimailMonitor'>
}

export type ZoneSort = 'NAME' | 'ACCOUNT_NAME' | 'RECORD_COUNT' | 'ZONE_TYPE'

/** Filters of the zone list (`q` of `GET /zones`). */
export interface ZoneFilter {
  /** Substring of the zone name (lower case). */
  name?: string
  type?: ZoneRow['zone_type']
  /** Undefined: every status. */
  status?: ZoneRow['status']
  accountNameKey?: string
  network2?: boolean
  /** Only the v1/v2 lists filter by DNSSEC state (`q=dnssec_status:`). */
  dnssecStatus?: ZoneRow['dnssec_status']
}

/** Position of a keyset page: the sort value and name of the row next to it. */
export interface ZoneCursor {
  value: string | number
  name: string
}

export interface ZoneListQuery {
  scope: Scope
  filter: ZoneFilter
  sort: ZoneSort
  /** Descending instead of ascending. */
  reverse: boolean
  limit: number
  /** Rows strictly after this position in the (possibly reversed) order. */
  after?: ZoneCursor
  /**
   * Rows strictly before this position (read backwards, returned in list order); `'end'`: the
   * last `limit` rows of the list (the "last page").
   */
  before?: ZoneCursor | 'end'
  /** Offset paging (v1/v2 lists). */
  offset?: number
}

export interface ZoneStore {
  /** @throws ZonalError ZONE_ALREADY_EXISTS */
  create (zone: NewZone): Promise<Zone>
  findByName (name: string, scope: Scope): Promise<ZoneWithAccount | undefined>
  /**
   * {@link findByName} with the presentation rdata of the zone's rrset of `type` at its apex
   * (`apexKey`: the apex's owner key) read in the same statement; `apexRdataText` undefined when
   * the zone has no such rrset.
   */
  findWithApex (name: string, scope: Scope, apexKey: string, type: number): Promise<{ zone: ZoneWithAccount, apexRdataText: string[] | undefined } | undefined>
  /** Whether a zone of this name exists in any account. */
  exists (name: string): Promise<boolean>
  /**
   * Zones of accounts other than `accountId` named one of `ancestors` or whose names end in
   * `.name` (maybe below it: the caller compares labels), at most `limit`. On PostgreSQL it first
   * takes a transaction lock that zone creations share, so two creations cannot both pass this
   * check before either inserts (SQLite write transactions are serialised already); call it in
   * the transaction that creates the zone.
   */
  othersAround (name: string, ancestors: readonly string[], accountId: string, limit: number): Promise<Array<{ name: string, accountId: string }>>
  findById (id: string): Promise<ZoneWithAccount | undefined>
  /**
   * Read a zone for a change inside a transaction, locking its row until the transaction ends
   * (PostgreSQL `FOR UPDATE`; SQLite write transactions are serialised already), so changes of
   * one zone take their serials and record counts one after another.
   */
  lockById (id: string): Promise<ZoneWithAccount | undefined>
  /**
   * {@link lockById} for the zone of this name in `scope` (one statement: a write looks its zone
   * up and locks it at once); undefined when there is none the scope can read.
   */
  lockByName (name: string, scope: Scope): Promise<ZoneWithAccount | undefined>
  /** Apply changes, bump the version and the modification time; returns the new row. */
  update (id: string, changes: ZoneChanges): Promise<Zone>
  /**
   * The writes that end a change of the zone's data, in the caller's transaction after the zone
   * was locked: the rrset writes, the zone's {@link update}, the journal entry of the version
   * that update makes ({@link ZoneChangeStore.append}) and the audit record. PostgreSQL: one
   * statement (data-modifying common table expressions); SQLite: one statement each, in that
   * order. Returns the zone's new row.
   */
  writeChange (id: string, change: ZoneDataChange): Promise<Zone>
  /** Delete a zone, its records, journal and snapshot. */
  deleteById (id: string): Promise<void>
  /** Returns whether a zone of the scope was deleted. */
  delete (name: string, scope: Scope): Promise<boolean>
  /** Alias zones of a primary. */
  aliasesOf (zoneId: string): Promise<Zone[]>
  list (query: ZoneListQuery): Promise<ListedZone[]>
  count (scope: Scope, filter: ZoneFilter): Promise<number>
  /** Every zone's id, name, type, status, version and original: what the DNS index compares against. */
  versions (): Promise<ZoneVersion[]>
  /** {@link versions} of some zones (those that exist), and of the aliases of each. */
  versionsOf (ids: readonly string[]): Promise<ZoneVersion[]>
}

/**
 * One entry of the zone change journal: what the zone's `version` did to its records, from
 * SOA serial `serialFrom` to `serialTo` (the SOA records themselves are among `removed` and
 * `added`). A `reset` entry says the records were replaced wholesale, with no diff kept.
 */
export type ZoneChange =
  | { version: number, serialFrom: number, serialTo: number, reset: false, removed: ZoneRecord[], added: ZoneRecord[] }
  | { version: number, serialFrom: number, serialTo: number, reset: true }

/**
 * The zone change journal (IXFR out, other nodes' catch-up). Entries are written in the
 * transaction of the change they describe and trimmed by age and count.
 */
export interface ZoneChangeStore {
  append (zoneId: string, change: ZoneChange): Promise<void>
  /** The zone's entries after `version`, oldest first, at most `limit`. */
  since (zoneId: string, version: number, limit: number): Promise<ZoneChange[]>
  /** The zone's newest `limit` entries, oldest first. */
  latest (zoneId: string, limit: number): Promise<ZoneChange[]>
}

/**
 * One rrset write of a {@link ZoneDataChange}, as the change read the rrset after locking the
 * zone: an insert (`existed` false), an update, or a delete (`rrset` undefined).
 */
export interface RrsetWrite {
  ownerKey: string
  type: number
  existed: boolean
  rrset?: StoredRrset
}

/** A journal entry without its version (the zone update's). */
export type JournalEntry =
  | { serialFrom: number, serialTo: number, reset: false, removed: ZoneRecord[], added: ZoneRecord[] }
  | { serialFrom: number, serialTo: number, reset: true }

/** What {@link ZoneStore.writeChange} writes. */
export interface ZoneDataChange {
  rrsets: readonly RrsetWrite[]
  zone: ZoneChanges
  journal: JournalEntry
  audit?: NewAuditRecord
}

export type ZoneVersion = Pick<ZoneRow, 'id' | 'name' | 'zone_type' | 'status' | 'version' | 'serial' | 'original_zone_id'>

/** One rrset as stored: wire rdata for DNS, presentation text for the API. */
export interface StoredRrset {
  ownerKey: string
  /** Absolute owner name in presentation form, case as entered. */
  ownerName: string
  type: number
  ttl: number
  rdata: Uint8Array[]
  rdataText: string[]
  /** The pool profile, null for plain records (its kind is what `q=kind:` filters on). */
  profile: PoolProfile | null
}

/** An rrset as the API shows it: owner, type, TTL, presentation rdata and pool profile (no wire rdata). */
export type ShownRrset = Omit<StoredRrset, 'rdata'>

/** An rrset as DNS serves it: owner, type, TTL, wire rdata and pool profile. */
export type WireRrset = Pick<StoredRrset, 'ownerKey' | 'ownerName' | 'type' | 'ttl' | 'rdata' | 'profile'>

/** Orders of the rrset list (`sort=` of `GET /zones/{zoneName}/rrsets`); ties by owner, then type. */
export type RrsetSort = 'OWNER' | 'TTL' | 'TYPE' | 'VALUE'

/** Which rrsets by pool profile (`q=kind:`). */
export interface RrsetKinds {
  /** Rrsets without a profile (`RECORDS`). */
  records: boolean
  /** Rrsets with any profile (`POOLS`: true), or with a profile of these kinds (`RD_POOLS` …). */
  pools: boolean | readonly string[]
}

/** The rrsets of one zone a list reads; every field narrows. */
export interface RrsetFilter {
  zoneId: string
  ownerKey?: string
  type?: number
  ttl?: number
  /** Substring of the absolute owner name, any case. */
  ownerSubstring?: string
  /** Substring of the presentation rdata, any case. */
  valueSubstring?: string
  /** Undefined: every kind (`kind:ALL`). */
  kinds?: RrsetKinds
  /** Types left out when the zone is signed (`zones.dnssec_status` SIGNED): its DNSSEC records. */
  hiddenWhenSigned?: readonly number[]
}

export interface RrsetPageQuery extends RrsetFilter {
  sort: RrsetSort
  /** Descending instead of ascending. */
  reverse: boolean
  offset: number
  limit: number
}

/**
 * A zone's rrsets. Writing them neither moves the zone's version nor announces the zone: write
 * them in the transaction that updates (or creates) the zone row, as every change of the API
 * does, or the zone sync of every node keeps serving the zone without them.
 */
export interface RrsetStore {
  insertMany (zoneId: string, rrsets: readonly StoredRrset[]): Promise<void>
  deleteAll (zoneId: string): Promise<void>
  /** Replace (or add) the rrset of the same owner and type. */
  replace (zoneId: string, rrset: StoredRrset): Promise<void>
  /** Rrsets in canonical order (owner key, then type), a page at a time after a position. */
  list (zoneId: string, limit: number, after?: { ownerKey: string, type: number }): Promise<StoredRrset[]>
  /**
   * {@link list} without the presentation text: what loading a zone for DNS, exports and
   * transfers read (a million records read in far less time and garbage).
   */
  listWire (zoneId: string, limit: number, after?: { ownerKey: string, type: number }): Promise<WireRrset[]>
  /** Number of records (not rrsets) of the zone. */
  countRecords (zoneId: string): Promise<number>
  /** One rrset by owner and type (one unique-index lookup). */
  get (zoneId: string, ownerKey: string, type: number): Promise<StoredRrset | undefined>
  /** Several rrsets by owner and type, in one statement: each key's rrset, undefined when absent. */
  getMany (zoneId: string, keys: ReadonlyArray<{ ownerKey: string, type: number }>): Promise<Array<StoredRrset | undefined>>
  /**
   * One page of a zone's rrsets matching `query`, in its order, by offset. Every order reads an
   * index of the zone and stops after `offset + limit` rows when the filter is an index prefix.
   */
  listPage (query: RrsetPageQuery): Promise<StoredRrset[]>
  /** How many rrsets match `filter` (a count over the zone's index range). */
  countPage (filter: RrsetFilter): Promise<number>
  /**
   * {@link listPage} and {@link countPage} of the zone named `zoneName` in `scope`, the zone found
   * in the same statement, without wire rdata: what an API read of rrsets shows. Only a zone that
   * is not an alias (an alias has no rrsets of its own). Undefined when the page has no row: no
   * such zone, an alias, or nothing matched at that offset (the caller tells them apart).
   */
  pageOfZone (zoneName: string, scope: Scope, query: Omit<RrsetPageQuery, 'zoneId'>): Promise<{ rrsets: ShownRrset[], total: number } | undefined>
  /** Delete the rrsets of these owners and types (in batches, inside the caller's transaction). */
  deleteMany (zoneId: string, keys: ReadonlyArray<{ ownerKey: string, type: number }>): Promise<void>
  /** Delete one rrset; returns whether it existed. */
  delete (zoneId: string, ownerKey: string, type: number): Promise<boolean>
  /** Types of the rrsets at one owner, ascending. */
  typesAt (zoneId: string, ownerKey: string): Promise<number[]>
  /**
   * What the placement rules of a new rrset read, in one statement: the types at the owner
   * (ascending) and which of the owner keys `above` hold a DNAME.
   */
  placement (zoneId: string, ownerKey: string, above: readonly string[]): Promise<{ types: number[], dnames: Set<string> }>
  /**
   * What an rrset change reads after locking its zone, in one statement: {@link getMany} of
   * `keys` and {@link placement} of `ownerKey` and `above`.
   */
  readForChange (zoneId: string, keys: ReadonlyArray<{ ownerKey: string, type: number }>, ownerKey: string, above: readonly string[]): Promise<{ rrsets: Array<StoredRrset | undefined>, types: number[], dnames: Set<string> }>
  /** Whether any rrset lies strictly below the owner (RFC 6672: nothing below a DNAME). */
  hasBelow (zoneId: string, ownerKey: string): Promise<boolean>
  /**
   * The owner and type of the rrsets at the owners `ownerKeys` but those of `exceptTypes`, in
   * canonical order, without rdata (point lookups of the (zone, owner, type) index, in batches):
   * what the types at a change's owners and their ancestors are.
   */
  ownerTypesAt (zoneId: string, ownerKeys: readonly string[], exceptTypes: readonly number[]): Promise<Array<{ ownerKey: string, ownerName: string, type: number }>>
  /**
   * The owner and type of the rrsets strictly below `ownerKey` (every owner key it prefixes)
   * but those of `exceptTypes`, a page of at most `limit` rows in canonical order after a
   * position: one index range, read only as far as the caller pages.
   */
  ownerTypesBelow (zoneId: string, ownerKey: string, exceptTypes: readonly number[], limit: number, after?: { ownerKey: string, type: number }): Promise<Array<{ ownerKey: string, ownerName: string, type: number }>>
  /** {@link listWire} of the rrsets at `ownerKey` and below it (a subtree), a page at a time after a position. */
  listWireSubtree (zoneId: string, ownerKey: string, limit: number, after?: { ownerKey: string, type: number }): Promise<WireRrset[]>
  /**
   * For each of `ownerKeys`, the greatest owner key below it (in canonical order) holding an
   * rrset of `type`, undefined when none does; without `ownerKeys`' own rrsets. One statement
   * per batch, each key a reverse step on the (zone, type, owner) index: how a denial chain finds
   * the predecessor of a name.
   */
  precedingOwners (zoneId: string, type: number, ownerKeys: readonly string[]): Promise<Array<string | undefined>>
  /** The greatest owner key holding an rrset of `type` (where a denial chain wraps), undefined when none does. */
  lastOwnerOf (zoneId: string, type: number): Promise<string | undefined>
}

/** A zone's snapshot: when it was taken, and the zone's SOA serial and record count then. */
export interface ZoneSnapshot {
  zoneId: string
  serial: number
  recordCount: number
  createdAt: string
}

/**
 * Zone snapshots, at most one per zone (UltraDNS "Zone Snapshot and Restore"). Copies run inside
 * the database (`INSERT … SELECT`): no rrset of a zone passes through the process, whatever the
 * zone's size. Deleting a zone deletes its snapshot.
 */
export interface ZoneSnapshotStore {
  /** Replace the zone's snapshot by a copy of its rrsets now, with `info` about it. */
  take (zoneId: string, info: Omit<ZoneSnapshot, 'zoneId'>): Promise<ZoneSnapshot>
  find (zoneId: string): Promise<ZoneSnapshot | undefined>
  /** The snapshot's rrsets in canonical order (owner key, then type), a page at a time after a position. */
  list (zoneId: string, limit: number, after?: { ownerKey: string, type: number }): Promise<StoredRrset[]>
  /** Replace the zone's rrsets by the snapshot's; false (and nothing changed) when it has none. */
  restore (zoneId: string): Promise<boolean>
}

export interface NewTask {
  accountId: string | null
  userId: string | null
  kind: string
  message: string
  /** JSON-serialisable input of the job (for an export: the zone ids). */
  payload?: unknown
}

/** A task without its result file: what status and list calls read. */
export type TaskInfo = Omit<TaskRow, 'result_data'> & { has_data: boolean }

/** The file a finished task produced (`GET /tasks/{id}/result`). */
export interface TaskResultFile {
  data: Uint8Array
  /** Exactly `text/plain` or `application/zip` for exports: no charset. */
  contentType: string
  /** Without the dot: `zone`, `zip`. */
  extension: string
  fileName: string
}

export type TaskSort = 'CODE' | 'CONTENT_TYPE' | 'EXTENSIONS' | 'HAS_DATA' | 'DATE'

export interface TaskListQuery {
  code?: TaskRow['code']
  hasData?: boolean
  offset: number
  limit: number
  sort: TaskSort
  /** Descending instead of ascending. */
  reverse: boolean
}

/** What {@link TaskStore.recoverExpired} did. */
export interface RecoveredTasks {
  /** Back to PENDING, to be run again. */
  requeued: number
  /** Out of attempts: now ERROR. */
  failed: number
}

/**
 * Durable background tasks. A worker claims a PENDING task with a lease (`locked_by`,
 * `locked_until`); every later write of the worker names its `workerId` and is refused (returns
 * false) once the lease went to someone else, so a worker that lost its task cannot overwrite it.
 */
export interface TaskStore {
  create (task: NewTask): Promise<TaskRow>
  findById (id: string, scope: Scope): Promise<TaskInfo | undefined>
  /** The result file of a COMPLETE task of the scope that has one. */
  result (id: string, scope: Scope): Promise<TaskResultFile | undefined>
  list (scope: Scope, query: TaskListQuery): Promise<{ rows: TaskInfo[], total: number }>
  /** Returns whether a task of the scope was deleted. */
  delete (id: string, scope: Scope): Promise<boolean>
  /**
   * Atomically take the oldest PENDING task whose `run_at` has come: IN_PROCESS, locked by
   * `workerId` for `leaseSeconds`, attempts + 1. Several workers (and nodes) never get the same
   * task (PostgreSQL: `FOR UPDATE SKIP LOCKED`; SQLite serialises writers).
   */
  claim (workerId: string, leaseSeconds: number): Promise<TaskRow | undefined>
  /** Record progress (`progress` in percent, 0–100) and extend the lease. */
  progress (id: string, workerId: string, message: string, progress: number, leaseSeconds: number): Promise<boolean>
  /** Extend the lease only (the runner's heartbeat while a job runs). */
  heartbeat (id: string, workerId: string, leaseSeconds: number): Promise<boolean>
  /** COMPLETE with an optional result file; releases the lease. */
  complete (id: string, workerId: string, result: TaskResultFile | null, message: string): Promise<boolean>
  /** ERROR with the reason; releases the lease. */
  fail (id: string, workerId: string, message: string): Promise<boolean>
  /**
   * Tasks IN_PROCESS whose lease expired (their worker stopped): back to PENDING while
   * attempts < `maxAttempts`, else ERROR "Task failed: the worker running it stopped (N attempts)".
   */
  recoverExpired (maxAttempts: number): Promise<RecoveredTasks>
  /** Delete COMPLETE and ERROR tasks last changed before `iso`; returns how many. */
  deleteFinishedBefore (iso: string): Promise<number>
}

/** What an audit record says changed (`detail` of the audit log). */
export interface AuditDetail {
  changes?: { name: string, from?: unknown, to?: unknown }[]
  others?: unknown[]
}

/** An audit record as the log reads it: its row, the detail decoded. */
export type AuditEntry = Omit<AuditRow, 'detail'> & { detail: AuditDetail }

export interface NewAuditRecord {
  accountId: string | null
  accountName: string | null
  user: string
  ipAddress: string | null
  objectType: string
  changeType: string
  object: string
  parent?: string | null
  detail?: AuditDetail
  changeComment?: string | null
  changeTime?: string
}

/** A record's place in the audit log's order (newest first: change time, then id). */
export interface AuditPosition {
  time: string
  id: number
}

/**
 * A query of the audit log: records of `accountIds` changed in [`from`, `to`) that match every
 * non-empty list (any value of a list). Text matches ignore case; `objectNames`,
 * `parentNames` and `changeComments` are SQL LIKE patterns (escape character `\`).
 */
export interface AuditQuery {
  accountIds: readonly string[]
  from: string
  to: string
  users?: readonly string[]
  /** Exact object names, lower case (a record matches these or `objectNames`). */
  objects?: readonly string[]
  objectNames?: readonly string[]
  objectTypes?: readonly string[]
  changeTypes?: readonly string[]
  parentNames?: readonly string[]
  changeComments?: readonly string[]
  limit: number
  /** Only records older than this (the next page). */
  after?: AuditPosition
  /** Only records newer than this (the previous page: the `limit` oldest of them). */
  before?: AuditPosition
}

/** The distinct values of an audit window, for the filter list. */
export interface AuditFilterValues {
  objectTypes: string[]
  changeTypes: string[]
  users: string[]
  accounts: string[]
}

export interface AuditStore {
  append (record: NewAuditRecord): Promise<void>
  /** Newest first, whatever the direction read. */
  list (query: AuditQuery): Promise<AuditEntry[]>
  /** Sorted distinct object types, change types, users and account names in the window. */
  filterValues (accountIds: readonly string[], from: string, to: string): Promise<AuditFilterValues>
  /** Delete records changed before `iso` (the retention setting, never the API); returns how many. */
  deleteBefore (iso: string, batch?: number): Promise<number>
  /** Newest first; for tests. */
  recent (limit: number, changeType?: string): Promise<AuditRow[]>
}

/**
 * One row of aggregated query counts: the key (day 'YYYY-MM-DD' UTC, zone as a presentation
 * name or '' for queries no zone answered, node) and the counters to add, by column
 * (`query-count-columns.ts`); a counter left out adds nothing.
 */
export interface QueryCountRow {
  day: string
  zone: string
  node: string
  counts: Partial<Record<string, number>>
}

/** Keys a count report sorts by: zone name, first and last day with data, total, day. */
/** `host` and `nxdomain` only for the per-host reads. */
export type CountSortKey = 'zone' | 'start' | 'end' | 'total' | 'day' | 'host' | 'nxdomain'

/**
 * What a report reads of the query counts: the zones of `accountIds` (counts are kept by zone
 * name and belong to the account that holds the zone now), days `from`–`to` inclusive
 * ('YYYY-MM-DD'), every node summed; ordered by `sort` (then by the zone and day for a stable
 * order), a page from `offset`.
 */
export interface CountReportQuery {
  accountIds: string[]
  zone?: string
  /** Any of these zones (per-host reads). */
  zones?: string[]
  /** This host only (per-host reads). */
  host?: string
  from: string
  to: string
  sort: Array<[CountSortKey, 'ASC' | 'DESC']>
  offset: number
  limit: number
}

/** Counters summed over a group of days, with the group's first and last day with data. */
export interface CountedRow {
  zone: string
  /** The question name, in the per-host reads. */
  host?: string
  accountName: string
  /** First and last day with data in the group ('YYYY-MM-DD'). */
  start: string
  end: string
  counts: Record<string, number>
}

/** Aggregated query counts (query volume and response codes), added to, never replaced. */
export interface QueryCountStore {
  /** Query volume per zone and calendar month (the zone query volume report). */
  volumeByMonth (q: CountReportQuery): Promise<CountedRow[]>
  /** Query volume per zone and day (the zone daily query volume report; `start` = `end` = the day). */
  volumeByDay (q: CountReportQuery): Promise<CountedRow[]>
  /** Response codes per zone over the whole range (the advanced response codes report). */
  responseCodesByZone (q: CountReportQuery): Promise<CountedRow[]>
  /** Responses per day over every zone of the accounts (the projected query volume report). */
  dailyTotals (accountIds: string[], from: string, to: string): Promise<Array<{ day: string, total: number }>>
  /**
   * Add one flush of counts in one transaction: each row's counters are added to the stored
   * row of its (day, zone, node), created when missing. Throws (adding nothing) on failure.
   */
  add (flush: { volume: QueryCountRow[], rcodes: QueryCountRow[] }): Promise<void>
}

/**
 * One row of query counts per host: the key (day 'YYYY-MM-DD' UTC, zone as a presentation name,
 * host = the question name in presentation form or the overflow host, node) and the counters to
 * add, volume and response code ones alike (`query-count-columns.ts`).
 */
export interface HostVolumeRow {
  day: string
  zone: string
  host: string
  node: string
  counts: Partial<Record<string, number>>
}

/** Query counts per host (`host_volume`), added to, never replaced. */
export interface HostVolumeStore {
  /** Add the rows in one transaction (see {@link QueryCountStore.add}); throws, adding nothing, on failure. */
  add (rows: HostVolumeRow[]): Promise<void>
  /** Query volume per zone and host over the whole range (the host query volume report). */
  volumeByHost (q: CountReportQuery): Promise<CountedRow[]>
  /**
   * NXDOMAIN responses per zone and host over the whole range, hosts with at least one
   * (the advanced NXDOMAIN report); `counts` has `nxdomain` and `rsp_total`.
   */
  nxdomainsByHost (q: CountReportQuery): Promise<CountedRow[]>
}

/** What one table's retention removed. */
export interface AnalyticsPruned {
  table: string
  /** The first day kept, 'YYYY-MM-DD'. */
  firstKept: string
  /** Rows deleted one by one (PostgreSQL: of the month straddling the limit and the default partition). */
  deleted: number
  /** Monthly partitions dropped whole (PostgreSQL). */
  droppedPartitions: string[]
}

/**
 * Upkeep of the query analytics tables (`analytics-tables.ts`), for the retention job; never
 * inside a transaction.
 */
export interface AnalyticsDataStore {
  /** PostgreSQL: create the partitions of the month of `now` and the next one where missing; resolves to them ('table YYYY-MM'). */
  preparePartitions (now: Date): Promise<string[]>
  /** Remove the rows of every analytics table older than its retention at `now`. */
  prune (now: Date): Promise<AnalyticsPruned[]>
}

/** A report request as `POST /reports/...` creates it (see {@link ReportRequestStore}). */
export interface NewReportRequest {
  /** `<prefix>-<hex>`, e.g. `PQV-3f9a0c2e1b7d4a55`. */
  id: string
  /** The report's kind (its path), which the job computing it looks up. */
  kind: string
  userId: string | null
  taskId: string | null
  /** The accounts the report covers: who may read it back. */
  accountIds: string[]
  /** JSON-serialisable: the parsed request, offset and limit. */
  params: unknown
  createdAt: string
  expiresAt: string
}

/**
 * Report requests: created PENDING (with the task that computes them), then COMPLETE with the
 * page of rows (gzip-compressed JSON) or ERROR with a message; deleted once expired. Access is
 * checked by the caller against `account_ids`.
 */
export interface ReportRequestStore {
  create (request: NewReportRequest): Promise<void>
  find (id: string): Promise<ReportRequestRow | undefined>
  complete (id: string, result: { rows: Uint8Array, rowCount: number, hasNext: boolean }, at: string): Promise<void>
  fail (id: string, message: string, at: string): Promise<void>
  /** Delete the requests whose `expires_at` is at or before `at`; returns how many. */
  deleteExpired (at: string): Promise<number>
}

/**
 * One raw query sample: a response the service sent, as captured (analytics/raw-sample-sink.ts).
 * Names in presentation form ('' for none), the zone as the name of the zone that answered.
 */
export type RawQueryRow = RawSample

/** A page of raw query samples for the raw query report. */
export interface RawQueryReportQuery {
  /** The zones of these accounts (a sample of no zone, or another account's, is never read). */
  accountIds: string[]
  /** One zone (presentation name with the final dot). */
  zone?: string
  /** Packet times from `from` to `to`, both included ('YYYY-MM-DDTHH:mm:ss.SSSZ'). */
  from: string
  to: string
  offset: number
  limit: number
}

/**
 * One row of responses per client (migration 0017): the key (day 'YYYY-MM-DD' UTC, zone as a
 * presentation name or '', client address, node, country, region, city), the client's network
 * (`classC`) and the responses to add. The overflow row of a (day, zone, node) has clientIp,
 * classC and the place ''.
 */
export type ClientResponseRow = ClientCountRow

/** What the client IP directional report asks for: one network, a range of days, the accounts' zones. */
export interface ClientResponseQuery {
  accountIds: readonly string[]
  /** The network as stored (`a.b.c.0`, an IPv6 /48 as `2001:db8:1::`). */
  classC: string
  /** Inclusive, 'YYYY-MM-DD'. */
  from: string
  to: string
  /** A presentation name with the final dot, lower-case. */
  zone?: string
  clientIp?: string
  /** Compared case-insensitively (the stored values are lower-case). */
  country?: string
  region?: string
  city?: string
  offset: number
  limit: number
}

/** Raw query samples: added every flush; deleted by the retention job only. */
export interface RawQueryStore {
  /**
   * The samples of the accounts' zones in the time range, ordered by packet time then packet
   * id, from `offset`, at most `limit`, each with its zone's account name.
   */
  report (q: RawQueryReportQuery): Promise<Array<RawQueryRow & { accountName: string }>>
  /**
   * Add the rows in one transaction; a row whose (day, packet_id) is already stored is left
   * out. Resolves to the number of rows added; throws (adding nothing) on failure.
   */
  add (rows: readonly RawQueryRow[]): Promise<number>
}

/**
 * One report row: the responses of a client address at a place answered by a node, over the
 * zones of an account, with the first and last day in the range that had any.
 */
export interface ClientResponseReportRow {
  accountId: string
  classC: string
  clientIp: string
  country: string
  region: string
  city: string
  node: string
  firstDay: string
  lastDay: string
  responses: number
}

/** What the country and network reports ask for: the accounts' zones (or one), a range of days. */
export interface ClientTrafficQuery {
  accountIds: readonly string[]
  /** Inclusive, 'YYYY-MM-DD'. */
  from: string
  to: string
  /** A presentation name with the final dot, lower-case. */
  zone?: string
  offset: number
  limit: number
}

/** The responses of one zone by country (stored names; '' unknown), with its first and last day in the range that had any. */
export interface ClientZoneCountries {
  accountId: string
  zone: string
  firstDay: string
  lastDay: string
  countries: Array<{ country: string, responses: number }>
}

/** What the class C network ranking asks for: the country, when given, compared case-insensitively. */
export interface ClientNetworkQuery extends ClientTrafficQuery {
  country?: string
}

/** The responses to the clients of one network over the zones of an account, with the first and last day that had any. */
export interface ClientNetworkRow {
  accountId: string
  classC: string
  firstDay: string
  lastDay: string
  responses: number
}

/** Responses per client, added to, never replaced. */
export interface ClientResponseStore {
  /** Add one flush in one transaction (each row to the stored row of its key, created when missing). Throws (adding nothing) on failure. */
  add (rows: readonly ClientResponseRow[]): Promise<void>
  /**
   * The report's rows: grouped by account, client address, place and node; ordered by client
   * address (numerically within an IPv4 /24), node, country, region, city, account.
   */
  report (q: ClientResponseQuery): Promise<ClientResponseReportRow[]>
  /**
   * The zones of the accounts with responses in the range, ordered by zone name,
   * from `offset`, at most `limit`, each with its responses by country (in country order).
   */
  countriesByZone (q: ClientTrafficQuery): Promise<ClientZoneCountries[]>
  /**
   * Responses per (account, class C network) over the accounts' zones and the days of the
   * range, ordered by responses (most first), network, account; the overflow row (network '')
   * is left out.
   */
  networks (q: ClientNetworkQuery): Promise<ClientNetworkRow[]>
}

/** One version of a zone's DNS health check report. */
export interface HealthReport {
  zoneId: string
  /** The start time, 'YYYY-MM-DDTHH:mm:ss.sssZ'. */
  version: string
  state: 'IN_PROGRESS' | 'COMPLETED' | 'FAILED'
  /** The report's categories and their results (JSON as written), once the check ended. */
  checks: string | null
  /** Results counted by category, then status. */
  counts: Record<string, StatusCounts> | null
  /** Why a check FAILED. */
  message: string | null
  finishedAt: string | null
}

/** A zone's newest completed health check, as the health status reports read it. */
export interface HealthSummary {
  zoneName: string
  accountName: string
  counts: Record<string, StatusCounts>
}

/**
 * DNS health check reports (migration 0019): versions per zone, the newest `keep` kept.
 */
export interface HealthCheckStore {
  /**
   * Record a check started at `version` (IN_PROGRESS) and delete the zone's older versions but
   * the newest `keep - 1`, in one transaction. Returns false when the zone has that version already.
   * @throws ZonalError ZONE_NOT_FOUND when the zone is gone
   */
  start (zoneId: string, version: string, keep: number): Promise<boolean>
  /** Record the end of a check; false when its row is gone (the zone deleted, or a newer check pushed it out). */
  finish (zoneId: string, version: string, end: { state: 'COMPLETED' | 'FAILED', checks: string | null, counts: Record<string, StatusCounts> | null, message: string | null, finishedAt: string, delegation?: string[] | null }): Promise<boolean>
  find (zoneId: string, version: string): Promise<HealthReport | undefined>
  /** The newest version of the zone's report. */
  latest (zoneId: string): Promise<HealthReport | undefined>
  /** The NS names of the zone's delegation found by its newest completed check that found one. */
  delegation (zoneId: string): Promise<string[] | undefined>
  /** The zone's versions, newest first. */
  versions (zoneId: string): Promise<string[]>
  /** The newest COMPLETED report's counts of every zone of the scope that has one. */
  summaries (scope: Scope): Promise<HealthSummary[]>
  /**
   * Every zone of the scope's accounts, by account name then zone name: its type, DNSSEC status,
   * and the counts of its newest completed check (null when never checked): what the account
   * health report reads.
   */
  accountZones (scope: Scope): Promise<Array<{ accountName: string, zoneName: string, type: string, dnssecStatus: string, counts: Record<string, StatusCounts> | null }>>
  /**
   * Zones (primary and alias, active) whose newest check started before `before`, or that were
   * never checked, those never checked first, then the oldest; at most `limit`.
   */
  due (before: string, limit: number): Promise<Array<{ id: string, name: string }>>
}

/** The counts of the usage summary (spec "Usage summary record"). */
export interface UsageCounts {
  /** Zones of the account. */
  domains: number
  /** Records: rdata entries of every rrset (the zones' recordCount). */
  records: number
  /** Records of SiteBacker (SB) and simple failover (SF) pools. */
  failoverRecords: number
  /** Records of traffic controller (TC) pools. */
  tcRecords: number
  /** Records of directional (DIR) pools. */
  dirRecords: number
  urlForwards: number
  emailForwards: number
}

/** One UTC day of usage: each count's peak over the day, and the query responses of the day. */
export interface UsageDay {
  day: string
  peaks: UsageCounts
  queryResponses: number
}

/**
 * The usage summary's records (migration 0021, `sql/usage.ts`). Every committed change of a zone
 * is accounted by the store itself, in the transaction that made it, to the UTC day of the
 * usage clock: each count of the zone's account raised to the day's peak where it rises.
 */
export interface UsageStore {
  /** The clock whose UTC day changes are accounted to (the system clock; tests move it). */
  useClock (clock: () => Date): void
  /**
   * Close the days before `now`'s (the two before it, for counts flushed late) and open
   * `now`'s: every account gets a row for each, carrying the values of its last change, and
   * the closed days their query responses (from `query_volume`, the account's zones of the
   * day). Resolves to the days closed. Idempotent; several processes may run it.
   */
  closeDays (now: Date): Promise<string[]>
  /**
   * Per day of [from, to] ('YYYY-MM-DD'), the usage of the accounts summed: peaks (a day
   * without a change carries the values of the last one before it) and query responses (days
   * not closed yet read from `query_volume` as they stand).
   */
  days (accountIds: readonly string[], from: string, to: string): Promise<UsageDay[]>
}

export interface Store {
  readonly engine: EngineName
  readonly accounts: AccountStore
  readonly users: UserStore
  readonly tokens: TokenStore
  readonly zones: ZoneStore
  readonly rrsets: RrsetStore
  readonly tasks: TaskStore
  readonly audit: AuditStore
  readonly zoneChanges: ZoneChangeStore
  readonly snapshots: ZoneSnapshotStore
  readonly queryCounts: QueryCountStore
  readonly rawQueries: RawQueryStore
  readonly hostVolume: HostVolumeStore
  readonly analyticsData: AnalyticsDataStore
  readonly reportRequests: ReportRequestStore
  readonly clientResponses: ClientResponseStore
  readonly healthChecks: HealthCheckStore
  readonly danglingReports: DanglingReportStore
  readonly usage: UsageStore
  readonly traffic: TrafficStore
  readonly dnssec: DnssecStore
  readonly webForwards: WebForwardStore
  /**
   * Watch zone changes: `onZone(id)` after each committed change of a zone by this process (and,
   * on PostgreSQL, by every process on the database, through LISTEN/NOTIFY); `onResync()` when
   * changes may have been missed (another process wrote to the SQLite file, the PostgreSQL
   * listener reconnected), so every zone's version should be compared. Best effort: a watcher
   * still compares versions now and then. Resolves to a function that stops watching.
   */
  watchZones (onZone: (zoneId: string) => void, onResync: () => void): Promise<() => Promise<void>>
  /**
   * Watch changes to who may use the API: `onChange()` after each committed revocation of tokens
   * (`tokens.deleteFamily`, `tokens.deleteForUser`) or change of a user's password, status or
   * memberships, or deletion of a user, by this process at once (before the committing call
   * returns) and, on PostgreSQL, by every process on the database (LISTEN/NOTIFY, delivered
   * moments after their commit; also after the listener reconnected); on SQLite whenever another
   * process committed anything to the file (`PRAGMA data_version`, looked at every 200 ms).
   * Resolves to a function that stops watching.
   */
  watchAuth (onChange: () => void): Promise<() => Promise<void>>
  /** Run `fn` in one transaction; inside one, run it in the same transaction. */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>
  /** Apply pending migrations; returns the names applied. */
  migrate (): Promise<string[]>
  close (): Promise<void>
}

/** One record a dangling DNS scan flagged: a CNAME whose target does not resolve. */
export interface DanglingFinding {
  /** The record's owner, presentation form. */
  ownerName: string
  type: number
  /** The record's rdata, presentation form (the CNAME target). */
  rdataText: string
  /** Where following the target stopped: the name that gave NXDOMAIN or an error, presentation form. */
  ultimateTarget: string
  description: string
}

/** A zone's latest dangling DNS report, with the state of the task running its scan. */
export interface DanglingReport {
  zoneId: string
  accountId: string
  /** When the scan started (ISO 8601 UTC): the report's version. */
  version: string
  taskId: string | null
  status: 'IN_PROGRESS' | 'COMPLETED' | 'FAILED'
  message: string | null
  /** The flagged records, once COMPLETED. */
  findings: DanglingFinding[] | null
  finishedAt: string | null
  /** The scan's task (code and message), undefined when the report has none or it is gone. */
  task?: { code: TaskRow['code'], message: string }
}

/**
 * Dangling DNS reports (migration 0020): the latest per zone, replaced by each new scan. The
 * scan's writes name the report's version and change nothing once a newer scan replaced it.
 */
export interface DanglingReportStore {
  /** Replace the zone's report by a new one, IN_PROGRESS with `message`. */
  start (report: { zoneId: string, accountId: string, version: string, taskId: string | null, message: string }): Promise<void>
  /** The zone's report when the zone belongs to an account of `scope`. */
  find (zoneId: string, scope: Scope): Promise<DanglingReport | undefined>
  /** The zone's report whatever its account (the scan's own reads). */
  current (zoneId: string): Promise<DanglingReport | undefined>
  /** Set the message of the report of this version while IN_PROGRESS; false when it is no longer that. */
  progress (zoneId: string, version: string, message: string): Promise<boolean>
  /** COMPLETED with the findings; false when the report is no longer this version IN_PROGRESS. */
  complete (zoneId: string, version: string, findings: readonly DanglingFinding[], message: string, at: string): Promise<boolean>
  /** FAILED with the reason; false when the report is no longer this version IN_PROGRESS. */
  fail (zoneId: string, version: string, message: string, at: string): Promise<boolean>
}

/** A probe of an SB or TC pool, or of one of its records (migration 0022). */
export interface ProbeDefinition {
  /** 16 upper-case hex digits, as the real API's probe ids. */
  id: string
  zoneId: string
  ownerKey: string
  rrtype: number
  /** The record (rdata) a record-level probe probes; null for a pool-level probe (every record). */
  poolRecord: string | null
  /** HTTP, TCP, DNS, SMTP … */
  probeType: string
  /** The interval's name (ONE_MINUTE …). */
  interval: string
  agents: string[]
  threshold: number
  /** The type's details, validated (`traffic/probe-definition.ts`). */
  details: unknown
  createdAt: string
}

/** A pool the traffic scheduler probes: an SB, TC, SF or SLB pool of an active primary zone. */
export interface TrafficPool {
  zoneId: string
  zoneName: string
  accountId: string
  accountName: string
  ownerKey: string
  ownerName: string
  rrtype: number
  rdataText: string[]
  profile: PoolProfile
  /** The pool's probe definitions (SB and TC pools). */
  probes: ProbeDefinition[]
}

/** One pool record of one rrset. */
export interface PoolRecordKey {
  zoneId: string
  ownerKey: string
  rrtype: number
  /** The record's rdata, presentation form. */
  record: string
}

/** One probe run by one agent (node). */
export interface ProbeRun extends PoolRecordKey {
  at: string
  /** '' for the monitor of an SF or SLB pool. */
  probeId: string
  agent: string
  region: string
  probeType: string
  ok: boolean
  message: string
  durationMs: number
}

/** An agent's latest result for a pool record and probe. */
export type PoolObservation = Pick<ProbeRun, 'record' | 'probeId' | 'agent' | 'region' | 'ok' | 'message' | 'at'>

/** The decided state of a pool record, with a change waiting for its delay. */
export interface PoolRecordHealthRow {
  ownerKey: string
  /** The rrset's owner, presentation form (as stored). */
  ownerName: string
  rrtype: number
  record: string
  state: 'UP' | 'DOWN'
  changedAt: string | null
  pendingState: 'UP' | 'DOWN' | null
  pendingSince: string | null
}

/** A pool record's state change, as the failover report lists it. */
export interface FailoverEvent {
  id: string
  at: string
  accountId: string
  accountName: string
  zoneId: string
  zoneName: string
  /** The pool's owner name, absolute. */
  poolName: string
  poolRecord: string
  /** A, AAAA. */
  recordType: string
  /** SITE_BACKER, TRAFFIC_CONTROLLER, FAILOVER_POOL, SIMPLE_LOAD_BALANCING. */
  poolType: string
  oldState: 'ACTIVE' | 'INACTIVE'
  newState: 'ACTIVE' | 'INACTIVE'
  /** Probe Success, Probe Failure, Manual. */
  reason: string
  allFail: boolean
  /** The node that decided the change. */
  node: string
}

/** A position in the failover events' order (time, then id). */
export interface FailoverPosition {
  at: string
  id: string
}

/**
 * The events of one account in [`from`, `to`) (ISO 8601 UTC), narrowed by every field given
 * (names lower case with the final dot), oldest first; `after` the next page, `before` the
 * previous one (the `limit` newest of the events before it, still oldest first).
 */
export interface FailoverEventQuery {
  accountId: string
  from: string
  to: string
  zoneName?: string
  poolName?: string
  poolRecord?: string
  recordType?: string
  poolType?: string
  limit: number
  after?: FailoverPosition
  before?: FailoverPosition
}

/**
 * Traffic services (migration 0022): probe definitions, probe runs, each agent's latest
 * results, the decided state of pool records and the events of its changes.
 */
export interface TrafficStore {
  createProbe (probe: ProbeDefinition): Promise<void>
  /** The probes of one pool, oldest first. */
  probes (zoneId: string, ownerKey: string, rrtype: number): Promise<ProbeDefinition[]>
  probe (zoneId: string, ownerKey: string, rrtype: number, id: string): Promise<ProbeDefinition | undefined>
  /** Replace a probe's settings (not its pool, record or id); false when it does not exist. */
  updateProbe (probe: ProbeDefinition): Promise<boolean>
  deleteProbe (zoneId: string, ownerKey: string, rrtype: number, id: string): Promise<boolean>
  /**
   * Forget a pool that was deleted or became another kind of rrset: its probes, every agent's
   * latest results and its records' states (its runs and failover events stay, as history).
   */
  forgetPool (zoneId: string, ownerKey: string, rrtype: number): Promise<void>
  /** Every SB, TC, SF and SLB pool of the active primary zones, with its probes. */
  pools (): Promise<TrafficPool[]>
  /** Record a run: its history row, and the agent's latest result for the record and probe. */
  record (run: ProbeRun): Promise<void>
  /** Record several runs in one transaction (as {@link record} each, the newest of a record's runs its latest). */
  recordMany (runs: readonly ProbeRun[]): Promise<void>
  /** Every agent's latest results for the records of a pool. */
  observations (zoneId: string, ownerKey: string, rrtype: number): Promise<PoolObservation[]>
  /** When `agent` last ran each of its checks (its latest results), to keep their schedule across a restart. */
  lastRuns (agent: string): Promise<Array<Pick<ProbeRun, 'zoneId' | 'ownerKey' | 'rrtype' | 'record' | 'probeId' | 'at'>>>
  /** The decided states of the probed records of a zone's pools (of one pool when given). */
  health (zoneId: string, pool?: { ownerKey: string, rrtype: number }): Promise<PoolRecordHealthRow[]>
  /** Note (or clear, with null) a change waiting for its delay; no change of state. */
  setPending (key: PoolRecordKey, pending: { state: 'UP' | 'DOWN', since: string } | null): Promise<void>
  /**
   * Change the record's state from `from` to `to` when it is `from` (a record without a row is
   * UP); false when it was not (another node changed it first). Clears any pending change.
   */
  changeState (key: PoolRecordKey, from: 'UP' | 'DOWN', to: 'UP' | 'DOWN', at: string): Promise<boolean>
  appendEvent (event: FailoverEvent): Promise<void>
  events (query: FailoverEventQuery): Promise<FailoverEvent[]>
  /** Probe runs of a pool record in [from, to), oldest first (at most `limit`). */
  runs (key: Omit<PoolRecordKey, 'record'> & { record?: string }, from: string, to: string, limit: number): Promise<ProbeRun[]>
  /** The probe runs of one account's current pools in a window, oldest first, a page by offset (the probe result details report). */
  runReport (query: ProbeRunQuery, offset: number, limit: number): Promise<ReportedRun[]>
  /** {@link runReport}'s runs counted per pool record and region (the probe result summary report), by zone, pool, record, region. */
  runSummary (query: ProbeRunQuery, offset: number, limit: number): Promise<RunSummary[]>
}

/** Which probe runs a probe report reads: one account's, in [from, to), narrowed by each field given. */
export interface ProbeRunQuery {
  accountId: string
  from: string
  to: string
  zoneName?: string
  /** Lower case, absolute. */
  poolName?: string
  /** Pool kinds (SB_POOLS …). */
  poolKinds?: readonly string[]
  poolRecord?: string
  rrtype?: number
  region?: string
  ok?: boolean
}

/** A probe run with the names of its pool. */
export interface ReportedRun {
  zoneName: string
  poolName: string
  poolKind: string
  record: string
  rrtype: number
  region: string
  at: string
  ok: boolean
  message: string
  probeType: string
}

/** The runs of one pool record from one region, counted. */
export interface RunSummary {
  zoneName: string
  poolName: string
  poolKind: string
  record: string
  rrtype: number
  region: string
  successes: number
  failures: number
}

/** A zone's DNSSEC policy as the service keeps it (the zone's `dnssecPolicy` overrides applied to the defaults). */
export interface DnssecPolicy {
  /** ECDSAP256SHA256, ED25519 or RSASHA256. */
  algorithm: string
  kskBits: number
  zskBits: number
  /** The denial of existence: NSEC, NSEC3 or NSEC3 with opt-out. */
  securityType: 'NSEC' | 'NSEC3' | 'NSEC3_OPT_OUT'
  nsec3Iterations: number
  /** NSEC3 salt, hex ('' for none). */
  nsec3Salt: string
  /** TTL of the DNSKEY rrset, seconds. */
  dnskeyTtl: number
  /** How long an RRSIG is valid, days. */
  rrsigValidityDays: number
  zskRolloverDays: number
  kskRolloverDays: number
  /** The fields the zone's `dnssecPolicy` set (the others are the defaults). */
  overrides: string[]
}

/** Where a key is in its life: published only, signing, published but no longer signing, gone. */
export type DnssecKeyState = 'PUBLISHED' | 'ACTIVE' | 'RETIRED' | 'REMOVED'

/** A key of a signed zone, its private part sealed (`auth/secrets.ts`). */
export interface DnssecKey {
  id: string
  zoneId: string
  role: 'KSK' | 'ZSK'
  algorithm: number
  flags: number
  bits: number
  keyTag: number
  publicKey: Uint8Array
  /** PKCS#8 DER in base64, sealed when `ZONAL_SECRET_KEY` is set. */
  privateKey: SealedSecret
  state: DnssecKeyState
  /** Times of each state (ISO 8601 UTC), past or planned: a key moves on when its next time comes. */
  createdAt: string
  publishedAt: string | null
  activeAt: string | null
  retiredAt: string | null
  removedAt: string | null
}

/** What a key change sets: its state and any of its times. */
export type DnssecKeyChanges = Partial<Pick<DnssecKey, 'state' | 'publishedAt' | 'activeAt' | 'retiredAt' | 'removedAt'>>

/** The DNSSEC state of a signed zone beside its keys. */
export interface ZoneDnssec {
  zoneId: string
  policy: DnssecPolicy
  /** When the zone was signed (POST). */
  signedAt: string
  /** When its DNSSEC records were last written whole (sign, re-sign, a policy change). */
  modifiedAt: string
  /** The earliest time something is due (signatures to refresh, a key to move on); null: nothing. */
  nextEventAt: string | null
}

/**
 * DNSSEC keys and policies of signed zones (migration 0023). Reads of one zone take its id (the
 * caller found the zone in its scope); both tables go with their zone.
 */
export interface DnssecStore {
  /** Every key of the zone that is not REMOVED (and the removed ones too with `withRemoved`), oldest first. */
  keys (zoneId: string, withRemoved?: boolean): Promise<DnssecKey[]>
  addKey (key: DnssecKey): Promise<void>
  /** Change a key's state or times; false when it does not exist. */
  updateKey (id: string, changes: DnssecKeyChanges): Promise<boolean>
  /** Delete every key of the zone; how many there were. */
  deleteKeys (zoneId: string): Promise<number>
  find (zoneId: string): Promise<ZoneDnssec | undefined>
  /** Write the zone's DNSSEC row whole (insert or replace). */
  save (state: ZoneDnssec): Promise<void>
  /** Set the zone's next due time (and `modifiedAt` when given). */
  schedule (zoneId: string, nextEventAt: string | null, modifiedAt?: string): Promise<void>
  /** Delete the zone's DNSSEC row; false when it had none. */
  delete (zoneId: string): Promise<boolean>
  /** Signed zones with something due at `now` (ISO 8601), most overdue first, at most `limit`. */
  due (now: string, limit: number): Promise<string[]>
}

/** A web forward as stored: the domain's forward with what the API shows and the store keys it by. */
export interface StoredWebForward extends WebForward {
  zoneId: string
  /** `requestTo` as the user wrote it. */
  requestTo: string
  /** Host, path and `#anchor` (host lower case): unique in the zone. */
  requestKey: string
  /** The host's canonical sort key in the zone (`rrsets.owner_key`). */
  ownerKey: string
}

/**
 * Web forwards and custom HTTP header names (migration 0024). Reads of one zone take its id (the
 * caller found the zone in its scope and, for writes, locked it); forwards go with their zone,
 * header names with their account.
 */
export interface WebForwardStore {
  /** Every forward of the zone, by request key. */
  list (zoneId: string): Promise<StoredWebForward[]>
  find (zoneId: string, id: string): Promise<StoredWebForward | undefined>
  /** A forward of the zone with this request key, if any. */
  findByRequest (zoneId: string, requestKey: string): Promise<StoredWebForward | undefined>
  /** How many forwards the zone holds. */
  count (zoneId: string): Promise<number>
  /** How many forwards of the zone forward the host of this owner key. */
  countAtHost (zoneId: string, ownerKey: string): Promise<number>
  insert (forward: StoredWebForward, at: string): Promise<void>
  /** Replace a forward's fields (not its id or zone); false when it does not exist. */
  replace (forward: StoredWebForward, at: string): Promise<boolean>
  delete (zoneId: string, id: string): Promise<boolean>
  /** Forwards of every zone by id after `after` (paging), at most `limit` (what the forwarding server loads at start). */
  page (limit: number, after?: string): Promise<StoredWebForward[]>
  /** The account's custom header names, as written, in name order. */
  headers (accountId: string): Promise<string[]>
  /** Add header names (compared case-insensitively); the names already there are left. Returns those added. */
  addHeaders (accountId: string, names: readonly string[], at: string): Promise<string[]>
  /** Delete one header name (any case); false when the account has none such. */
  deleteHeader (accountId: string, name: string): Promise<boolean>
}
