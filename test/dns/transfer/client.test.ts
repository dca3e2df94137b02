/**
 * The zone transfer client (RFC 5936 AXFR, RFC 1995 IXFR, RFC 8945 TSIG), all on 127.0.0.1:
 * - against Zonal's own DNS server over a fresh store (both engines): AXFR with and without TSIG
 *   brings the stored records; a wrong secret or key name is a 'tsig' failure naming BADSIG or
 *   BADKEY; a restrict list without us is 'refused' (also to a signed request answered
 *   unsigned); IXFR from the current serial is 'current',
 *   from an unknown serial the whole zone, and after changes made through the API the journal's
 *   differences;
 * - against fake primaries writing crafted frames: connection refused, timeout, a transfer cut
 *   off, a first record that is not SOA, a record outside the zone, a wrong message ID, a
 *   signed transfer whose last message is unsigned, an unsigned run within the limit, the
 *   record limit, an abort; and `transferFromAny` reporting every source.
 */
import assert from 'node:assert/strict'
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { SecretBox } from '../../../src/auth/secrets.ts'
import { startDns, type DnsService } from '../../../src/serving/dns-service.ts'
import { parseSourceAddress, transferFromAny, transferIn, TransferError, type TransferFailure, type TransferResult } from '../../../src/dns/transfer/client.ts'
import { RRType } from '../../../src/zone/rrtype.ts'
import { decodeMessage, type Message, type WireRecord } from '../../../src/dns/wire/message.ts'
import { signMessage, readTsig, type TsigKey } from '../../../src/dns/wire/tsig.ts'
import { MessageWriter, Section } from '../../../src/dns/wire/writer.ts'
import { nameToString, parseName } from '../../../src/zone/name.ts'
import { parseRdata, tokenize } from '../../../src/zone/rdata/index.ts'
import type { ZoneRecord } from '../../../src/zone/record.ts'
import { buildTestApp, type TestApp } from '../../helpers/app.ts'
import { engineCases } from '../../helpers/engines.ts'
import { client } from '../../helpers/zones.ts'

const silent = { info: () => {}, error: () => {}, warn: () => {} }
const SECRET = Buffer.from('client test transfer secret, 32o').toString('base64')
const key = (secret = SECRET, name = 'xfr-key.', algorithm: TsigKey['algorithm'] = 'hmac-sha256'): TsigKey =>
  ({ name: parseName(name), algorithm, secret: new Uint8Array(Buffer.from(secret, 'base64')) })

/** A record as presentation text, for comparing sets ("www.example.org. 300 A 192.0.2.1" by wire octets). */
const show = (r: { owner: Uint8Array, type: number, ttl: number, rdata: Uint8Array }): string =>
  `${nameToString(r.owner).toLowerCase()} ${r.ttl} ${r.type} ${Buffer.from(r.rdata).toString('hex')}`

async function failure (p: Promise<unknown>): Promise<TransferError> {
  try {
    await p
  } catch (err) {
    assert.ok(err instanceof TransferError, `a TransferError, not ${String(err)}`)
    return err
  }
  assert.fail('the transfer succeeded')
}

async function expectFailure (p: Promise<unknown>, reason: TransferFailure, message: RegExp): Promise<TransferError> {
  const err = await failure(p)
  assert.equal(err.reason, reason, err.message)
  assert.match(err.message, message)
  return err
}

