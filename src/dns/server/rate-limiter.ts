import { inCidr, parseAddress, parseCidr, type Cidr } from './client-address.ts'
import { responseIdentity, truncatedCopy } from './response-identity.ts'

/**
 * Response rate limiting over UDP, after BIND's RRL (simplified): identical responses to one
 * client network are limited per second, so the server cannot be used to flood a forged source
 * address. TCP is never limited (its source address cannot be forged).
 */
export interface RateLimitOptions {
  /** Identical responses per second per client network; the bucket holds one second's worth. */
  responsesPerSecond: number
  /** Of the responses over the limit, every `slip`-th is sent truncated; 0 drops them all. */
  slip: number
  /** Client addresses or ranges (`192.0.2.0/24`, `::1`) never limited. */
  exempt: readonly string[]
  /** Buckets kept at most (when full, the oldest makes room). */
  maxEntries?: number
  /** Monotonic clock in milliseconds (tests inject their own). */
  now?: () => number
}

/** What to do with one response. */
export type RateVerdict = 'send' | 'drop' | 'slip'

interface Bucket {
  tokens: number
  last: number
  over: number
}

/** Buckets kept by default (under 30 MB with IPv6 keys). */
export const DEFAULT_MAX_ENTRIES = 100_000

/** IPv6 clients share a bucket per /56 (a site), IPv4 clients per /24 (the first three bytes). */
const IPV6_PREFIX_BYTES = 7

/**
 * The token buckets, one per (client network, response identity). A bucket refills at
 * `responsesPerSecond` up to one second's worth, so a bucket idle for a second is as good as
 * new: a sweep going round the table (two buckets per check) drops such buckets, and a full
 * table (`maxEntries`, reached only by that many buckets busy at once) drops its oldest.
 */
export class ResponseRateLimiter {
  readonly responsesPerSecond: number
  readonly slip: number
  private readonly exempt: Cidr[]
  private readonly maxEntries: number
  private readonly now: () => number
  private readonly buckets = new Map<string, Bucket>()
  /** Where the sweep goes on (a Map iterator survives insertions and deletions). */
  private cursor: MapIterator<[string, Bucket]> | undefined
  private readonly address = new Uint8Array(16)
  /** The last address found exempt: a benchmark or local tool asks from one address. */
  private lastExempt = ''

  /** @throws Error when an exemption is not an address or range, or a limit is out of range. */
  constructor (opts: RateLimitOptions) {
    if (!(opts.responsesPerSecond > 0)) throw new Error('responsesPerSecond must be positive')
    if (!Number.isInteger(opts.slip) || opts.slip < 0) throw new Error('slip must be a whole number')
    this.responsesPerSecond = opts.responsesPerSecond
    this.slip = opts.slip
    this.exempt = opts.exempt.map((text) => {
      const range = parseCidr(text)
      if (range === undefined) throw new Error(`not an address or range: ${text}`)
      return range
    })
    this.maxEntries = Math.max(1, opts.maxEntries ?? DEFAULT_MAX_ENTRIES)
    this.now = opts.now ?? (() => performance.now())
  }

  /** Buckets currently held. */
  get size (): number {
    return this.buckets.size
  }

  /**
   * The verdict for one response to `address` whose identity is `identity` (see
   * {@link responseIdentity}). Exempt clients, and addresses that cannot be read, are always
   * sent their response.
   */
  check (address: string, identity: string): RateVerdict {
    const network = this.network(address)
    return network === undefined ? 'send' : this.take(`${network}|${identity}`)
  }

  /**
   * What to send for `response` to a UDP client at `address`: the response, a truncated copy
   * (TC=1, RFC 1035 §4.1.1: the client retries over TCP), or undefined (dropped). An exempt
   * client costs an address parse and a range compare; the response is not looked at.
   */
  limit (response: Uint8Array, address: string): Uint8Array | undefined {
    const network = this.network(address)
    if (network === undefined) return response
    const verdict = this.take(`${network}|${responseIdentity(response)}`)
    if (verdict === 'send') return response
    return verdict === 'slip' ? truncatedCopy(response) : undefined
  }

  /** The client's network as a bucket key prefix; undefined when exempt or unreadable. */
  private network (address: string): string | number | undefined {
    if (address === this.lastExempt) return undefined
    const ip = this.address
    const length = parseAddress(address, ip)
    if (length === 0) return undefined
    for (let i = 0; i < this.exempt.length; i++) {
      if (inCidr(ip, length, this.exempt[i]!)) {
        this.lastExempt = address
        return undefined
      }
    }
    return length === 4 ? (ip[0]! << 16) | (ip[1]! << 8) | ip[2]! : prefixHex(ip, IPV6_PREFIX_BYTES)
  }

  /** Take a token from the bucket `key`. */
  private take (key: string): RateVerdict {
    const now = this.now()
    this.sweep(now)
    let bucket = this.buckets.get(key)
    if (bucket === undefined) {
      if (this.buckets.size >= this.maxEntries) this.buckets.delete(this.buckets.keys().next().value!)
      bucket = { tokens: this.responsesPerSecond, last: now, over: 0 }
      this.buckets.set(key, bucket)
    } else {
      const elapsed = now - bucket.last
      if (elapsed > 0) bucket.tokens = Math.min(this.responsesPerSecond, bucket.tokens + elapsed * this.responsesPerSecond / 1000)
      bucket.last = now
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return 'send'
    }
    bucket.over++
    return this.slip > 0 && bucket.over % this.slip === 0 ? 'slip' : 'drop'
  }

  /**
   * Look at the next two buckets in a round over the table, dropping those idle for a second:
   * such a bucket is full again, the same as no bucket.
   */
  private sweep (now: number): void {
    for (let n = 0; n < 2; n++) {
      this.cursor ??= this.buckets.entries()
      const next = this.cursor.next()
      if (next.done === true) {
        this.cursor = undefined
        return
      }
      if (now - next.value[1].last >= 1000) this.buckets.delete(next.value[0])
    }
  }
}

function prefixHex (bytes: Uint8Array, count: number): string {
  let s = ''
  for (let i = 0; i < count; i++) s += bytes[i]! < 16 ? `0${bytes[i]!.toString(16)}` : bytes[i]!.toString(16)
  return s
}
