import { compareBytes } from '../checks/sort.ts'
import { parseTypeName, RRType, typeName } from '../rrtype.ts'
import { checkInfoCount, descriptionOf, INT32_MAX, type PoolType } from './common.ts'
import { invalid, parseIp, ProfileObject, type IpValue } from './fields.ts'
import type { DirGroups, GeoGroup, IpGroup, IpGroupEntry } from './profile.ts'

/**
 * Record types a directional pool may hold: A, CNAME, PTR, HINFO, MX, TXT, RP, AAAA, SRV, NAPTR
 * and SPF (the UltraDNS directional pool documentation; the Terraform provider documents A,
 * AAAA, MX, PTR, SRV and TXT of them).
 */
export const DIR_TYPES: ReadonlySet<number> = new Set([RRType.A, RRType.CNAME, RRType.PTR, RRType.HINFO, RRType.MX, RRType.TXT, RRType.RP, RRType.AAAA, RRType.SRV, RRType.NAPTR, RRType.SPF])

/** Region groups a geo group may name besides the two-character country and special codes. */
export const GEO_REGIONS: ReadonlySet<string> = new Set(['NAM', 'SAM', 'EUR', 'AFR', 'ASI', 'OCN', 'ANT'])

/** ISO 3166 alpha-2 country codes and the special A1–A3, U3–U9 codes: two capitals or digits. */
const GEO_CODE = /^[A-Z][A-Z0-9]$/

/**
 * `geoInfo {name, codes[], isExistingGroupFromPool, forceOverlap, isAccountLevel}`: the codes
 * are a set, stored sorted without repeats (the real API keeps them in a sorted set). A group
 * that refers to an existing or account-level group may leave its codes out.
 */
function geoInfoOf (g: ProfileObject): GeoGroup {
  const name = g.string('name')
  if (name === undefined || name.trim() === '') throw invalid(`${g.at('name')} is required`)
  const existing = g.bool('isExistingGroupFromPool', false)
  const accountLevel = g.bool('isAccountLevel', false)
  const codes = new Set<string>()
  for (const { value, path } of g.list('codes') ?? []) {
    if (typeof value !== 'string' || !(GEO_CODE.test(value) || GEO_REGIONS.has(value))) {
      throw invalid(`${path} must be a country code of two capital letters (US) or a region (${[...GEO_REGIONS].join(', ')})`)
    }
    codes.add(value)
  }
  if (codes.size === 0 && !existing && !accountLevel) throw invalid(`${g.at('codes')} must list at least one code`)
  return {
    name,
    codes: [...codes].sort(),
    isExistingGroupFromPool: existing,
    forceOverlap: g.bool('forceOverlap', false),
    isAccountLevel: accountLevel
  }
}

/** One `ips` entry: `{start, end}`, `{cidr}` or `{address}`, IPv4 or IPv6. */
function ipRangeOf (value: unknown, path: string): IpGroupEntry {
  const r = ProfileObject.of(value, path, ['start', 'end', 'cidr', 'address'])
  const forms = [r.has('start') || r.has('end'), r.has('cidr'), r.has('address')].filter(Boolean).length
  if (forms !== 1) throw invalid(`${path} must have exactly one of (start, end), cidr or address`)
  const ip = (key: string): IpValue => {
    const v = parseIp(r.raw(key))
    if (v === undefined) throw invalid(`${r.at(key)} must be an IPv4 or IPv6 address`)
    return v
  }
  if (r.has('address')) return { address: ip('address').text }
  if (r.has('cidr')) {
    const text = r.raw('cidr')
    const m = typeof text === 'string' ? /^([^/]+)\/(\d{1,3})$/.exec(text) : null
    const base = m === null ? undefined : parseIp(m[1])
    const bits = m === null ? NaN : Number(m[2])
    if (base === undefined || !(bits <= (base.family === 4 ? 32 : 128))) throw invalid(`${r.at('cidr')} must be an address and a prefix length, e.g. 192.0.2.0/24`)
    return { cidr: `${base.text}/${bits}` }
  }
  if (!r.has('start') || !r.has('end')) throw invalid(`${path} needs both start and end`)
  const start = ip('start')
  const end = ip('end')
  if (start.family !== end.family) throw invalid(`${path}: start and end must be of one address family`)
  if (compareBytes(start.bytes, end.bytes) > 0) throw invalid(`${r.at('end')} must not be below start`)
  return { start: start.text, end: end.text }
}

/** `ipInfo {name, ips[], isExistingGroupFromPool, isAccountLevel}`. */
function ipInfoOf (g: ProfileObject): IpGroup {
  const name = g.string('name')
  if (name === undefined || name.trim() === '') throw invalid(`${g.at('name')} is required`)
  const existing = g.bool('isExistingGroupFromPool', false)
  const accountLevel = g.bool('isAccountLevel', false)
  const ips = (g.list('ips') ?? []).map(e => ipRangeOf(e.value, e.path))
  if (ips.length === 0 && !existing && !accountLevel) throw invalid(`${g.at('ips')} must list at least one address or range`)
  return { name, ips, isExistingGroupFromPool: existing, isAccountLevel: accountLevel }
}

