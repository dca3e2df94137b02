import { isIPv4 } from 'node:net'
import { query, queryWithTcpFallback, QueryError, type QueryOptions, type QueryServer } from '../dns/client/query.ts'
import { Rcode } from '../dns/wire/constants.ts'
import type { Message, WireRecord } from '../dns/wire/message.ts'
import { formatIp } from '../zone/ip.ts'
import { nameEquals, nameToString, parentName, parseName, type WireName } from '../zone/name.ts'
import { readSoa } from '../zone/rdata/soa.ts'
import { RRType } from '../zone/rrtype.ts'
import { rcodeName } from './checks/rcode-name.ts'
import type { DsView, Observation, ParentView, Probe, Resolution, ServerProbe } from './types.ts'

/** How the gathering step reaches the DNS: the resolvers, the nameservers' port, pacing. */
export interface GatherOptions {
  /** Recursive resolvers (`ZONAL_RESOLVERS`), asked in turn until one answers. */
  resolvers: QueryServer[]
  /** The port nameservers are asked on (`ZONAL_HEALTH_NS_PORT`, 53). */
  nsPort: number
  /** Waits for a turn to send a query to `address` (the per-server query rate); none: no pacing. */
  pace?: (address: string) => Promise<void>
  /** Per-query timeout (default 2000 ms). */
  timeoutMs?: number
  signal?: AbortSignal
}

/** The name asked with RD on to see whether a nameserver resolves for anyone (RFC 6761 §6.4: `.invalid` never exists). */
export const RECURSION_PROBE = 'zonal-recursion-probe.invalid.'

/** Nameservers of a parent asked for the delegation, at most. */
const MAX_PARENT_SERVERS = 4

const lowerText = (name: WireName): string => nameToString(name).toLowerCase()

/** What a failed query says in a result; anything but a QueryError (an abort) goes on up. */
function failureText (err: unknown): string {
  if (err instanceof QueryError) return err.reason === 'timeout' ? 'no answer (timeout)' : err.message
  throw err
}

/** The DNS side of the gathering step: resolver lookups and direct questions, paced. */
class Asker {
  private readonly opts: GatherOptions

  constructor (opts: GatherOptions) {
    this.opts = opts
  }

  private options (extra: QueryOptions): QueryOptions {
    return { timeoutMs: this.opts.timeoutMs ?? 2000, retries: 1, ...(this.opts.signal === undefined ? {} : { signal: this.opts.signal }), ...extra }
  }

  /** Ask the resolvers (RD on), each in turn until one answers; an answer with SERVFAIL tries the next. */
  async resolve (name: WireName, type: number): Promise<Message> {
    let last: unknown
    for (const r of this.opts.resolvers) {
      try {
        await this.opts.pace?.(r.host)
        const m = await queryWithTcpFallback(r, name, type, this.options({ recursionDesired: true }))
        if (m.rcode !== Rcode.SERVFAIL) return m
        last = new QueryError('bad response', `${nameToString(name)}: SERVFAIL from the resolver`)
      } catch (err) {
        if (!(err instanceof QueryError)) throw err
        last = err
      }
    }
    throw last ?? new QueryError('network', 'no resolver configured')
  }

  /** Ask one server directly, RD off unless said. */
  async ask (address: string, name: WireName, type: number, extra: QueryOptions = {}): Promise<Message> {
    await this.opts.pace?.(address)
    const server = { host: address, port: this.opts.nsPort }
    return extra.transport === 'tcp' ? await query(server, name, type, this.options(extra)) : await queryWithTcpFallback(server, name, type, this.options(extra))
  }

  /** The addresses of a name through the resolvers (A and AAAA), the CNAME it is if it is one. */
  async addresses (name: string): Promise<Resolution> {
    const wire = parseName(name)
    const found: string[] = []
    let cname: string | undefined
    for (const type of [RRType.A, RRType.AAAA]) {
      let m: Message
      try {
        m = await this.resolve(wire, type)
      } catch (err) {
        return { ok: false, error: failureText(err) }
      }
      if (m.rcode === Rcode.NXDOMAIN) return { ok: false, error: 'the name does not exist (NXDOMAIN)' }
      if (m.rcode !== Rcode.NOERROR) return { ok: false, error: `the resolver answered ${rcodeName(m.rcode)}` }
      const alias = m.answers.find(r => r.type === RRType.CNAME && nameEquals(r.name, wire))
      if (alias !== undefined) cname = lowerText(alias.rdata)
      for (const r of m.answers) if (r.type === type) found.push(formatIp(r.rdata))
    }
    if (found.length === 0) return { ok: false, error: 'no A or AAAA record' }
    return { ok: true, addresses: [...new Set(found)], ...(cname === undefined ? {} : { cname }) }
  }
}

function probeOf (m: Message, zone: WireName): Probe {
  const soa = m.answers.find(r => r.type === RRType.SOA && nameEquals(r.name, zone))
  return { answered: true, aa: m.aa, ra: m.ra, rcode: m.rcode, ...(soa === undefined ? {} : { serial: readSoa(soa.rdata).serial }) }
}

async function probe (ask: () => Promise<Message>, zone: WireName): Promise<Probe> {
  try {
    return probeOf(await ask(), zone)
  } catch (err) {
    return { answered: false, error: failureText(err) }
  }
}

