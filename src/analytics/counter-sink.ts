import { QueryFlag } from '../dns/server/query-capture.ts'
import type { QueryBatch } from './query-batch.ts'
import { nameOfKey } from './query-batch.ts'
import type { QuerySink } from './query-sink.ts'

/** The non-zero entries of a counting array, by index. */
function nonZero (counts: Float64Array): Map<number, number> {
  const out = new Map<number, number>()
  for (let i = 0; i < counts.length; i++) if (counts[i] !== 0) out.set(i, counts[i]!)
  return out
}

/** What a {@link CounterSink} hands over: its counts, by rcode, qtype and zone wire key as pairs. */
export interface CounterPart {
  total: number
  tcp: number
  rcodes: Array<[number, number]>
  qtypes: Array<[number, number]>
  zones: Array<[string, number]>
}

/**
 * The simplest sink: running counts of the queries answered, in all and by rcode, qtype,
 * transport and zone. Rcodes (12 bits) and qtypes (16 bits) are counted in fixed arrays (no
 * map work per query; 0.5 MB); zones in a map that grows with the zones served, never with
 * the queries.
 */
export class CounterSink implements QuerySink {
  total = 0
  readonly byTransport = { udp: 0, tcp: 0 }
  private readonly rcodes = new Float64Array(4096)
  private readonly qtypes = new Float64Array(65536)
  /** By the zone's wire key; queries no zone answered are not counted here. */
  private readonly zones = new Map<string, number>()

  write (batch: QueryBatch): void {
    let tcp = 0
    // Queries come in runs of the same zone: one map update per run.
    let zone = ''
    let run = 0
    for (let i = 0; i < batch.length; i++) {
      this.rcodes[batch.rcode[i]! & 0xfff]!++
      this.qtypes[batch.qtype[i]!]!++
      if ((batch.flags[i]! & QueryFlag.TCP) !== 0) tcp++
      const z = batch.zone[i]!
      if (z === zone) {
        run++
      } else {
        if (zone !== '') this.zones.set(zone, (this.zones.get(zone) ?? 0) + run)
        zone = z
        run = 1
      }
    }
    if (zone !== '') this.zones.set(zone, (this.zones.get(zone) ?? 0) + run)
    this.byTransport.tcp += tcp
    this.byTransport.udp += batch.length - tcp
    this.total += batch.length
  }

  /**
   * The counts since the last hand-over, taken out (a DNS worker thread hands them to the main
   * thread's sink, which {@link absorb}s them); undefined when nothing was counted.
   */
  handOver (): CounterPart | undefined {
    if (this.total === 0) return undefined
    const part: CounterPart = { total: this.total, tcp: this.byTransport.tcp, rcodes: [...nonZero(this.rcodes)], qtypes: [...nonZero(this.qtypes)], zones: [...this.zones] }
    this.total = 0
    this.byTransport.tcp = 0
    this.byTransport.udp = 0
    for (const [code] of part.rcodes) this.rcodes[code] = 0
    for (const [type] of part.qtypes) this.qtypes[type] = 0
    this.zones.clear()
    return part
  }

  /** Add what another thread's sink handed over. */
  absorb (part: CounterPart): void {
    this.total += part.total
    this.byTransport.tcp += part.tcp
    this.byTransport.udp += part.total - part.tcp
    for (const [code, n] of part.rcodes) this.rcodes[code]! += n
    for (const [type, n] of part.qtypes) this.qtypes[type]! += n
    for (const [zone, n] of part.zones) this.zones.set(zone, (this.zones.get(zone) ?? 0) + n)
  }

  /** Counts by rcode (only those seen). */
  byRcode (): Map<number, number> {
    return nonZero(this.rcodes)
  }

  /** Counts by qtype (only those seen). */
  byQtype (): Map<number, number> {
    return nonZero(this.qtypes)
  }

  /** Counts by zone, the zones as presentation names (`example.org.`). */
  byZone (): Map<string, number> {
    return new Map([...this.zones].map(([key, n]) => [nameOfKey(key), n]))
  }
}