for (const engine of await engineCases()) {
  describe(`${engine.name}: transfers from Zonal's own DNS server`, { skip: engine.skip }, () => {
    let t: TestApp
    let dns: DnsService
    let api: ReturnType<typeof client>
    let source: { host: string, port: number }
    const zone = parseName('example.org.')

    /** The records the store holds for a zone, as the transfer should bring them. */
    async function stored (name: string): Promise<string[]> {
      const account = await t.store.accounts.findByName('acme')
      const row = await t.store.zones.findByName(name, { accountIds: [account!.id] })
      const out: string[] = []
      for (const set of await t.store.rrsets.list(row!.id, 100_000)) {
        for (const rdata of set.rdata) out.push(show({ owner: parseName(set.ownerName), type: set.type, ttl: set.ttl, rdata }))
      }
      return out.sort()
    }

    async function servedSerial (): Promise<number> {
      const r = await transferIn(zone, { ...source, key: key() })
      return r.serial
    }

    before(async () => {
      t = await buildTestApp(engine.name)
      api = client(t.app, await t.user('xfr', 'acme'))
      const tsig = { tsigKeyName: 'xfr-key.', tsigKeyValue: SECRET, tsigAlgorithm: 'hmac-sha256' }
      assert.equal((await api.newPrimary('example.org', 'acme', { restrictIPList: [{ singleIP: '127.0.0.1' }], tsig })).statusCode, 201)
      assert.equal((await api.newPrimary('example.net', 'acme', { restrictIPList: [{ singleIP: '127.0.0.1' }] })).statusCode, 201)
      assert.equal((await api.newPrimary('closed.test', 'acme', { restrictIPList: [{ singleIP: '192.0.2.1' }], tsig })).statusCode, 201)
      for (const [owner, ip] of [['www', '192.0.2.80'], ['mail', '192.0.2.25']]) {
        assert.equal((await api.post(`/zones/example.org/rrsets/A/${owner}`, { ttl: 300, rdata: [ip] })).statusCode, 201)
        assert.equal((await api.post(`/zones/example.net/rrsets/A/${owner}`, { ttl: 300, rdata: [ip] })).statusCode, 201)
      }
      dns = await startDns(t.store, { hosts: ['127.0.0.1'], port: 0, logger: silent, secrets: new SecretBox(undefined) })
      await dns.loaded
      source = { host: '127.0.0.1', port: dns.port }
    })
    after(async () => {
      await dns?.close()
      await t?.close()
    })

    it('AXFR with TSIG brings the stored records, the SOA once and first', async () => {
      const r = await transferIn(zone, { ...source, key: key() })
      assert.equal(r.kind, 'full')
      assert.ok(r.kind === 'full')
      assert.equal(r.records[0]!.type, RRType.SOA)
      assert.equal(r.records.filter(x => x.type === RRType.SOA).length, 1)
      assert.deepEqual(r.records.map(show).sort(), await stored('example.org.'))
    })

    it('AXFR without TSIG from a zone without a key', async () => {
      const r = await transferIn(parseName('example.net.'), source)
      assert.ok(r.kind === 'full')
      assert.deepEqual(r.records.map(show).sort(), await stored('example.net.'))
    })

    it('a wrong secret is a TSIG failure naming BADSIG; an unknown key name names BADKEY', async () => {
      await expectFailure(transferIn(zone, { ...source, key: key(Buffer.from('wrong secret').toString('base64')) }), 'tsig', /BADSIG/)
      await expectFailure(transferIn(zone, { ...source, key: key(SECRET, 'other-key.') }), 'tsig', /BADKEY/)
    })

    it('a zone with a key transferred without one is refused', async () => {
      await expectFailure(transferIn(zone, source), 'refused', /REFUSED/)
    })

    it('a zone whose restrict list leaves us out is refused; a zone not served is NOTAUTH', async () => {
      const err = await expectFailure(transferIn(parseName('closed.test.'), source), 'refused', /refused the transfer/)
      assert.match(err.message, new RegExp(`^AXFR of closed\\.test\\. from 127\\.0\\.0\\.1:${dns.port} failed`))
      // Signed with the zone's own key: still refused, and reported so (not as a missing signature).
      await expectFailure(transferIn(parseName('closed.test.'), { ...source, key: key() }), 'refused', /REFUSED/)
      await expectFailure(transferIn(parseName('unknown.test.'), source), 'notauth', /NOTAUTH/)
    })

    it('IXFR from the current serial is "current"; from an unknown serial the whole zone', async () => {
      const serial = await servedSerial()
      assert.deepEqual(await transferIn(zone, { ...source, key: key() }, { serial }), { kind: 'current', serial })
      const r = await transferIn(zone, { ...source, key: key() }, { serial: serial - 1000 })
      assert.ok(r.kind === 'full', r.kind)
      assert.deepEqual(r.records.map(show).sort(), await stored('example.org.'))
    })

    it('IXFR after changes made through the API brings the journal\'s differences', async () => {
      const from = await servedSerial()
      assert.equal((await api.post('/zones/example.org/rrsets/A/new', { ttl: 60, rdata: ['192.0.2.9'] })).statusCode, 201)
      await waitFor(async () => (await servedSerial()) !== from)
      assert.equal((await api.delete('/zones/example.org/rrsets/A/mail')).statusCode, 204)
      await waitFor(async () => {
        const r = await transferIn(zone, { ...source, key: key() })
        return r.kind === 'full' && !r.records.some(x => nameToString(x.owner) === 'mail.example.org.')
      })
      const r = await transferIn(zone, { ...source, key: key() }, { serial: from })
      assert.ok(r.kind === 'incremental', r.kind)
      assert.equal(r.steps.length, 2)
      assert.equal(r.steps[0]!.serialFrom, from)
      assert.equal(r.steps[1]!.serialFrom, r.steps[0]!.serialTo)
      assert.equal(r.steps[1]!.serialTo, r.serial)
      const owners = (rs: ZoneRecord[]): string[] => rs.filter(x => x.type !== RRType.SOA).map(x => nameToString(x.owner))
      assert.deepEqual(owners(r.steps[0]!.added), ['new.example.org.'])
      assert.deepEqual(owners(r.steps[0]!.removed), [])
      assert.deepEqual(owners(r.steps[1]!.removed), ['mail.example.org.'])
      for (const s of r.steps) {
        assert.equal(s.removed.filter(x => x.type === RRType.SOA).length, 1)
        assert.equal(s.added.filter(x => x.type === RRType.SOA).length, 1)
      }
    })
  })
}

