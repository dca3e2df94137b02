/**
 * Differential test against BIND 9: for every record below, our writer's text for our parse
 * of the rdata equals what `named-compilezone -s full` writes for the same zone-file line.
 *
 * Whitespace outside quoted strings is normalised (BIND writes `128  foo.` for an A6 without a
 * suffix). TXT strings are compared one by one: BIND, like us, writes a string longer than 255
 * octets as separate quoted strings. BIND 9.18 writes SvcParamKeys 7 and 8 as `key7` and
 * `key8`; we write their registered names `dohpath` and `ohttp`, so BIND's text is mapped.
 * MF cannot be loaded from a primary zone file (RFC 1123 §5.2.4, BIND refuses it as obsolete),
 * so MF goes through `named-rrchecker`.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { nameToString, parseName } from '../../../src/zone/name.ts'
import { formatRdata, parseRdata, parseTypeName, tokenize, typeName } from '../../../src/zone/rdata/index.ts'
import { hex } from '../../helpers/rdata.ts'

const ORIGIN = 'example.org.'
const origin = parseName(ORIGIN)
const LONG = Array.from({ length: 300 }, (_, i) => String.fromCharCode(0x41 + (i % 26))).join('')
const ECH = 'AEn+DQBFKwAgACABWIHUGj4u+PIggYXcR5JF0gYk3dCRioBW8uJq9H4mKAAIAAEAAQABAANAEnB1YmxpYy50ZXN0LmV4YW1wbGUAAA=='

/**
 * Owner, type, our rdata text and, where BIND 9.18 refuses that text, the equivalent text BIND
 * is given instead: it refuses a character-string over 255 octets (we split it; BIND gets the
 * two strings), an unquoted URI target, and the name `ohttp` (unknown to it; it gets `key8`).
 * No owner has CNAME and other data.
 */
