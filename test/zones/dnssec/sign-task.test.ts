/**
 * Signing a large zone as its task does (`runDnssecTask`), on both engines: the records read and
 * signed in a worker thread before the transaction, with the task's progress at each step; the
 * result is the zone the transaction would have signed (same chain, every rrset signed, every
 * signature verifying); a zone changed while it was being signed is read and signed again, so
 * the change is signed too; a re-sign keeping the algorithm signs with the stored keys.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { SecretBox } from '../../../src/auth/secrets.ts'
import type { Store, Zone } from '../../../src/store/store.ts'
import { nameToString } from '../../../src/zone/name.ts'
import type { ZoneRecord } from '../../../src/zone/record.ts'
import { RRType } from '../../../src/zone/rrtype.ts'
import { policyWith } from '../../../src/zones/dnssec/policy.ts'
import { runDnssec, runDnssecTask, type DnssecTaskPayload } from '../../../src/zones/dnssec/sign-zone.ts'
import { coveredType } from '../../../src/zones/dnssec/signing.ts'
import { bumpSerial } from '../../../src/zones/serial-bump.ts'
import { engineCases, freshStore } from '../../helpers/engines.ts'
import { checkSignatures, storedRecords } from '../../helpers/signed-store.ts'
import { rrsetsOf, sampleZone, storeZone } from '../../helpers/stored-zones.ts'

const secrets = new SecretBox('sign task test key')
const actor = { user: 'test', ipAddress: null }

/** What signing made of a zone, keys aside: the chain records exactly, and which rrsets are signed. */
function shape (records: readonly ZoneRecord[]): { chain: string[], signed: string[] } {
  const chain = records.filter(r => r.type === RRType.NSEC || r.type === RRType.NSEC3 || r.type === RRType.NSEC3PARAM)
    .map(r => `${nameToString(r.owner)} ${r.type} ${r.ttl} ${Buffer.from(r.rdata).toString('hex')}`).sort()
  const signed = [...new Set(records.filter(r => r.type === RRType.RRSIG).map(r => `${nameToString(r.owner)}/${coveredType(r.rdata)}`))].sort()
  return { chain, signed }
}

/** Add an A rrset at `owner` as a change does: written, then the serial bump (signed when the zone is). */
async function addAddress (store: Store, zoneId: string, zoneName: string, owner: string): Promise<void> {
  await store.transaction(async (tx) => {
    const zone = await tx.zones.lockById(zoneId)
    assert.ok(zone !== undefined)
    const [rrset] = rrsetsOf(zoneName, `${owner} 300 IN A 192.0.2.99`)
    await bumpSerial(tx, zone, new Date(), 1, [{ after: rrset! }], undefined, { rrsets: [{ ownerKey: rrset!.ownerKey, type: rrset!.type, existed: false, rrset: rrset! }] })
  })
}

