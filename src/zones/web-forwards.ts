import { randomBytes } from 'node:crypto'
import { auditRecord, type Actor, type Change } from '../audit/recorder.ts'
import { ZonalError } from '../errors/catalog.ts'
import type { ForwardAlternative, ForwardMode, RelativeMode, WebForward } from '../forwards/model.ts'
import { STANDARD_HEADERS, readRequestTo, readTarget } from '../forwards/urls.ts'
import type { Store, StoredWebForward, ZoneWithAccount } from '../store/store.ts'
import { canonicalSortKey, isSubdomain, nameEquals, nameToString, parentName, parseName, type WireName } from '../zone/name.ts'
import { RRType } from '../zone/rrtype.ts'
import { changeCommentFrom, limitsOf, visibleZone, zoneFor, zoneNameFrom, type Caller, type ZoneDeps } from './context.ts'
import { checkZoneSize } from './limits.ts'
import { keysAbove } from './rrset-rules.ts'
import { hostRecordChanges } from './web-forward-records.ts'
import { bumpSerial } from './serial-bump.ts'

/**
 * Web forwards (issue 21; docs/decisions.md "Web forwards"): the rules of the real API's page
 * and the DNS side. A forward's host gets A and AAAA records pointing at the forwarding server
 * (`ZONAL_FORWARD_ADDRESSES`), written with the forward in one transaction through the zone's
 * change path (`bumpSerial`: serial, journal, DNSSEC, audit), shared by every forward of the
 * host and removed with its last one. Every forward change is a change of its zone (its serial
 * and version move on), so whoever follows zones (the DNS index, the forwarding server's table)
 * sees it.
 */

/** Limits of web forwards, checked before anything is written. */
export const WEB_FORWARD_LIMITS = {
  /** Forwards one zone may hold. */
  perZone: 1000,
  /** Advanced records of one forward. */
  records: 20,
  /** Header rules of one advanced record. */
  rules: 10,
  /** Characters of a rule's value. */
  valueLength: 1024
} as const

/** A forward as the API hands it over, in the domain's words (the API's spellings translated). */
export interface WebForwardInput {
  requestTo: string
  redirectTo: string
  mode: ForwardMode
  relative: RelativeMode
  alternatives: ForwardAlternative[]
  changeComment?: unknown
}

const invalid = (detail: string): ZonalError => new ZonalError('WEB_FORWARD_FIELD_INVALID', detail)

/** A new forward's guid: 16 upper-case hex digits, like the real API's (`0909433CB37A13A8`). */
function newGuid (): string {
  return randomBytes(8).toString('hex').toUpperCase()
}

/** The zone's type and state allow forwards: a primary zone, not suspended. */
function checkForwardable (zone: ZoneWithAccount): void {
  if (zone.zone_type === 'ALIAS') throw new ZonalError('WEB_FORWARD_ZONE_TYPE', zone.name, 'an alias')
  if (zone.zone_type === 'SECONDARY') throw new ZonalError('WEB_FORWARD_ZONE_TYPE', zone.name, 'a secondary')
  if (zone.status === 'SUSPENDED') throw new ZonalError('ZONE_SUSPENDED')
}

/**
 * The forward `input` describes in `zone` (its id given), checked against every rule that needs
 * no database: the URLs (59008), the host inside the zone, the records (priorities, unique
 * targets 59007, rules 53006, header names known to the account) and the limits.
 */