const RECORDS: Array<[string, string, string, string?]> = [
  ['@', 'SOA', 'ns1 hostmaster 2024010101 1h 15m 1w 1d'],
  ['@', 'NS', 'ns1'],
  ['@', 'NS', 'ns2.example.net.'],
  ['@', 'MX', '10 mail'],
  ['@', 'TXT', '"v=spf1 -all"'],
  ['ns1', 'A', '192.0.2.1'],
  ['ns1', 'AAAA', '2001:db8::1'],
  ['aaaa', 'AAAA', '2001:DB8:0:0:1:0:0:1'],
  ['aaaa', 'AAAA', '::ffff:192.0.2.1'],
  ['aaaa', 'AAAA', '::1.2.3.4'],
  ['aaaa', 'AAAA', '::'],
  ['aaaa', 'AAAA', 'fe80::204:61ff:fe9d:f156'],
  ['generic', 'A', '\\# 4 0a000001'],
  ['www', 'CNAME', 'ns1'],
  ['mx', 'MX', '0 .'],
  ['mx', 'MX', '65535 mail.example.net.'],
  ['txt', 'TXT', `"${LONG}"`, `"${LONG.slice(0, 255)}" "${LONG.slice(255)}"`],
  ['txt', 'TXT', '"a\\"b" "c\\\\d" "\\001\\255" "é" ""'],
  ['txt', 'TXT', 'bare words ; and a comment'],
  ['txt', 'TXT', '"tab\\009and\\032space" "semi;colon" "paren()"'],
  ['_sip._udp', 'SRV', '0 5 5060 sip'],
  ['_sip._udp', 'SRV', '65535 65535 65535 .'],
  ['naptr', 'NAPTR', '100 10 "S" "SIP+D2U" "!^.*$!sip:info@example.org!" _sip._udp'],
  ['naptr', 'NAPTR', '0 0 "" "" "" .'],
  ['naptr', 'NAPTR', '1 2 u E2U+sip "!^\\\\+(.*)$!\\"x\\"!" .'],
  ['caa', 'CAA', '0 issue "letsencrypt.org"'],
  ['caa', 'CAA', '0 issuewild ";"'],
  ['caa', 'CAA', '0 iodef "mailto:security@example.org"'],
  ['caa', 'CAA', '128 tbs "Unknown"'],
  ['caa', 'CAA', '0 issue ""'],
  ['caa', 'CAA', '0 issue ca.example.net'],
  ['caa', 'CAA', '0 ISSUE "a\\"b\\\\c é\\010"'],
  ['hinfo', 'HINFO', '"INTEL-386" "Unix"'],
  ['hinfo', 'HINFO', 'RFC8482 ""'],
  ['rp', 'RP', 'john\\.doe.example.org. txt'],
  ['rp', 'RP', '. .'],
  ['afsdb', 'AFSDB', '1 afs'],
  ['kx', 'KX', '10 kx.example.net.'],
  ['dname', 'DNAME', 'example.net.'],
  ['1.2.0.192.in-addr.arpa', 'PTR', 'host.example.net.'],
  ['ptr', 'PTR', 'weird\\(name\\)\\;\\@\\$\\"\\000.example.net.'],
  ['spf', 'SPF', '"v=spf1 ip4:192.0.2.0/24 -all"'],
  ['spf', 'SPF', `"${LONG}" "x"`, `"${LONG.slice(0, 255)}" "${LONG.slice(255)}" "x"`],
  ['uri', 'URI', '10 1 "ftp://ftp1.example.org/public"'],
  ['uri', 'URI', '1 0 https://example.org/', '1 0 "https://example.org/"'],
  ['svc', 'SVCB', '0 foo.example.com.'],
  ['svc', 'SVCB', '1 .'],
  ['svc', 'SVCB', '16 foo.example.org. (alpn=h2,h3-19 mandatory=ipv4hint,alpn ipv4hint=192.0.2.1)'],
  ['svc', 'SVCB', '2 . alpn="f\\\\\\\\oo\\\\,bar,h2"'],
  ['svc', 'SVCB', '3 . port=8443 ipv4hint=192.0.2.1,192.0.2.2 ipv6hint=2001:db8::1,::ffff:192.0.2.3 mandatory=port'],
  ['svc', 'SVCB', '4 svc2 key667="hello\\210qoo" key65333=ex1 key65535 key9=""'],
  ['svc', 'SVCB', '5 . alpn="a b,c\\"d,\\255" no-default-alpn'],
  ['svc', 'SVCB', '6 . key3=\\000\\053 key1=\\002h2'],
  ['_dns.ns1', 'SVCB', '1 ns1 alpn=h2,h3 dohpath=/dns-query{?dns} mandatory=dohpath,alpn'],
  ['svc', 'HTTPS', '1 . alpn=h3 key123="a b"'],
  ['svc', 'HTTPS', `1 . alpn=h2 no-default-alpn ech=${ECH} port=443`],
  ['svc', 'HTTPS', '2 . ohttp alpn=h2', '2 . key8 alpn=h2'],
  ['svc', 'HTTPS', '0 svc2'],
  ['loc', 'LOC', '42 21 54 N 71 06 18 W -24m 30m'],
  ['loc', 'LOC', '42 21 54.5 N 71 06 18.25 W -24.5m 30m 10000m 10m'],
  ['loc', 'LOC', '42 N 71 W 0'],
  ['loc', 'LOC', '0 0 0 N 0 0 0 E 42849672.95m 90000000m 90000000m 90000000m'],
  ['loc', 'LOC', '90 S 180 E -100000.00 0.5m 1 0'],
  ['loc', 'LOC', '1 2 3.4 N 5 6 7.8 E 15m 15m 0.05 99'],
  ['loc', 'LOC', '89 59 59.999 S 179 59 59.999 W .5 .05'],
  ['a6', 'A6', '0 2001:db8::1'],
  ['a6', 'A6', '64 ::1:2:3:4 foo.example.'],
  ['a6', 'A6', '65 ::ffff:1:2:3:4 foo'],
  ['a6', 'A6', '127 ::ffff foo.'],
  ['a6', 'A6', '128 foo.example.'],
  ['a6', 'A6', '96 ::1.2.3.4 foo.'],
  ['unknown', 'TYPE65534', '\\# 4 0a000001'],
  ['unknown', 'TYPE65534', '\\# 0']
]

/** Records BIND will not load from a zone file; checked one at a time with named-rrchecker. */
const RRCHECKER_RECORDS: Array<[string, string]> = [
  ['MF', 'mail'],
  ['MF', 'mail.example.net.']
]

/** Tokens outside quotes separated by one space; quoted strings kept as written. */
function normalise (text: string): string {
  return tokenize(text).map(t => t.quoted ? `"${t.text}"` : t.text).join(' ')
}

/** BIND 9.18 writes SvcParamKeys 7 and 8 as keyNNNNN; name them as RFC 9461 and RFC 9540 do. */
function bindKeyNames (text: string): string {
  const rename = (k: string): string => k === 'key7' ? 'dohpath' : k === 'key8' ? 'ohttp' : k
  return tokenize(text).map(t => {
    if (t.quoted) return `"${t.text}"`
    const [key, ...rest] = t.text.split('=')
    const value = rest.join('=')
    if (key === 'mandatory') return `mandatory=${value.split(',').map(rename).join(',')}`
    return rest.length > 0 ? `${rename(key!)}=${value}` : rename(key!)
  }).join(' ')
}

function ours (type: number, text: string): string {
  return normalise(formatRdata(type, parseRdata(type, tokenize(text), { origin })))
}

