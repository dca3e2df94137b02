/**
 * End to end over real sockets (STYLE.md §5): the service started on port 0, a zone created
 * through the API, then queried with BIND's `dig` over UDP and TCP and with a Node UDP client;
 * changes and suspension reach DNS within a second.
 */
import assert from 'node:assert/strict'
import { execFile, spawnSync } from 'node:child_process'
import { promisify } from 'node:util'
import { createSocket } from 'node:dgram'
import { after, before, describe, it } from 'node:test'
import { loadConfig } from '../../../src/config/config.ts'
import { startService, type RunningService } from '../../../src/cli/serve.ts'
import { decodeMessage } from '../../../src/dns/wire/message.ts'
import { MessageWriter } from '../../../src/dns/wire/writer.ts'
import { parseName } from '../../../src/zone/name.ts'
import { freshDatabase, type TestDatabase } from '../../helpers/engines.ts'

const haveDig = spawnSync('dig', ['-v']).status === 0
if (!haveDig && process.env.CI === 'true') throw new Error('CI requires dig (bind9-dnsutils)')

/** Run dig without blocking the event loop (the server answers from this same process). */
async function dig (port: number, ...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)('dig', ['@127.0.0.1', '-p', String(port), '+norec', '+time=2', '+tries=1', ...args], { encoding: 'utf8' })
  return stdout
}

async function udpQuery (port: number, name: string, type: number): Promise<ReturnType<typeof decodeMessage>> {
  const w = new MessageWriter(512)
  w.header({ id: 9, qr: false, opcode: 0, aa: false, tc: false, rd: false, ra: false, ad: false, cd: false, rcode: 0 })
  w.question({ name: parseName(name), type, class: 1 })
  const socket = createSocket('udp4')
  try {
    const reply = new Promise<Buffer>((resolve, reject) => {
      socket.once('message', resolve)
      setTimeout(() => reject(new Error('no answer')), 2000).unref()
    })
    socket.send(w.finish(), port, '127.0.0.1')
    return decodeMessage(await reply)
  } finally {
    socket.close()
  }
}

async function eventually (check: () => Promise<boolean>, ms = 1500): Promise<void> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await check()) return
    await new Promise(resolve => setTimeout(resolve, 25))
  }
  assert.fail(`not true within ${ms} ms`)
}