/** Ask one address of one nameserver: the zone's SOA over UDP and over TCP, and the recursion probe. */
async function probeServer (asker: Asker, zone: WireName, ns: string, address: string): Promise<ServerProbe> {
  const udp = await probe(async () => await asker.ask(address, zone, RRType.SOA, { transport: 'udp' }), zone)
  const tcp = await probe(async () => await asker.ask(address, zone, RRType.SOA, { transport: 'tcp' }), zone)
  const recursion = await probe(async () => await asker.ask(address, parseName(RECURSION_PROBE), RRType.A, { recursionDesired: true }), zone)
  return { ns, address, udp, tcp, recursion }
}

function namesOf (records: WireRecord[], owner: WireName): string[] {
  // Sorted: servers rotate the order of an rrset (RFC 1034 §4.1 leaves it free).
  return [...new Set(records.filter(r => r.type === RRType.NS && nameEquals(r.name, owner)).map(r => lowerText(r.rdata)))].sort()
}

/**
 * The delegation of `zone` as its parent's servers give it: the parent zone found through the
 * resolvers (the SOA of the name above the zone: in the answer when that name is a zone's apex,
 * else in the authority section), its NS names and their addresses, then each parent server
 * (up to four, IPv4) asked directly with RD off for the zone's NS: the referral's NS set and its
 * glue (RFC 1034 §4.3.2), or an authoritative answer when the parent's server also serves the zone;
 * then that server's DS records for the zone.
 */
async function parentView (asker: Asker, zone: WireName): Promise<ParentView> {
  let parent: WireName | undefined
  try {
    const m = await asker.resolve(parentName(zone), RRType.SOA)
    parent = (m.answers.find(r => r.type === RRType.SOA) ?? m.authority.find(r => r.type === RRType.SOA))?.name
  } catch (err) {
    return { ok: false, error: `the parent zone could not be found: ${failureText(err)}` }
  }
  if (parent === undefined) return { ok: false, error: 'the parent zone could not be found' }
  const parentText = lowerText(parent)
  let parentNs: string[]
  try {
    parentNs = namesOf((await asker.resolve(parent, RRType.NS)).answers, parent)
  } catch (err) {
    return { ok: false, parent: parentText, error: `the parent's name servers could not be found: ${failureText(err)}` }
  }
  const servers: string[] = []
  for (const ns of parentNs) {
    const r = await asker.addresses(ns)
    if (r.ok) servers.push(...r.addresses.filter(a => isIPv4(a)).slice(0, MAX_PARENT_SERVERS - servers.length))
    if (servers.length >= MAX_PARENT_SERVERS) break
  }
  if (servers.length === 0) return { ok: false, parent: parentText, error: 'no address of the parent\'s name servers was found' }
  const failures: string[] = []
  for (const address of servers) {
    let m: Message
    try {
      m = await asker.ask(address, zone, RRType.NS)
    } catch (err) {
      failures.push(`${address}: ${failureText(err)}`)
      continue
    }
    if (m.rcode !== Rcode.NOERROR) {
      failures.push(`${address} answered ${rcodeName(m.rcode)}`)
      continue
    }
    const ns = m.aa ? namesOf(m.answers, zone) : namesOf(m.authority, zone)
    if (ns.length === 0) {
      failures.push(`${address} gives no NS records for the zone`)
      continue
    }
    const glue: Record<string, string[]> = {}
    for (const r of m.additional) {
      if (r.type !== RRType.A && r.type !== RRType.AAAA) continue
      const owner = lowerText(r.name)
      if (ns.includes(owner)) glue[owner] = [...(glue[owner] ?? []), formatIp(r.rdata)]
    }
    return { ok: true, parent: parentText, servers, ns, glue, ds: await dsAt(asker, address, zone) }
  }
  return { ok: false, parent: parentText, error: `no delegation at the parent's servers (${failures.join('; ')})` }
}

/**
 * The zone's DS rrset as the parent's server `address` holds it (RD off; DS lives on the parent
 * side of the cut, RFC 4035 §3.1.4.1): the answer's DS records at the zone's name, none on NODATA.
 */
async function dsAt (asker: Asker, address: string, zone: WireName): Promise<DsView> {
  let m: Message
  try {
    m = await asker.ask(address, zone, RRType.DS)
  } catch (err) {
    return { ok: false, error: `${address}: ${failureText(err)}` }
  }
  if (m.rcode !== Rcode.NOERROR) return { ok: false, error: `${address} answered ${rcodeName(m.rcode)} for the DS records` }
  return { ok: true, records: m.answers.filter(r => r.type === RRType.DS && nameEquals(r.name, zone)).map(r => r.rdata) }
}

/**
 * Observe the zone on the network: its nameservers' addresses (through the resolvers), each
 * IPv4 address asked directly (UDP, TCP, recursion), the delegation at the parent, and the MX
 * targets. Servers are asked in parallel, each server's questions one after another.
 */
export async function observeNetwork (zone: string, ns: readonly string[], mxExchanges: readonly string[], opts: GatherOptions): Promise<NonNullable<Observation['network']>> {
  const asker = new Asker(opts)
  const zoneWire = parseName(zone)
  const nsAddresses: Record<string, Resolution> = {}
  await Promise.all(ns.map(async (n) => { nsAddresses[n] = await asker.addresses(n) }))
  const targets = ns.flatMap(n => {
    const r = nsAddresses[n]!
    return r.ok ? r.addresses.filter(a => isIPv4(a)).map(address => ({ ns: n, address })) : []
  })
  const [servers, parent] = await Promise.all([
    Promise.all(targets.map(async t => await probeServer(asker, zoneWire, t.ns, t.address))),
    parentView(asker, zoneWire)
  ])
  const mxTargets: Record<string, Resolution> = {}
  for (const x of new Set(mxExchanges)) if (x !== '.') mxTargets[x] = await asker.addresses(x)
  return { nsAddresses, servers, parent, mxTargets }
}
