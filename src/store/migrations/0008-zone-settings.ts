import type { Kysely } from 'kysely'

/**
 * Zone settings and pool profiles in the service's own types (`zone/settings.ts`,
 * `zone/pools/profile.ts`) instead of the UltraDNS DTO spelling, and the `valimail_monitor` flag.
 * Existing rows are converted; the conversions below are frozen here (they read the old JSON as
 * earlier versions wrote it, which was validated on the way in).
 *
 * - `restrict_ip_list` `[{startIP, endIP, comment}]` → `[{first, last, comment}]`
 * - `tsig` `{tsigKeyName, tsigKeyValue, tsigAlgorithm, description}` → `{name, algorithm, secret, description}`
 * - `notify_addresses` `[{notifyAddress, description}]` → `[{endpoint: {address, port?}, description}]`
 * - `primary_name_servers` `{nameServerIp1: {ip, tsigKey?, tsigKeyValue?, tsigAlgorithm?}, …}` →
 *   `[{endpoint, key?: {name, algorithm, secret}}]` in the order of the key numbers
 * - `transfer_status` `{lastRefresh?, nextRefresh?, lastRefreshStatus, lastRefreshStatusMessage}`
 *   (times `MM/dd/yy hh:mm:ss AM GMT`) → `{phase, lastRefresh?, nextRefresh?}` (ISO times), the
 *   request messages becoming the `requested` phase
 * - `registrar_info` → `{registrar?, whoisExpiration?}` (the name server lists are computed now)
 * - `rrsets.profile` `{"@context": …/XPool.jsonschema, …}` → `{kind: "X_POOLS", …}`
 */
export async function up (db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('zones').addColumn('valimail_monitor', 'integer', c => c.notNull().defaultTo(0)).execute()

  const zones = await db.selectFrom('zones')
    .select(['id', 'serial', 'restrict_ip_list', 'tsig', 'notify_addresses', 'primary_name_servers', 'transfer_status', 'registrar_info'])
    .where(eb => eb.or(SETTINGS.map(c => eb(c, 'is not', null))))
    .execute() as OldZone[]
  for (const z of zones) {
    await db.updateTable('zones').set(convertZone(z)).where('id', '=', z.id).execute()
  }

  const pools = await db.selectFrom('rrsets').select(['id', 'profile']).where('profile', 'is not', null).execute() as { id: number, profile: string }[]
  for (const p of pools) {
    const profile = convertProfile(p.profile)
    await db.updateTable('rrsets').set({ profile, kind: profile === null ? null : (JSON.parse(profile) as { kind: string }).kind }).where('id', '=', p.id).execute()
  }
}

const SETTINGS = ['restrict_ip_list', 'tsig', 'notify_addresses', 'primary_name_servers', 'transfer_status', 'registrar_info'] as const

interface OldZone {
  id: string
  serial: number | string
  restrict_ip_list: string | null
  tsig: string | null
  notify_addresses: string | null
  primary_name_servers: string | null
  transfer_status: string | null
  registrar_info: string | null
}

type Json = Record<string, unknown>

function parse (text: string | null): unknown {
  if (text === null) return null
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

function object (v: unknown): Json | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? v as Json : undefined
}

function text (v: unknown): string {
  return typeof v === 'string' ? v : ''
}

/** The new JSON of each settings column of a zone (null where there was nothing usable). */
export function convertZone (z: OldZone): Record<typeof SETTINGS[number], string | null> {
  const restrict = parse(z.restrict_ip_list)
  const tsig = object(parse(z.tsig))
  const notify = parse(z.notify_addresses)
  const servers = object(parse(z.primary_name_servers))
  const status = object(parse(z.transfer_status))
  const registrar = object(parse(z.registrar_info))
  return {
    restrict_ip_list: Array.isArray(restrict)
      ? JSON.stringify(restrict.map(object).filter(r => r !== undefined).map(r => ({ first: text(r.startIP), last: text(r.endIP), comment: text(r.comment) })))
      : null,
    tsig: tsig === undefined
      ? null
      : JSON.stringify({ name: text(tsig.tsigKeyName), algorithm: text(tsig.tsigAlgorithm) || 'hmac-md5', secret: text(tsig.tsigKeyValue), description: text(tsig.description) }),
    notify_addresses: Array.isArray(notify)
      ? JSON.stringify(notify.map(object).filter(n => n !== undefined).map(n => ({ endpoint: endpoint(text(n.notifyAddress)), description: text(n.description) })))
      : null,
    primary_name_servers: servers === undefined ? null : JSON.stringify(primaries(servers)),
    transfer_status: status === undefined ? null : JSON.stringify(transferState(status, Number(z.serial))),
    registrar_info: registrar === undefined ? null : JSON.stringify(registrarInfo(registrar))
  }
}

