import { ZonalError, type ErrorName } from '../../errors/catalog.ts'
import { formatIpv6, parseIpv4, parseIpv6 } from '../rdata/fields.ts'
import { RRType } from '../rrtype.ts'

/** Longest free-text field (descriptions, names, search strings) a profile may hold. */
export const MAX_TEXT = 1024

/**
 * One JSON object of a pool profile with the path that names it in errors
 * (`profile.rdataInfo[0]`). Reading a field checks its type and range; every error names the
 * field by its full path, so a client sees which value was refused.
 */
export class ProfileObject {
  readonly value: Readonly<Record<string, unknown>>
  readonly path: string

  private constructor (value: Readonly<Record<string, unknown>>, path: string) {
    this.value = value
    this.path = path
  }

  /**
   * The object at `path`, refusing keys outside `keys`.
   *
   * @throws ZonalError POOL_PROFILE_INVALID (not an object), POOL_PROFILE_KEY_INVALID (70008, an
   *   unknown key, named with its path).
   */
  static of (value: unknown, path: string, keys: readonly string[]): ProfileObject {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(`${path} must be an object`)
    const record = value as Record<string, unknown>
    for (const key of Object.keys(record)) {
      if (!keys.includes(key)) throw new ZonalError('POOL_PROFILE_KEY_INVALID', `${path}.${key}`)
    }
    return new ProfileObject(record, path)
  }

  /** Full path of a field of this object. */
  at (key: string): string {
    return `${this.path}.${key}`
  }

  /** Whether the field is present (JSON `null` counts as absent, as Java clients omit nulls). */
  has (key: string): boolean {
    return this.value[key] !== undefined && this.value[key] !== null
  }

  raw (key: string): unknown {
    return this.has(key) ? this.value[key] : undefined
  }

  string (key: string, max = MAX_TEXT): string | undefined {
    const v = this.raw(key)
    if (v === undefined) return undefined
    if (typeof v !== 'string') throw invalid(`${this.at(key)} must be a string`)
    if (v.length > max) throw invalid(`${this.at(key)} must be at most ${max} characters`)
    return v
  }

  bool (key: string, fallback: boolean): boolean {
    const v = this.raw(key)
    if (v === undefined) return fallback
    if (typeof v !== 'boolean') throw invalid(`${this.at(key)} must be true or false`)
    return v
  }

  /** An integer in `min`..`max`; `code` replaces POOL_PROFILE_INVALID for out-of-range values. */
  int (key: string, min: number, max: number, code: ErrorName = 'POOL_PROFILE_INVALID'): number | undefined {
    const v = this.raw(key)
    if (v === undefined) return undefined
    if (typeof v !== 'number' || !Number.isInteger(v)) throw invalid(`${this.at(key)} must be an integer`)
    if (v < min || v > max) {
      throw code === 'POOL_PROFILE_INVALID' ? invalid(`${this.at(key)} must be from ${min} to ${max}`) : new ZonalError(code, this.at(key))
    }
    return v
  }

  /** One of `values` (exact spelling); `code` replaces POOL_PROFILE_INVALID (70007 for orders). */
  choice<T extends string> (key: string, values: readonly T[], code: ErrorName = 'POOL_PROFILE_INVALID'): T | undefined {
    const v = this.raw(key)
    if (v === undefined) return undefined
    if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
      const detail = `${this.at(key)} must be one of ${values.join(', ')}`
      throw code === 'POOL_PROFILE_INVALID' ? invalid(detail) : new ZonalError(code, detail)
    }
    return v as T
  }

  /** A nested object, its keys checked. */
  object (key: string, keys: readonly string[]): ProfileObject | undefined {
    const v = this.raw(key)
    return v === undefined ? undefined : ProfileObject.of(v, this.at(key), keys)
  }

  /** A list field: each element with its path (`…rdataInfo[2]`). */
  list (key: string): { value: unknown, path: string }[] | undefined {
    const v = this.raw(key)
    if (v === undefined) return undefined
    if (!Array.isArray(v)) throw invalid(`${this.at(key)} must be a list`)
    return v.map((value: unknown, i) => ({ value, path: `${this.at(key)}[${i}]` }))
  }
}

/** POOL_PROFILE_INVALID (110004) with `detail` naming the field. */
export function invalid (detail: string): ZonalError {
  return new ZonalError('POOL_PROFILE_INVALID', detail)
}

/** A parsed IP address: canonical text (IPv6 in RFC 5952 form), octets and family. */
export interface IpValue {
  text: string
  bytes: Uint8Array
  family: 4 | 6
}

/** Parse an IPv4 or IPv6 address; undefined when `value` is neither. */
export function parseIp (value: unknown): IpValue | undefined {
  if (typeof value !== 'string') return undefined
  const v4 = parseIpv4(value)
  if (v4 !== undefined) return { text: value, bytes: v4, family: 4 }
  const v6 = parseIpv6(value)
  return v6 === undefined ? undefined : { text: formatIpv6(v6), bytes: v6, family: 6 }
}

/**
 * An IP address in its canonical text, of `family` when given (the pool's record family).
 *
 * @throws ZonalError POOL_PROFILE_INVALID naming `path`.
 */
export function ipAddress (value: unknown, path: string, family?: 4 | 6): string {
  const ip = parseIp(value)
  if (ip !== undefined && (family === undefined || ip.family === family)) return ip.text
  if (family === undefined) throw invalid(`${path} must be an IPv4 or IPv6 address`)
  throw invalid(`${path} must be an ${family === 4 ? 'IPv4' : 'IPv6'} address (the pool is of type ${family === 4 ? 'A' : 'AAAA'})`)
}

/** The address family of a pool's records: 4 for A, 6 for AAAA. */
export function familyOf (type: number): 4 | 6 {
  return type === RRType.AAAA ? 6 : 4
}
