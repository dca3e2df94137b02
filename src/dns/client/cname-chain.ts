import { Rcode } from '../wire/constants.ts'
import { RRType } from '../../zone/rrtype.ts'
import { nameEquals, nameKey, nameToString, type WireName } from '../../zone/name.ts'
import { rcodeName, type RecursiveAnswer, type RecursiveClient } from './recursive-client.ts'

/** What the resolvers say about one name of a chain, asked for its CNAME. */
export type Hop =
  /** The name is an alias of `target`. */
  | { kind: 'cname', target: WireName }
  /** The name exists and is no alias (NOERROR: data of other types, or none: NODATA). */
  | { kind: 'exists' }
  /** RFC 1035 §4.1.1 rcode 3: the name does not exist. */
  | { kind: 'nxdomain' }
  /** The resolvers could not tell (SERVFAIL or another error rcode), with why. */
  | { kind: 'error', reason: string }

/** Where following a CNAME target ended. */
export type ChainOutcome =
  /** It reaches a name that exists. `chain`: the names followed, the target first. */
  | { dangling: false, chain: WireName[] }
  /**
   * It does not resolve: `ultimate` is the name where it stopped (the one that gave NXDOMAIN or
   * the error, or that repeats in a loop), `description` says why.
   */
  | { dangling: true, chain: WireName[], ultimate: WireName, cause: 'nxdomain' | 'error' | 'loop' | 'too-long', description: string }

/** RFC 8914 §5.2 info codes, for descriptions. */
const EDE_NAMES: readonly string[] = [
  'Other', 'Unsupported DNSKEY Algorithm', 'Unsupported DS Digest Type', 'Stale Answer', 'Forged Answer',
  'DNSSEC Indeterminate', 'DNSSEC Bogus', 'Signature Expired', 'Signature Not Yet Valid', 'DNSKEY Missing',
  'RRSIGs Missing', 'No Zone Key Bit Set', 'NSEC Missing', 'Cached Error', 'Not Ready', 'Blocked',
  'Censored', 'Filtered', 'Prohibited', 'Stale NXDOMAIN Answer', 'Not Authoritative', 'Not Supported',
  'No Reachable Authority', 'Network Error', 'Invalid Data'
]

/** A name as descriptions show it: presentation form without the final dot. */
export function shownName (name: WireName): string {
  const text = nameToString(name)
  return text === '.' ? text : text.replace(/\.$/, '')
}

/**
 * What an answer to `name`/CNAME says about the name: its CNAME (an answer record owned by the
 * name), NOERROR without one (it exists), NXDOMAIN, or an error rcode with the resolver's
 * Extended DNS Errors as the reason.
 */
export function hopOf (name: WireName, answer: RecursiveAnswer): Hop {
  if (answer.rcode === Rcode.NXDOMAIN) return { kind: 'nxdomain' }
  if (answer.rcode === Rcode.NOERROR) {
    const cname = answer.answers.find(r => r.type === RRType.CNAME && nameEquals(r.name, name))
    return cname === undefined ? { kind: 'exists' } : { kind: 'cname', target: cname.rdata }
  }
  const ede = answer.extendedErrors.map(e => `EDE ${e.code} ${EDE_NAMES[e.code] ?? 'Unknown'}${e.text === '' ? '' : `: ${e.text}`}`)
  return { kind: 'error', reason: `${rcodeName(answer.rcode)} from ${answer.server}${ede.length === 0 ? '' : ` (${ede.join('; ')})`}` }
}

/**
 * Follows CNAME targets through recursive resolvers hop by hop (each name asked for its CNAME),
 * at most `maxHops` names a chain (CNAME loops end there too), remembering each name's answer for
 * the follower's life: records sharing targets or chain tails ask once. Errors of the client
 * (no resolver answered) propagate.
 */
export class CnameFollower {
  private readonly hops = new Map<string, Promise<Hop>>()
  private readonly ask: (name: WireName) => Promise<Hop>
  readonly maxHops: number
  /** Questions actually sent (names not answered from memory). */
  queries = 0

  constructor (ask: (name: WireName) => Promise<Hop>, maxHops = 16) {
    this.ask = ask
    this.maxHops = maxHops
  }

  /** A follower asking `client` (`name`/CNAME). */
  static over (client: RecursiveClient, maxHops = 16): CnameFollower {
    return new CnameFollower(async name => hopOf(name, await client.query(name, RRType.CNAME)), maxHops)
  }

  private async hop (name: WireName): Promise<Hop> {
    const k = nameKey(name)
    let h = this.hops.get(k)
    if (h === undefined) {
      this.queries++
      h = this.ask(name)
      this.hops.set(k, h)
    }
    return await h
  }

  /** Follow `target` (a CNAME record's rdata) to where it ends. */
  async follow (target: WireName): Promise<ChainOutcome> {
    const chain: WireName[] = []
    const seen = new Set<string>()
    let name = target
    for (;;) {
      const k = nameKey(name)
      const path = (): string => [...chain, name].map(shownName).join(' → ')
      if (seen.has(k)) return { dangling: true, chain, ultimate: name, cause: 'loop', description: `CNAME chain loops and never resolves: ${path()}` }
      if (chain.length >= this.maxHops) return { dangling: true, chain, ultimate: name, cause: 'too-long', description: `CNAME chain is longer than ${this.maxHops} names: ${path()}` }
      seen.add(k)
      const h = await this.hop(name)
      switch (h.kind) {
        case 'exists':
          chain.push(name)
          return { dangling: false, chain }
        case 'cname':
          chain.push(name)
          name = h.target
          continue
        case 'nxdomain': {
          const description = chain.length === 0
            ? 'CNAME target does not resolve: the name does not exist (NXDOMAIN).'
            : `CNAME chain ends in a name that does not exist (NXDOMAIN): ${path()}`
          chain.push(name)
          return { dangling: true, chain, ultimate: name, cause: 'nxdomain', description }
        }
        case 'error': {
          const description = `CNAME target does not resolve or is unreachable: the resolvers answered ${h.reason} for ${shownName(name)}${chain.length === 0 ? '' : ` (chain ${path()})`}.`
          chain.push(name)
          return { dangling: true, chain, ultimate: name, cause: 'error', description }
        }
        default: {
          const never: never = h
          throw new Error(`unknown hop ${String(never)}`)
        }
      }
    }
  }
}
