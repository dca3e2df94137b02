import { open } from 'node:fs/promises'
import { Reader, type Response } from 'maxmind'
import type { GeoLocator } from '../dns/answer/pools.ts'
import { formatIp } from '../zone/ip.ts'

/**
 * The GeoIP databases directional pools place clients with, held once in shared memory: every
 * DNS thread reads the same octets (the shipped DB-IP Lite city pair is about 134 MB, so this is
 * its cost once, not per worker). Read only when a directional pool with geo groups is served.
 */
export async function readGeoDatabases (paths: readonly string[]): Promise<SharedArrayBuffer[]> {
  const out: SharedArrayBuffer[] = []
  for (const path of paths) {
    // Straight into shared memory: no second copy of the file on the way.
    const file = await open(path, 'r')
    try {
      const { size } = await file.stat()
      const shared = new SharedArrayBuffer(size)
      const view = new Uint8Array(shared)
      for (let at = 0; at < size;) {
        const { bytesRead } = await file.read(view, at, Math.min(size - at, 1 << 24), at)
        if (bytesRead === 0) throw new Error(`${path}: file shorter than its size`)
        at += bytesRead
      }
      out.push(shared)
    } finally {
      await file.close()
    }
  }
  return out
}

/** Country codes remembered per thread (distinct addresses or subnets); the map starts over when full. */
const CACHE_SIZE = 65_536

/**
 * A locator over databases read by {@link readGeoDatabases}: the ISO 3166 country code of an
 * address (DB-IP's `country_code`, MaxMind's `country.iso_code`), upper case. IPv4 addresses
 * try the IPv4 databases first, IPv6 ones only IPv6 databases (an IPv4 file answers IPv6
 * addresses with nonsense). Look-ups happen in memory; the answers are cached per thread.
 */
export function geoLocator (databases: readonly SharedArrayBuffer[]): GeoLocator {
  const readers = databases.map(db => new Reader<Response>(Buffer.from(db))).sort((a, b) => a.metadata.ipVersion - b.metadata.ipVersion)
  const v6 = readers.filter(r => r.metadata.ipVersion === 6)
  let cache = new Map<string, string | undefined>()
  return (address) => {
    const ip = formatIp(address)
    if (cache.has(ip)) return cache.get(ip)
    let code: string | undefined
    for (const r of address.length === 4 ? readers : v6) {
      let found: unknown = null
      try { found = r.get(ip) } catch { found = null }
      if (typeof found !== 'object' || found === null) continue
      const flat = (found as { country_code?: unknown }).country_code
      const nested = (found as { country?: { iso_code?: unknown } }).country?.iso_code
      const value = typeof flat === 'string' ? flat : typeof nested === 'string' ? nested : undefined
      if (value !== undefined && value !== '') {
        code = value.toUpperCase()
        break
      }
    }
    if (cache.size >= CACHE_SIZE) cache = new Map()
    cache.set(ip, code)
    return code
  }
}