/** `192.0.2.1`, `192.0.2.1:5353`, `[2001:db8::1]:5353` → `{address, port?}`. */
function endpoint (value: string): { address: string, port?: number } {
  const v6 = /^\[([^\]]+)\]:(\d{1,5})$/.exec(value)
  const v4 = /^([\d.]+):(\d{1,5})$/.exec(value)
  const m = v6 ?? v4
  return m === null ? { address: value } : { address: m[1]!, port: Number(m[2]) }
}

function primaries (servers: Json): unknown[] {
  const keys = Object.keys(servers).filter(k => /^nameServerIp\d+$/.test(k)).sort((a, b) => Number(a.slice(12)) - Number(b.slice(12)))
  return keys.map(k => object(servers[k])).filter(s => s !== undefined).map(s => {
    const key = text(s.tsigKey) !== '' && text(s.tsigKeyValue) !== ''
      ? { key: { name: text(s.tsigKey), algorithm: text(s.tsigAlgorithm) || 'hmac-md5', secret: text(s.tsigKeyValue) } }
      : {}
    return { endpoint: endpoint(text(s.ip)), ...key }
  })
}

/** `11/22/26 03:04:05 PM GMT` → `2026-11-22T15:04:05.000Z`; undefined when it is not that shape. */
export function isoOfTransferTime (value: unknown): string | undefined {
  const m = typeof value === 'string' ? /^(\d\d)\/(\d\d)\/(\d\d) (\d\d):(\d\d):(\d\d) (AM|PM) GMT$/.exec(value) : null
  if (m === null) return undefined
  const hour = Number(m[4]) % 12 + (m[7] === 'PM' ? 12 : 0)
  return new Date(Date.UTC(2000 + Number(m[3]), Number(m[1]) - 1, Number(m[2]), hour, Number(m[5]), Number(m[6]))).toISOString()
}

function transferState (old: Json, serial: number): Json {
  const message = text(old.lastRefreshStatusMessage)
  let phase: Json
  if (old.lastRefreshStatus === 'IN_PROGRESS') {
    phase = message === 'Zone transfer requested'
      ? { kind: 'requested', full: false }
      : message === 'Full zone transfer requested' ? { kind: 'requested', full: true } : { kind: 'running' }
  } else if (old.lastRefreshStatus === 'SUCCESSFUL') {
    const m = /^(Zone is up to date at|Transferred) serial (\d+)$/.exec(message)
    phase = { kind: 'succeeded', serial: m === null ? serial : Number(m[2]), changed: m === null || m[1] === 'Transferred' }
  } else {
    phase = { kind: 'failed', reason: message }
  }
  const lastRefresh = isoOfTransferTime(old.lastRefresh)
  const nextRefresh = isoOfTransferTime(old.nextRefresh)
  return { phase, ...(lastRefresh === undefined ? {} : { lastRefresh }), ...(nextRefresh === undefined ? {} : { nextRefresh }) }
}

function registrarInfo (old: Json): Json {
  const m = typeof old.whoisExpiration === 'string' ? /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)$/.exec(old.whoisExpiration) : null
  return {
    ...(typeof old.registrar === 'string' ? { registrar: old.registrar } : {}),
    ...(m === null ? {} : { whoisExpiration: `${m[1]!}T${m[2]!}.000Z` })
  }
}

const KINDS: Record<string, string> = {
  RDPool: 'RD_POOLS', SBPool: 'SB_POOLS', TCPool: 'TC_POOLS', SFPool: 'SF_POOLS', SLBPool: 'SLB_POOLS', DirPool: 'DIR_POOLS'
}

/** A stored profile with `kind` in place of `@context`; null when its `@context` names no pool type stored here. */
export function convertProfile (profile: string): string | null {
  const old = object(parse(profile))
  const m = old === undefined ? null : /^http:\/\/schemas\.ultradns\.com\/([A-Za-z]+)\.jsonschema$/.exec(text(old['@context']))
  const kind = m === null ? undefined : KINDS[m[1]!]
  if (old === undefined || kind === undefined) return null
  const { '@context': _context, ...fields } = old
  return JSON.stringify({ kind, ...fields })
}
