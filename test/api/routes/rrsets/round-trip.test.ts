/**
 * Every rrtype's rdata round-trips through the API exactly: a value written is read back in its
 * canonical form (docs/decisions.md "Canonical record text"), the canonical form written again
 * gives the same wire rdata and reads back identical, and writing back what GET shows changes
 * nothing. Quoted and free-text fields (CAA, HINFO, NAPTR, SVCB/HTTPS, URI, TXT) keep spaces,
 * `;` and quotes; an API value has no comments, so `;` is never a silent cut.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { canonicalSortKey, parseName } from '../../../../src/zone/name.ts'
import { parseTypeName } from '../../../../src/zone/rrtype.ts'
import { buildTestApp, type TestApp } from '../../../helpers/app.ts'
import { engineCases } from '../../../helpers/engines.ts'
import { client, errorCode } from '../../../helpers/zones.ts'

const HEX = 'abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789'
const ECH = 'AEX+DQBBgQAgACBjAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAEAAEAAQASY2xvdWRmbGFyZS1lY2guY29tAAA='

/** [type, value written, value read back (its canonical form)]. */
const CASES: [string, string, string][] = [
  ['CAA', '0 issue "letsencrypt.org"', '0 issue "letsencrypt.org"'],
  ['CAA', '0 iodef "mailto:security@example.org"', '0 iodef "mailto:security@example.org"'],
  ['CAA', '0 issue letsencrypt.org', '0 issue "letsencrypt.org"'],
  ['CAA', '0 issue "ca.example; account=123"', '0 issue "ca.example; account=123"'],
  ['CAA', '0 issuewild ca.example;account=1', '0 issuewild "ca.example;account=1"'],
  ['CAA', '0 tbs "a \\"quoted\\" \\\\ value"', '0 tbs "a \\"quoted\\" \\\\ value"'],
  ['CAA', '0 issue ";"', '0 issue ";"'],
  ['CAA', '0 issue "é"', '0 issue "\\195\\169"'],
  ['HINFO', '"Intel x86" "Linux 6"', '"Intel x86" "Linux 6"'],
  ['HINFO', 'INTEL LINUX;6', '"INTEL" "LINUX;6"'],
  ['NAPTR', '100 10 "U" "E2U+sip" "!^.*$!sip:info@example.org!" .', '100 10 "U" "E2U+sip" "!^.*$!sip:info@example.org!" .'],
  ['NAPTR', '100 10 U E2U+sip !^(.*)$!sip:\\\\1@example.org! .', '100 10 "U" "E2U+sip" "!^(.*)$!sip:\\\\1@example.org!" .'],
  ['NAPTR', '100 10 "" "" "" sip', '100 10 "" "" "" sip.rt.test.'],
  ['SVCB', `1 . alpn="h2,h3" ech=${ECH}`, `1 . alpn="h2,h3" ech=${ECH}`],
  ['SVCB', '1 . alpn="h2\\\\,x,h3"', '1 . alpn="h2\\\\,x,h3"'],
  ['SVCB', '2 . dohpath="/dns-query{?dns}"', '2 . dohpath="/dns-query{?dns}"'],
  ['SVCB', '1 . key65000="a b; c"', '1 . key65000="a b; c"'],
  ['HTTPS', '1 . mandatory="alpn" alpn=h2', '1 . mandatory=alpn alpn="h2"'],
  ['HTTPS', '1 . alpn="h2,h3" port=8443 ipv4hint=192.0.2.1,192.0.2.2', '1 . alpn="h2,h3" port=8443 ipv4hint=192.0.2.1,192.0.2.2'],
  ['HTTPS', '0 svc', '0 svc.rt.test.'],
  ['TLSA', `3 1 1 ${HEX}`, `3 1 1 ${HEX.toUpperCase()}`],
  ['SMIMEA', `3 1 1 ${HEX.toUpperCase()}`, `3 1 1 ${HEX.toUpperCase()}`],
  ['SSHFP', `1 2 ${HEX}`, `1 2 ${HEX.toUpperCase()}`],
  ['LOC', '52 22 23.000 N 4 53 32.000 E -2.00m 0.00m 10000m 10m', '52 22 23.000 N 4 53 32.000 E -2.00m 0.00m 10000m 10m'],
  ['LOC', '52 22 23 N 4 53 32 E -2m', '52 22 23.000 N 4 53 32.000 E -2.00m 1m 10000m 10m'],
  ['CERT', '3 0 0 AAAA', 'PGP 0 0 AAAA'],
  ['URI', '10 1 "https://example.org/a b;c"', '10 1 "https://example.org/a b;c"'],
  ['URI', '10 1 https://example.org/', '10 1 "https://example.org/"'],
  ['DS', `12345 13 2 ${HEX}`, `12345 13 2 ${HEX.toUpperCase()}`],
  ['DNSKEY', '257 3 13 AAAA BBBB', '257 3 13 AAAABBBB'],
  ['OPENPGPKEY', 'AAAA BBBB', 'AAAABBBB'],
  ['MX', '10 mail', '10 mail.rt.test.'],
  ['SRV', '10 5 5060 sip.example.net.', '10 5 5060 sip.example.net.'],
  ['RP', 'admin.example.org. txt', 'admin.example.org. txt.rt.test.'],
  ['AFSDB', '1 afs', '1 afs.rt.test.'],
  ['KX', '10 kx', '10 kx.rt.test.'],
  ['A', '192.0.2.1', '192.0.2.1'],
  ['AAAA', '2001:DB8:0:0::1', '2001:db8::1'],
  ['CNAME', 'Www.Example.org.', 'Www.Example.org.'],
  ['PTR', 'host', 'host.rt.test.'],
  ['DNAME', 'other.example.net.', 'other.example.net.'],
  ['TXT', 'v=DMARC1; p=reject; rua=mailto:d@example.org', 'v=DMARC1; p=reject; rua=mailto:d@example.org'],
  ['TXT', '"quoted" (not grouped) \\ kept', '"quoted" (not grouped) \\ kept'],
  ['SPF', 'v=spf1 include:_spf.example.net ~all', 'v=spf1 include:_spf.example.net ~all'],
  ['TYPE65000', '\\# 3 abcdef', '\\# 3 ABCDEF']
]