function validated (input: WebForwardInput, zone: ZoneWithAccount, id: string, accountHeaders: ReadonlySet<string>): StoredWebForward {
  const request = readRequestTo(input.requestTo)
  if (typeof request === 'string') throw new ZonalError('WEB_FORWARD_URL_INVALID', 'requestTo', input.requestTo, request)
  const origin = parseName(zone.name)
  const host = parseName(`${request.host}.`)
  if (!isSubdomain(host, origin)) throw new ZonalError('WEB_FORWARD_HOST_OUTSIDE_ZONE', request.host, zone.name)
  const target = readTarget(input.redirectTo)
  if (typeof target === 'string') throw new ZonalError('WEB_FORWARD_URL_INVALID', 'defaultRedirectTo', input.redirectTo, target)
  if (input.alternatives.length > WEB_FORWARD_LIMITS.records) throw new ZonalError('WEB_FORWARD_LIMIT', `records holds ${input.alternatives.length} records`, WEB_FORWARD_LIMITS.records)
  const priorities = new Set<number>()
  const targets = new Set<string>()
  const alternatives = input.alternatives.map((a, i): ForwardAlternative => {
    const to = readTarget(a.redirectTo)
    if (typeof to === 'string') throw new ZonalError('WEB_FORWARD_URL_INVALID', `records[${i}].redirectTo`, a.redirectTo, to)
    if (!Number.isSafeInteger(a.priority) || a.priority < 1) throw invalid(`records[${i}].priority must be a positive integer, got ${JSON.stringify(a.priority)}`)
    if (priorities.has(a.priority)) throw invalid(`records[${i}].priority ${a.priority} is given twice; each record of a web forward has its own priority`)
    priorities.add(a.priority)
    if (targets.has(to.url.toLowerCase())) throw new ZonalError('WEB_FORWARD_REDIRECT_NOT_UNIQUE')
    targets.add(to.url.toLowerCase())
    if (a.rules.length === 0) throw new ZonalError('WEB_FORWARD_RULES_EMPTY', i)
    if (a.rules.length > WEB_FORWARD_LIMITS.rules) throw new ZonalError('WEB_FORWARD_LIMIT', `records[${i}].rules holds ${a.rules.length} rules`, WEB_FORWARD_LIMITS.rules)
    a.rules.forEach((r, j) => {
      const name = r.header.toLowerCase()
      if (!STANDARD_HEADERS.has(name) && !accountHeaders.has(name)) throw new ZonalError('WEB_FORWARD_HEADER_UNKNOWN', i, j, r.header, zone.account_name)
      if (r.value.length > WEB_FORWARD_LIMITS.valueLength) throw new ZonalError('WEB_FORWARD_LIMIT', `records[${i}].rules[${j}].value has ${r.value.length} characters`, WEB_FORWARD_LIMITS.valueLength)
      if (r.match === 'matches') {
        try {
          // eslint-disable-next-line no-new
          new RegExp(r.value, r.caseInsensitive ? 'i' : '')
        } catch (err) {
          throw invalid(`records[${i}].rules[${j}].value is not a regular expression for MATCHES: ${(err as Error).message}`)
        }
      }
    })
    return { priority: a.priority, redirectTo: to.url, mode: a.mode, rules: a.rules.map(r => ({ ...r })) }
  }).sort((a, b) => a.priority - b.priority)
  return {
    id,
    zoneId: zone.id,
    zone: zone.name,
    requestTo: input.requestTo,
    requestKey: request.key,
    host: request.host,
    ownerKey: canonicalSortKey(host),
    path: request.path,
    anchor: request.anchor,
    redirectTo: target.url,
    mode: input.mode,
    relative: input.relative,
    alternatives
  }
}

/** The account's custom header names, lower case (read only when a rule names another header). */
async function headersFor (tx: Store, zone: ZoneWithAccount, input: WebForwardInput): Promise<Set<string>> {
  const needed = input.alternatives.some(a => a.rules.some(r => !STANDARD_HEADERS.has(r.header.toLowerCase())))
  return new Set(needed ? (await tx.webForwards.headers(zone.account_id)).map(h => h.toLowerCase()) : [])
}

/**
 * Check the forward's host can point at the forwarding server: not at or below a delegation (NS
 * records below the apex), not below a DNAME, and, when no forward owns it yet (`fresh`), without
 * a CNAME or A/AAAA records of its own.
 *
 * @throws ZonalError WEB_FORWARD_HOST_DELEGATED, WEB_FORWARD_HOST_BELOW_DNAME, WEB_FORWARD_HOST_CONFLICT
 */
