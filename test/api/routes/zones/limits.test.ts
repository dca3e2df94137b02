/**
 * Zone size limits (both engines): records per zone however they get in (upload, copy, rrset
 * create, PUT, PATCH, JSON Patch, batch), records the `$GENERATE` lines of a file may make, and
 * uploads counted in records, not characters, for the choice between the request and a task.
 * Each refusal is checked to leave nothing behind.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Principal } from '../../../../src/auth/principal.ts'
import { SecretBox } from '../../../../src/auth/secrets.ts'
import { TransferError } from '../../../../src/dns/transfer/client.ts'
import { parseName } from '../../../../src/zone/name.ts'
import { parseZoneText } from '../../../../src/zonefile/parser.ts'
import { createZone } from '../../../../src/zones/create.ts'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { client } from '../../../helpers/zones.ts'

const zoneJson = (name: string): Record<string, unknown> => ({ properties: { name, accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'UPLOAD' } })
const HEAD = '$TTL 300\n@ SOA ns1 hostmaster 1 3600 900 604800 300\n@ NS ns1\nns1 A 192.0.2.1\n'
/** A zone file of `n` records (the three of HEAD and n - 3 A records). */
const zoneOf = (n: number): string => HEAD + Array.from({ length: n - 3 }, (_, i) => `h${i} A 192.0.2.${i % 250 + 1}\n`).join('')

/** The finding's upload: 227 bytes, four `$GENERATE 1-65536` lines, 262,147 records. */
const BOMB = '$TTL 60\n@ SOA ns hostmaster 2024 3600 900 604800 60\n@ NS ns1\nns1 A 192.0.2.153\n' +
  ['a', 'b', 'c', 'd'].map(p => `$GENERATE 1-65536 gen-${p}$ A 192.0.2.1\n`).join('')

