import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { HEALTH_CHECKS } from '../../src/health/checks/index.ts'
import { looksLikeAddress } from '../../src/health/checks/mx-targets.ts'
import { runChecks } from '../../src/health/run.ts'
import { countStatuses, healthScore } from '../../src/health/score.ts'
import { countsOf } from '../../src/health/service.ts'
import { worst } from '../../src/health/status.ts'
import type { HealthStatus, Observation, ServerProbe } from '../../src/health/types.ts'
import { parseName } from '../../src/zone/name.ts'
import { recordTextToRdata } from '../../src/zone/record-text.ts'
import { RRType } from '../../src/zone/rrtype.ts'

// RFC 4034 §5.4: a DNSKEY of dskey.example.com. and its DS (key tag 60485, SHA-1).
const EXAMPLE = parseName('dskey.example.com.')
const EXAMPLE_DNSKEY = recordTextToRdata(RRType.DNSKEY, '256 3 5 AQOeiiR0GOMYkDshWoSKz9XzfwJr1AYtsmx3TGkJaNXVbfi/2pHm822aJ5iI9BMzNXxeYCmZDRD99WYwYqUSdjMmmAphXdvxegXd/M5+X7OrzKBaMbCVdFLUUh6DhweJBjEVv5f2wwjM9XzcnOf+EPbtG9DMBmADjFDc2w/rljwvFw==', EXAMPLE)
const EXAMPLE_DS = recordTextToRdata(RRType.DS, '60485 5 1 2BB183AF5F22588179A53B0A98631FAD1A292118', EXAMPLE)
const OTHER_DS = recordTextToRdata(RRType.DS, '60485 5 1 2BB183AF5F22588179A53B0A98631FAD1A292119', EXAMPLE)
/** The observation signed with the example key, its parent holding `ds`. */
const signedWith = (o: Observation, ds: Uint8Array[]): void => {
  o.zone = 'dskey.example.com.'
  o.dnssecStatus = 'SIGNED'
  o.dnskeys = [EXAMPLE_DNSKEY]
  ;(o.network!.parent as { ds: unknown }).ds = { ok: true, records: ds }
}
const DS_CHECK = 'DS records at the parent match the zone\'s DNSKEYs'

/** What a healthy zone looks like: every check OK (DNSSEC INFO). */
function healthy (): Observation {
  const server = (ns: string, address: string): ServerProbe => ({
    ns,
    address,
    udp: { answered: true, aa: true, ra: false, rcode: 0, serial: 7 },
    tcp: { answered: true, aa: true, ra: false, rcode: 0, serial: 7 },
    recursion: { answered: true, aa: false, ra: false, rcode: 5 }
  })
  return {
    zone: 'unit.test.',
    dnssecStatus: 'UNSIGNED',
    soa: { mname: 'ns1.unit.test.', rname: 'hostmaster.unit.test.', serial: 7, refresh: 7200, retry: 3600, expire: 1209600, minimum: 300 },
    ns: ['ns1.unit.test.', 'ns2.example.net.'],
    mx: [{ preference: 10, exchange: 'mail.example.net.' }],
    apexCname: undefined,
    dnskeys: [],
    network: {
      nsAddresses: { 'ns1.unit.test.': { ok: true, addresses: ['192.0.2.1'] }, 'ns2.example.net.': { ok: true, addresses: ['198.51.100.2'] } },
      servers: [server('ns1.unit.test.', '192.0.2.1'), server('ns2.example.net.', '198.51.100.2')],
      parent: { ok: true, parent: 'test.', servers: ['203.0.113.1'], ns: ['ns1.unit.test.', 'ns2.example.net.'], glue: { 'ns1.unit.test.': ['192.0.2.1'] }, ds: { ok: true, records: [] } },
      mxTargets: { 'mail.example.net.': { ok: true, addresses: ['192.0.2.25'] } }
    }
  }
}