async function checkHost (tx: Store, zone: ZoneWithAccount, f: StoredWebForward, fresh: boolean): Promise<void> {
  const origin = parseName(zone.name)
  const owner = parseName(`${f.host}.`)
  const cuts: WireName[] = []
  for (let at = owner; !nameEquals(at, origin); at = parentName(at)) cuts.push(at)
  const own = [RRType.CNAME, RRType.A, RRType.AAAA].map(type => ({ ownerKey: f.ownerKey, type }))
  const read = await tx.rrsets.readForChange(zone.id, [...own, ...cuts.map(n => ({ ownerKey: canonicalSortKey(n), type: RRType.NS }))], f.ownerKey, keysAbove({ origin, owner }))
  const [cname, a, aaaa, ...ns] = read.rrsets
  // The topmost cut holds the names below it.
  const cut = ns.map((r, i) => r === undefined ? undefined : cuts[i]).filter(n => n !== undefined).at(-1)
  if (cut !== undefined) throw new ZonalError('WEB_FORWARD_HOST_DELEGATED', f.host, nameToString(cut))
  const dname = [...read.dnames][0]
  if (dname !== undefined) throw new ZonalError('WEB_FORWARD_HOST_BELOW_DNAME', f.host, nameToString(cuts.find(n => canonicalSortKey(n) === dname) ?? origin))
  if (!fresh) return
  if (cname !== undefined) throw new ZonalError('WEB_FORWARD_HOST_CONFLICT', f.host, 'CNAME')
  const taken = [a, aaaa].filter(r => r !== undefined).map(r => r.type === RRType.A ? 'A' : 'AAAA')
  if (taken.length > 0) throw new ZonalError('WEB_FORWARD_HOST_CONFLICT', f.host, taken.join(' and '))
}

/** The fields of a forward an audit record shows. */
function auditFields (f: StoredWebForward | undefined): Record<string, unknown> {
  if (f === undefined) return {}
  return { guid: f.id, requestTo: f.requestTo, redirectTo: f.redirectTo, mode: f.mode, relative: f.relative, alternatives: f.alternatives }
}

function auditChanges (before: StoredWebForward | undefined, after: StoredWebForward | undefined): Change[] {
  const a = auditFields(before)
  const b = auditFields(after)
  const out: Change[] = []
  for (const name of ['guid', 'requestTo', 'redirectTo', 'mode', 'relative', 'alternatives']) {
    if (JSON.stringify(a[name]) === JSON.stringify(b[name])) continue
    out.push({ name, ...(a[name] === undefined ? {} : { from: a[name] }), ...(b[name] === undefined ? {} : { to: b[name] }) })
  }
  return out
}

/** Whether two forwards are the same in everything a client or the forwarding server sees. */
function same (a: StoredWebForward, b: StoredWebForward): boolean {
  return JSON.stringify(auditFields(a)) === JSON.stringify(auditFields(b)) && a.requestKey === b.requestKey
}

/**
 * One forward change as one transaction: the zone looked up and locked (1801, 403 without
 * update permission, a primary zone not suspended), `work` writing the forward rows and naming
 * the hosts it touched, then the hosts' A/AAAA records brought in line, the zone's record limit
 * checked, and the records, serial bump, journal, DNSSEC records and audit record written
 * together by {@link bumpSerial}.
 */
async function change (
  deps: ZoneDeps,
  caller: Caller,
  zoneName: string,
  work: (tx: Store, zone: ZoneWithAccount) => Promise<{ before?: StoredWebForward, after?: StoredWebForward, hosts: StoredWebForward[], comment: string | null } | undefined>
): Promise<void> {
  const name = zoneNameFrom(zoneName)
  await deps.store.transaction(async (tx) => {
    const zone = visibleZone(caller, await tx.zones.lockByName(name, caller.principal.scope('read')), 'update')
    checkForwardable(zone)
    const done = await work(tx, zone)
    if (done === undefined) return
    const { before, after, hosts, comment } = done
    const records = await hostRecordChanges(tx, zone, hosts, deps.forwardAddresses ?? DEFAULT_FORWARD_ADDRESSES)
    if (records.delta > 0) checkZoneSize(Number(zone.record_count) + records.delta, limitsOf(deps))
    const forward = after ?? before!
    await bumpSerial(tx, zone, deps.clock(), records.delta, records.changes, undefined, {
      rrsets: records.writes,
      dnssec: { secrets: deps.secrets },
      audit: () => auditRecord(caller.actor, {
        accountId: zone.account_id,
        accountName: zone.account_name,
        objectType: 'WEB_FORWARD',
        changeType: before === undefined ? 'ADD' : after === undefined ? 'DELETE' : 'MODIFY',
        object: forward.requestTo,
        parent: zone.name,
        changes: [...auditChanges(before, after), ...records.audit],
        changeComment: comment
      })
    })
  })
}

/** Forwards read per page when every zone's are looked at (`readdressForwardedHosts`). */
const READDRESS_PAGE = 2000

