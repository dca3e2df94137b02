import { compareIp, parseIp } from '../ip.ts'
import { regionOf } from './geo-regions.ts'
import type { DirGroups, DirPoolFields, IpGroupEntry } from './profile.ts'

/**
 * Which records of a directional (DIR) pool answer a client, pure: by the client's source-IP
 * group and its geo group (country first, then its region), with the pool's `conflictResolve`
 * deciding when both match; then the record that takes all non-configured territories; the
 * `noResponse` groups answer nothing (NODATA), as does a client no group takes.
 */

/** One inclusive address range, both ends of one family (4 or 16 octets). */
interface Range { start: Uint8Array, end: Uint8Array }

/** The groups of one record (or of noResponse: index -1), ready to match. */
interface Compiled {
  index: number
  codes: ReadonlySet<string>
  ranges: Range[]
}

/** A directional pool ready to match clients ({@link compileDir}). */
export interface DirMatcher {
  groups: Compiled[]
  catchAll: number | undefined
  /** noResponse takes every non-configured territory. */
  noneCatchAll: boolean
  preferIp: boolean
  /** Some group names codes: the answer needs the client's country. */
  usesGeo: boolean
  usesIp: boolean
}

/** The range of addresses an `ips` entry covers; undefined when it does not parse (validated before). */
function rangeOf (e: IpGroupEntry): Range | undefined {
  if ('address' in e) {
    const a = parseIp(e.address)
    return a === undefined ? undefined : { start: a, end: a }
  }
  if ('cidr' in e) {
    const slash = e.cidr.indexOf('/')
    const base = parseIp(e.cidr.slice(0, slash))
    const bits = Number(e.cidr.slice(slash + 1))
    if (base === undefined || !(bits >= 0 && bits <= base.length * 8)) return undefined
    const start = base.slice()
    const end = base.slice()
    for (let i = 0; i < base.length; i++) {
      const keep = Math.max(0, Math.min(8, bits - i * 8))
      const mask = keep === 0 ? 0 : (0xff << (8 - keep)) & 0xff
      start[i] = base[i]! & mask
      end[i] = (base[i]! & mask) | (~mask & 0xff)
    }
    return { start, end }
  }
  const start = parseIp(e.start)
  const end = parseIp(e.end)
  return start === undefined || end === undefined || start.length !== end.length ? undefined : { start, end }
}

/**
 * Compile a pool's groups. A group that refers to another group of the pool by name
 * (`isExistingGroupFromPool`) takes that group's codes or addresses; account-level groups are
 * not known here and match nobody.
 */
export function compileDir (profile: DirPoolFields): DirMatcher {
  const entries: { index: number, groups: DirGroups }[] = profile.rdataInfo.map((g, index) => ({ index, groups: g }))
  if (profile.noResponse !== undefined) entries.push({ index: -1, groups: profile.noResponse })
  const codesByName = new Map<string, Set<string>>()
  const rangesByName = new Map<string, Range[]>()
  for (const { groups } of entries) {
    if (groups.allNonConfigured) continue
    const geo = groups.geoInfo
    if (geo !== undefined && geo.codes.length > 0) {
      const set = codesByName.get(geo.name) ?? new Set<string>()
      for (const c of geo.codes) set.add(c)
      codesByName.set(geo.name, set)
    }
    const ip = groups.ipInfo
    if (ip !== undefined && ip.ips.length > 0) {
      const list = rangesByName.get(ip.name) ?? []
      for (const e of ip.ips) {
        const r = rangeOf(e)
        if (r !== undefined) list.push(r)
      }
      rangesByName.set(ip.name, list)
    }
  }
  const groups: Compiled[] = []
  let catchAll: number | undefined
  let usesGeo = false
  let usesIp = false
  for (const { index, groups: g } of entries) {
    if (g.allNonConfigured) {
      if (index >= 0) catchAll ??= index
      continue
    }
    const codes: ReadonlySet<string> = g.geoInfo === undefined ? new Set() : codesByName.get(g.geoInfo.name) ?? new Set()
    const ranges = g.ipInfo === undefined ? [] : rangesByName.get(g.ipInfo.name) ?? []
    if (codes.size > 0) usesGeo = true
    if (ranges.length > 0) usesIp = true
    groups.push({ index, codes, ranges })
  }
  return { groups, catchAll, noneCatchAll: profile.noResponse?.allNonConfigured === true, preferIp: profile.conflictResolve === 'IP', usesGeo, usesIp }
}

/** Whether `address` (4 or 16 octets) is in one of `ranges`. */
function inRanges (ranges: readonly Range[], address: Uint8Array): boolean {
  for (const r of ranges) {
    if (r.start.length === address.length && compareIp(r.start, address) <= 0 && compareIp(address, r.end) <= 0) return true
  }
  return false
}

/** The records of the groups that hold `code`, with -1 for noResponse; empty when none does. */
function byCode (m: DirMatcher, code: string | undefined): number[] {
  if (code === undefined) return []
  return m.groups.filter(g => g.codes.has(code)).map(g => g.index)
}

/**
 * The records (rdata indexes) that answer a client.
 *
 * @param address the client's address (the resolver's, or its Client Subnet's), 4 or 16 octets
 *   (an IPv4-mapped IPv6 address given as its 4 IPv4 octets)
 * @param country the client's ISO 3166 country code, upper case, when known
 * @returns the records to serve; empty for no response (NODATA)
 */
export function matchDir (m: DirMatcher, address: Uint8Array | undefined, country: string | undefined): number[] {
  const ip = address === undefined || !m.usesIp ? [] : m.groups.filter(g => inRanges(g.ranges, address)).map(g => g.index)
  let geo = byCode(m, country)
  if (geo.length === 0 && country !== undefined) geo = byCode(m, regionOf(country))
  const chosen = ip.length > 0 && (m.preferIp || geo.length === 0) ? ip : geo
  if (chosen.length > 0) return chosen.includes(-1) ? [] : chosen
  if (m.catchAll !== undefined) return [m.catchAll]
  return []
}
