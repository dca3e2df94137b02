/**
 * BIND `named` as the PRIMARY our transfer client pulls from (RFC 5936 AXFR, RFC 1995 IXFR,
 * RFC 8945 TSIG), on 127.0.0.1 only, `notify no`. Checked:
 * - AXFR signed with hmac-sha256 and with hmac-md5 brings exactly the zone file's records, also
 *   for a zone whose AXFR spans many signed messages;
 * - a wrong secret is a 'tsig' failure (named's BADSIG), a zone named refuses is 'refused';
 * - IXFR from named's serial is 'current'; after a dynamic update (`nsupdate`, journaled by
 *   named) IXFR from the old serial brings that update as one step; from a serial named has no
 *   journal for, named answers with the whole zone.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { after, before, describe, it } from 'node:test'
import { transferIn, TransferError } from '../../../src/dns/transfer/client.ts'
import { RRType } from '../../../src/zone/rrtype.ts'
import type { TsigKey } from '../../../src/dns/wire/tsig.ts'
import { nameToString, parseName } from '../../../src/zone/name.ts'
import type { ZoneRecord } from '../../../src/zone/record.ts'
import { parseZoneText } from '../../../src/zonefile/parser.ts'
import { bindSkip, startNamed, type Named } from '../../helpers/named.ts'

const skip = bindSkip('named', 'nsupdate')

const ORIGIN = 'unit.test.'
const ZONE_TEXT = `$ORIGIN unit.test.
$TTL 3600
@     IN SOA ns1 hostmaster 2026010101 3600 900 604800 300
@     IN NS  ns1
@     IN MX  10 mail
ns1   IN A   192.0.2.53
mail  IN A   192.0.2.25
www   IN A   192.0.2.80
www   IN AAAA 2001:db8::80
txt   IN TXT "v=spf1 -all" "second string"
_sip._tcp IN SRV 10 5 5060 sip
sip   IN A   192.0.2.60
`
/** A zone whose AXFR takes many messages: the TSIG chain over them (RFC 8945 §5.3.1). */
const BIG_TEXT = ZONE_TEXT.replaceAll('unit.test.', 'big.test.') +
  Array.from({ length: 3000 }, (_, i) => `t${i} IN TXT "${'x'.repeat(200)}"\n`).join('')
const SHA_SECRET = Buffer.from('interop primary secret, 32 octet').toString('base64')
const MD5_SECRET = Buffer.from('interop md5 secret').toString('base64')
const key = (name: string, algorithm: TsigKey['algorithm'], secret: string): TsigKey =>
  ({ name: parseName(name), algorithm, secret: new Uint8Array(Buffer.from(secret, 'base64')) })

const show = (r: ZoneRecord): string => `${nameToString(r.owner).toLowerCase()} ${r.ttl} ${r.type} ${Buffer.from(r.rdata).toString('hex')}`