/**
 * Point every forwarded host at `deps.forwardAddresses` (the forwarding server moved, or its
 * addresses changed): each zone holding forwards whose hosts' A/AAAA records say otherwise has
 * them rewritten in one transaction through the zone's change path (serial, journal, NOTIFY,
 * DNSSEC), audited as the system's change of its web forwards. Zones already in line are not
 * touched (nothing written), so running it at every start costs a read of the forwards; nodes
 * sharing a database with the same setting agree. A zone suspended, deleted or no longer a
 * primary meanwhile is passed over.
 * @returns the zones and hosts whose records were rewritten.
 */
export async function readdressForwardedHosts (deps: ZoneDeps, actor: Actor = { user: 'system', ipAddress: null }): Promise<{ zones: number, hosts: number }> {
  const zoneIds = new Set<string>()
  for (let after: string | undefined; ;) {
    const page = await deps.store.webForwards.page(READDRESS_PAGE, after)
    for (const f of page) zoneIds.add(f.zoneId)
    if (page.length < READDRESS_PAGE) break
    after = page[page.length - 1]!.id
  }
  const done = { zones: 0, hosts: 0 }
  for (const zoneId of zoneIds) {
    await deps.store.transaction(async (tx) => {
      const zone = await tx.zones.lockById(zoneId)
      if (zone === undefined || zone.zone_type !== 'PRIMARY' || zone.status === 'SUSPENDED') return
      const forwards = await tx.webForwards.list(zone.id)
      const records = await hostRecordChanges(tx, zone, forwards, deps.forwardAddresses ?? DEFAULT_FORWARD_ADDRESSES)
      if (records.changes.length === 0) return
      if (records.delta > 0) checkZoneSize(Number(zone.record_count) + records.delta, limitsOf(deps))
      await bumpSerial(tx, zone, deps.clock(), records.delta, records.changes, undefined, {
        rrsets: records.writes,
        dnssec: { secrets: deps.secrets },
        audit: () => auditRecord(actor, {
          accountId: zone.account_id,
          accountName: zone.account_name,
          objectType: 'WEB_FORWARD',
          changeType: 'MODIFY',
          object: zone.name,
          parent: zone.name,
          changes: records.audit,
          changeComment: 'the forwarding server\'s addresses (ZONAL_FORWARD_ADDRESSES) changed'
        })
      })
      done.zones++
      done.hosts += new Set(records.writes.map(w => w.ownerKey)).size
    })
  }
  return done
}

/** Where the forwarding server listens when `ZONAL_FORWARD_ADDRESSES` says nothing (its default host). */
export const DEFAULT_FORWARD_ADDRESSES: readonly string[] = ['127.0.0.1']

/**
 * `POST /zones/{zoneName}/webforwards`: a new forward; its host's A/AAAA records are written
 * when it is the host's first.
 *
 * @returns the new forward (its guid for the Web Forward Create DTO).
 * @throws ZonalError ZONE_NOT_FOUND (1801), PERMISSION_DENIED, WEB_FORWARD_ZONE_TYPE (53001),
 *   ZONE_SUSPENDED, WEB_FORWARD_URL_INVALID (59008), WEB_FORWARD_HOST_* (53005),
 *   WEB_FORWARD_FIELD_INVALID, WEB_FORWARD_RULES_EMPTY (53006), WEB_FORWARD_REDIRECT_NOT_UNIQUE
 *   (59007), WEB_FORWARD_HEADER_UNKNOWN, WEB_FORWARD_LIMIT, WEB_FORWARD_ALREADY_EXISTS,
 *   ZONE_TOO_MANY_RECORDS.
 */
export async function createWebForward (deps: ZoneDeps, caller: Caller, zoneName: string, input: WebForwardInput): Promise<StoredWebForward> {
  const comment = changeCommentFrom(input)
  let created: StoredWebForward | undefined
  await change(deps, caller, zoneName, async (tx, zone) => {
    const f = validated(input, zone, newGuid(), await headersFor(tx, zone, input))
    const count = await tx.webForwards.count(zone.id)
    if (count >= WEB_FORWARD_LIMITS.perZone) throw new ZonalError('WEB_FORWARD_LIMIT', `the zone ${zone.name} holds ${count} web forwards`, WEB_FORWARD_LIMITS.perZone)
    if (await tx.webForwards.findByRequest(zone.id, f.requestKey) !== undefined) throw new ZonalError('WEB_FORWARD_ALREADY_EXISTS', f.requestKey, zone.name)
    await checkHost(tx, zone, f, await tx.webForwards.countAtHost(zone.id, f.ownerKey) === 0)
    await tx.webForwards.insert(f, deps.clock().toISOString())
    created = f
    return { after: f, hosts: [f], comment }
  })
  return created!
}

