import { QueryFlag } from '../dns/server/query-capture.ts'
import type { QueryBatch } from './query-batch.ts'
import { nameOfKey } from './query-batch.ts'
import type { QuerySink } from './query-sink.ts'

function bump<K> (map: Map<K, number>, key: K): void {
  map.set(key, (map.get(key) ?? 0) + 1)
}

/**
 * The simplest sink: running counts of the queries answered, in all and by rcode, qtype,
 * transport and zone. Memory grows with the distinct rcodes and qtypes (at most 65,536 each)
 * and with the zones served, never with the queries.
 */
export class CounterSink implements QuerySink {
  total = 0
  readonly byRcode = new Map<number, number>()
  readonly byQtype = new Map<number, number>()
  readonly byTransport = { udp: 0, tcp: 0 }
  /** By the zone's wire key; queries no zone answered are not counted here. */
  readonly byZoneKey = new Map<string, number>()

  write (batch: QueryBatch): void {
    for (let i = 0; i < batch.length; i++) {
      bump(this.byRcode, batch.rcode[i]!)
      bump(this.byQtype, batch.qtype[i]!)
      if ((batch.flags[i]! & QueryFlag.TCP) !== 0) this.byTransport.tcp++
      else this.byTransport.udp++
      const zone = batch.zone[i]!
      if (zone !== '') bump(this.byZoneKey, zone)
    }
    this.total += batch.length
  }

  /** Counts by zone, the zones as presentation names (`example.org.`). */
  byZone (): Map<string, number> {
    return new Map([...this.byZoneKey].map(([key, n]) => [nameOfKey(key), n]))
  }
}