for (const engine of await engineCases()) {
  describe(`${engine.name}: rdata round trips through the API, type by type`, { skip: engine.skip }, () => {
    let t: TestApp
    let alice: ReturnType<typeof client>
    let zoneId: string

    const read = async (type: string, owner: string): Promise<string[]> => {
      const res = await alice.get(`/zones/rt.test/rrsets/${type}/${owner}`)
      assert.equal(res.statusCode, 200, res.body)
      return res.json().rrSets[0].rdata
    }
    const wire = async (type: string, owner: string): Promise<string> => {
      const rrset = await t.store.rrsets.get(zoneId, canonicalSortKey(parseName(`${owner}.rt.test.`)), parseTypeName(type)!)
      return Buffer.concat(rrset!.rdata).toString('hex')
    }
    const serial = async (): Promise<string> => (await read('SOA', '@'))[0]!.split(' ')[2]!

    before(async () => {
      t = await buildTestApp(engine.name)
      alice = client(t.app, await t.user('alice', 'acme', 'DNSAdministrators'))
      assert.equal((await alice.newPrimary('rt.test', 'acme')).statusCode, 201)
      zoneId = (await t.store.zones.findByName('rt.test.', { accountIds: (await t.store.accounts.list()).map(a => a.id) }))!.id
    })
    after(async () => { await t?.close() })

    CASES.forEach(([type, input, canonical], i) => {
      it(`${type} ${input}`, async () => {
        const res = await alice.post(`/zones/rt.test/rrsets/${type}/w${i}`, { ttl: 300, rdata: [input] })
        assert.equal(res.statusCode, 201, res.body)
        const shown = await read(type, `w${i}`)
        assert.deepEqual(shown, [canonical], 'read back in canonical form')
        const before = await serial()
        assert.equal((await alice.put(`/zones/rt.test/rrsets/${type}/w${i}`, { ttl: 300, rdata: shown })).statusCode, 200)
        assert.equal(await serial(), before, 'writing back what GET shows changes nothing')
        assert.equal((await alice.post(`/zones/rt.test/rrsets/${type}/c${i}`, { ttl: 300, rdata: [canonical] })).statusCode, 201)
        assert.deepEqual(await read(type, `c${i}`), [canonical], 'the canonical form reads back identical')
        assert.equal(await wire(type, `c${i}`), await wire(type, `w${i}`), 'and is the same record')
      })
    })

    it('refuses a value that a ";" used to cut short, instead of storing the part before it', async () => {
      for (const [type, value] of [['MX', '10 mail.example.org. ; comment'], ['CAA', '0 issue ca.example; account=1'], ['HINFO', '"Intel" "Linux" ; x']]) {
        assert.equal(errorCode((await alice.post(`/zones/rt.test/rrsets/${type}/cut`, { rdata: [value] })).body), 53005, `${type} ${value}`)
      }
    })
  })
}
