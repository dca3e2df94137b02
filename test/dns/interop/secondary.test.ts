/**
 * BIND `named` as a secondary of zones Zonal serves (RFC 5936 AXFR, RFC 1995 IXFR, RFC 1996
 * NOTIFY, RFC 8945 TSIG), all on 127.0.0.1. The service starts on port 0 with a fresh SQLite
 * database; zones and rrsets are made through the HTTP API. Checked:
 * - named pulls a zone signed with the zone's TSIG key (hmac-sha256) and one without a key,
 *   and serves our records (dig against named); its log shows the transfers and the key;
 * - an rrset changed through the API reaches named: we NOTIFY it, it asks for IXFR from its
 *   serial and then serves the new data;
 * - a named with the wrong secret gets nothing (TSIG failure logged, zone not loaded);
 * - a zone whose restrict list leaves 127.0.0.1 out is REFUSED, to named and to dig.
 */
import assert from 'node:assert/strict'
import { connect } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { startService, type RunningService } from '../../../src/cli/serve.ts'
import { loadConfig } from '../../../src/config/config.ts'
import { RRType } from '../../../src/zone/rrtype.ts'
import { decodeMessage } from '../../../src/dns/wire/message.ts'
import { MessageWriter } from '../../../src/dns/wire/writer.ts'
import { parseName } from '../../../src/zone/name.ts'
import { freshDatabase, type TestDatabase } from '../../helpers/engines.ts'
import { bindSkip, dig, eventually, freeDnsPort, startNamed, type Named } from '../../helpers/named.ts'

const skip = bindSkip('named', 'dig')

/** The rcode of the first message of an AXFR over TCP (a minimal client: one request, one frame read). */
async function axfrRcode (port: number, zone: string): Promise<number> {
  const w = new MessageWriter(512)
  w.header({ id: 77, qr: false, opcode: 0, aa: false, tc: false, rd: false, ra: false, ad: false, cd: false, rcode: 0 })
  w.question({ name: parseName(zone), type: RRType.AXFR, class: 1 })
  const request = w.finish()
  const socket = connect(port, '127.0.0.1')
  try {
    const frame = new Promise<Buffer>((resolve, reject) => {
      let got = Buffer.alloc(0)
      socket.on('data', (d: Buffer) => {
        got = Buffer.concat([got, d])
        if (got.length >= 2 && got.length >= 2 + got.readUInt16BE(0)) resolve(got.subarray(2, 2 + got.readUInt16BE(0)))
      })
      socket.on('error', reject)
      socket.on('close', () => reject(new Error('closed before an answer')))
    })
    const length = Buffer.alloc(2)
    length.writeUInt16BE(request.length)
    socket.write(Buffer.concat([length, request]))
    return decodeMessage(await frame).rcode
  } finally {
    socket.destroy()
  }
}

const SECRET = Buffer.from('interop transfer secret, 32 octets').toString('base64')
const OTHER_SECRET = Buffer.from('another secret of the same length').toString('base64')
const WRONG_SECRET = Buffer.from('not the secret the zone was given').toString('base64')

