import { parentPort } from 'node:worker_threads'
import { ZoneData, type JournalStep, type ZoneSnapshot } from '../../src/dns/index/zone-data.ts'
import { wireKey, parseName } from '../../src/zone/name.ts'

/**
 * A thread serving a zone from a snapshot (test/dns/index/zone-data.test.ts): it takes the
 * snapshot, then the same steps as the original, and answers with what it reads.
 */
type Message = { snapshot: ZoneSnapshot } | { step: JournalStep, version: number } | { read: string[] }
let zone: ZoneData | undefined
parentPort!.on('message', (m: Message) => {
  if ('snapshot' in m) zone = ZoneData.fromSnapshot(m.snapshot)
  else if ('step' in m) zone!.apply(m.step, m.version)
  else {
    parentPort!.postMessage(m.read.map(name => {
      const node = zone!.node(parseName(name))
      return { exists: zone!.existsByKey(wireKey(parseName(name))), rrsets: node === undefined ? null : [...node.rrsets].map(([type, s]) => [type, s.ttl, s.rdata.map(d => [...d])]) }
    }))
  }
})
