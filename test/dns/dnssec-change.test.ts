/**
 * A signed zone changed while served: `example.org.` signed by `dnssec-signzone` (NSEC, then
 * NSEC3), served by our DNS workers, then a name added and the zone signed again with its keys
 * (valid signatures kept, so the change is small: the new records, their signatures, the NSEC or
 * NSEC3 records around them, the SOA). The difference is applied as one serial step in place, on
 * the main thread and in the worker (its overlay, not a new snapshot), and `delv` then
 * validates the new name and the denial of names beside it: the canonical order of the NSEC or
 * NSEC3 owners that each thread keeps follows the change.
 */
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { JournalStep, ZoneData } from '../../src/dns/index/zone-data.ts'
import { ZoneIndex } from '../../src/dns/index/zone-index.ts'
import { parseName, wireKey } from '../../src/zone/name.ts'
import type { ZoneRecord } from '../../src/zone/record.ts'
import { readSoa } from '../../src/zone/rdata/soa.ts'
import { RRType } from '../../src/zone/rrtype.ts'
import { parseZoneText } from '../../src/zonefile/parser.ts'
import { serveInWorkers, type WorkerServer } from '../helpers/dns-workers.ts'
import { delv, loadZone, PARENT_ZONE, removeSigned, requireTools, resignZone, signZone, trustAnchors, type SignedZone } from '../helpers/dnssec-zones.ts'

const skip = requireTools('delv', 'dnssec-keygen', 'dnssec-signzone')

const ORIGIN = 'example.org.'

function records (text: string): ZoneRecord[] {
  return parseZoneText(text, { origin: parseName(ORIGIN), includes: 'refuse' }).records
}

const recordKey = (r: ZoneRecord): string => `${wireKey(r.owner)}/${r.type}/${r.ttl}/${Buffer.from(r.rdata).toString('hex')}`

/** The serial step from one signed text to the next: the records only one of them has. */
function step (before: string, after: string): JournalStep {
  const a = records(before)
  const b = records(after)
  const inA = new Set(a.map(recordKey))
  const inB = new Set(b.map(recordKey))
  const serial = (rs: ZoneRecord[]): number => readSoa(rs.find(r => r.type === RRType.SOA)!.rdata).serial
  return { serialFrom: serial(a), serialTo: serial(b), removed: a.filter(r => !inB.has(recordKey(r))), added: b.filter(r => !inA.has(recordKey(r))) }
}

for (const signing of ['nsec', 'nsec3'] as const) {
  describe(`a signed zone changed while served (${signing})`, { skip }, () => {
    let zone: SignedZone
    let data: ZoneData
    let server: WorkerServer | undefined
    let anchors: string

    before(async () => {
      zone = await signZone(ORIGIN, PARENT_ZONE, signing)
      data = loadZone(ORIGIN, zone.text)
      const index = new ZoneIndex()
      index.set(data)
      // One worker: the thread that built its order of the owners before the change answers after it.
      server = await serveInWorkers(index, 1)
      // Served through the feed, so that later steps reach the workers as steps (not snapshots).
      server.workers.zoneServed(data)
      await server.workers.settled()
      anchors = join(zone.dir, 'anchors.conf')
      writeFileSync(anchors, trustAnchors([zone]))
    })

    after(async () => {
      await server?.close()
      removeSigned(zone)
    })

    it('proves the new name and its neighbours\' absence once the step is applied', async () => {
      const verdict = async (name: string, type: string): Promise<string> => {
        const out = await delv(server!.port, anchors, ORIGIN, name, type)
        if (/^;; resolution failed: (?!ncache nx(domain|rrset)$)/m.test(out)) return `failed: ${out}`
        if (/;-\$NXDOMAIN/.test(out)) return 'nxdomain'
        return /^; fully validated$/m.test(out) ? 'secure' : `failed: ${out}`
      }
      // Asked before the change, so every worker has built its order of the owners.
      assert.equal(await verdict('added.example.org.', 'A'), 'nxdomain')
      assert.equal(await verdict('addee.example.org.', 'A'), 'nxdomain')
      const changed = await resignZone(zone, 'added 300 IN A 192.0.2.200', signing)
      const s = step(zone.text, changed.text)
      assert.ok(s.added.length < 20 && s.removed.length < 20, `a small step: +${s.added.length} -${s.removed.length}`)
      const generation = data.imageGeneration
      data.apply(s, data.version + 1)
      assert.equal(data.imageGeneration, generation, 'applied in the overlay')
      server!.workers.zoneApplied(data, [{ step: s, orders: [], pools: [] }])
      await server!.workers.settled()
      assert.equal(await verdict('added.example.org.', 'A'), 'secure')
      assert.equal(await verdict('addee.example.org.', 'A'), 'nxdomain')
      assert.equal(await verdict('addef.example.org.', 'AAAA'), 'nxdomain')
      // Below the new name: its NSEC3 is the closest encloser's (an order without it proves nothing).
      assert.equal(await verdict('x.added.example.org.', 'A'), 'nxdomain')
      assert.deepEqual(server!.problems, [])
    })
  })
}
