/**
 * The health check's vocabulary: statuses, categories, what one check reports, and what the
 * gathering step observed of a zone (the checks' only input, so each check is a pure function).
 */

/** A result's status, from best to worst as the report ranks them (the category shows its worst). */
export const STATUSES = ['NOT_APPLICABLE', 'OK', 'INFO', 'BEST_PRACTICE', 'WARNING', 'ERROR'] as const
export type HealthStatus = typeof STATUSES[number]

/** A message's status (the real API lists no NOT_APPLICABLE for messages; a check without data says INFO). */
export type MessageStatus = Exclude<HealthStatus, 'NOT_APPLICABLE'>

export const CATEGORIES = ['NS', 'SOA', 'MX', 'DNSSEC', 'DOMAIN'] as const
export type HealthCategory = typeof CATEGORIES[number]

/** The state of a report and of each of its categories. */
export type HealthState = 'IN_PROGRESS' | 'COMPLETED' | 'FAILED'

export interface HealthMessage {
  status: MessageStatus
  message: string
}

/** One check's result: the HealthCheckResult of the real API. */
export interface HealthResult {
  name: string
  description: string
  hint?: string
  status: HealthStatus
  messages: HealthMessage[]
}

export interface CategoryResults {
  category: HealthCategory
  state: HealthState
  status: HealthStatus
  results: HealthResult[]
}

/** What a check module concludes: its status (the worst of its messages unless said), messages and a hint. */
export interface CheckOutcome {
  status: HealthStatus
  messages: HealthMessage[]
  hint?: string
}

/** One check (one module under `checks/`), run over an {@link Observation}. */
export interface HealthCheck {
  category: HealthCategory
  /** The short name the report shows (`name`). */
  name: string
  /** Why it matters, with its RFC references (`description`). */
  description: string
  run (o: Observation): CheckOutcome
}

/** An answer of one nameserver to one query, or why there was none. */
export type Probe =
  | { answered: true, aa: boolean, ra: boolean, rcode: number, serial?: number }
  | { answered: false, error: string }

/** One address of one of the zone's nameservers, asked directly (RD off). */
export interface ServerProbe {
  ns: string
  address: string
  /** The zone's SOA over UDP. */
  udp: Probe
  /** The zone's SOA over TCP. */
  tcp: Probe
  /** A name outside the zone with RD on: a recursive answer (RA, NOERROR or NXDOMAIN) is open recursion. */
  recursion: Probe
}

/** Addresses of a name through the resolvers, or why none. */
export type Resolution =
  | { ok: true, addresses: string[], cname?: string }
  | { ok: false, error: string }

/** The delegation as the parent zone's servers give it. */
export type ParentView =
  | { ok: true, parent: string, servers: string[], ns: string[], glue: Record<string, string[]>, ds: DsView }
  | { ok: false, parent?: string, error: string }

/** The zone's DS rrset at the parent (the rdata, RFC 4034 §5.1), or why it could not be read. */
export type DsView =
  | { ok: true, records: Uint8Array[] }
  | { ok: false, error: string }

export interface SoaView {
  mname: string
  rname: string
  serial: number
  refresh: number
  retry: number
  expire: number
  minimum: number
}

/**
 * Everything the checks read: the zone's own data (from the store: what the service serves),
 * and what the DNS said (`network` undefined when no resolver is configured: the checks that
 * need it are NOT_APPLICABLE).
 */
export interface Observation {
  zone: string
  dnssecStatus: string
  soa: SoaView | undefined
  /** The apex NS names, lower case with the trailing dot. */
  ns: string[]
  mx: Array<{ preference: number, exchange: string }>
  /** The target of a CNAME at the apex, if there is one. */
  apexCname: string | undefined
  /** The zone's DNSKEY rdata at its apex as the service serves it (none when unsigned). */
  dnskeys: Uint8Array[]
  network: {
    nsAddresses: Record<string, Resolution>
    servers: ServerProbe[]
    parent: ParentView
    mxTargets: Record<string, Resolution>
  } | undefined
}