for (const engine of await engineCases()) {
  describe(`${engine.name}: a large zone signed by its task`, { skip: engine.skip }, () => {
    let store: Store
    let close: () => Promise<void>
    const deps = (): { store: Store, secrets: SecretBox, clock: () => Date } => ({ store, secrets, clock: () => new Date() })
    const payload = (zone: Zone, operation: DnssecTaskPayload['operation'], policy = policyWith({})): DnssecTaskPayload =>
      ({ zoneId: zone.id, operation, policy: operation === 'UNSIGN' ? null : policy, actor, comment: null })

    before(async () => {
      ({ store, close } = await freshStore(engine.name))
      await store.accounts.create('acme')
    })
    after(async () => { await close?.() })

    it('reads, signs off the main thread and writes, showing each step, into the zone the transaction would sign', async () => {
      const text = sampleZone('task.example.', 300)
      const viaTask = await storeZone(store, 'acme', 'task.example.', text)
      const inline = await storeZone(store, 'acme', 'inline.example.', text.replace('$ORIGIN task.example.', '$ORIGIN inline.example.'))
      const steps: Array<[string, number]> = []
      const done = await runDnssecTask(deps(), payload(viaTask, 'SIGN'), async (message, fraction) => { steps.push([message, fraction]) })
      assert.equal(done.zone, 'task.example.')
      assert.deepEqual(steps.map(([m]) => m.split(' ')[0]), ['Reading', 'Signing', 'Writing'])
      assert.match(steps[1]![0], /^Signing \d+ rrsets of task\.example\.$/)
      assert.ok(steps.every(([, f], i) => i === 0 || f > steps[i - 1]![1]), 'the fraction grows')
      await runDnssec(deps(), payload(inline, 'SIGN'))
      const a = shape(await storedRecords(store, viaTask.id))
      const b = shape(await storedRecords(store, inline.id))
      assert.deepEqual(a.signed.map(s => s.replace('task.example.', '')).sort(), b.signed.map(s => s.replace('inline.example.', '')).sort())
      assert.deepEqual(a.chain.map(c => c.split(' ').slice(1, 3).join(' ')), b.chain.map(c => c.split(' ').slice(1, 3).join(' ')), 'the same chain records (type, TTL)')
      assert.ok(a.signed.includes('task.example./6'), 'the SOA, whose serial moved in the transaction, is signed')
      await checkSignatures(store, viaTask.id, new Date())
      assert.equal((await store.zones.findById(viaTask.id))!.dnssec_status, 'SIGNED')
    })

    it('signs again what changed while the zone was being signed', async () => {
      const zone = await storeZone(store, 'acme', 'moving.example.', sampleZone('moving.example.', 200))
      const steps: string[] = []
      let changed = false
      await runDnssecTask(deps(), payload(zone, 'SIGN'), async (message) => {
        steps.push(message)
        // After the first read, before the transaction: another request adds a name.
        if (message.startsWith('Signing') && !changed) {
          changed = true
          await addAddress(store, zone.id, 'moving.example.', 'late.moving.example.')
        }
      })
      assert.equal(steps.filter(m => m.startsWith('Reading')).length, 2, 'read again after the change')
      const records = await storedRecords(store, zone.id)
      const late = records.filter(r => nameToString(r.owner) === 'late.moving.example.')
      assert.deepEqual([...new Set(late.map(r => r.type))].sort((x, y) => x - y), [RRType.A, RRType.RRSIG, RRType.NSEC], 'the new name is signed and chained')
      assert.ok(late.some(r => r.type === RRType.RRSIG && coveredType(r.rdata) === RRType.A))
      await checkSignatures(store, zone.id, new Date())
    })

    it('re-signs with the stored keys when the algorithm stays, and with new ones when it changes', async () => {
      const zone = await storeZone(store, 'acme', 'again.example.', sampleZone('again.example.', 100))
      await runDnssec(deps(), payload(zone, 'SIGN'))
      const tags = async (): Promise<number[]> => (await store.dnssec.keys(zone.id)).filter(k => k.state !== 'REMOVED').map(k => k.keyTag).sort((x, y) => x - y)
      const first = await tags()
      await runDnssecTask(deps(), payload(zone, 'RESIGN', policyWith({ securityType: 'NSEC3' })), async () => {})
      assert.deepEqual(await tags(), first)
      const records = await storedRecords(store, zone.id)
      assert.ok(records.some(r => r.type === RRType.NSEC3PARAM) && !records.some(r => r.type === RRType.NSEC), 'now NSEC3')
      await checkSignatures(store, zone.id, new Date())
      await runDnssecTask(deps(), payload(zone, 'RESIGN', policyWith({ algorithm: 'ED25519' })), async () => {})
      assert.notDeepEqual(await tags(), first)
      await checkSignatures(store, zone.id, new Date())
      assert.ok((await storedRecords(store, zone.id)).filter(r => r.type === RRType.RRSIG).every(r => r.rdata[2] === 15), 'every signature is Ed25519')
    })
  })
}
