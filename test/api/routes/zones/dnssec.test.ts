/**
 * The Zone DNSSEC APIs on both engines (src/api/routes/zones/dnssec.ts, src/zones/dnssec/):
 * signing through the calls octoDNS makes (POST `{}`, DELETE) and the Python client's re-sign
 * (PUT `/v1/zones/{z}/dnssec` `{}`), the stored zone checked with BIND's dnssec-verify after
 * every step; an rrset change re-signing only that rrset, the SOA and the chain around it (the
 * RRSIG rdata that changed counted); the rrsets API and exports not showing the DNSSEC records
 * (octoDNS sees no change) and refusing writes of them; re-signing NSEC→NSEC3 and a new
 * algorithm; unsigning leaving no DNSSEC record; the KSK rollover; a large zone signed by a
 * task; private keys in no response, export or audit record; and the errors.
 */
import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { after, before, describe, it } from 'node:test'
import { SecretBox } from '../../../../src/auth/secrets.ts'
import type { Store, Zone } from '../../../../src/store/store.ts'
import { taskHandlers } from '../../../../src/tasks/jobs/index.ts'
import { TaskRunner } from '../../../../src/tasks/runner.ts'
import { dsRdata, keyTagOf } from '../../../../src/zone/dnssec/keys.ts'
import { parseName } from '../../../../src/zone/name.ts'
import { RRType } from '../../../../src/zone/rrtype.ts'
import type { ZoneRecord } from '../../../../src/zone/record.ts'
import { renameRecord } from '../../../../src/zone/rename.ts'
import { readZoneRecords } from '../../../../src/zones/records.ts'
import { unsuspendZone } from '../../../../src/zones/actions.ts'
import { coveredType } from '../../../../src/zones/dnssec/signing.ts'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { dnssecVerify, tempDir, writeZoneFile } from '../../../helpers/dnssec-tools.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { sampleZone, storeZone } from '../../../helpers/stored-zones.ts'
import { client, errorCode, taskSettled } from '../../../helpers/zones.ts'

type Client = ReturnType<typeof client>
interface Rrset { ownerName: string, rrtype: string, ttl: number, rdata: string[] }
const SECRET = 'dnssec test secret key'
const DNSSEC = new Set<number>([RRType.RRSIG, RRType.NSEC, RRType.DNSKEY, RRType.NSEC3, RRType.NSEC3PARAM])

async function records (store: Store, zoneId: string): Promise<ZoneRecord[]> {
  const out: ZoneRecord[] = []
  for await (const r of readZoneRecords(store, zoneId)) out.push(r)
  return out
}

/** The stored zone written as a zone file and verified by BIND's dnssec-verify. */
async function verify (store: Store, zone: Zone): Promise<string> {
  const tmp = tempDir('zonal-dnssec-api-')
  try {
    const path = writeZoneFile(tmp.dir, parseName(zone.name), await records(store, zone.id))
    const r = dnssecVerify(parseName(zone.name), path)
    assert.equal(r.status, 0, `dnssec-verify: ${r.stdout}\n${r.stderr}`)
    return r.stdout + r.stderr
  } finally {
    tmp.remove()
  }
}

/** Every RRSIG rdata of the zone, as hex (a set). */
async function signatures (store: Store, zoneId: string): Promise<Set<string>> {
  return new Set((await records(store, zoneId)).filter(r => r.type === RRType.RRSIG).map(r => Buffer.from(r.rdata).toString('hex')))
}

async function rrsets (c: Client, zone: string): Promise<Rrset[]> {
  const res = await c.get(`/zones/${zone}/rrsets?limit=1000`)
  assert.equal(res.statusCode, 200, res.body)
  return (res.json() as { rrSets: Rrset[] }).rrSets
}
const withoutSoa = (list: Rrset[]): Rrset[] => list.filter(r => r.rrtype !== 'SOA (6)')