/** The groups of an rdataInfo or noResponse entry. */
function groupsOf (r: ProfileObject): DirGroups {
  const geo = r.object('geoInfo', ['name', 'codes', 'isExistingGroupFromPool', 'forceOverlap', 'isAccountLevel'])
  const ip = r.object('ipInfo', ['name', 'ips', 'isExistingGroupFromPool', 'isAccountLevel'])
  return {
    allNonConfigured: r.bool('allNonConfigured', false),
    ...(geo === undefined ? {} : { geoInfo: geoInfoOf(geo) }),
    ...(ip === undefined ? {} : { ipInfo: ipInfoOf(ip) })
  }
}

/**
 * DIR (directional) pool, `DirPool.jsonschema`: each record answers the resolvers of its geo
 * and source-IP groups (reference notes §7; Java `DirectionalPoolProfile`, Go `dirpool.Profile`).
 * Each rdataInfo needs `allNonConfigured`, `geoInfo` or `ipInfo`; at most one record (or the
 * noResponse group) takes all non-configured territories; a territory code belongs to one group
 * only. Defaults: description = owner, conflictResolve GEO, ignoreECS false. The per-record
 * `type` is computed (it must match the rrset's type when given).
 *
 * @throws ZonalError DIR_POOL_RDATA_INFO_COUNT (90001), POOL_PROFILE_INVALID,
 *   POOL_PROFILE_KEY_INVALID.
 */
export const DIR_POOL: PoolType<'DIR_POOLS'> = {
  kind: 'DIR_POOLS',
  schema: 'DirPool',
  label: 'Dir',
  rrtypes: DIR_TYPES,
  rrtypeText: 'A, AAAA, CNAME, HINFO, MX, NAPTR, PTR, RP, SPF, SRV or TXT',
  validate ({ type, profile, rdata, ownerName }) {
    const p = ProfileObject.of(profile, 'profile', ['@context', 'description', 'conflictResolve', 'ignoreECS', 'noResponse', 'rdataInfo'])
    const infos = p.list('rdataInfo')
    checkInfoCount('DIR_POOL_RDATA_INFO_COUNT', infos, rdata)
    let catchAll: string | undefined
    const rdataInfo = (infos ?? []).map(({ value, path }) => {
      const r = ProfileObject.of(value, path, ['type', 'ttl', 'allNonConfigured', 'geoInfo', 'ipInfo'])
      const given = r.string('type')
      if (given !== undefined && parseTypeName(given) !== type) {
        throw invalid(`${r.at('type')} must be the rrset's type ${typeName(type)}`)
      }
      const ttl = r.int('ttl', 0, INT32_MAX)
      const groups = groupsOf(r)
      if (groups.allNonConfigured !== true && groups.geoInfo === undefined && groups.ipInfo === undefined) {
        throw invalid(`${path} needs allNonConfigured, geoInfo or ipInfo`)
      }
      if (groups.allNonConfigured === true) {
        if (catchAll !== undefined) throw invalid(`${r.at('allNonConfigured')}: only one record may serve all non-configured territories (${catchAll} does)`)
        catchAll = path
      }
      return { ...(ttl === undefined ? {} : { ttl }), ...groups }
    })
    const none = p.object('noResponse', ['allNonConfigured', 'geoInfo', 'ipInfo'])
    const noResponse = none === undefined ? undefined : groupsOf(none)
    if (noResponse?.allNonConfigured === true && catchAll !== undefined) {
      throw invalid(`${p.at('noResponse')}.allNonConfigured: ${catchAll} already serves all non-configured territories`)
    }
    checkDisjointCodes([...rdataInfo.map((r, i) => ({ groups: r, path: `profile.rdataInfo[${i}]` })), ...(noResponse === undefined ? [] : [{ groups: noResponse, path: 'profile.noResponse' }])])
    return {
      description: descriptionOf(p, 'description', ownerName),
      conflictResolve: p.choice('conflictResolve', ['GEO', 'IP'] as const) ?? 'GEO',
      ignoreECS: p.bool('ignoreECS', false),
      rdataInfo,
      ...(noResponse === undefined ? {} : { noResponse })
    }
  },
  summary: (p) => `conflict resolve ${String(p.conflictResolve)}`
}

/** A territory code in two groups of one pool would make the answer ambiguous. */
function checkDisjointCodes (entries: readonly { groups: DirGroups, path: string }[]): void {
  const owner = new Map<string, string>()
  for (const { groups, path } of entries) {
    const codes = groups.geoInfo?.codes ?? []
    for (const code of codes) {
      const first = owner.get(code)
      if (first !== undefined) throw invalid(`${path}.geoInfo.codes: ${code} is already in ${first}.geoInfo`)
      owner.set(code, path)
    }
  }
}