async function waitFor (check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await check()) return
    await new Promise(resolve => setTimeout(resolve, 25))
  }
  assert.fail(`not true within ${ms} ms`)
}

// ---- fake primaries ----

const ZONE = parseName('unit.test.')
const rr = (owner: string, type: number, text: string, ttl = 300): WireRecord =>
  ({ name: parseName(owner), type, class: 1, ttl, rdata: parseRdata(type, tokenize(text), { origin: ZONE }) })
const SOA = rr('unit.test.', RRType.SOA, 'ns1 hostmaster 7 3600 900 604800 300')
const A = rr('www.unit.test.', RRType.A, '192.0.2.1')
const NS = rr('unit.test.', RRType.NS, 'ns1')

/** A response message to `request` with these answers (header fields overridable). */
function response (request: Message, answers: WireRecord[], header: Partial<{ id: number, rcode: number }> = {}): Uint8Array {
  const w = new MessageWriter(65535)
  w.header({ id: header.id ?? request.id, qr: true, opcode: 0, aa: true, tc: false, rd: false, ra: false, ad: false, cd: false, rcode: header.rcode ?? 0 })
  w.question(request.questions[0]!)
  for (const r of answers) assert.ok(w.record(Section.Answer, r))
  return w.finish()
}

function frame (m: Uint8Array): Buffer {
  const out = Buffer.alloc(2 + m.length)
  out.writeUInt16BE(m.length)
  out.set(m, 2)
  return out
}

/**
 * A fake primary: for each connection, reads one framed request and calls `answer` with the
 * decoded request, its bytes and the socket (which it may write to, end, or leave open).
 */