describe('sqlite: DNS served by npm start\'s service', () => {
  let db: TestDatabase
  let service: RunningService
  let base: string
  let headers: Record<string, string>

  before(async () => {
    db = await freshDatabase('sqlite')
    service = await startService(loadConfig({ ZONAL_DATABASE_URL: db.url, ZONAL_HTTP_PORT: '0', ZONAL_FORWARD_HTTP_PORT: '0', ZONAL_DNS_PORT: '0', ZONAL_ADMIN_PASSWORD: 'admin password', ZONAL_LOG_LEVEL: 'silent', ZONAL_NAMESERVERS: 'ns1.example.org.,ns2.example.net.' }))
    base = `http://127.0.0.1:${service.httpPort}`
    const token = await (await fetch(`${base}/authorization/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password', username: 'admin', password: 'admin password' }) })).json() as { accessToken: string }
    headers = { authorization: `Bearer ${token.accessToken}`, 'content-type': 'application/json' }
    const res = await fetch(`${base}/zones`, { method: 'POST', headers, body: JSON.stringify({ properties: { name: 'example.org', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'NEW' } }) })
    assert.equal(res.status, 201)
  })
  after(async () => {
    await service?.close()
    await db?.drop()
  })

  it('answers a new zone within a second (UDP, Node client)', async () => {
    await eventually(async () => (await udpQuery(service.dns.port, 'example.org.', 6)).answers.length === 1)
    const res = await udpQuery(service.dns.port, 'example.org.', 2)
    assert.equal(res.aa, true)
    assert.equal(res.answers.length, 2)
    assert.equal((await udpQuery(service.dns.port, 'nothing.example.org.', 1)).rcode, 3)
    assert.equal((await udpQuery(service.dns.port, 'example.com.', 1)).rcode, 5)
  })

  it('answers dig over UDP and TCP', { skip: haveDig ? false : 'dig is not installed' }, async () => {
    const udp = await dig(service.dns.port, 'example.org.', 'SOA')
    assert.match(udp, /status: NOERROR/)
    assert.match(udp, /flags: qr aa;/)
    assert.match(udp, /example\.org\.\s+86400\s+IN\s+SOA\s+ns1\.example\.org\. hostmaster\.example\.org\./)
    const tcp = await dig(service.dns.port, '+tcp', 'example.org.', 'NS')
    assert.match(tcp, /status: NOERROR/)
    assert.match(tcp, /example\.org\.\s+86400\s+IN\s+NS\s+ns2\.example\.net\./)
    assert.match(await dig(service.dns.port, 'missing.example.org.', 'A'), /status: NXDOMAIN/)
  })

  it('serves an RD pool created through the rrsets API in round-robin order', async () => {
    const profile = { '@context': 'http://schemas.ultradns.com/RDPool.jsonschema', order: 'ROUND_ROBIN' }
    const res = await fetch(`${base}/zones/example.org/rrsets/A/pool`, { method: 'POST', headers, body: JSON.stringify({ ttl: 60, rdata: ['192.0.2.1', '192.0.2.2', '192.0.2.3'], profile }) })
    assert.equal(res.status, 201, await res.text())
    await eventually(async () => (await udpQuery(service.dns.port, 'pool.example.org.', 1)).answers.length === 3)
    // Each query from a socket of its own: the kernel spreads them over the DNS workers, whose
    // positions are shared, so every answer starts one record further than the one before.
    const firsts: number[] = []
    for (let i = 0; i < 9; i++) firsts.push((await udpQuery(service.dns.port, 'pool.example.org.', 1)).answers[0]!.rdata[3]!)
    for (let i = 1; i < firsts.length; i++) assert.equal(firsts[i], (firsts[i - 1]! % 3) + 1, `answers start with ${firsts.join(', ')}`)
  })

  it('serves TXT text from the API as its character-strings: one for a DMARC record, 255 + 45 octets for 300 characters', async () => {
    const dmarc = 'v=DMARC1; p=reject; rua=mailto:d@example.org'
    const dkim = 'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA' + 'q'.repeat(238)
    const zone = await fetch(`${base}/zones`, { method: 'POST', headers, body: JSON.stringify({ properties: { name: 'example.net', type: 'PRIMARY' }, primaryCreateInfo: { createType: 'NEW' } }) })
    assert.equal(zone.status, 201)
    for (const [owner, rdata] of [['_dmarc', [dmarc]], ['dkim', [dkim]], ['spf', ['v=spf1 include:_spf.example.net ~all', 'say "hi" \\ there']]] as const) {
      const res = await fetch(`${base}/zones/example.net/rrsets/TXT/${owner}`, { method: 'POST', headers, body: JSON.stringify({ ttl: 60, rdata }) })
      assert.equal(res.status, 201, await res.text())
    }
    const strings = async (name: string): Promise<string[][]> => (await udpQuery(service.dns.port, name, 16)).answers.map(a => {
      const out: string[] = []
      for (let p = 0; p < a.rdata.length; p += 1 + a.rdata[p]!) out.push(Buffer.from(a.rdata.subarray(p + 1, p + 1 + a.rdata[p]!)).toString('utf8'))
      return out
    })
    await eventually(async () => (await strings('spf.example.net.')).length === 2)
    assert.deepEqual(await strings('_dmarc.example.net.'), [[dmarc]])
    assert.equal(dkim.length, 300)
    assert.deepEqual(await strings('dkim.example.net.'), [[dkim.slice(0, 255), dkim.slice(255)]])
    assert.deepEqual((await strings('spf.example.net.')).sort(), [['say "hi" \\ there'], ['v=spf1 include:_spf.example.net ~all']])
  })

  it('transfers the zone by AXFR only to allowed addresses with the zone\'s TSIG key', { skip: haveDig ? false : 'dig is not installed' }, async () => {
    const secret = Buffer.from('a shared transfer secret').toString('base64')
    const put = await fetch(`${base}/zones/example.org`, { method: 'PUT', headers, body: JSON.stringify({ primaryCreateInfo: { restrictIPList: [{ singleIP: '127.0.0.1' }], tsig: { tsigKeyName: 'xfr-key', tsigKeyValue: secret, tsigAlgorithm: 'hmac-sha256' } } }) })
    assert.equal(put.status, 200)
    const signed = async () => await dig(service.dns.port, '-y', `hmac-sha256:xfr-key:${secret}`, 'example.org.', 'AXFR')
    await eventually(async () => /XFR size: 7 records/.test(await signed()), 3000)
    const out = await signed()
    assert.doesNotMatch(out, /Couldn't verify|tsig verify failure|BADSIG/i)
    assert.equal(out.match(/\tSOA\t/g)?.length, 2, 'SOA first and last')
    // Transfers are answered queries too: the capture counts them.
    await eventually(async () => (service.queries!.counts.byQtype().get(252) ?? 0) > 0)
    assert.match(await dig(service.dns.port, 'example.org.', 'AXFR'), /Transfer failed/)
    assert.match(await dig(service.dns.port, '-y', `hmac-sha256:xfr-key:${Buffer.from('wrong').toString('base64')}`, 'example.org.', 'AXFR'), /Transfer failed|BADSIG|tsig/i)
    const serial = /\tSOA\t\S+ \S+ (\d+) /.exec(out)![1]!
    const ixfr = await dig(service.dns.port, '-y', `hmac-sha256:xfr-key:${secret}`, 'example.org.', `IXFR=${serial}`)
    assert.equal(ixfr.match(/\tSOA\t/g)?.length, 1, 'an up-to-date IXFR client gets the SOA alone')
    // After a change, IXFR from the old serial is the one step from the journal.
    assert.equal((await fetch(`${base}/zones/example.org/rrsets/TXT/ixfr`, { method: 'POST', headers, body: JSON.stringify({ ttl: 60, rdata: ['step'] }) })).status, 201)
    await eventually(async () => /\tTXT\t/.test(await dig(service.dns.port, '-y', `hmac-sha256:xfr-key:${secret}`, 'example.org.', `IXFR=${serial}`)))
    const step = await dig(service.dns.port, '-y', `hmac-sha256:xfr-key:${secret}`, 'example.org.', `IXFR=${serial}`)
    assert.equal(step.match(/\tSOA\t/g)?.length, 4, 'current SOA, old SOA, new SOA, current SOA')
    assert.match(step, /ixfr\.example\.org\.\s+60\s+IN\s+TXT\s+"step"/)
    assert.doesNotMatch(step, /\tNS\t/, 'only what changed')
  })

  it('stops answering a suspended zone (REFUSED) within a second, and NOTIFYs its secondaries when it is back with a new serial', async () => {
    // A secondary that acknowledges NOTIFY (RFC 1996 §4.7).
    const secondary = createSocket('udp4')
    const notified: Buffer[] = []
    secondary.on('message', (msg, rinfo) => {
      notified.push(msg)
      const reply = Buffer.from(msg.subarray(0, 12))
      reply[2] = (reply[2]! | 0x80)
      reply.writeUInt16BE(0, 4)
      reply.writeUInt16BE(0, 6)
      secondary.send(reply, rinfo.port, rinfo.address)
    })
    await new Promise<void>(resolve => secondary.bind(0, '127.0.0.1', resolve))
    try {
      const port = (secondary.address()).port
      const put = await fetch(`${base}/zones/example.org`, { method: 'PATCH', headers, body: JSON.stringify({ primaryCreateInfo: { notifyAddresses: [{ notifyAddress: `127.0.0.1:${port}` }] } }) })
      assert.equal(put.status, 200)
      await new Promise(resolve => setTimeout(resolve, 700))
      const res = await fetch(`${base}/zones/example.org/suspend`, { method: 'POST', headers, body: '{}' })
      assert.equal(res.status, 200)
      await eventually(async () => (await udpQuery(service.dns.port, 'example.org.', 6)).rcode === 5)
      assert.equal(notified.length, 0)
      const { unsuspendZone } = await import('../../../src/zones/actions.ts')
      const { SecretBox } = await import('../../../src/auth/secrets.ts')
      await unsuspendZone({ store: service.store, nameservers: [], secrets: new SecretBox(undefined), clock: () => new Date() }, { user: 'support', ipAddress: null }, 'example.org')
      await eventually(async () => notified.length > 0, 3000)
      const notify = decodeMessage(notified[0]!)
      assert.equal(notify.opcode, 4)
      assert.equal(notify.aa, true)
      assert.equal(notify.questions[0]?.type, 6)
      assert.equal((await udpQuery(service.dns.port, 'example.org.', 6)).rcode, 0)
    } finally {
      secondary.close()
    }
  })
})
