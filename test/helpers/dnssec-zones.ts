import { execFile, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { ZoneData } from '../../src/dns/index/zone-data.ts'
import { decodeMessage, type Message } from '../../src/dns/wire/message.ts'
import { MessageWriter } from '../../src/dns/wire/writer.ts'
import { parseName } from '../../src/zone/name.ts'
import { parseTypeName } from '../../src/zone/rdata/index.ts'
import { parseZoneText } from '../../src/zonefile/parser.ts'
import { frame, TcpClient, UdpClient } from './dns-clients.ts'
import { BIND_REQUIRED } from './named.ts'

/**
 * Zones signed by BIND's own tools for the DNSSEC answer tests (`dnssec-keygen`,
 * `dnssec-signzone`), loaded into a `ZoneData` through our zone-file parser, and the clients
 * that check them (`delv`, DO queries). The tools must be installed (the tests fail otherwise).
 */

const run = promisify(execFile)

/**
 * False when BIND's tools are installed, else why the DNSSEC interop tests skip (`skip` of their
 * describes); in CI (`CI=true`) or with `ZONAL_TEST_REQUIRE_BIND=1` a missing tool fails instead.
 */
export function requireTools (...tools: string[]): string | false {
  const missing = tools.filter(t => (spawnSync(t, ['-h']).error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT')
  if (missing.length === 0) return false
  const reason = `${missing.join(', ')} not installed (bind9, bind9-utils, bind9-dnsutils)`
  if (BIND_REQUIRED) throw new Error(`BIND tools are required here but ${reason}: the DNSSEC tests need them`)
  console.log(`# BIND interop SKIPPED: ${reason}`)
  return reason
}

/** How a zone is signed: NSEC, NSEC3 (no salt, RFC 9276), or NSEC3 with a salt, iterations and Opt-Out. */
export type Signing = 'nsec' | 'nsec3' | 'nsec3-optout'

export interface SignedZone {
  origin: string
  /** The signed zone file as `dnssec-signzone` wrote it. */
  text: string
  /** The KSK's DNSKEY rdata in presentation form (`257 3 13 …`): the trust anchor. */
  ksk: string
  /** The DS records of the zone (`dnssec-signzone`'s dsset), as zone file lines for its parent. */
  ds: string
  /** Where the keys and files are; removed by the caller with {@link removeSigned}. */
  dir: string
}

/**
 * Sign `text` (the zone `origin`) with a new KSK and ZSK (ECDSAP256SHA256), in a new temporary
 * directory: `dnssec-signzone -S`, with `-3 -` for NSEC3 (no salt) and `-3 aabbccdd -H 2 -A`
 * for NSEC3 with a salt, iterations and Opt-Out.
 * @throws Error with the tool's output when a tool fails or is missing
 */
export async function signZone (origin: string, text: string, signing: Signing): Promise<SignedZone> {
  const dir = mkdtempSync(join(tmpdir(), 'zonal-dnssec-'))
  const unsigned = join(dir, 'zone.db')
  writeFileSync(unsigned, text)
  await run('dnssec-keygen', ['-q', '-K', dir, '-a', 'ECDSAP256SHA256', '-f', 'KSK', origin])
  await run('dnssec-keygen', ['-q', '-K', dir, '-a', 'ECDSAP256SHA256', origin])
  const nsec3 = signing === 'nsec3' ? ['-3', '-'] : signing === 'nsec3-optout' ? ['-3', 'aabbccdd', '-H', '2', '-A'] : []
  const signed = join(dir, 'zone.signed')
  await run('dnssec-signzone', ['-q', '-S', '-K', dir, '-d', dir, '-o', origin, '-f', signed, ...nsec3, unsigned])
  const keyFile = readdirSync(dir).find(f => f.endsWith('.key') && / DNSKEY 257 /.test(readFileSync(join(dir, f), 'utf8')))
  if (keyFile === undefined) throw new Error('dnssec-keygen wrote no KSK')
  const ksk = /DNSKEY\s+(257 .*)$/m.exec(readFileSync(join(dir, keyFile), 'utf8'))![1]!.trim()
  const ds = readFileSync(join(dir, `dsset-${origin}`), 'utf8')
  return { origin, text: readFileSync(signed, 'utf8'), ksk, ds, dir }
}

/**
 * `zone` changed and signed again with its own keys: `lines` added to its signed text, the SOA
 * serial incremented (`-N increment`), signatures still valid kept (so the change is small:
 * the new records, their signatures, the NSEC or NSEC3 records around them, the SOA).
 */
export async function resignZone (zone: SignedZone, lines: string, signing: Signing): Promise<SignedZone> {
  const input = join(zone.dir, 'zone.changed')
  writeFileSync(input, `${zone.text}\n$ORIGIN ${zone.origin}\n${lines}\n`)
  const nsec3 = signing === 'nsec3' ? ['-3', '-'] : signing === 'nsec3-optout' ? ['-3', 'aabbccdd', '-H', '2', '-A'] : []
  const signed = join(zone.dir, 'zone.resigned')
  await run('dnssec-signzone', ['-q', '-S', '-N', 'increment', '-K', zone.dir, '-d', zone.dir, '-o', zone.origin, '-f', signed, ...nsec3, input])
  return { ...zone, text: readFileSync(signed, 'utf8') }
}

export function removeSigned (zone: SignedZone | undefined): void {
  if (zone !== undefined) rmSync(zone.dir, { recursive: true, force: true })
}

/** A zone file's records in a `ZoneData`, through our parser (no errors allowed). */
export function loadZone (origin: string, text: string, serial = 1): ZoneData {
  const o = parseName(origin)
  const { records, problems } = parseZoneText(text, { origin: o, includes: 'refuse' })
  const errors = problems.filter(p => p.severity === 'error')
  if (errors.length > 0) throw new Error(`zone ${origin} does not parse: ${JSON.stringify(errors)}`)
  return ZoneData.from(o, serial, 1, records)
}

/** A `trust-anchors` statement for named.conf and delv's `-a` file: the zone's KSK as a static key. */
export function trustAnchors (zones: readonly SignedZone[]): string {
  const lines = zones.map(z => {
    const [flags, protocol, algorithm, ...key] = z.ksk.split(/\s+/)
    return `  "${z.origin}" static-key ${flags} ${protocol} ${algorithm} "${key.join('')}";`
  })
  return `trust-anchors {\n${lines.join('\n')}\n};\n`
}

/**
 * `delv @127.0.0.1 -p port` validating `name type` from the trust anchor in `anchorFile` for
 * `root` (`+root=`): its whole output (`; fully validated`, `; negative response, fully
 * validated`, or `; resolution failed: …`).
 */
export async function delv (port: number, anchorFile: string, root: string, name: string, type: string): Promise<string> {
  try {
    const { stdout, stderr } = await run('delv', ['@127.0.0.1', '-p', String(port), '-a', anchorFile, `+root=${root}`, name, type], { encoding: 'utf8' })
    return stdout + stderr
  } catch (err) {
    const e = err as { stdout?: string, stderr?: string }
    return `${e.stdout ?? ''}${e.stderr ?? ''}`
  }
}

export interface AskOptions {
  transport?: 'udp' | 'tcp'
  /** The EDNS UDP size offered (default 4096); 0 sends no OPT record. */
  udpSize?: number
  /** The DO bit (default true). */
  dnssecOk?: boolean
}

let nextId = 1

/** A query for `name type` with the DO bit as asked. */
export function doQuery (name: string, type: string, opts: AskOptions = {}): Uint8Array {
  const w = new MessageWriter(512)
  nextId = (nextId % 0xfffe) + 1
  w.header({ id: nextId, qr: false, opcode: 0, aa: false, tc: false, rd: false, ra: false, ad: false, cd: false, rcode: 0 })
  w.question({ name: parseName(name), type: parseTypeName(type)!, class: 1 })
  const size = opts.udpSize ?? 4096
  if (size > 0) w.opt({ udpSize: size, extendedRcode: 0, version: 0, dnssecOk: opts.dnssecOk ?? true, options: [] })
  return w.finish()
}

/** Ask 127.0.0.1:`port` one question (DO set unless told otherwise) over UDP or TCP. */
export async function ask (port: number, name: string, type: string, opts: AskOptions = {}): Promise<Message> {
  const message = doQuery(name, type, opts)
  if (opts.transport === 'tcp') {
    const client = await TcpClient.open('127.0.0.1', port)
    try {
      client.write(frame(message))
      const reply = await client.next()
      if (reply === undefined) throw new Error(`no TCP answer to ${name} ${type}`)
      return decodeMessage(reply)
    } finally {
      client.close()
    }
  }
  const client = await UdpClient.open()
  try {
    return await client.ask(message, port)
  } finally {
    client.close()
  }
}

/**
 * The signed world of the DNSSEC answer tests: `example.org.` signed with both kinds of
 * delegation below it — `secure.example.org.` (signed, its DS in the parent) and
 * `insecure.example.org.` (unsigned, no DS) — served by one server; `deleg.example.org.` has a DS
 * but no zone anywhere (referrals with DS, never resolved). Every name server and glue
 * address is 127.0.0.1: a validating resolver told to use the test's port (named's `port`)
 * never leaves loopback.
 */
export const PARENT_ZONE = `$ORIGIN example.org.
$TTL 3600
@            IN SOA   ns1 hostmaster 2024010101 7200 3600 1209600 300
@            IN NS    ns1
@            IN MX    10 mail
@            IN A     192.0.2.1
@            IN TXT   "apex"
ns1          IN A     127.0.0.1
mail         IN A     192.0.2.25
mail         IN AAAA  2001:db8::25
www          IN CNAME web
web     300  IN A     192.0.2.80
web          IN AAAA  2001:db8::80
c1           IN CNAME c2
c2      60   IN CNAME www
out          IN CNAME www.example.net.
dangling     IN CNAME nowhere
towild       IN CNAME x.wild
a.b.c        IN A     192.0.2.9
*.wild       IN A     192.0.2.99
*.wild       IN TXT   "wildcard"
sub.wild     IN A     192.0.2.98
*.cwild      IN CNAME web
secure       IN NS    ns.secure
ns.secure    IN A     127.0.0.1
insecure     IN NS    ns.insecure
ns.insecure  IN A     127.0.0.1
deleg        IN NS    ns.deleg
deleg        IN DS    12345 13 2 49FD46E6C4B45C55D4AC69CBD3CD34AC1AFE51DE3A4C5E4B5E4C9B8F0E5D4C3B
ns.deleg     IN A     127.0.0.1
old          IN DNAME new
x.new        IN A     192.0.2.77
${Array.from({ length: 40 }, (_, i) => `many IN A 10.0.0.${i}`).join('\n')}
${Array.from({ length: 30 }, (_, i) => `big IN TXT "${String(i).padStart(2, '0')}${'x'.repeat(60)}"`).join('\n')}
`

export const SECURE_ZONE = `$ORIGIN secure.example.org.
$TTL 3600
@            IN SOA   ns hostmaster 1 7200 3600 1209600 300
@            IN NS    ns
ns           IN A     127.0.0.1
host         IN A     192.0.2.110
`

export const INSECURE_ZONE = `$ORIGIN insecure.example.org.
$TTL 3600
@            IN SOA   ns hostmaster 1 7200 3600 1209600 300
@            IN NS    ns
ns           IN A     127.0.0.1
host         IN A     192.0.2.120
`

export interface SignedWorld {
  parent: SignedZone
  child: SignedZone
  /** The signed parent's text, the secure child's, the unsigned child's, by origin. */
  files: Record<string, string>
}

/** Sign the child, then the parent with the child's DS in it (both the same way). */
export async function signWorld (signing: Signing): Promise<SignedWorld> {
  const child = await signZone('secure.example.org.', SECURE_ZONE, signing)
  const parent = await signZone('example.org.', PARENT_ZONE + child.ds, signing)
  return { parent, child, files: { 'example.org.': parent.text, 'secure.example.org.': child.text, 'insecure.example.org.': INSECURE_ZONE } }
}