/**
 * PUT, PATCH and JSON Patch of a forward: `next` makes the new forward from the stored one (the
 * API merges or patches its document). A forward moved to another host takes the records along:
 * the old host's go with its last forward, the new host's come with its first. A change that
 * changes nothing writes nothing.
 *
 * @throws ZonalError WEB_FORWARD_NOT_FOUND (59002) and the errors of {@link createWebForward}.
 */
export async function updateWebForward (deps: ZoneDeps, caller: Caller, zoneName: string, guid: string, next: (current: StoredWebForward) => WebForwardInput): Promise<void> {
  await change(deps, caller, zoneName, async (tx, zone) => {
    const before = await tx.webForwards.find(zone.id, guid.toUpperCase())
    if (before === undefined) throw new ZonalError('WEB_FORWARD_NOT_FOUND')
    const input = next(before)
    const comment = changeCommentFrom(input)
    const after = validated(input, zone, before.id, await headersFor(tx, zone, input))
    if (same(before, after)) return undefined
    if (after.requestKey !== before.requestKey) {
      const other = await tx.webForwards.findByRequest(zone.id, after.requestKey)
      if (other !== undefined && other.id !== before.id) throw new ZonalError('WEB_FORWARD_ALREADY_EXISTS', after.requestKey, zone.name)
    }
    const fresh = after.ownerKey !== before.ownerKey && await tx.webForwards.countAtHost(zone.id, after.ownerKey) === 0
    await checkHost(tx, zone, after, fresh)
    await tx.webForwards.replace(after, deps.clock().toISOString())
    return { before, after, hosts: [before, after], comment }
  })
}

/**
 * `DELETE /zones/{zoneName}/webforwards/{guid}`; the host's A/AAAA records go with its last forward.
 *
 * @throws ZonalError ZONE_NOT_FOUND, PERMISSION_DENIED, WEB_FORWARD_ZONE_TYPE, ZONE_SUSPENDED, WEB_FORWARD_NOT_FOUND (59002)
 */
export async function deleteWebForward (deps: ZoneDeps, caller: Caller, zoneName: string, guid: string, body: unknown): Promise<void> {
  const comment = changeCommentFrom(body)
  await change(deps, caller, zoneName, async (tx, zone) => {
    const before = await tx.webForwards.find(zone.id, guid.toUpperCase())
    if (before === undefined) throw new ZonalError('WEB_FORWARD_NOT_FOUND')
    await tx.webForwards.delete(zone.id, before.id)
    return { before, hosts: [before], comment }
  })
}

/**
 * The forwards of a zone (read permission), by request key; a secondary or alias zone has none.
 *
 * @throws ZonalError ZONE_NOT_FOUND (1801), PERMISSION_DENIED
 */
export async function listWebForwards (deps: ZoneDeps, caller: Caller, zoneName: string): Promise<{ zone: ZoneWithAccount, forwards: StoredWebForward[] }> {
  const zone = await zoneFor(deps, caller, zoneName, 'read')
  return { zone, forwards: zone.zone_type === 'PRIMARY' ? await deps.store.webForwards.list(zone.id) : [] }
}

/**
 * One forward of a zone.
 *
 * @throws ZonalError ZONE_NOT_FOUND (1801), PERMISSION_DENIED, WEB_FORWARD_NOT_FOUND (59002)
 */
export async function getWebForward (deps: ZoneDeps, caller: Caller, zoneName: string, guid: string): Promise<StoredWebForward> {
  const zone = await zoneFor(deps, caller, zoneName, 'read')
  const found = await deps.store.webForwards.find(zone.id, guid.toUpperCase())
  if (found === undefined) throw new ZonalError('WEB_FORWARD_NOT_FOUND')
  return found
}

/** The forward as the forwarding server reads it (without the store's keys). */
export function servedForward (f: StoredWebForward): WebForward {
  return { id: f.id, zone: f.zone, host: f.host, path: f.path, anchor: f.anchor, redirectTo: f.redirectTo, mode: f.mode, relative: f.relative, alternatives: f.alternatives }
}