describe('BIND named as a secondary of our zones', { skip }, () => {
  let db: TestDatabase
  let service: RunningService
  let named: Named | undefined
  /** named's log from the change to the IXFR that brought it (kept for checks on the IXFR's form). */
  let ixfrLog = ''
  /** Tests passed; named's whole log is printed when one failed. */
  let passed = 0
  let namedPort: number
  let base: string
  let headers: Record<string, string>

  const api = async (method: string, path: string, body?: unknown): Promise<Response> =>
    await fetch(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })

  async function createZone (name: string, section: Record<string, unknown>): Promise<void> {
    const res = await api('POST', '/zones', { properties: { name, type: 'PRIMARY' }, primaryCreateInfo: { createType: 'NEW', ...section } })
    assert.equal(res.status, 201, await res.text())
  }

  async function addRrset (zone: string, type: string, owner: string, ttl: number, rdata: string[]): Promise<void> {
    const res = await api('POST', `/zones/${zone}/rrsets/${type}/${owner}`, { ttl, rdata })
    assert.equal(res.status, 201, await res.text())
  }

  const notify = (): { notifyAddress: string }[] => [{ notifyAddress: `127.0.0.1:${namedPort}` }]
  const loopback = [{ startIP: '127.0.0.1', endIP: '127.0.0.1' }]

  before(async () => {
    db = await freshDatabase('sqlite')
    service = await startService(loadConfig({ ZONAL_DATABASE_URL: db.url, ZONAL_HTTP_PORT: '0', ZONAL_FORWARD_HTTP_PORT: '0', ZONAL_DNS_PORT: '0', ZONAL_ADMIN_PASSWORD: 'admin password', ZONAL_LOG_LEVEL: 'silent', ZONAL_NAMESERVERS: 'ns1.example.net.,ns2.example.net.' }))
    base = `http://127.0.0.1:${service.httpPort}`
    const token = await (await fetch(`${base}/authorization/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password', username: 'admin', password: 'admin password' }) })).json() as { accessToken: string }
    headers = { authorization: `Bearer ${token.accessToken}`, 'content-type': 'application/json' }
    namedPort = await freeDnsPort()

    await createZone('xfr.test', { restrictIPList: loopback, tsig: { tsigKeyName: 'xfr-key', tsigKeyValue: SECRET, tsigAlgorithm: 'hmac-sha256' }, notifyAddresses: notify() })
    await addRrset('xfr.test', 'A', 'www.xfr.test.', 300, ['192.0.2.10', '192.0.2.11'])
    await addRrset('xfr.test', 'MX', 'xfr.test.', 3600, ['10 mail.xfr.test.'])
    await addRrset('xfr.test', 'A', 'mail.xfr.test.', 3600, ['192.0.2.25'])
    await addRrset('xfr.test', 'TXT', 'txt.xfr.test.', 600, ['interop'])
    await createZone('plain.test', { restrictIPList: loopback, notifyAddresses: notify() })
    await addRrset('plain.test', 'AAAA', 'host.plain.test.', 300, ['2001:db8::1'])
    await createZone('badkey.test', { restrictIPList: loopback, tsig: { tsigKeyName: 'bad-key', tsigKeyValue: OTHER_SECRET, tsigAlgorithm: 'hmac-sha256' } })
    await createZone('locked.test', { restrictIPList: [{ startIP: '192.0.2.1', endIP: '192.0.2.1' }] })
    await service.dns.loaded
    await eventually(async () => /status: NOERROR/.test(await dig(service.dns.port, '+norec', 'www.xfr.test.', 'A')) && service.dns.index.size === 4, 5000, 'zones served')
  })

  after(async () => {
    if (passed < 4 && named !== undefined) console.log(`# named log:\n${named.log().replace(/^/gm, '# ')}`)
    if (ixfrLog === '') console.log('# no IXFR log captured')
    await named?.stop()
    await service?.close()
    await db?.drop()
  })

  it('pulls the zones by AXFR, signed with the zone\'s key where it has one, and serves our records', async () => {
    const primary = (key?: string): string => `primaries { 127.0.0.1 port ${service.dns.port}${key === undefined ? '' : ` key "${key}"`}; }`
    named = await startNamed({
      port: namedPort,
      debug: 3,
      body: `key "xfr-key" { algorithm hmac-sha256; secret "${SECRET}"; };
key "bad-key" { algorithm hmac-sha256; secret "${WRONG_SECRET}"; };
zone "xfr.test" { type secondary; ${primary('xfr-key')}; file "$DIR/xfr.db"; };
zone "plain.test" { type secondary; ${primary()}; file "$DIR/plain.db"; };
zone "badkey.test" { type secondary; ${primary('bad-key')}; file "$DIR/badkey.db"; };
zone "locked.test" { type secondary; ${primary()}; file "$DIR/locked.db"; };
`
    })
    const ours = `127\\.0\\.0\\.1#${service.dns.port}`
    const log = await named.waitForLog(new RegExp(`transfer of 'xfr\\.test/IN' from ${ours}: Transfer status: success`))
    const serial = (await dig(service.dns.port, '+norec', '+short', 'xfr.test.', 'SOA')).split(' ')[2]!
    assert.match(log, new RegExp(`transfer of 'xfr\\.test/IN' from ${ours}: connected using \\S+ TSIG xfr-key$`, 'm'))
    assert.match(log, new RegExp(`zone xfr\\.test/IN: transferred serial ${serial}: TSIG 'xfr-key'`))
    assert.equal(await dig(named.port, '+norec', '+short', 'xfr.test.', 'SOA'), await dig(service.dns.port, '+norec', '+short', 'xfr.test.', 'SOA'))
    const www = await dig(named.port, '+norec', 'www.xfr.test.', 'A')
    assert.match(www, /flags: qr aa;/, 'named answers with authority: the zone is loaded')
    assert.match(www, /^www\.xfr\.test\.\s+300\s+IN\s+A\s+192\.0\.2\.10$/m)
    assert.match(www, /^www\.xfr\.test\.\s+300\s+IN\s+A\s+192\.0\.2\.11$/m)
    assert.equal((await dig(named.port, '+norec', '+short', 'xfr.test.', 'MX')).trim(), '10 mail.xfr.test.')
    assert.equal((await dig(named.port, '+norec', '+short', 'txt.xfr.test.', 'TXT')).trim(), '"interop"')

    const plain = await named.waitForLog(new RegExp(`transfer of 'plain\\.test/IN' from ${ours}: Transfer status: success`))
    assert.match(plain, new RegExp(`transfer of 'plain\\.test/IN' from ${ours}: connected using 127\\.0\\.0\\.1#\\d+$`, 'm'), 'no key for a zone without one')
    assert.equal((await dig(named.port, '+norec', '+short', 'host.plain.test.', 'AAAA')).trim(), '2001:db8::1')
    passed++
  })

  it('takes a change made through the API: we NOTIFY, named asks for IXFR from its serial and serves the change', async (t) => {
    const from = named!.log().length
    const old = (await dig(named!.port, '+norec', '+short', 'xfr.test.', 'SOA')).split(' ')[2]!
    const res = await api('PUT', '/zones/xfr.test/rrsets/A/www.xfr.test.', { ttl: 300, rdata: ['192.0.2.12'] })
    assert.equal(res.status, 200, await res.text())
    await eventually(async () => (await dig(named!.port, '+norec', '+short', 'www.xfr.test.', 'A')).trim() === '192.0.2.12', 10_000, 'the change on named')
    const serial = (await dig(service.dns.port, '+norec', '+short', 'xfr.test.', 'SOA')).split(' ')[2]!
    assert.ok(Number(serial) > Number(old), `serial ${serial} follows ${old}`)
    await named!.waitForLog(/zone xfr\.test\/IN: transferred serial/, 5000, from)
    const log = named!.log().slice(from)
    assert.match(log, new RegExp(`zone xfr\\.test/IN: notify from 127\\.0\\.0\\.1#\\d+: serial ${serial}`))
    assert.match(log, /zone xfr\.test\/IN: requesting IXFR from 127\.0\.0\.1#/)
    assert.match(log, new RegExp(`transfer of 'xfr\\.test/IN' from \\S+: requesting IXFR for serial ${old}$`, 'm'))
    assert.match(log, new RegExp(`zone xfr\\.test/IN: transferred serial ${serial}: TSIG 'xfr-key'`))
    // The IXFR is answered from our journal: a list of differences, not the whole zone.
    ixfrLog = log
    assert.match(log, /transfer of 'xfr\.test\/IN' from \S+: got incremental response/)
    assert.doesNotMatch(log, /got nonincremental response/)
    for (const line of log.split('\n').filter(l => /xfr\.test\/IN'?(: | from \S+: )(notify|requesting|got|transferred)/.test(l))) t.diagnostic(line)
    passed++
  })

  it('loads nothing with the wrong TSIG secret: our server answers BADSIG and named logs the failure', async () => {
    const log = await named!.waitForLog(/zone badkey\.test\/IN: refresh: failure trying primary \S+ \(source \S+\): tsig indicates error/)
    assert.doesNotMatch(log, /zone badkey\.test\/IN: transferred serial/)
    assert.match(await dig(named!.port, '+norec', 'badkey.test.', 'SOA'), /status: SERVFAIL/, 'the zone is not loaded')
    const wrong = await dig(service.dns.port, '+norec', '-y', `hmac-sha256:bad-key:${WRONG_SECRET}`, 'badkey.test.', 'SOA')
    assert.match(wrong, /status: NOTAUTH/)
    assert.match(wrong, /tsig indicates error|BADSIG/i)
    const right = await dig(service.dns.port, '+norec', '-y', `hmac-sha256:bad-key:${OTHER_SECRET}`, 'badkey.test.', 'SOA')
    assert.match(right, /status: NOERROR/)
    assert.doesNotMatch(right, /Couldn't verify|verify failure|expected a TSIG/i, 'the answer is signed and dig checks it')
    assert.match(right, /^bad-key\.\s+0\s+ANY\s+TSIG\s+hmac-sha256\. \d+ 300 32 \S+ \d+ NOERROR 0\s*$/m)
    passed++
  })

  it('refuses transfers to an address outside the restrict list, to named and to dig', async () => {
    const log = await named!.waitForLog(/transfer of 'locked\.test\/IN' from \S+: failed while receiving responses: REFUSED/)
    assert.doesNotMatch(log, /zone locked\.test\/IN: transferred serial/)
    assert.match(await dig(named!.port, '+norec', 'locked.test.', 'SOA'), /status: SERVFAIL/, 'the zone is not loaded')
    assert.match(await dig(service.dns.port, 'locked.test.', 'AXFR'), /Transfer failed/)
    assert.equal((await axfrRcode(service.dns.port, 'locked.test.')), 5, 'REFUSED')
    assert.equal((await axfrRcode(service.dns.port, 'plain.test.')), 0, 'the same client may transfer a zone that lists it')
    passed++
  })
})