function absoluteOwner (owner: string): string {
  return nameToString(parseName(owner, origin)).toLowerCase()
}

/** Presentation text grouped by `owner TYPE`, each group sorted. */
function group (entries: Array<[string, string, string]>): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const [owner, type, text] of entries) {
    const key = `${owner} ${type}`
    out.set(key, [...(out.get(key) ?? []), text])
  }
  for (const list of out.values()) list.sort()
  return out
}

function available (command: string, args: string[]): boolean {
  const r = spawnSync(command, args, { encoding: 'utf8' })
  return r.error === undefined
}

const haveCompilezone = available('named-compilezone', ['-v'])
const skip = haveCompilezone
  ? false
  : 'named-compilezone is not on PATH (install bind9-utils to run the BIND differential test)'
if (skip !== false && process.env.CI === 'true') {
  describe('BIND 9 differential test', () => {
    it('needs named-compilezone in CI', () => assert.fail(skip))
  })
}

describe('BIND 9 differential test: named-compilezone writes the same rdata text', { skip }, () => {
  it('lists each record once', () => {
    const wires = RECORDS.map(([owner, type, text]) => {
      const n = parseTypeName(type)!
      return `${absoluteOwner(owner)} ${n} ${hex(parseRdata(n, tokenize(text), { origin }))}`
    })
    assert.equal(new Set(wires).size, wires.length)
  })

  it('covers every type of the core and SVCB, LOC, A6 work', () => {
    const types = new Set([...RECORDS.map(r => r[1]), ...RRCHECKER_RECORDS.map(r => r[0])])
    for (const t of ['SOA', 'NS', 'A', 'AAAA', 'CNAME', 'MX', 'TXT', 'SRV', 'NAPTR', 'CAA', 'HINFO', 'RP', 'AFSDB', 'KX', 'DNAME', 'PTR', 'SPF', 'URI', 'MF', 'SVCB', 'HTTPS', 'LOC', 'A6', 'TYPE65534']) {
      assert.ok(types.has(t), t)
    }
  })

  it('matches named-compilezone -s full for every record', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zonal-bind-'))
    try {
      const file = join(dir, 'example.org.zone')
      const lines = RECORDS.map(([owner, type, text, bindText]) => `${owner} IN ${type} ${bindText ?? text}`)
      writeFileSync(file, `$ORIGIN ${ORIGIN}\n$TTL 3600\n${lines.join('\n')}\n`)
      const r = spawnSync('named-compilezone', ['-o', '-', '-s', 'full', '-i', 'none', '-k', 'ignore', 'example.org', file], { encoding: 'utf8' })
      assert.equal(r.status, 0, `named-compilezone failed:\n${r.stdout}\n${r.stderr}`)
      const theirs: Array<[string, string, string]> = []
      for (const line of r.stdout.split('\n')) {
        if (line.trim() === '') continue
        const m = /^(\S+)\s+\d+\s+IN\s+(\S+)\s+(.*)$/.exec(line)
        assert.ok(m !== null, `unexpected named-compilezone line: ${line}`)
        const rdata = m[2] === 'SVCB' || m[2] === 'HTTPS' ? bindKeyNames(m[3]!) : normalise(m[3]!)
        theirs.push([m[1]!.toLowerCase(), m[2]!, rdata])
      }
      const mine = RECORDS.map(([owner, type, text]): [string, string, string] => {
        const n = parseTypeName(type)!
        return [absoluteOwner(owner), typeName(n), ours(n, text)]
      })
      const expected = group(theirs)
      const actual = group(mine)
      for (const [key, list] of actual) assert.deepEqual(list, expected.get(key), key)
      assert.deepEqual([...actual.keys()].sort(), [...expected.keys()].sort())
    } finally {
      if (process.env.ZONAL_KEEP_BIND_DIR === undefined) rmSync(dir, { recursive: true, force: true })
    }
  })

  it('matches named-rrchecker for the types BIND refuses in zone files (MF)', () => {
    const haveRrchecker = available('named-rrchecker', ['-h'])
    if (!haveRrchecker) {
      assert.notEqual(process.env.CI, 'true', 'named-rrchecker is missing in CI')
      return
    }
    for (const [type, text] of RRCHECKER_RECORDS) {
      const r = spawnSync('named-rrchecker', ['-p', '-o', 'example.org'], { input: `IN ${type} ${text}\n`, encoding: 'utf8' })
      assert.equal(r.status, 0, `named-rrchecker failed for ${type} ${text}: ${r.stderr}`)
      const m = /^IN\s+(\S+)\s+(.*)$/.exec(r.stdout.trim())
      assert.ok(m !== null, r.stdout)
      assert.equal(m[1], type)
      assert.equal(ours(parseTypeName(type)!, text), normalise(m[2]!), `${type} ${text}`)
    }
  })
})
