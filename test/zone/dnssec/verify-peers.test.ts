/**
 * `verifyRrsig` against signatures BIND (`dnssec-signzone`, keys from `dnssec-keygen`) and Knot
 * (`kzonesign`) make: every RRSIG of a zone they sign, read with the project's parser, verifies
 * against their DNSKEYs, and fails when its rrset is changed. Mixed-case names in rdata check the
 * canonical form (RFC 4034 §6.2) against theirs.
 */
import assert from 'node:assert/strict'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { nameToString, parseName, wireKey } from '../../../src/zone/name.ts'
import { verifyRrsig } from '../../../src/zone/dnssec/sign.ts'
import type { ZoneRecord } from '../../../src/zone/record.ts'
import { RRType } from '../../../src/zone/rrtype.ts'
import { parseZoneText } from '../../../src/zonefile/parser.ts'
import { runTool, tempDir } from '../../helpers/dnssec-tools.ts'

const origin = parseName('example.org.')
const ZONE = `$ORIGIN example.org.
$TTL 3600
@            SOA   NS1.Example.org. Hostmaster.example.ORG. 1 7200 3600 1209600 300
@            NS    NS1.Example.org.
@            MX    10 Mail.Example.ORG.
ns1          A     192.0.2.1
Mail         A     192.0.2.3
www          A     192.0.2.10
www          A     192.0.2.11
alias        CNAME WWW.example.org.
*.wild       TXT   "wildcard"
a.b.c        A     192.0.2.20
_sip._tcp    SRV   0 5 5060 WWW.Example.org.
sub          NS    ns.sub.example.org.
ns.sub       A     192.0.2.30
`

/** RRSIG records, and the rrsets they cover, of a signed zone file. */
function checkAll (text: string): { checked: number, failures: string[] } {
  const { records, problems } = parseZoneText(text, { origin, includes: 'refuse' })
  assert.deepEqual(problems.filter(p => p.severity === 'error'), [])
  const rrsets = new Map<string, ZoneRecord[]>()
  for (const r of records) {
    if (r.type === RRType.RRSIG) continue
    const key = wireKey(r.owner) + ' ' + String(r.type)
    rrsets.set(key, [...(rrsets.get(key) ?? []), r])
  }
  const dnskeys = records.filter(r => r.type === RRType.DNSKEY).map(r => r.rdata)
  assert.ok(dnskeys.length >= 2)
  const now = Math.floor(Date.now() / 1000)
  let checked = 0
  const failures: string[] = []
  for (const sig of records.filter(r => r.type === RRType.RRSIG)) {
    const type = (sig.rdata[0]! << 8) | sig.rdata[1]!
    const set = rrsets.get(wireKey(sig.owner) + ' ' + String(type)) ?? []
    const rdatas = set.map(r => r.rdata)
    const ok = dnskeys.some(k => verifyRrsig(sig.owner, type, set[0]?.ttl ?? 0, rdatas, sig.rdata, k, now))
    if (!ok) failures.push(`${nameToString(sig.owner)} ${type}`)
    // The same signature over a changed rrset must fail.
    const changed = [...rdatas, Uint8Array.from([...(rdatas[0] ?? []), 0])]
    if (dnskeys.some(k => verifyRrsig(sig.owner, type, set[0]?.ttl ?? 0, changed, sig.rdata, k, now))) failures.push(`${nameToString(sig.owner)} ${type} verified after a change`)
    checked++
  }
  return { checked, failures }
}

describe('verifyRrsig on zones signed by BIND and Knot', () => {
  let tmp: ReturnType<typeof tempDir>
  before(() => { tmp = tempDir('zonal-verify-peers-') })
  after(() => tmp.remove())

  for (const [algorithm, bits] of [['ECDSAP256SHA256', []], ['ED25519', []], ['RSASHA256', ['-b', '1024']]] as const) {
    for (const nsec3 of [false, true]) {
      it(`accepts every signature dnssec-signzone makes with ${algorithm}${nsec3 ? ' and NSEC3' : ''}`, () => {
        const dir = join(tmp.dir, `bind-${algorithm}-${String(nsec3)}`)
        mkdirSync(dir, { recursive: true })
        writeFileSync(join(dir, 'zone.db'), ZONE)
        for (const ksk of [true, false]) {
          const r = runTool('dnssec-keygen', ['-q', '-K', dir, '-a', algorithm, ...bits, ...(ksk ? ['-f', 'KSK'] : []), 'example.org.'])
          assert.equal(r.status, 0, r.stderr)
        }
        const signed = runTool('dnssec-signzone', ['-q', '-S', '-K', dir, ...(nsec3 ? ['-3', '-', '-H', '0'] : []), '-o', 'example.org.', '-f', join(dir, 'signed.db'), join(dir, 'zone.db')])
        assert.equal(signed.status, 0, signed.stderr)
        const { checked, failures } = checkAll(readFileSync(join(dir, 'signed.db'), 'utf8'))
        assert.deepEqual(failures, [])
        assert.ok(checked >= 15, `only ${checked} signatures`)
      })
    }
  }

  it('accepts every signature kzonesign makes (ECDSA P-256, NSEC3)', () => {
    const dir = join(tmp.dir, 'knot')
    for (const d of ['db', 'keys', 'out']) mkdirSync(join(dir, d), { recursive: true })
    writeFileSync(join(dir, 'zone.db'), ZONE)
    writeFileSync(join(dir, 'knot.conf'), `server:
    rundir: ${dir}
database:
    storage: ${join(dir, 'db')}
keystore:
  - id: pem
    backend: pem
    config: ${join(dir, 'keys')}
policy:
  - id: p
    algorithm: ecdsap256sha256
    nsec3: on
    nsec3-iterations: 0
    nsec3-salt-length: 0
    keystore: pem
zone:
  - domain: example.org.
    file: ${join(dir, 'zone.db')}
    dnssec-signing: on
    dnssec-policy: p
`)
    const r = runTool('kzonesign', ['-c', join(dir, 'knot.conf'), '-o', join(dir, 'out'), 'example.org.'])
    assert.equal(r.status, 0, r.stderr)
    const [file] = readdirSync(join(dir, 'out'))
    const { checked, failures } = checkAll(readFileSync(join(dir, 'out', file!), 'utf8'))
    assert.deepEqual(failures, [])
    assert.ok(checked >= 15, `only ${checked} signatures`)
  })
})