for (const engine of await engineCases()) {
  describe(`${engine.name}: /zones/{zone}/dnssec`, { skip: engine.skip }, () => {
    let t: TestApp
    let runner: TaskRunner
    let alice: Client
    let reader: Client
    let mallory: Client
    let zone: Zone
    const bodies: string[] = []
    const keep = (body: string): string => { bodies.push(body); return body }

    before(async () => {
      t = await buildTestApp(engine.name, { secretKey: SECRET, tasks: (store: Store) => (runner = new TaskRunner(store, taskHandlers({ nameservers: [], secretKey: SECRET }), { workerId: 'dnssec-test', pollMs: 20 })) })
      runner.start()
      alice = client(t.app, await t.user('alice', 'acme', 'DNSAdministrators'))
      reader = client(t.app, await t.user('rita', 'acme', 'ReadOnly'))
      mallory = client(t.app, await t.user('mallory', 'other', 'Owner'))
      zone = await storeZone(t.store, 'acme', 'example.org.', sampleZone('example.org.'))
    })
    after(async () => {
      await runner?.stop()
      await t?.close()
    })

    describe('POST /zones/{zone}/dnssec', () => {
      it('signs the zone (octoDNS: POST {}), which then verifies, and octoDNS sees no change of its rrsets', async () => {
        const shown = withoutSoa(await rrsets(alice, 'example.org.'))
        const res = await alice.send('POST', '/zones/example.org./dnssec', '{}', { 'content-type': 'application/json' })
        assert.equal(res.statusCode, 201, res.body)
        keep(res.body)
        assert.deepEqual(withoutSoa(await rrsets(alice, 'example.org.')), shown)
        const stored = await records(t.store, zone.id)
        for (const type of [RRType.DNSKEY, RRType.RRSIG, RRType.NSEC]) assert.ok(stored.some(r => r.type === type), `a ${type} record is stored`)
        const dto = (await alice.get('/v1/zones/example.org.')).json() as { properties: { dnssecStatus: string } }
        assert.equal(dto.properties.dnssecStatus, 'SIGNED')
        await verify(t.store, (await t.store.zones.findById(zone.id))!)
      })

      it('shows the status, policy and keys with DS records for the KSK (GET, with or without /v1 and a trailing slash)', async () => {
        for (const url of ['/zones/example.org./dnssec', '/v1/zones/example.org/dnssec/']) {
          const res = await reader.get(url)
          assert.equal(res.statusCode, 200, res.body)
          keep(res.body)
          const info = res.json() as { status: string, policy: { algorithm: string, securityType: string, rrsigSignatureDuration: number, keyPolicy: unknown[] }, keys: Array<{ type: string, status: string, keyId: number, dsRecords?: string[], dnsKeyRecord: string, bitLength: number }>, resignNeeded: boolean }
          assert.equal(info.status, 'SIGNED')
          assert.equal(info.policy.algorithm, 'ECDSAP256SHA256')
          assert.equal(info.policy.securityType, 'NSEC')
          assert.equal(info.policy.rrsigSignatureDuration, 14 * 86_400_000)
          assert.equal(info.keys.length, 2)
          const ksk = info.keys.find(k => k.type === 'KSK')!
          assert.equal(ksk.status, 'CURRENT')
          assert.equal(ksk.bitLength, 256)
          assert.match(ksk.dnsKeyRecord, /^example\.org\. 3600 IN DNSKEY 257 3 13 [A-Za-z0-9+/=]+$/)
          assert.deepEqual(ksk.dsRecords?.map(d => d.split(' ').slice(0, 3).join(' ')), [1, 2, 4].map(d => `${ksk.keyId} 13 ${d}`))
          assert.match(ksk.dsRecords![1]!, /^\d+ 13 2 [0-9A-F]{64}$/)
          assert.equal(info.keys.find(k => k.type === 'ZSK')?.dsRecords, undefined)
          assert.equal(info.resignNeeded, false)
        }
      })

      it('refuses to sign a signed zone (180002), an unknown zone (404), another account\'s zone, a reader, and a bad dnssecPolicy naming the field', async () => {
        assert.equal(errorCode((await alice.post('/zones/example.org./dnssec', {})).body), 180002)
        const unknown = await alice.post('/zones/nope.example./dnssec', {})
        assert.equal(unknown.statusCode, 404)
        assert.equal(errorCode(unknown.body), 1801)
        assert.equal((await mallory.post('/zones/example.org./dnssec', {})).statusCode, 404)
        assert.equal((await mallory.get('/zones/example.org./dnssec')).statusCode, 404)
        assert.equal((await reader.post('/zones/example.org./dnssec', {})).statusCode, 403)
        await storeZone(t.store, 'acme', 'example.net.', sampleZone('example.net.'))
        for (const [policy, field] of [[{ rrsigValidity: 31 }, 'rrsigValidity'], [{ dnsKeyTtl: 100 }, 'dnsKeyTtl'], [{ zskRolloverFrequency: 10 }, 'zskRolloverFrequency'], [{ kskRolloverFrequency: 2000 }, 'kskRolloverFrequency'], [{ algorithm: 'DSA' }, 'algorithm'], [{ securityType: 'NONE' }, 'securityType'], [{ salt: 'ab' }, 'salt']] as const) {
          const res = await alice.post('/zones/example.net./dnssec', { dnssecPolicy: policy })
          assert.equal(res.statusCode, 400, res.body)
          assert.equal(errorCode(res.body), 53005)
          assert.match(res.body, new RegExp(`dnssecPolicy\\.${field}`))
        }
        const colon = await alice.post('/zones/example.net./dnssec', { changeComment: 'why: because' })
        assert.equal(colon.statusCode, 400)
        assert.match(colon.body, /changeComment/)
        assert.equal((await alice.post('/zones/example.net./dnssec', { changeComment: 'x'.repeat(513) })).statusCode, 400)
        assert.equal((await alice.get('/zones/example.net./dnssec')).json().status, 'UNSIGNED')
      })

      it('refuses a secondary zone, a zone with SB/TC/DIR pools, and a zone holding DNSSEC records of its own', async () => {
        await storeZone(t.store, 'acme', 'secondary.example.', sampleZone('secondary.example.'), { type: 'SECONDARY' })
        const secondary = await alice.post('/zones/secondary.example./dnssec', {})
        assert.equal(secondary.statusCode, 400)
        assert.match(secondary.body, /secondary/)
        await storeZone(t.store, 'acme', 'pools.example.', sampleZone('pools.example.'), { profiles: { 'www.pools.example./1': { kind: 'DIR_POOLS', description: '', conflictResolve: 'GEO', rdataInfo: [{ allNonConfigured: true }, { allNonConfigured: false }] } as never } })
        const pools = await alice.post('/zones/pools.example./dnssec', {})
        assert.equal(pools.statusCode, 400, pools.body)
        assert.match(pools.body, /pools/)
        await storeZone(t.store, 'acme', 'presigned.example.', sampleZone('presigned.example.') + 'sub IN NSEC www.presigned.example. A RRSIG NSEC\n')
        const presigned = await alice.post('/zones/presigned.example./dnssec', {})
        assert.equal(presigned.statusCode, 400)
        assert.match(presigned.body, /DNSSEC records/)
      })
    })

    describe('rrset changes of a signed zone', () => {
      it('re-signs only the changed rrset, the SOA and the chain around a new owner', async () => {
        const before = await signatures(t.store, zone.id)
        const res = await alice.post('/zones/example.org./rrsets/A/newhost', { ttl: 300, rdata: ['192.0.2.99'] })
        assert.equal(res.statusCode, 201, res.body)
        const after = await signatures(t.store, zone.id)
        const added = [...after].filter(s => !before.has(s)).map(s => coveredType(Buffer.from(s, 'hex'))).sort((a, b) => a - b)
        const removed = [...before].filter(s => !after.has(s)).map(s => coveredType(Buffer.from(s, 'hex'))).sort((a, b) => a - b)
        // New: the A rrset's, the new owner's NSEC, the SOA's and its predecessor's NSEC again; gone: the old SOA's and NSEC's.
        assert.deepEqual(added, [RRType.A, RRType.SOA, RRType.NSEC, RRType.NSEC].sort((a, b) => a - b))
        assert.deepEqual(removed, [RRType.SOA, RRType.NSEC].sort((a, b) => a - b))
        await verify(t.store, (await t.store.zones.findById(zone.id))!)
      })

      it('re-signs a changed rdata without touching the chain, and a deleted rrset\'s owner leaves the chain', async () => {
        const before = await signatures(t.store, zone.id)
        assert.equal((await alice.patch('/zones/example.org./rrsets/A/newhost', { rdata: ['192.0.2.98'] })).statusCode, 200)
        const after = await signatures(t.store, zone.id)
        assert.deepEqual([...after].filter(s => !before.has(s)).map(s => coveredType(Buffer.from(s, 'hex'))).sort((a, b) => a - b), [RRType.A, RRType.SOA].sort((a, b) => a - b))
        await verify(t.store, (await t.store.zones.findById(zone.id))!)
        assert.equal((await alice.delete('/zones/example.org./rrsets/A/newhost')).statusCode, 204)
        const stored = await records(t.store, zone.id)
        assert.ok(!stored.some(r => r.type === RRType.NSEC && Buffer.from(r.owner).toString('latin1').includes('newhost')))
        await verify(t.store, (await t.store.zones.findById(zone.id))!)
      })

      it('keeps a delegation, its glue and its DS right: the NS unsigned, the glue unsigned and out of the chain, the DS signed', async () => {
        assert.equal((await alice.post('/zones/example.org./rrsets/NS/deleg', { ttl: 3600, rdata: ['ns.deleg.example.org.'] })).statusCode, 201)
        await verify(t.store, (await t.store.zones.findById(zone.id))!)
        const before = await signatures(t.store, zone.id)
        assert.equal((await alice.post('/zones/example.org./rrsets/A/ns.deleg', { ttl: 3600, rdata: ['192.0.2.7'] })).statusCode, 201)
        const after = await signatures(t.store, zone.id)
        assert.deepEqual([...after].filter(s => !before.has(s)).map(s => coveredType(Buffer.from(s, 'hex'))), [RRType.SOA], 'glue: only the SOA is signed again')
        assert.equal((await alice.post('/zones/example.org./rrsets/DS/deleg', { ttl: 3600, rdata: ['12345 13 2 ' + 'AB'.repeat(32)] })).statusCode, 201)
        await verify(t.store, (await t.store.zones.findById(zone.id))!)
        const stored = await records(t.store, zone.id)
        const sigsAtDeleg = stored.filter(r => r.type === RRType.RRSIG && Buffer.from(r.owner).toString('latin1').startsWith('\u0005deleg')).map(r => coveredType(r.rdata)).sort((a, b) => a - b)
        assert.deepEqual(sigsAtDeleg, [RRType.DS, RRType.NSEC].sort((a, b) => a - b), 'at the delegation only the DS and the NSEC are signed')
        assert.equal((await alice.delete('/zones/example.org./rrsets/A/ns.deleg')).statusCode, 204)
        assert.equal((await alice.delete('/zones/example.org./rrsets/DS/deleg')).statusCode, 204)
        assert.equal((await alice.delete('/zones/example.org./rrsets/NS/deleg')).statusCode, 204)
        await verify(t.store, (await t.store.zones.findById(zone.id))!)
      })

      it('refuses writes of DNSKEY, RRSIG, NSEC, NSEC3 and NSEC3PARAM and hides them from the rrsets API', async () => {
        for (const [type, rdata] of [['DNSKEY', '256 3 13 AAAA'], ['RRSIG', 'A 13 2 300 20300101000000 20200101000000 1 example.org. AAAA'], ['NSEC', 'www.example.org. A'], ['NSEC3PARAM', '1 0 0 -']] as const) {
          const res = await alice.post(`/zones/example.org./rrsets/${type}/@`, { ttl: 300, rdata: [rdata] })
          assert.equal(res.statusCode, 400, `${type}: ${res.body}`)
          assert.equal(errorCode(res.body), 53005)
          assert.match(res.body, new RegExp(type))
        }
        assert.equal((await alice.delete('/zones/example.org./rrsets/RRSIG/@')).statusCode, 400)
        assert.equal((await alice.get('/zones/example.org./rrsets/RRSIG')).statusCode, 404)
        assert.equal((await alice.get('/zones/example.org./rrsets/DNSKEY/@')).statusCode, 404)
        assert.ok((await rrsets(alice, 'example.org.')).every(r => !/^(RRSIG|NSEC|NSEC3|DNSKEY|NSEC3PARAM) /.test(r.rrtype)))
      })
    })

    describe('PUT and PATCH /zones/{zone}/dnssec', () => {
      it('re-signs with new signatures (the Python client\'s resign_zone: PUT /v1 {}), keeping the keys', async () => {
        const keys = (await alice.get('/zones/example.org./dnssec')).json().keys.map((k: { keyId: number }) => k.keyId)
        const before = await signatures(t.store, zone.id)
        const res = await alice.send('PUT', '/v1/zones/example.org/dnssec', '{}', { 'content-type': 'application/json' })
        assert.equal(res.statusCode, 200, res.body)
        const after = await signatures(t.store, zone.id)
        assert.ok([...after].every(s => !before.has(s)), 'every signature is new')
        assert.deepEqual((await alice.get('/zones/example.org./dnssec')).json().keys.map((k: { keyId: number }) => k.keyId), keys)
        await verify(t.store, (await t.store.zones.findById(zone.id))!)
      })

      it('moves NSEC to NSEC3 (PATCH), which verifies, and shows the override', async () => {
        const res = await alice.patch('/zones/example.org./dnssec', { dnssecPolicy: { securityType: 'NSEC3', rrsigValidity: 20 }, changeComment: 'to NSEC3' })
        assert.equal(res.statusCode, 200, res.body)
        const stored = await records(t.store, zone.id)
        assert.ok(stored.some(r => r.type === RRType.NSEC3PARAM))
        assert.ok(!stored.some(r => r.type === RRType.NSEC))
        await verify(t.store, (await t.store.zones.findById(zone.id))!)
        const info = (await alice.get('/zones/example.org./dnssec')).json()
        assert.equal(info.policy.securityType, 'NSEC3')
        assert.deepEqual(info.policy.nsec3Parameters, { salt: '', optOutFlag: 0, iterations: 0, hashAlgorithm: 'SHA1' })
        assert.deepEqual(info.dnssecPolicy, { rrsigValidity: 20, securityType: 'NSEC3' })
        // An rrset change of an NSEC3 zone keeps it valid.
        assert.equal((await alice.post('/zones/example.org./rrsets/TXT/deep.sub', { ttl: 300, rdata: ['hello'] })).statusCode, 201)
        await verify(t.store, (await t.store.zones.findById(zone.id))!)
      })

      it('changes the algorithm with new keys (PUT), which verifies', async () => {
        const old = (await alice.get('/zones/example.org./dnssec')).json().keys.map((k: { keyId: number }) => k.keyId)
        const res = await alice.put('/zones/example.org./dnssec', { dnssecPolicy: { algorithm: 'ED25519', securityType: 'NSEC3' } })
        assert.equal(res.statusCode, 200, res.body)
        const info = (await alice.get('/zones/example.org./dnssec')).json()
        assert.equal(info.policy.algorithm, 'ED25519')
        assert.equal(info.keys.length, 2)
        assert.ok(info.keys.every((k: { keyId: number }) => !old.includes(k.keyId)))
        await verify(t.store, (await t.store.zones.findById(zone.id))!)
      })

      it('refuses to re-sign an unsigned zone (180001)', async () => {
        assert.equal(errorCode((await alice.put('/zones/example.net./dnssec', {})).body), 180001)
        assert.equal(errorCode((await alice.delete('/zones/example.net./dnssec')).body), 180001)
      })
    })

    describe('POST /zones/{zone}/dnssec/kskrollover', () => {
      it('starts a double-signature KSK rollover and answers the new DS records; a second is refused', async () => {
        const res = await alice.post('/zones/example.org./dnssec/kskrollover', {})
        assert.equal(res.statusCode, 200, res.body)
        keep(res.body)
        const ds = (res.json() as { dsRecords: string[] }).dsRecords
        assert.equal(ds.length, 3)
        const info = (await alice.get('/zones/example.org./dnssec')).json() as { keys: Array<{ type: string, keyId: number, status: string, nextRoll?: string }> }
        const ksks = info.keys.filter(k => k.type === 'KSK')
        assert.equal(ksks.length, 2)
        assert.ok(ksks.some(k => ds[0]!.startsWith(`${k.keyId} `)))
        const dnskeys = (await records(t.store, zone.id)).filter(r => r.type === RRType.DNSKEY)
        assert.equal(dnskeys.length, 3, 'both KSKs and the ZSK are published')
        await verify(t.store, (await t.store.zones.findById(zone.id))!)
        const again = await alice.post('/zones/example.org./dnssec/kskrollover', {})
        assert.equal(again.statusCode, 400)
        assert.match(again.body, /rollover/)
      })
    })

    describe('DELETE /zones/{zone}/dnssec', () => {
      it('unsigns (octoDNS: DELETE): no DNSSEC record nor key is left, the rrsets unchanged', async () => {
        const shown = withoutSoa(await rrsets(alice, 'example.org.'))
        const res = await alice.delete('/zones/example.org./dnssec')
        assert.equal(res.statusCode, 204, res.body)
        assert.ok((await records(t.store, zone.id)).every(r => !DNSSEC.has(r.type)))
        assert.deepEqual(await t.store.dnssec.keys(zone.id, true), [])
        assert.equal(await t.store.dnssec.find(zone.id), undefined)
        assert.deepEqual(withoutSoa(await rrsets(alice, 'example.org.')), shown)
        assert.equal((await alice.get('/zones/example.org./dnssec')).json().status, 'UNSIGNED')
      })
    })

    describe('a large zone', () => {
      it('is signed by a task (202 + X-Task-Id) that verifies', async () => {
        const big = await storeZone(t.store, 'acme', 'big.example.', sampleZone('big.example.', 10_100))
        await t.store.zones.update(big.id, { record_count: await t.store.rrsets.countRecords(big.id) })
        const res = await alice.post('/zones/big.example./dnssec', {})
        assert.equal(res.statusCode, 202, res.body)
        assert.deepEqual(res.json(), { message: 'Pending' })
        const task = await taskSettled(alice, String(res.headers['x-task-id']), 60_000)
        assert.equal(task.code, 'COMPLETE', task.message)
        assert.equal(task.message, 'big.example. signed.')
        await verify(t.store, (await t.store.zones.findById(big.id))!)
      })

      it('has an alias created of it signed by a task (the primary re-signed with its aliases), which dnssec-verify accepts as served', async () => {
        const res = await alice.post('/zones', { properties: { name: 'bigalias.example.', accountName: 'acme', type: 'ALIAS' }, aliasCreateInfo: { originalZoneName: 'big.example.' } })
        assert.equal(res.statusCode, 201, res.body)
        const end = Date.now() + 60_000
        while ((await alice.get('/zones/bigalias.example./dnssec')).json().status !== 'SIGNED') {
          assert.ok(Date.now() < end, 'the alias signed by a task')
          await sleep(50)
        }
        const big = (await t.store.zones.findByName('big.example.', { accountIds: [zone.account_id] }))!
        const alias = (await t.store.zones.findByName('bigalias.example.', { accountIds: [zone.account_id] }))!
        const from = parseName(big.name)
        const to = parseName(alias.name)
        const served = [...(await records(t.store, big.id)).filter(r => !DNSSEC.has(r.type)).map(r => renameRecord(r, from, to)), ...await records(t.store, alias.id)]
        const tmp = tempDir('zonal-dnssec-alias-')
        try {
          const r = dnssecVerify(to, writeZoneFile(tmp.dir, to, served))
          assert.equal(r.status, 0, `dnssec-verify: ${r.stdout}\n${r.stderr}`)
        } finally {
          tmp.remove()
        }
      })
    })

    describe('private keys', () => {
      it('are sealed at rest and never appear in a response, an export or the audit log', async () => {
        await alice.post('/zones/example.org./dnssec', {})
        const rows = [...await t.store.dnssec.keys(zone.id, true)]
        assert.ok(rows.length >= 2)
        const box = new SecretBox(SECRET)
        const secrets = rows.map(k => box.open(k.privateKey))
        for (const k of rows) assert.match(k.privateKey, /^enc:v1:/)
        const exported = await alice.post('/zones/export', { zoneNames: ['example.org.'] })
        assert.equal(exported.statusCode, 202, exported.body)
        const task = await taskSettled(alice, String(exported.headers['x-task-id']), 60_000)
        assert.equal(task.code, 'COMPLETE', task.message)
        const file = keep((await alice.get(`/tasks/${String(exported.headers['x-task-id'])}/result`)).body)
        assert.match(file, /^www\s+3600\s+IN\s+A\s+192\.0\.2\.80$/m)
        assert.doesNotMatch(file, /\s(RRSIG|NSEC|NSEC3|DNSKEY|NSEC3PARAM)\s/, 'the export holds no DNSSEC record')
        keep((await alice.get('/zones/example.org./dnssec')).body)
        keep((await alice.get('/zones/example.org./rrsets?limit=1000')).body)
        keep((await alice.get('/reports/dns_configuration/audit?limit=1000')).body)
        const audit = await t.store.audit.recent(1000)
        const everything = bodies.join('\n') + JSON.stringify(audit)
        for (const s of secrets) {
          assert.ok(s.length > 40)
          assert.ok(!everything.includes(s), 'a private key (PKCS#8 base64) is in a response or the audit log')
          assert.ok(!everything.includes(s.slice(20, 60)))
        }
        assert.ok(audit.some(a => a.object_type === 'DNSSEC' && a.change_type === 'SIGN'))
      })
    })

    describe('copies and aliases of a signed zone', () => {
      it('COPY leaves its DNSSEC records behind', async () => {
        assert.equal((await t.store.zones.findById(zone.id))!.dnssec_status, 'SIGNED')
        const copy = await alice.newPrimary('copy.example.', 'acme', { createType: 'COPY', originalZoneName: 'example.org.' })
        assert.equal(copy.statusCode, 201, copy.body)
        const z = await t.store.zones.findByName('copy.example.', { accountIds: [zone.account_id] })
        const stored = await records(t.store, z!.id)
        assert.ok(stored.some(r => r.type === RRType.A), 'the copy has the records')
        assert.ok(stored.every(r => !DNSSEC.has(r.type)), 'the copy has no DNSSEC record')
        assert.equal(z!.dnssec_status, 'UNSIGNED')
      })

      it('an alias created of it is signed under its name with its keys: GET shows them with the alias\'s DS; changes of its signing are refused (230000)', async () => {
        const alias = await alice.post('/zones', { properties: { name: 'alias.example.', accountName: 'acme', type: 'ALIAS' }, aliasCreateInfo: { originalZoneName: 'example.org.' } })
        assert.equal(alias.statusCode, 201, alias.body)
        const dto = (await alice.get('/zones/alias.example.')).json() as { properties: { dnssecStatus: string } }
        assert.equal(dto.properties.dnssecStatus, 'SIGNED')
        const z = (await t.store.zones.findByName('alias.example.', { accountIds: [zone.account_id] }))!
        assert.ok((await records(t.store, z.id)).every(r => DNSSEC.has(r.type)), 'the alias holds DNSSEC rows only')
        const own = (await alice.get('/zones/alias.example./dnssec')).json() as { status: string, keys: Array<{ type: string, keyId: number, dsRecords?: string[], dnsKeyRecord: string }> }
        const primary = (await alice.get('/zones/example.org./dnssec')).json() as typeof own
        assert.equal(own.status, 'SIGNED')
        assert.deepEqual(own.keys.map(k => k.keyId), primary.keys.map(k => k.keyId), 'the primary\'s keys')
        const ksk = own.keys.find(k => k.type === 'KSK')!
        assert.match(ksk.dnsKeyRecord, /^alias\.example\. /)
        const dnskey = (await records(t.store, z.id)).find(r => r.type === RRType.DNSKEY && keyTagOf(r.rdata) === ksk.keyId)!
        assert.equal(ksk.dsRecords![1], `${ksk.keyId} ${dnskey.rdata[3]} 2 ${Buffer.from(dsRdata(parseName('alias.example.'), dnskey.rdata, 2).subarray(4)).toString('hex').toUpperCase()}`, 'the DS of the alias\'s name')
        assert.notDeepEqual(ksk.dsRecords, primary.keys.find(k => k.type === 'KSK')!.dsRecords)
        for (const [method, path] of [['post', '/zones/alias.example./dnssec'], ['put', '/zones/alias.example./dnssec'], ['patch', '/zones/alias.example./dnssec'], ['delete', '/zones/alias.example./dnssec'], ['post', '/zones/alias.example./dnssec/kskrollover']] as const) {
          assert.equal(errorCode((await alice[method](path, {})).body), 230000, `${method} ${path}`)
        }
      })

      it('an alias unaliased stays signed, with the keys copied as its own (dnssec-verify accepts it)', async () => {
        assert.equal((await alice.post('/zones/alias.example./unalias', {})).statusCode, 200)
        const z = (await t.store.zones.findByName('alias.example.', { accountIds: [zone.account_id] }))!
        assert.equal(z.zone_type, 'PRIMARY')
        assert.equal(z.dnssec_status, 'SIGNED')
        const keys = await t.store.dnssec.keys(z.id)
        const theirs = await t.store.dnssec.keys(zone.id)
        assert.deepEqual(keys.map(k => k.keyTag).sort(), theirs.map(k => k.keyTag).sort())
        assert.ok(keys.every(k => theirs.every(o => o.id !== k.id)), 'rows of its own')
        assert.ok((await records(t.store, z.id)).some(r => r.type === RRType.A))
        await verify(t.store, z)
      })
    })

    describe('a signed zone suspended and unsuspended', () => {
      it('gets its new SOA serial signed', async () => {
        const serial = (await t.store.zones.findById(zone.id))!.serial
        assert.equal((await alice.post('/zones/example.org./suspend', {})).statusCode, 200)
        assert.equal(errorCode((await alice.put('/zones/example.org./dnssec', {})).body), 1813)
        await unsuspendZone({ store: t.store, nameservers: [], secrets: new SecretBox(SECRET), clock: () => new Date() }, { user: 'support', ipAddress: null }, 'example.org.')
        const after = (await t.store.zones.findById(zone.id))!
        assert.equal(after.status, 'ACTIVE')
        assert.notEqual(after.serial, serial)
        await verify(t.store, after)
      })
    })
  })
}