for (const engine of await engineCases()) {
  describe(`${engine.name}: zone size limits`, { skip: engine.skip }, () => {
    let t: TestApp
    let small: TestApp
    let alice: ReturnType<typeof client>
    let bob: ReturnType<typeof client>

    before(async () => {
      t = await buildTestApp(engine.name)
      alice = client(t.app, await t.user('alice', 'acme'))
      small = await buildTestApp(engine.name, { limits: { zoneMaxRecords: 10, uploadSyncMaxRecords: 6 } })
      bob = client(small.app, await small.user('bob', 'acme'))
    })
    after(async () => {
      await t?.close()
      await small?.close()
    })

    const absent = async (c: typeof alice, name: string): Promise<void> => {
      assert.equal((await c.get(`/zones/${name}`)).statusCode, 404, `${name} was created`)
    }
    const count = async (c: typeof alice, name: string): Promise<number> => (await c.get(`/zones/${name}`)).json().properties.recordCount as number

    it('refuses the 227-byte $GENERATE upload before expanding it, with the catalog error, creating nothing', async () => {
      assert.equal(Buffer.byteLength(BOMB), 227)
      const audited = (await t.store.audit.recent(1000)).length
      const res = await alice.upload(zoneJson('bomb.test.'), BOMB)
      assert.equal(res.statusCode, 400, res.body)
      assert.equal(res.headers['x-task-id'], undefined)
      assert.deepEqual(res.json(), [{ errorCode: 53005, errorMessage: 'Invalid input: the $GENERATE lines of the file would make 262144 records, over the limit of 65536 per file.' }])
      await absent(alice, 'bomb.test.')
      assert.equal((await t.store.audit.recent(1000)).length, audited)
    })

    it('counts what $GENERATE lines make toward the records-per-zone limit', async () => {
      const file = '$TTL 60\n@ SOA ns.example. hostmaster.example. 1 3600 900 604800 60\n@ NS ns.example.\n$GENERATE 0-255 $.0 PTR h$.example.\n$GENERATE 0-255 $.1 PTR h$.example.\n'
      const res = await bob.upload(zoneJson('16.172.in-addr.arpa.'), file)
      // Over this app's limits (10 records per zone): the count is of records, not lines.
      assert.equal(res.statusCode, 400, res.body)
      assert.deepEqual(res.json(), [{ errorCode: 53005, errorMessage: 'Invalid input: the zone would have 514 records, over the limit of 10 records per zone.' }])
      const ok = await alice.upload(zoneJson('16.172.in-addr.arpa.'), file)
      assert.equal(ok.statusCode, 201, ok.body)
      assert.equal(await count(alice, '16.172.in-addr.arpa.'), 514)
    })

    it('refuses an upload over the records-per-zone limit, on either path, creating nothing', async () => {
      const res = await bob.upload(zoneJson('eleven.test.'), zoneOf(11))
      assert.deepEqual(res.json(), [{ errorCode: 53005, errorMessage: 'Invalid input: the zone would have 11 records, over the limit of 10 records per zone.' }])
      await absent(bob, 'eleven.test.')
      const generated = await bob.upload(zoneJson('gen.test.'), HEAD + '$GENERATE 1-8 h$ A 192.0.2.$\n')
      assert.deepEqual(generated.json(), [{ errorCode: 53005, errorMessage: 'Invalid input: the zone would have 11 records, over the limit of 10 records per zone.' }])
      await absent(bob, 'gen.test.')
    })

    it('creates an upload of few records within the request, and one of few characters but many records by a task', async () => {
      const inline = await bob.upload(zoneJson('six.test.'), zoneOf(6))
      assert.equal(inline.statusCode, 201, inline.body)
      assert.equal(await count(bob, 'six.test.'), 6)
      // 60 characters of $GENERATE make 7 records, over this app's 6 for the request.
      const many = await bob.upload(zoneJson('seven.test.'), HEAD + '$GENERATE 1-4 h$ A 192.0.2.$\n')
      assert.equal(many.statusCode, 202, many.body)
      assert.match(String(many.headers['x-task-id']), /.+/)
      await absent(bob, 'seven.test.')
    })

    it('refuses rrset writes that would take a zone over the limit, counting what is there and what is added', async () => {
      assert.equal((await bob.newPrimary('rr.test.', 'acme')).statusCode, 201)
      assert.equal(await count(bob, 'rr.test.'), 3)
      assert.equal((await bob.post('/zones/rr.test./rrsets/A/a', { ttl: 300, rdata: ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4', '192.0.2.5'] })).statusCode, 201)
      assert.equal((await bob.post('/zones/rr.test./rrsets/A/b', { ttl: 300, rdata: ['192.0.2.1', '192.0.2.2'] })).statusCode, 201)
      assert.equal(await count(bob, 'rr.test.'), 10)
      const over = [{ errorCode: 53005, errorMessage: 'Invalid input: the zone would have 11 records, over the limit of 10 records per zone.' }]
      assert.deepEqual((await bob.post('/zones/rr.test./rrsets/TXT/c', { ttl: 300, rdata: ['one more'] })).json(), over)
      assert.deepEqual((await bob.put('/zones/rr.test./rrsets/A/b', { ttl: 300, rdata: ['192.0.2.1', '192.0.2.2', '192.0.2.3'] })).json(), over)
      assert.deepEqual((await bob.patch('/zones/rr.test./rrsets/A/b', { rdata: ['192.0.2.1', '192.0.2.2', '192.0.2.3'] })).json(), over)
      assert.deepEqual((await bob.jsonPatch('/zones/rr.test./rrsets/A/b', [{ op: 'add', path: '/rdata/-', value: '192.0.2.3' }])).json(), over)
      assert.equal(await count(bob, 'rr.test.'), 10)
      assert.equal((await bob.get('/zones/rr.test./rrsets/TXT/c')).statusCode, 404)
      // At the limit, changes that add nothing still go through.
      assert.equal((await bob.put('/zones/rr.test./rrsets/A/b', { ttl: 300, rdata: ['192.0.2.7', '192.0.2.8'] })).statusCode, 200)
      assert.equal((await bob.patch('/zones/rr.test./rrsets/A/a', { rdata: ['192.0.2.1'] })).statusCode, 200)
      assert.equal(await count(bob, 'rr.test.'), 6)
    })

    it('refuses a batch whose rrset writes together go over the limit, rolling all of it back', async () => {
      assert.equal((await bob.newPrimary('batch.test.', 'acme')).statusCode, 201)
      const res = await bob.post('/batch', [
        { method: 'POST', uri: '/zones/batch.test./rrsets/A/a', body: { ttl: 300, rdata: ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4'] } },
        { method: 'POST', uri: '/zones/batch.test./rrsets/A/b', body: { ttl: 300, rdata: ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4'] } }
      ])
      assert.equal(res.statusCode, 400, res.body)
      assert.deepEqual(res.json(), [
        { status: 201, response: { message: 'Successful' } },
        { status: 400, response: [{ errorCode: 53005, errorMessage: 'Invalid input: the zone would have 11 records, over the limit of 10 records per zone.' }] }
      ])
      assert.equal(await count(bob, 'batch.test.'), 3)
      assert.equal((await bob.get('/zones/batch.test./rrsets/A/a')).statusCode, 404)
    })

    it('refuses a copy of a zone over the limit, before reading its records, creating nothing', async () => {
      assert.equal((await alice.upload(zoneJson('big.test.'), zoneOf(12))).statusCode, 201)
      const user = (await t.store.users.findByUsername('alice'))!
      const caller = { principal: new Principal(user.id, user.username, await t.store.users.memberships(user.id)), actor: { user: 'alice', ipAddress: null } }
      const deps = { store: t.store, nameservers: ['ns1.zonal.test.'], secrets: new SecretBox(undefined), clock: () => new Date(), limits: { zoneMaxRecords: 11, generateMaxRecords: 65536, uploadSyncMaxRecords: 10000 } }
      const copy = { properties: { name: 'copy.test.', accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'COPY', originalZoneName: 'big.test.' } }
      await assert.rejects(createZone(deps, caller, copy), { code: 'ZONE_TOO_MANY_RECORDS', message: 'Invalid input: the zone would have 12 records, over the limit of 11 records per zone.' })
      await absent(alice, 'copy.test.')
      await createZone({ ...deps, limits: { ...deps.limits, zoneMaxRecords: 12 } }, caller, copy)
      assert.equal(await count(alice, 'copy.test.'), 12)
    })

    it('refuses a transfer-create over the limit: the transfer is bounded, and what it brings is counted', async () => {
      const user = (await t.store.users.findByUsername('alice'))!
      const caller = { principal: new Principal(user.id, user.username, await t.store.users.memberships(user.id)), actor: { user: 'alice', ipAddress: null } }
      const records = parseZoneText(zoneOf(12), { origin: parseName('xfr.test.'), includes: 'refuse' }).records
      const asked: (number | undefined)[] = []
      const deps = {
        store: t.store,
        nameservers: ['ns1.zonal.test.'],
        secrets: new SecretBox(undefined),
        clock: () => new Date(),
        limits: { zoneMaxRecords: 11, generateMaxRecords: 65536, uploadSyncMaxRecords: 10000 },
        transferZone: async (_zone: unknown, _source: unknown, opts?: { maxRecords?: number }) => {
          asked.push(opts?.maxRecords)
          return { kind: 'full' as const, serial: 1, records }
        }
      }
      const body = { properties: { name: 'xfr.test.', accountName: 'acme', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'TRANSFER', nameServer: { ip: '127.0.0.1' } } }
      await assert.rejects(createZone(deps, caller, body), { code: 'ZONE_TOO_MANY_RECORDS', message: 'Invalid input: the zone would have 12 records, over the limit of 11 records per zone.' })
      assert.deepEqual(asked, [12], 'the transfer may bring the limit and the closing SOA')
      const stopped = { ...deps, transferZone: async () => { throw new TransferError('too large', 'the primary sent more than 12 records, more than the zone may hold') } }
      await assert.rejects(createZone(stopped, caller, body), { code: 'ZONE_TOO_MANY_RECORDS', message: 'Invalid input: the zone would have more than 11 records, over the limit of 11 records per zone.' })
      await absent(alice, 'xfr.test.')
    })
  })
}
