/**
 * Private keys of signed zones never reach a log line: the API logging every request at the
 * debug level (pino, as `serve` runs it) and the maintenance job logging its work while a zone
 * is signed, re-signed with new keys, rolled over and unsigned; every line is searched for each
 * key's PKCS#8 (base64, and a slice of it).
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { SecretBox } from '../../../../src/auth/secrets.ts'
import { DnssecMaintenance } from '../../../../src/zones/dnssec/maintenance.ts'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { sampleZone, storeZone } from '../../../helpers/stored-zones.ts'
import { client } from '../../../helpers/zones.ts'

describe('DNSSEC keys and the logs', () => {
  let t: TestApp
  const lines: string[] = []
  const logger = pino({ level: 'trace' }, new Writable({ write (chunk: Buffer, _enc, done) { lines.push(chunk.toString('utf8')); done() } }))

  before(async () => {
    t = await buildTestApp('sqlite', { logger, secretKey: 'log test key' })
  })
  after(async () => { await t?.close() })

  it('writes no private key into any log line', async () => {
    const alice = client(t.app, await t.user('alice', 'acme'))
    const zone = await storeZone(t.store, 'acme', 'example.org.', sampleZone('example.org.'))
    assert.equal((await alice.post('/zones/example.org./dnssec', { changeComment: 'sign it' })).statusCode, 201)
    assert.equal((await alice.get('/zones/example.org./dnssec')).statusCode, 200)
    assert.equal((await alice.put('/zones/example.org./dnssec', { dnssecPolicy: { algorithm: 'RSASHA256' } })).statusCode, 200)
    assert.equal((await alice.post('/zones/example.org./dnssec/kskrollover', {})).statusCode, 200)
    assert.equal((await alice.post('/zones/example.org./rrsets/A/new', { ttl: 300, rdata: ['192.0.2.1'] })).statusCode, 201)
    const box = new SecretBox('log test key')
    const secrets = (await t.store.dnssec.keys(zone.id, true)).map(k => box.open(k.privateKey))
    const later = new Date(Date.now() + 400 * 86_400_000)
    await new DnssecMaintenance({ store: t.store, secrets: box, clock: () => later, logger }).run()
    assert.equal((await alice.delete('/zones/example.org./dnssec')).statusCode, 204)
    assert.ok(lines.length > 10, 'the requests were logged')
    assert.ok(lines.some(l => l.includes('DNSSEC zone maintained')), 'the job logged its work')
    const all = lines.join('')
    assert.ok(secrets.length >= 4)
    for (const s of secrets) {
      assert.ok(!all.includes(s), 'a private key is in a log line')
      assert.ok(!all.includes(s.slice(40, 80)), 'a part of a private key is in a log line')
    }
  })
})
