import { Counter, type Registry } from 'prom-client'
import { Rcode } from '../dns/wire/constants.ts'
import { typeName } from '../zone/rdata/index.ts'
import type { ClientCountSink } from './client-count-sink.ts'
import type { CounterSink } from './counter-sink.ts'
import type { HostCountSink } from './host-count-sink.ts'
import type { QueryCollector } from './query-collector.ts'
import type { RawSampleSink } from './raw-sample-sink.ts'

/** Rcode names by value (the first name of a shared value: 16 is BADVERS). */
const RCODE_NAMES = new Map<number, string>()
for (const [name, value] of Object.entries(Rcode)) if (!RCODE_NAMES.has(value)) RCODE_NAMES.set(value, name)

/** A qtype label: its mnemonic, or `other` for unknown types, so clients cannot grow the label set. */
function qtypeLabel (type: number): string {
  const name = typeName(type)
  return /^TYPE\d+$/.test(name) ? 'other' : name
}

/**
 * DNS query counts on the Prometheus registry (read from the counter sink when scraped): by
 * transport, by rcode and by qtype, plus the collector's dropped and failed queries. Never by
 * zone, qname or client, to keep label cardinality bounded (as the HTTP metrics).
 */
export function registerQueryMetrics (registry: Registry, counts: CounterSink, collector: QueryCollector, hosts?: HostCountSink): void {
  // eslint-disable-next-line no-new
  new Counter({
    name: 'zonal_dns_queries_total',
    help: 'DNS queries answered, by transport',
    labelNames: ['transport'] as const,
    registers: [registry],
    collect () {
      this.reset()
      this.inc({ transport: 'udp' }, counts.byTransport.udp)
      this.inc({ transport: 'tcp' }, counts.byTransport.tcp)
    }
  })
  // eslint-disable-next-line no-new
  new Counter({
    name: 'zonal_dns_responses_by_rcode_total',
    help: 'DNS responses by rcode',
    labelNames: ['rcode'] as const,
    registers: [registry],
    collect () {
      this.reset()
      for (const [rcode, n] of counts.byRcode()) this.inc({ rcode: RCODE_NAMES.get(rcode) ?? String(rcode) }, n)
    }
  })
  // eslint-disable-next-line no-new
  new Counter({
    name: 'zonal_dns_queries_by_qtype_total',
    help: 'DNS queries answered, by question type (unknown types as "other")',
    labelNames: ['qtype'] as const,
    registers: [registry],
    collect () {
      this.reset()
      for (const [qtype, n] of counts.byQtype()) this.inc({ qtype: qtypeLabel(qtype) }, n)
    }
  })
  // eslint-disable-next-line no-new
  new Counter({
    name: 'zonal_dns_capture_lost_total',
    help: 'Answered DNS queries the analytics capture lost: dropped (the sink was behind) or failed (the sink threw)',
    labelNames: ['reason'] as const,
    registers: [registry],
    collect () {
      this.reset()
      const stats = collector.counts()
      this.inc({ reason: 'dropped' }, stats.dropped)
      this.inc({ reason: 'failed' }, stats.failed)
    }
  })
  if (hosts === undefined) return
  // eslint-disable-next-line no-new
  new Counter({
    name: 'zonal_analytics_host_overflow_total',
    help: 'DNS queries counted under a zone\'s "(other hosts)" in the per-host counts: the zone or all zones had as many distinct query names as allowed until the next flush',
    registers: [registry],
    collect () {
      this.reset()
      this.inc(hosts.overflowed)
    }
  })
}

/**
 * The raw query sampler's outcomes: samples written, dropped (more waiting than it holds: writes
 * failing, or error responses flooding) and duplicate (a packet id the store already had).
 */
export function registerRawSampleMetrics (registry: Registry, sink: RawSampleSink): void {
  // eslint-disable-next-line no-new
  new Counter({
    name: 'zonal_dns_raw_samples_total',
    help: 'Raw query samples: written to the database, dropped (more waiting than held: writes failing, or error responses flooding), duplicate (a packet id already stored)',
    labelNames: ['outcome'] as const,
    registers: [registry],
    collect () {
      this.reset()
      const stats = sink.counts()
      this.inc({ outcome: 'written' }, stats.written)
      this.inc({ outcome: 'dropped' }, stats.dropped)
      this.inc({ outcome: 'duplicate' }, stats.duplicate)
    }
  })
}

/** The client counts' overflow: queries counted without their client (over `ZONAL_ANALYTICS_MAX_CLIENTS`). */
export function registerClientCountMetrics (registry: Registry, sink: ClientCountSink): void {
  // eslint-disable-next-line no-new
  new Counter({
    name: 'zonal_analytics_client_overflow_total',
    help: 'Answered DNS queries counted in the overflow row of their day, zone and node (no client address): more distinct clients than ZONAL_ANALYTICS_MAX_CLIENTS between two flushes',
    registers: [registry],
    collect () {
      this.reset()
      this.inc(sink.overflowed)
    }
  })
}
