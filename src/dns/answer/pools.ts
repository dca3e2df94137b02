import type { WireName } from '../../zone/name.ts'
import { parseIpInto } from '../../zone/ip.ts'
import { rdataToRecordText, recordTextToRdata } from '../../zone/record-text.ts'
import { compileDir, matchDir, type DirMatcher } from '../../zone/pools/dir-match.ts'
import type { PoolProfile } from '../../zone/pools/profile.ts'
import { backupRdata, decidePool, decisionVaries, pickAnswer, type PoolDecision } from '../../zone/pools/select.ts'
import type { WireRecord } from '../wire/message.ts'
import { nextTurn } from './rotation.ts'

/**
 * A traffic pool (SB, TC, SF, SLB, DIR) as the answer path serves it: plain data, posted to the
 * DNS worker threads with its zone and replaced whole when its health changes (so what each
 * thread derives from it, kept in a WeakMap, goes with it). RD pools are not here: their order
 * is packed with the rrset.
 */
export interface ServedPool {
  profile: PoolProfile
  /** The candidates in presentation form: the rrset's records (`rdataInfo` order), then the backup records. */
  text: string[]
  /** The same in wire form. */
  wire: Uint8Array[]
  /** How many of the candidates are the rrset's own records. */
  records: number
  /** The candidates judged DOWN (presentation rdata, sorted); any other counts as UP. */
  down: string[]
  /** The rrset in the zone that holds its records (an alias's primary): `wireKey(owner)/type`. */
  key: string
  /** This thread's turn counter for rotating pools when no shared table is used. */
  next?: number
}

/**
 * Who asks, as far as a directional answer cares: the address the query came from, and its EDNS
 * Client Subnet option (RFC 7871). The answer path sets `ecsScope` when a directional answer was
 * chosen by the subnet, and the response then carries the option back with that scope.
 */
export interface Asker {
  address: string
  /** The Client Subnet option's data (FAMILY first), if the request has one. */
  ecs: Uint8Array | undefined
  ecsScope?: number
}

/**
 * The pool of an rrset as served, or undefined for a plain rrset or an RD pool.
 * @param key `wireKey(owner)/type` of the rrset in the zone that holds it
 * @param rdata the rrset's records (wire), in `rdataInfo` order
 * @param down the records (and backups) judged DOWN, presentation form
 */
export function servedPool (profile: PoolProfile | null, key: string, type: number, rdata: readonly Uint8Array[], origin: WireName, down: readonly string[] = []): ServedPool | undefined {
  if (profile === null || profile.kind === 'RD_POOLS') return undefined
  const backups = backupRdata(profile)
  const text = [...rdata.map(r => rdataToRecordText(type, r)), ...backups]
  const wire = [...rdata, ...backups.map(b => recordTextToRdata(type, b, origin))]
  return { profile, text, wire, records: rdata.length, down: [...down].sort(), key }
}

/** Whether two sorted lists of rdata are the same. */
export function sameDown (a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((r, i) => r === b[i])
}

/**
 * Where a client is: an address of 4 or 16 octets gives its ISO 3166 country code (upper case),
 * or undefined. Set by the service (`serving/`) when a directional pool has geo groups; until
 * then, and with no GeoIP database, geo groups match nobody.
 */
export type GeoLocator = (address: Uint8Array) => string | undefined

let locator: GeoLocator | undefined

/** Place clients with `l` from now on in this thread (undefined: no places). */
export function setGeoLocator (l: GeoLocator | undefined): void {
  locator = l
}

const decisions = new WeakMap<ServedPool, PoolDecision>()
const matchers = new WeakMap<ServedPool, DirMatcher>()

function decisionOf (pool: ServedPool): PoolDecision {
  let d = decisions.get(pool)
  if (d === undefined) {
    const down = new Set(pool.down)
    d = decidePool(pool.profile, pool.text.slice(0, pool.records), r => down.has(r) ? 'DOWN' : 'UP')
    decisions.set(pool, d)
  }
  return d
}

const SCRATCH = new Uint8Array(16)

/**
 * The address a directional pool places the client by: its Client Subnet (unless the pool sets
 * `ignoreECS`), else the address the query came from; IPv4-mapped IPv6 as IPv4. A Client
 * Subnet option that breaks RFC 7871 §6 (family, prefix length, address length, bits beyond
 * the prefix) is not used; one with a source prefix of 0 asks for no tailoring (scope 0).
 */
function placeOf (pool: Extract<PoolProfile, { kind: 'DIR_POOLS' }>, asker: Asker | undefined): Uint8Array | undefined {
  if (asker === undefined) return undefined
  const ecs = asker.ecs
  if (!pool.ignoreECS && ecs !== undefined && ecs.length >= 4) {
    const family = (ecs[0]! << 8) | ecs[1]!
    const source = ecs[2]!
    const size = family === 1 ? 4 : family === 2 ? 16 : 0
    const octets = Math.ceil(source / 8)
    if (size > 0 && source <= size * 8 && ecs.length === 4 + octets && (source % 8 === 0 || (ecs[3 + octets]! & (0xff >> (source % 8))) === 0)) {
      if (source === 0) {
        asker.ecsScope = 0
      } else {
        const address = new Uint8Array(size)
        address.set(ecs.subarray(4, 4 + octets))
        asker.ecsScope = source
        return address
      }
    }
  }
  const n = parseIpInto(asker.address, SCRATCH, true)
  if (n === 0) return undefined
  if (n === 16 && SCRATCH.subarray(0, 10).every(b => b === 0) && SCRATCH[10] === 0xff && SCRATCH[11] === 0xff) return SCRATCH.slice(12, 16)
  return SCRATCH.slice(0, n)
}

/** Records of `pool` at `owner` (as answered), each with its TTL. */
function records (pool: ServedPool, picked: readonly number[], owner: WireName, type: number, ttl: number): WireRecord[] {
  const out = new Array<WireRecord>(picked.length)
  const infos = pool.profile.kind === 'DIR_POOLS' ? pool.profile.rdataInfo : undefined
  for (let k = 0; k < picked.length; k++) {
    const i = picked[k]!
    out[k] = { name: owner, type, class: 1, ttl: infos?.[i]?.ttl ?? ttl, rdata: pool.wire[i]! }
  }
  return out
}

/**
 * The records a pool answers with now, to this asker: a traffic pool by its decision (health,
 * forced states, priorities, weights, rotation), a directional pool by the client's place.
 * `varies`: another answer, or another client, may get other records (never cached as bytes).
 * An empty list is NODATA (a directional pool's no-response group, or nothing matched).
 *
 * @param owner the owner as answered (a wildcard's is the question name)
 * @param ttl the rrset's TTL (a directional record's own `ttl` wins)
 */
export function poolRecords (pool: ServedPool, owner: WireName, type: number, ttl: number, asker: Asker | undefined): { records: WireRecord[], varies: boolean } {
  const profile = pool.profile
  if (profile.kind === 'DIR_POOLS') {
    let m = matchers.get(pool)
    if (m === undefined) {
      m = compileDir(profile)
      matchers.set(pool, m)
    }
    const address = m.usesIp || m.usesGeo ? placeOf(profile, asker) : undefined
    const country = m.usesGeo && address !== undefined && locator !== undefined ? locator(address) : undefined
    return { records: records(pool, matchDir(m, address, country), owner, type, ttl), varies: true }
  }
  const d = decisionOf(pool)
  const turn = d.kind === 'rotate' ? nextTurn(owner, type, pool) : 0
  return { records: records(pool, pickAnswer(d, Math.random, turn), owner, type, ttl), varies: decisionVaries(d) }
}