/** The status of the check named `name` over `o`. */
function statusOf (o: Observation, name: string): { status: HealthStatus, messages: string[] } {
  const check = HEALTH_CHECKS.find(c => c.name === name)
  assert.ok(check !== undefined, name)
  const out = check.run(o)
  return { status: out.status, messages: out.messages.map(m => `${m.status} ${m.message}`) }
}

describe('health checks over an observation', () => {
  it('finds nothing wrong with a healthy zone (DNSSEC INFO), which scores 10', () => {
    const checks = runChecks(healthy())
    for (const c of checks) assert.equal(c.status, c.category === 'DNSSEC' ? 'INFO' : 'OK', JSON.stringify(c))
    const all = Object.values(countsOf(checks)).reduce((a, b) => ({ ok: a.ok + b.ok, error: a.error + b.error, warning: a.warning + b.warning, bestPractice: a.bestPractice + b.bestPractice, info: a.info + b.info, na: a.na + b.na }))
    assert.equal(healthScore(all), 10)
    assert.equal(checks.flatMap(c => c.results).filter(r => r.status === 'OK' && 'hint' in r).length, 0, 'no hint on a passing check')
  })

  const cases: Array<{ what: string, check: string, change: (o: Observation) => void, status: HealthStatus, message?: RegExp }> = [
    { what: 'no name server', check: 'Zone has at least two name servers', change: o => { o.ns = [] }, status: 'ERROR', message: /has no name server/ },
    { what: 'an NS name that does not resolve', check: 'Name server names resolve', change: o => { o.network!.nsAddresses['ns2.example.net.'] = { ok: false, error: 'the name does not exist (NXDOMAIN)' } }, status: 'ERROR', message: /'ns2\.example\.net\.' does not resolve: the name does not exist/ },
    { what: 'an NS name that is a CNAME', check: 'Name server names resolve', change: o => { o.network!.nsAddresses['ns2.example.net.'] = { ok: true, addresses: ['198.51.100.2'], cname: 'host.example.net.' } }, status: 'ERROR', message: /is an alias/ },
    { what: 'a server silent over TCP', check: 'All name servers respond', change: o => { o.network!.servers[1]!.tcp = { answered: false, error: 'no answer (timeout)' } }, status: 'ERROR', message: /did not respond over TCP: no answer \(timeout\)/ },
    { what: 'a server answering REFUSED', check: 'Name servers answer authoritatively', change: o => { o.network!.servers[1]!.udp = { answered: true, aa: false, ra: false, rcode: 5 } }, status: 'ERROR', message: /AA not set, rcode REFUSED\): lame delegation/ },
    { what: 'two serials', check: 'Name servers have the same SOA serial', change: o => { o.network!.servers[1]!.udp = { answered: true, aa: true, ra: false, rcode: 0, serial: 6 } }, status: 'WARNING', message: /SOA serial 6 from ns2/ },
    { what: 'an open resolver', check: 'Name servers do not announce open recursion', change: o => { o.network!.servers[0]!.recursion = { answered: true, aa: false, ra: true, rcode: 3 } }, status: 'WARNING', message: /'ns1\.unit\.test\.' \(192\.0\.2\.1\) allows open recursion/ },
    { what: 'a parent with an extra server', check: 'Authoritative name servers have the same NS record list as the parent zone', change: o => { (o.network!.parent as { ns: string[] }).ns.push('ns3.example.net.') }, status: 'WARNING', message: /only at the parent: \['ns3\.example\.net\.'\]/ },
    { what: 'no SOA', check: 'SOA record exists for zone', change: o => { o.soa = undefined }, status: 'ERROR' },
    { what: 'a minimum of a week', check: 'SOA MINIMUM is present and valid', change: o => { o.soa!.minimum = 604800 }, status: 'BEST_PRACTICE', message: /'604800' .* not within the range of best practice \(300–86400\)/ },
    { what: 'an expire not above refresh and retry', check: 'SOA EXPIRE is present and valid', change: o => { o.soa!.refresh = 43200; o.soa!.expire = 45000; o.soa!.retry = 7200 }, status: 'ERROR', message: /under a week/ },
    { what: 'MNAME elsewhere', check: 'SOA MNAME is one of the zone\'s name servers', change: o => { o.soa!.mname = 'hidden.unit.test.' }, status: 'BEST_PRACTICE' },
    { what: 'an RNAME with @', check: 'SOA RNAME is a valid mailbox', change: o => { o.soa!.rname = 'hostmaster@unit.test.' }, status: 'ERROR', message: /contains '@'/ },
    { what: 'an RNAME of one label', check: 'SOA RNAME is a valid mailbox', change: o => { o.soa!.rname = 'hostmaster.' }, status: 'ERROR', message: /not a valid mailbox/ },
    { what: 'an escaped dot in the local part', check: 'SOA RNAME is a valid mailbox', change: o => { o.soa!.rname = 'john\\.doe.unit.test.' }, status: 'OK' },
    { what: 'no MX', check: 'Zone has MX records', change: o => { o.mx = [] }, status: 'INFO', message: /RFC 5321 §5\.1/ },
    { what: 'a null MX beside another', check: 'Zone has MX records', change: o => { o.mx.push({ preference: 0, exchange: '.' }) }, status: 'ERROR', message: /must be the only one/ },
    { what: 'a null MX of preference 10', check: 'Zone has MX records', change: o => { o.mx = [{ preference: 10, exchange: '.' }] }, status: 'ERROR', message: /must be 0/ },
    { what: 'an MX at an address', check: 'MX targets resolve to addresses and are not aliases', change: o => { o.mx = [{ preference: 10, exchange: '192.0.2.25.' }] }, status: 'ERROR', message: /is an IP address/ },
    { what: 'an MX that does not resolve', check: 'MX targets resolve to addresses and are not aliases', change: o => { o.network!.mxTargets['mail.example.net.'] = { ok: false, error: 'no A or AAAA record' } }, status: 'ERROR', message: /does not resolve: no A or AAAA record/ },
    { what: 'a CNAME at the apex', check: 'No CNAME at the apex', change: o => { o.apexCname = 'elsewhere.example.net.' }, status: 'ERROR' },
    { what: 'no delegation', check: 'Zone is delegated from its parent', change: o => { o.network!.parent = { ok: false, parent: 'test.', error: 'no delegation at the parent\'s servers (203.0.113.1 answered NXDOMAIN)' } }, status: 'ERROR', message: /in the parent zone 'test\.': no delegation/ },
    { what: 'glue missing for an in-zone server', check: 'Glue records are present and consistent', change: o => { (o.network!.parent as { glue: Record<string, string[]> }).glue = {} }, status: 'ERROR', message: /gives no glue/ },
    { what: 'glue that differs', check: 'Glue records are present and consistent', change: o => { (o.network!.parent as { glue: Record<string, string[]> }).glue = { 'ns1.unit.test.': ['192.0.2.99'] } }, status: 'ERROR', message: /differs from its addresses \(192\.0\.2\.1\)/ },
    { what: 'a signed zone', check: 'Zone is signed', change: o => { o.dnssecStatus = 'SIGNED' }, status: 'INFO', message: /is signed/ },
    { what: 'an unsigned zone without DS', check: DS_CHECK, change: () => {}, status: 'INFO', message: /not signed and its parent 'test\.' holds no DS/ },
    { what: 'DS at the parent of an unsigned zone', check: DS_CHECK, change: o => { (o.network!.parent as { ds: unknown }).ds = { ok: true, records: [EXAMPLE_DS] } }, status: 'ERROR', message: /\[60485 5 1 2BB183AF5F22588179A53B0A98631FAD1A292118\], but the zone is not signed/ },
    { what: 'a signed zone without DS', check: DS_CHECK, change: o => { signedWith(o, []) }, status: 'WARNING', message: /holds no DS record for it/ },
    { what: 'the DS of the zone\'s key (RFC 4034 §5.4)', check: DS_CHECK, change: o => { signedWith(o, [EXAMPLE_DS]) }, status: 'OK', message: /\[60485 5 1 2BB1.*\] at the parent 'test\.' match DNSKEYs/ },
    { what: 'a DS whose digest is not the key\'s', check: DS_CHECK, change: o => { signedWith(o, [OTHER_DS]) }, status: 'ERROR', message: /None of the DS records .* matches a DNSKEY/ },
    { what: 'the key\'s DS and a stale one', check: DS_CHECK, change: o => { signedWith(o, [EXAMPLE_DS, OTHER_DS]) }, status: 'WARNING', message: /\[60485 5 1 2BB183AF5F22588179A53B0A98631FAD1A292119\] at the parent match no DNSKEY/ },
    { what: 'DS records that could not be read', check: DS_CHECK, change: o => { (o.network!.parent as { ds: unknown }).ds = { ok: false, error: '203.0.113.1 answered SERVFAIL for the DS records' } }, status: 'NOT_APPLICABLE', message: /could not be read at its parent: 203\.0\.113\.1 answered SERVFAIL/ }
  ]
  for (const c of cases) {
    it(`${c.check}: ${c.what} gives ${c.status}`, () => {
      const o = healthy()
      c.change(o)
      const got = statusOf(o, c.check)
      assert.equal(got.status, c.status, got.messages.join('\n'))
      if (c.message !== undefined) assert.ok(got.messages.some(m => c.message!.test(m)), got.messages.join('\n'))
    })
  }

  it('without resolvers, every check that needs the network is NOT_APPLICABLE and says why; the others run', () => {
    const o = healthy()
    o.network = undefined
    const results = runChecks(o).flatMap(c => c.results)
    const na = results.filter(r => r.status === 'NOT_APPLICABLE')
    assert.deepEqual(na.map(r => r.name).sort(), [
      'All name servers respond', 'Authoritative name servers have the same NS record list as the parent zone', 'Glue records are present and consistent',
      'DS records at the parent match the zone\'s DNSKEYs', 'Name server names resolve', 'Name servers answer authoritatively', 'Name servers do not announce open recursion', 'Name servers have the same SOA serial',
      'Zone is delegated from its parent'
    ].sort())
    for (const r of na) assert.match(r.messages[0]!.message, /no recursive resolver is configured \(ZONAL_RESOLVERS\)/)
    assert.equal(results.find(r => r.name === 'MX targets resolve to addresses and are not aliases')!.messages[0]!.status, 'INFO')
  })

  it('tells an address from a host name', () => {
    assert.equal(looksLikeAddress('192.0.2.1.'), true)
    assert.equal(looksLikeAddress('2001:db8::1'), true)
    assert.equal(looksLikeAddress('mail.example.net.'), false)
    assert.equal(looksLikeAddress('1.example.net.'), false)
  })
})

describe('health score', () => {
  it('is 10 with nothing graded or all OK, and loses 1, 1/2 and 1/4 of a result for ERROR, WARNING and BEST_PRACTICE', () => {
    assert.equal(healthScore(countStatuses([])), 10)
    assert.equal(healthScore(countStatuses(['OK', 'INFO', 'NOT_APPLICABLE'])), 10)
    assert.equal(healthScore(countStatuses(['OK', 'ERROR'])), 5)
    assert.equal(healthScore(countStatuses(['OK', 'WARNING'])), 7.5)
    assert.equal(healthScore(countStatuses(['OK', 'OK', 'OK', 'BEST_PRACTICE'])), 9.38)
    assert.equal(healthScore(countStatuses(['ERROR'])), 0)
  })

  it('takes the worst status of a category', () => {
    assert.equal(worst(['OK', 'INFO', 'WARNING', 'BEST_PRACTICE']), 'WARNING')
    assert.equal(worst([]), 'NOT_APPLICABLE')
  })
})
