/**
 * The case of names in answers, against BIND named on the same zone: mixed-case questions, and a
 * zone whose owners and rdata names are themselves spelled in mixed case. Every name in every
 * section is compared octet for octet, case included: the question comes back as asked
 * (RFC 1034 §4.1), owners and the names inside rdata keep the zone's spelling (RFC 4343 §4.1),
 * and name compression never points at another spelling of a name (a question
 * `ABC.Example.Org` must not turn the SOA's `ns1.example.org.` into `ns1.Example.Org.`). The
 * answer and authority sections are compared whole; an additional record is compared when named
 * sends it too (named's minimal responses leave out some that we add).
 *
 * Ours is served as in `differential.test.ts`: the zone text through our parser into a
 * `ZoneData`, answered by our UDP listener.
 */
import assert from 'node:assert/strict'
import { createSocket, type Socket } from 'node:dgram'
import { after, before, describe, it } from 'node:test'
import { ZoneData } from '../../../src/dns/index/zone-data.ts'
import { ZoneIndex } from '../../../src/dns/index/zone-index.ts'
import { RRType } from '../../../src/zone/rrtype.ts'
import { decodeMessage, type Message, type WireRecord } from '../../../src/dns/wire/message.ts'
import { MessageWriter } from '../../../src/dns/wire/writer.ts'
import { nameToString, parseName } from '../../../src/zone/name.ts'
import { formatRdata, parseTypeName, typeName } from '../../../src/zone/rdata/index.ts'
import { parseZoneText } from '../../../src/zonefile/parser.ts'
import { bindSkip, startNamed, type Named } from '../../helpers/named.ts'
import { serveInWorkers, type WorkerServer } from '../../helpers/dns-workers.ts'
import { mixedCaseZone } from '../../helpers/dns-clients.ts'

const skip = bindSkip('named')

const ZONE = mixedCaseZone(false)

/** The questions: the brief's mixed-case cases, each kind of answer a name can appear in. */
const QUESTIONS: [string, string][] = [
  ['ABC.Example.Org.', 'A'], // NXDOMAIN: the SOA in authority, spelled as the zone does
  ['WWW.EXAMPLE.ORG.', 'A'], // CNAME to a name of the zone, then its address
  ['mail.EXAMPLE.org.', 'MX'], // NODATA
  ['mail.EXAMPLE.org.', 'A'],
  ['EXAMPLE.ORG.', 'NS'], // NS at the apex, with an address in additional
  ['Example.Org.', 'MX'],
  ['example.ORG.', 'SOA'],
  ['C1.Example.ORG.', 'A'], // a CNAME chain: c1 → C2 → Www → Web
  ['mixed.EXAMPLE.ORG.', 'A'], // an owner spelled in mixed case by the zone
  ['MIXED.example.org.', 'TXT'],
  ['x.OLD.Example.org.', 'A'], // DNAME, the synthesized CNAME, its target
  ['foo.SUB.example.ORG.', 'A'], // a referral with glue
  ['_SIP._TCP.example.org.', 'SRV']
]

function encode (name: string, type: string, id: number): Uint8Array {
  const w = new MessageWriter(512)
  w.header({ id, qr: false, opcode: 0, aa: false, tc: false, rd: false, ra: false, ad: false, cd: false, rcode: 0 })
  w.question({ name: parseName(name), type: parseTypeName(type)!, class: 1 })
  w.opt({ udpSize: 1232, extendedRcode: 0, version: 0, dnssecOk: false, options: [] })
  return w.finish()
}

async function ask (socket: Socket, port: number, name: string, type: string, id: number): Promise<Message> {
  const reply = new Promise<Buffer>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer from ${port} to ${name} ${type}`)), 3000)
    const onMessage = (msg: Buffer): void => {
      if (msg.readUInt16BE(0) !== id) return
      clearTimeout(timer)
      socket.off('message', onMessage)
      resolve(msg)
    }
    socket.on('message', onMessage)
  })
  socket.send(encode(name, type, id), port, '127.0.0.1')
  return decodeMessage(await reply)
}

/** A record octet for octet (owner and rdata in hex) and as text, for a readable failure. */
function octets (r: WireRecord): string {
  return `${nameToString(r.name)} ${r.ttl} ${typeName(r.type)} ${formatRdata(r.type, r.rdata)} [${Buffer.from(r.name).toString('hex')} ${Buffer.from(r.rdata).toString('hex')}]`
}

const caseless = (r: WireRecord): string => octets(r).toLowerCase()

describe('answer case: every name as BIND named spells it', { skip }, () => {
  let named: Named
  let server: WorkerServer | undefined
  let client: Socket
  let port: number

  before(async () => {
    named = await startNamed({
      options: 'minimal-responses yes;',
      files: { 'zone.db': ZONE },
      body: 'zone "example.org." { type primary; file "$DIR/zone.db"; };'
    })
    await named.waitForLog(/zone example\.org\/IN: loaded serial 2024010101/, 5000)
    const origin = parseName('example.org.')
    const { records, problems } = parseZoneText(ZONE, { origin, includes: 'refuse' })
    assert.deepEqual(problems.filter(p => p.severity === 'error'), [])
    const index = new ZoneIndex()
    index.set(ZoneData.from(origin, 2024010101, 1, records))
    // Served as the service serves: by DNS worker threads.
    server = await serveInWorkers(index)
    port = server.port
    client = createSocket('udp4')
  })

  after(async () => {
    client?.close()
    await server?.close()
    await named?.stop()
  })

  it('spells the question as asked and every owner and rdata name as the zone does', async () => {
    let id = 100
    let additionalCompared = 0
    for (const [name, type] of QUESTIONS) {
      const what = `${name} ${type}`
      const ours = await ask(client, port, name, type, ++id)
      const theirs = await ask(client, named.port, name, type, ++id)
      assert.equal(ours.rcode, theirs.rcode, `${what}: rcode`)
      assert.equal(Buffer.from(ours.questions[0]!.name).toString('hex'), Buffer.from(parseName(name)).toString('hex'), `${what}: the question as asked`)
      assert.deepEqual(ours.answers.map(octets).sort(), theirs.answers.map(octets).sort(), `${what}: answer section`)
      assert.deepEqual(ours.authority.map(octets).sort(), theirs.authority.map(octets).sort(), `${what}: authority section`)
      for (const r of theirs.additional.filter(r => r.type !== RRType.OPT)) {
        const mine = ours.additional.find(o => caseless(o) === caseless(r))
        assert.ok(mine !== undefined, `${what}: additional ${octets(r)} missing`)
        assert.equal(octets(mine), octets(r), `${what}: additional section`)
        additionalCompared++
      }
    }
    assert.ok(additionalCompared >= 2, 'the apex NS and the referral bring additional records to compare')
    assert.deepEqual(server?.problems, [])
  })

  it('compresses onto the same spelling only: a mixed-case question leaves the SOA as the zone spells it', async () => {
    const ours = await ask(client, port, 'ABC.Example.Org.', 'A', 7)
    assert.equal(ours.rcode, 3)
    const soa = ours.authority[0]!
    assert.equal(nameToString(soa.name), 'example.org.')
    assert.equal(formatRdata(soa.type, soa.rdata), 'ns1.example.org. hostmaster.example.org. 2024010101 7200 3600 1209600 300')
  })
})
