/**
 * Pool profiles as the pool editor handles them: the kind of a profile, the profile without the
 * fields the service computes, the simple fields each kind offers beside the JSON, reading and
 * writing one field of a profile by its path, and the field an API error names.
 */

export type PoolKindName = 'RD' | 'SF' | 'SLB' | 'SB' | 'TC' | 'DIR' | ''

/** The kind of a profile by its `@context` (…/SLBPool.jsonschema → SLB); '' when unknown. */
export function poolKindOf (profile: Record<string, unknown>): PoolKindName {
  const context = typeof profile['@context'] === 'string' ? profile['@context'] : ''
  const schema = /\/(\w+)Pool\.jsonschema$/.exec(context)?.[1]?.toUpperCase() ?? ''
  return (['RD', 'SF', 'SLB', 'SB', 'TC', 'DIR'] as const).find(k => k === schema) ?? ''
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The profile as a client writes it: without the live fields the service adds when it answers
 * (`status`; `availableToServe` of records and backups; `serving` of the all-fail record).
 * The service would accept them back and ignore them; leaving them out keeps the JSON to what
 * the user decides.
 */
export function writableProfile (profile: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  const without = (v: unknown, keys: string[]): unknown => isObject(v) ? Object.fromEntries(Object.entries(v).filter(([k]) => !keys.includes(k))) : v
  for (const [key, value] of Object.entries(profile)) {
    if (key === 'status') continue
    if ((key === 'rdataInfo' || key === 'backupRecords') && Array.isArray(value)) out[key] = value.map(v => without(v, ['availableToServe']))
    else if (key === 'backupRecord') out[key] = without(value, ['availableToServe'])
    else if (key === 'allFailRecord') out[key] = without(value, ['serving'])
    else out[key] = value
  }
  return out
}

/** A simple input of the editor: a profile field by its path (`monitor.url`, `rdataInfo[0].weight`). */
export interface SimpleField {
  /** The path inside the profile, as the service's messages name it after `profile.`. */
  path: string
  label: string
  input: 'select' | 'int' | 'text' | 'bool'
  options?: readonly string[]
  /** The service's default, shown when the profile leaves the field out. */
  fallback?: string | boolean
}

const ORDERS = ['FIXED', 'RANDOM', 'ROUND_ROBIN'] as const
const SENSITIVITY = ['HIGH', 'LOW'] as const
const METHODS = ['GET', 'POST'] as const
const STATES = ['NORMAL', 'ACTIVE', 'INACTIVE'] as const
const FORCED = ['NOT_FORCED', 'FORCED_ACTIVE', 'FORCED_INACTIVE'] as const

/** The pool-wide simple fields of a kind (the rest is edited in the JSON). */
export function poolFields (kind: PoolKindName): SimpleField[] {
  switch (kind) {
    case 'RD': return [{ path: 'order', label: 'Order', input: 'select', options: ORDERS, fallback: 'ROUND_ROBIN' }]
    case 'SF': return [
      { path: 'regionFailureSensitivity', label: 'Region failure sensitivity', input: 'select', options: SENSITIVITY },
      { path: 'liveRecordState', label: 'Live record state', input: 'select', options: ['NOT_FORCED', 'FORCED_INACTIVE'], fallback: 'NOT_FORCED' },
      { path: 'backupRecord.rdata', label: 'Backup record (failover)', input: 'text' },
      { path: 'monitor.method', label: 'Monitor method', input: 'select', options: METHODS },
      { path: 'monitor.url', label: 'Monitor URL', input: 'text' }
    ]
    case 'SLB': return [
      { path: 'responseMethod', label: 'Response method', input: 'select', options: ['PRIORITY_HUNT', 'RANDOM', 'ROUND_ROBIN'], fallback: 'ROUND_ROBIN' },
      { path: 'servingPreference', label: 'Serving preference', input: 'select', options: ['AUTO_SELECT', 'SERVE_PRIMARY', 'SERVE_ALL_FAIL'], fallback: 'AUTO_SELECT' },
      { path: 'regionFailureSensitivity', label: 'Region failure sensitivity', input: 'select', options: SENSITIVITY, fallback: 'HIGH' },
      { path: 'allFailRecord.rdata', label: 'All-fail record', input: 'text' },
      { path: 'monitor.method', label: 'Monitor method', input: 'select', options: METHODS },
      { path: 'monitor.url', label: 'Monitor URL', input: 'text' }
    ]
    case 'SB': return [
      { path: 'order', label: 'Order', input: 'select', options: ORDERS, fallback: 'ROUND_ROBIN' },
      { path: 'maxActive', label: 'Max active', input: 'int' },
      { path: 'maxServed', label: 'Max served', input: 'int' },
      { path: 'failureThreshold', label: 'Failure threshold', input: 'int' }
    ]
    case 'TC': return [
      { path: 'maxToLB', label: 'Max to load-balance', input: 'int' },
      { path: 'failureThreshold', label: 'Failure threshold', input: 'int' },
      { path: 'backupRecord.rdata', label: 'Backup record', input: 'text' }
    ]
    default: return []
  }
}

/** The simple fields of record `i` of a kind (its `rdataInfo[i]` entry). */
export function recordFields (kind: PoolKindName, i: number): SimpleField[] {
  const at = (key: string): string => `rdataInfo[${i}].${key}`
  switch (kind) {
    case 'SB':
    case 'TC': return [
      { path: at('priority'), label: 'Priority', input: 'int' },
      { path: at('threshold'), label: 'Threshold', input: 'int' },
      { path: at('state'), label: 'State', input: 'select', options: STATES, fallback: 'NORMAL' },
      ...(kind === 'TC' ? [{ path: at('weight'), label: 'Weight', input: 'int' as const }] : [])
    ]
    case 'SLB': return [
      { path: at('forcedState'), label: 'Forced state', input: 'select', options: FORCED, fallback: 'NOT_FORCED' },
      { path: at('probingEnabled'), label: 'Probing', input: 'bool', fallback: true }
    ]
    default: return []
  }
}

/** Whether a kind lists one `rdataInfo` entry per record (kept in step when records are added or removed). */
export function hasRecordInfo (kind: PoolKindName): boolean {
  return kind === 'SB' || kind === 'TC' || kind === 'SLB' || kind === 'DIR'
}

/** `rdataInfo[0].weight` → ['rdataInfo', 0, 'weight']. */
function steps (path: string): Array<string | number> {
  return [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map(m => m[2] !== undefined ? Number(m[2]) : m[1]!)
}

/** The value at `path` in `profile`, undefined when any step is missing. */
export function getAt (profile: unknown, path: string): unknown {
  let v: unknown = profile
  for (const step of steps(path)) {
    if (typeof step === 'number') v = Array.isArray(v) ? v[step] : undefined
    else v = isObject(v) ? v[step] : undefined
  }
  return v
}

/**
 * A copy of `profile` with `value` at `path` (objects made on the way), or the field removed when
 * `value` is undefined.
 */
export function setAt (profile: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(profile)
  const list = steps(path)
  let v: unknown = copy
  for (const [n, step] of list.entries()) {
    const last = n === list.length - 1
    const container = v as Record<string | number, unknown>
    if (last) {
      if (value !== undefined) container[step] = value
      else if (!Array.isArray(container)) delete container[step]
      break
    }
    if (typeof container[step] !== 'object' || container[step] === null) container[step] = typeof list[n + 1] === 'number' ? [] : {}
    v = container[step]
  }
  return copy
}

/**
 * Which part of the editor an API error is about: the profile path its message names
 * (`profile.rdataInfo[1].weight` → `rdataInfo[1].weight`) when the editor has that field,
 * `json` for any other profile path, else `ttl`, `rdata` or `form` by its words.
 */
export function poolFieldOf (message: string, fields: ReadonlySet<string>): string {
  const path = /\bprofile((?:\.[\w@]+|\[\d+\])+)/.exec(message)?.[1]?.replace(/^\./, '')
  if (path !== undefined) return fields.has(path) ? path : 'json'
  if (/\bprofile\b/i.test(message)) return 'json'
  const m = message.toLowerCase()
  if (/\bttl\b/.test(m)) return 'ttl'
  if (/rdata|record|address|invalid input|live record/.test(m)) return 'rdata'
  return 'form'
}