async function fakePrimary (answer: (request: Message, bytes: Uint8Array, socket: Socket) => void): Promise<{ port: number, server: Server, close: () => Promise<void> }> {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    let got = Buffer.alloc(0)
    socket.on('data', (d: Buffer) => {
      got = Buffer.concat([got, d])
      if (got.length >= 2 && got.length >= 2 + got.readUInt16BE(0)) {
        const bytes = new Uint8Array(got.subarray(2, 2 + got.readUInt16BE(0)))
        answer(decodeMessage(bytes), bytes, socket)
      }
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    server,
    close: async () => {
      for (const s of sockets) s.destroy()
      await new Promise<void>(resolve => server.close(() => resolve()))
    }
  }
}

/** Answers every request with these messages, each built by `build` (then closes). */
async function primaryWith (build: (request: Message, bytes: Uint8Array) => Uint8Array[], end = true) {
  return await fakePrimary((request, bytes, socket) => {
    for (const m of build(request, bytes)) socket.write(frame(m))
    if (end) socket.end()
  })
}

/** A closed port: listened on, then closed. */
async function closedPort (): Promise<number> {
  const server = createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  await new Promise<void>(resolve => server.close(() => resolve()))
  return port
}

describe('transfers from fake primaries', () => {
  const primaries: { close: () => Promise<void> }[] = []
  const track = <T extends { close: () => Promise<void> }>(p: T): T => {
    primaries.push(p)
    return p
  }
  after(async () => {
    for (const p of primaries) await p.close()
  })

  it('reads an AXFR spread over several messages and stops at the closing SOA', async () => {
    const p = track(await primaryWith(q => [response(q, [SOA, NS]), response(q, [A]), response(q, [SOA])], false))
    const r = await transferIn(ZONE, { host: '127.0.0.1', port: p.port })
    assert.deepEqual(r, { kind: 'full', serial: 7, records: [SOA, NS, A].map(x => ({ owner: x.name, type: x.type, ttl: x.ttl, rdata: x.rdata })) })
  })

  it('sends IXFR with our serial in the authority section', async () => {
    let asked: Message | undefined
    const p = track(await primaryWith((q) => { asked = q; return [response(q, [SOA])] }))
    assert.deepEqual(await transferIn(ZONE, { host: '127.0.0.1', port: p.port }, { serial: 7 }), { kind: 'current', serial: 7 })
    assert.equal(asked!.questions[0]!.type, RRType.IXFR)
    assert.equal(asked!.authority[0]!.type, RRType.SOA)
    assert.equal(new DataView(asked!.authority[0]!.rdata.buffer, asked!.authority[0]!.rdata.byteOffset).getUint32(2), 7)
  })

  it('a closed port is "connection refused"', async () => {
    await expectFailure(transferIn(ZONE, { host: '127.0.0.1', port: await closedPort() }), 'connection refused', /connection refused/)
  })

  it('a primary that accepts and never answers is a timeout', async () => {
    const p = track(await fakePrimary(() => {}))
    await expectFailure(transferIn(ZONE, { host: '127.0.0.1', port: p.port }, { timeoutMs: 200 }), 'timeout', /timeout|within 200 ms|for 200 ms/)
  })

  it('a transfer cut off before the closing SOA is bad data', async () => {
    const p = track(await primaryWith(q => [response(q, [SOA, NS, A])]))
    await expectFailure(transferIn(ZONE, { host: '127.0.0.1', port: p.port }), 'bad data', /ended after 3 records without the closing SOA/)
  })

  it('a first record that is not the SOA is bad data', async () => {
    const p = track(await primaryWith(q => [response(q, [A, SOA, SOA])]))
    await expectFailure(transferIn(ZONE, { host: '127.0.0.1', port: p.port }), 'bad data', /did not start the transfer with the zone's SOA/)
  })

  it('a record outside the zone is bad data', async () => {
    const p = track(await primaryWith(q => [response(q, [SOA, rr('www.example.org.', RRType.A, '192.0.2.1'), SOA])]))
    await expectFailure(transferIn(ZONE, { host: '127.0.0.1', port: p.port }), 'bad data', /www\.example\.org\., which is outside the zone/)
  })

  it('a response with another message ID is bad data', async () => {
    const p = track(await primaryWith(q => [response(q, [SOA, SOA], { id: (q.id + 1) & 0xffff })]))
    await expectFailure(transferIn(ZONE, { host: '127.0.0.1', port: p.port }), 'bad data', /message ID/)
  })

  it('an error rcode from the primary is reported by name', async () => {
    const p = track(await primaryWith(q => [response(q, [], { rcode: 2 })]))
    await expectFailure(transferIn(ZONE, { host: '127.0.0.1', port: p.port }), 'rcode', /SERVFAIL/)
  })

  it('more records than maxRecords is too large', async () => {
    const p = track(await primaryWith(q => [response(q, [SOA, NS, A, SOA])]))
    await expectFailure(transferIn(ZONE, { host: '127.0.0.1', port: p.port }, { maxRecords: 2 }), 'too large', /more than 2 records/)
  })

  describe('with TSIG', () => {
    const k = key()
    /** Sign messages as a primary does: the first over the request MAC, later ones timers only; `signed[i]` false leaves message i unsigned. */
    function signAll (request: Message, messages: Uint8Array[], signed: boolean[]): Uint8Array[] {
      let prior = readTsig(request.tsig!.record.rdata).mac
      let pending: Uint8Array[] = []
      let first = true
      return messages.map((m, i) => {
        if (!signed[i]) {
          pending.push(m)
          return m
        }
        // The MAC covers the unsigned messages since the last signed one (RFC 8945 §5.3.1).
        // signMessage appends the TSIG record to what it signs: move that record onto `m`.
        const joined = new Uint8Array(Buffer.concat([...pending, m]))
        const out = signMessage(joined, { key: k, priorMac: prior, timersOnly: !first, now: Math.floor(Date.now() / 1000) })
        prior = out.mac
        pending = []
        first = false
        const message = new Uint8Array(Buffer.concat([m, out.message.subarray(joined.length)]))
        message[11]!++
        return message
      })
    }

    it('accepts unsigned messages between signed ones (RFC 8945 §5.3.1)', async () => {
      const p = track(await primaryWith(q => signAll(q, [response(q, [SOA]), response(q, [NS]), response(q, [A]), response(q, [SOA])], [true, false, false, true])))
      const r = await transferIn(ZONE, { host: '127.0.0.1', port: p.port, key: k })
      assert.ok(r.kind === 'full')
      assert.equal(r.records.length, 3)
    })

    it('an unsigned last message is a TSIG failure', async () => {
      const p = track(await primaryWith(q => signAll(q, [response(q, [SOA, NS]), response(q, [A, SOA])], [true, false])))
      await expectFailure(transferIn(ZONE, { host: '127.0.0.1', port: p.port, key: k }), 'tsig', /last message of the response is not signed/)
    })

    it('an unsigned first message is a TSIG failure', async () => {
      const p = track(await primaryWith(q => [response(q, [SOA, NS, A, SOA])]))
      await expectFailure(transferIn(ZONE, { host: '127.0.0.1', port: p.port, key: k }), 'tsig', /not signed/)
    })

    it('a message signed with another secret is a TSIG failure', async () => {
      const other = key(Buffer.from('another secret').toString('base64'))
      const p = track(await primaryWith(q => [signMessage(response(q, [SOA, SOA]), { key: other, priorMac: readTsig(q.tsig!.record.rdata).mac, timersOnly: false, now: Math.floor(Date.now() / 1000) }).message]))
      await expectFailure(transferIn(ZONE, { host: '127.0.0.1', port: p.port, key: k }), 'tsig', /does not verify/)
    })

    it('a signature from outside the time window is a TSIG failure naming BADTIME', async () => {
      const p = track(await primaryWith(q => [signMessage(response(q, [SOA, SOA]), { key: k, priorMac: readTsig(q.tsig!.record.rdata).mac, timersOnly: false, now: Math.floor(Date.now() / 1000) - 3600 }).message]))
      await expectFailure(transferIn(ZONE, { host: '127.0.0.1', port: p.port, key: k }), 'tsig', /BADTIME/)
    })
  })

  it('an abort stops the transfer with the signal\'s reason', async () => {
    const controller = new AbortController()
    const p = track(await fakePrimary(() => controller.abort(new Error('stopped by the caller'))))
    await assert.rejects(transferIn(ZONE, { host: '127.0.0.1', port: p.port }, { signal: controller.signal }), /stopped by the caller/)
  })

  it('transferFromAny tries each source in order and reports every failure', async () => {
    const good = track(await primaryWith(q => [response(q, [SOA, A, SOA])]))
    const refusing = track(await primaryWith(q => [response(q, [], { rcode: 5 })]))
    const refused = await closedPort()
    const r: TransferResult = await transferFromAny(ZONE, [{ host: '127.0.0.1', port: refused }, { host: '127.0.0.1', port: good.port }])
    assert.equal(r.kind, 'full')
    const err = await expectFailure(transferFromAny(ZONE, [{ host: '127.0.0.1', port: refused }, { host: '127.0.0.1', port: refusing.port }]), 'refused', /REFUSED/)
    assert.match(err.message, new RegExp(`127\\.0\\.0\\.1:${refused} failed: connection refused; .*127\\.0\\.0\\.1:${refusing.port} failed: .*REFUSED`))
  })

  it('parses primary addresses with and without a port', () => {
    assert.deepEqual(parseSourceAddress('192.0.2.1'), { host: '192.0.2.1', port: 53 })
    assert.deepEqual(parseSourceAddress('127.0.0.1:15353'), { host: '127.0.0.1', port: 15353 })
    assert.deepEqual(parseSourceAddress('[::1]:15353'), { host: '::1', port: 15353 })
    assert.deepEqual(parseSourceAddress('2001:db8::1'), { host: '2001:db8::1', port: 53 })
    assert.equal(parseSourceAddress('127.0.0.1:0'), undefined)
  })
})