describe('BIND named as the primary of our transfer client', { skip }, () => {
  let named: Named
  const zone = parseName(ORIGIN)
  const sha = key('sha-key.', 'hmac-sha256', SHA_SECRET)
  const md5 = key('md5-key.', 'hmac-md5', MD5_SECRET)
  let passed = 0
  let tests = 0

  before(async () => {
    named = await startNamed({
      files: { 'zone.db': ZONE_TEXT, 'closed.db': ZONE_TEXT.replaceAll('unit.test.', 'closed.test.'), 'big.db': BIG_TEXT },
      body: `key "sha-key" { algorithm hmac-sha256; secret "${SHA_SECRET}"; };
key "md5-key" { algorithm hmac-md5; secret "${MD5_SECRET}"; };
zone "${ORIGIN}" { type primary; file "$DIR/zone.db"; allow-transfer { 127.0.0.1; }; allow-update { key "sha-key"; }; };
zone "big.test." { type primary; file "$DIR/big.db"; allow-transfer { 127.0.0.1; }; };
zone "closed.test." { type primary; file "$DIR/closed.db"; allow-transfer { none; }; };`
    })
  })
  after(async () => {
    if (passed !== tests) console.log(named?.log())
    await named?.stop()
  })
  const check = (name: string, fn: () => Promise<void>): void => {
    tests++
    it(name, async () => {
      await fn()
      passed++
    })
  }
  const source = (k?: TsigKey): { host: string, port: number, key?: TsigKey } => ({ host: '127.0.0.1', port: named.port, ...(k === undefined ? {} : { key: k }) })

  check('AXFR signed with hmac-sha256 and with hmac-md5 brings the zone file\'s records', async () => {
    const { records } = parseZoneText(ZONE_TEXT, { origin: zone, includes: 'refuse' })
    const expected = records.map(show).sort()
    for (const k of [sha, md5]) {
      const r = await transferIn(zone, source(k))
      assert.ok(r.kind === 'full', r.kind)
      assert.equal(r.serial, 2026010101)
      assert.equal(r.records[0]!.type, RRType.SOA)
      assert.deepEqual(r.records.map(show).sort(), expected, k.algorithm)
    }
  })

  check('AXFR of a zone spanning many messages verifies every signed message', async () => {
    const r = await transferIn(parseName('big.test.'), source(sha))
    assert.ok(r.kind === 'full', r.kind)
    assert.equal(r.records.length, parseZoneText(BIG_TEXT, { origin: parseName('big.test.'), includes: 'refuse' }).records.length)
    // named logs the end of the transfer once it has sent it: wait for the line.
    const log = await named.waitForLog(/transfer of 'big\.test\/IN': AXFR ended: \d+ messages/)
    const messages = Number(/transfer of 'big\.test\/IN': AXFR ended: (\d+) messages/.exec(log)![1])
    assert.ok(messages > 5, `${messages} messages`)
  })

  check('a wrong secret is a TSIG failure; a zone named refuses is refused', async () => {
    const wrong = key('sha-key.', 'hmac-sha256', Buffer.from('wrong secret').toString('base64'))
    const err = await transferIn(zone, source(wrong)).then(() => undefined, (e: unknown) => e)
    assert.ok(err instanceof TransferError && err.reason === 'tsig', String(err))
    assert.match(err.message, /BADSIG/)
    const refused = await transferIn(parseName('closed.test.'), source(sha)).then(() => undefined, (e: unknown) => e)
    assert.ok(refused instanceof TransferError && refused.reason === 'refused', String(refused))
  })

  check('IXFR: current, then one step after a dynamic update, and the whole zone from an unknown serial', async () => {
    assert.deepEqual(await transferIn(zone, source(sha), { serial: 2026010101 }), { kind: 'current', serial: 2026010101 })
    const script = join(named.dir, 'update.txt')
    writeFileSync(script, `server 127.0.0.1 ${named.port}
zone ${ORIGIN}
update add new.unit.test. 60 IN A 192.0.2.9
update delete mail.unit.test. A
send
`)
    await promisify(execFile)('nsupdate', ['-y', `hmac-sha256:sha-key:${SHA_SECRET}`, script])
    const r = await transferIn(zone, source(md5), { serial: 2026010101 })
    assert.ok(r.kind === 'incremental', r.kind)
    assert.equal(r.steps.length, 1)
    const [step] = r.steps
    assert.equal(step!.serialFrom, 2026010101)
    assert.equal(step!.serialTo, r.serial)
    assert.ok(r.serial !== 2026010101)
    const owners = (rs: ZoneRecord[]): string[] => rs.filter(x => x.type !== RRType.SOA).map(x => `${nameToString(x.owner)} ${x.type}`)
    assert.deepEqual(owners(step!.removed), ['mail.unit.test. 1'])
    assert.deepEqual(owners(step!.added), ['new.unit.test. 1'])
    const whole = await transferIn(zone, source(sha), { serial: 2025010101 })
    assert.ok(whole.kind === 'full', whole.kind)
    assert.ok(whole.records.some(x => nameToString(x.owner) === 'new.unit.test.'))
    assert.ok(!whole.records.some(x => nameToString(x.owner) === 'mail.unit.test.' && x.type === RRType.A))
  })
})
