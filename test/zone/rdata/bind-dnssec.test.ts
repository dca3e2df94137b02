/**
 * Differential test against BIND 9 (`named-compilezone`): for one or more records of each DNSSEC
 * and binary-data type, our presentation output must be what BIND writes, our input must be what
 * BIND accepts, and BIND's output must parse to the same wire bytes. BIND splits long hex and
 * base64 into pieces; the pieces are joined before comparing. TSIG and TKEY are meta types that
 * BIND never loads from a zone file; their tests compare with `dig` output instead.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { parseName } from '../../../src/zone/name.ts'
import { RdataError, formatRdata, parseRdata, parseTypeName, tokenize, validateRdata } from '../../../src/zone/rdata/index.ts'

const origin = parseName('example.org.')
const installed = spawnSync('named-compilezone', ['-v']).status === 0
// CI must have BIND; elsewhere the test is skipped without it.
const skip = installed || process.env.CI === 'true' ? false : 'named-compilezone not installed'

const SHA1 = '2BB183AF5F22588179A53B0A98631FAD1A292118'
const SHA256 = 'd4b7d520e7bb5f0f67674a0cceb1e3e0614b93c4f9e99b8383f6a1e4469da50a'
const KEY = 'AwEAAcMnWBKLuvG/LwnPVykcmpvnntwxfshHlHRhlY0F3oz8AMcuF8gw9McCw+BoC2YxWaHovq Ru+KrY+3d+ZuCfb5tDvk1ESdXdi4fVh5V4d0EPgprpN8Ux5yEr8pyS/yY5Y1IJGJ2VxmNiv1ST0bpp1vwhRmiDMnJD5ezcxX9K5Ddx'
const SIG = 'oJB1W6WNGv+ldvQ3WDG0MQkg5IEhjRip8WTrPYGv07h108dUKGMeDPKijVCHX3DDKdfb+v6oB9wfuh3DTJXUAfI/M0zmO/zz8bW0Rznl8O3tGNazPwQKkRN20XPXV6nwwfoXmJQbsLNrLfkGJ5D6fwFm8nN+6pBzeDQfsS3Ap3o='
const PGP = 'mQENBFVHm5sBCACxM8jGbNNe0YiuWCx7jaLnSwiIiWkdP1EnQnZu AAAA'

/** Owner (below example.org.), type and rdata as written in the zone file. */
const RECORDS: Array<[string, string, string]> = [
  ['ds1', 'DS', `60485 5 1 ${SHA1}`],
  ['ds2', 'DS', `60485 RSASHA256 SHA-256 ( ${SHA256.slice(0, 30)}\n ${SHA256.slice(30)} )`],
  ['ds3', 'DS', '1 ECDSAP384SHA384 3 d4b7d5'],
  ['cds1', 'CDS', '0 0 0 00'],
  ['cds2', 'CDS', `60485 13 2 ${SHA256}`],
  ['dlv1', 'DLV', `60485 5 1 ${SHA1}`],
  ['ta1', 'TA', `60485 RSASHA1 1 ${SHA1.toLowerCase()}`],
  ['dnskey1', 'DNSKEY', `257 3 RSASHA256 ( ${KEY} )`],
  ['dnskey2', 'DNSKEY', '256 3 ed25519 l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZJA4='],
  ['cdnskey1', 'CDNSKEY', '0 3 0 AA=='],
  ['cdnskey2', 'CDNSKEY', '257 3 13 AwEAAQ=='],
  ['rrsig1', 'RRSIG', `A 5 3 86400 20030322173103 ( 20030220173103 2642 example.com. ${SIG} )`],
  ['rrsig2', 'RRSIG', 'TYPE1234 13 2 300 1700000000 1690000000 1 . AAAA'],
  ['rrsig3', 'RRSIG', 'nsec3param ECDSAP256SHA256 3 0 20250101000000 20241201000000 65535 sub AQID BA=='],
  ['nsec1', 'NSEC', 'host.example.com. ( A MX RRSIG NSEC TYPE1234 CAA TYPE65534 )'],
  ['nsec2', 'NSEC', 'next TYPE0 OPT NSEC RRSIG ANY'],
  ['nsec3a', 'NSEC3', '1 1 12 aabbccdd ( 2t7b4g4vsa5smi47k61mv5bv1a22bojr MX DNSKEY NS SOA NSEC3PARAM RRSIG )'],
  ['nsec3b', 'NSEC3', '1 0 0 - 2T7B4G4VSA5SMI47K61MV5BV1A22BOJR'],
  ['nsec3c', 'NSEC3', '2 0 65535 00 2t7b4g4v A TYPE65535'],
  ['nsec3param1', 'NSEC3PARAM', '1 0 12 aabbccdd'],
  ['nsec3param2', 'NSEC3PARAM', '1 0 0 -'],
  ['_443._tcp.tlsa1', 'TLSA', '3 1 1 0C72AC70B745AC19998811B131D662C9AC69DBDBE7CB23E5B514B56664C5D3D6'],
  ['tlsa2', 'TLSA', '0 0 0 30 82 01 0a'],
  ['smimea1', 'SMIMEA', '3 1 1 0c72ac70b745ac19998811b131d662c9ac69dbdbe7cb23e5b514b56664c5d3d6'],
  ['sshfp1', 'SSHFP', '4 2 ( 123456789abcdef67890123456789abcdef67890123456789abcdef123456789 )'],
  ['sshfp2', 'SSHFP', '1 1 dd465c09cfa51fb45020cc83316fff21b9ec74ac'],
  ['openpgpkey1', 'OPENPGPKEY', `( ${PGP} )`],
  ['zonemd1', 'ZONEMD', '2018031900 1 1 ( c68090d90a7aed716bc459f9340e3d7c1370d4d24b7e2fc3a1ddc0b9a87153b9a9713b3c9ae5cc27777f98b8e730044c )'],
  ['zonemd2', 'ZONEMD', '1 1 3 000102030405060708090a0b'],
  ['cert1', 'CERT', `PGP 0 0 ${PGP}`],
  ['cert2', 'CERT', '1 2 RSASHA256 AAAA'],
  ['cert3', 'CERT', '65000 2 3 AAAA'],
  ['cert4', 'CERT', '253 0 eccgost AAAA'],
  ['cert5', 'CERT', 'iacpkix 65535 255 AAAA'],
  ['ipseckey1', 'IPSECKEY', '10 0 2 . AQNRU3mG7TVTO2BkR47usntb102uFJtugbo6BSGvgqt4AQ=='],
  ['ipseckey2', 'IPSECKEY', '10 1 2 192.0.2.38 AQNRU3mG7TVTO2BkR47usntb102uFJtugbo6BSGvgqt4AQ=='],
  ['ipseckey3', 'IPSECKEY', '10 2 2 2001:0DB8:0:8002::2000:1 AQNRU3mG7TVTO2BkR47usntb102uFJtugbo6BSGvgqt4AQ=='],
  ['ipseckey4', 'IPSECKEY', '10 3 2 gw AQNR U3mG'],
  ['ipseckey5', 'IPSECKEY', '10 2 0 ::ffff:192.0.2.1 AA=='],
  ['generic1', 'DS', '\\# 24 EC4505012BB183AF5F22588179A53B0A98631FAD1A292118'],
  ['generic2', 'NSEC3', '\\# 26 0100000c0014174eb2409fe28bcb4887a1836f957f0a8425e27b']
]

/**
 * Inputs BIND refuses. The first group we refuse as well; in the second the layout accepts them
 * and validation gives the reason (the API decides whether that rejects the upload).
 */
const REFUSED: Array<[string, string]> = [
  ['DS', '60485 5 1'],
  ['DS', '60485 5 1 ABC'],
  ['DNSKEY', '256 3 8 AA'],
  ['DNSKEY', '256 3 FOO AAAA'],
  ['RRSIG', 'A 5 3 86400 20030230173103 20030220173103 2642 . AAAA'],
  ['RRSIG', 'A 5 3 86400 4294967296 20030220173103 2642 . AAAA'],
  ['NSEC', 'host.example.com. A 12'],
  ['NSEC3', '1 1 12 abc 2T7B4G4VSA5SMI47K61MV5BV1A22BOJR'],
  ['NSEC3', '1 1 12 - 2T7B4G4VSA'],
  ['NSEC3PARAM', '1 0 12'],
  ['TLSA', '3 1 1 a'],
  ['CERT', 'X509 0 0 AAAA'],
  ['IPSECKEY', '10 0 2 gw.example.org. AQNR'],
  ['IPSECKEY', '10 4 2 . AQNR']
]
const VALIDATED: Array<[string, string]> = [
  ['DS', `60485 5 1 ${SHA256}`],
  ['SSHFP', '1 1 aabb'],
  ['ZONEMD', '1 1 2 000102030405060708090a0b'],
  ['NSEC', 'host.example.com.'],
  ['RRSIG', 'A 13 2 300 20250101000000 20241201000000 1 sub.example.org. AAAA']
]

const dir = mkdtempSync(join(tmpdir(), 'zonal-bind-'))
after(() => rmSync(dir, { recursive: true, force: true }))

interface Compiled {
  /** Whether BIND loaded the zone. */
  ok: boolean
  /** The records BIND wrote, one a line, comments left out. */
  lines: string[]
  stderr: string
}

/** Run named-compilezone on a zone holding `records` (owner, type, rdata). */
function compile (records: ReadonlyArray<readonly [string, string, string]>, name = 'zone'): Compiled {
  const file = join(dir, `${name}.db`)
  const lines = [
    '$ORIGIN example.org.',
    '$TTL 3600',
    '@ SOA ns1 hostmaster 1 7200 3600 1209600 3600',
    '@ NS ns1',
    'ns1 A 192.0.2.1',
    ...records.map(([owner, type, rdata]) => `${owner} ${type} ${rdata}`)
  ]
  writeFileSync(file, lines.join('\n') + '\n')
  const run = spawnSync('named-compilezone', ['-o', '-', '-s', 'full', '-i', 'none', '-k', 'ignore', 'example.org', file], { encoding: 'utf8' })
  return {
    ok: run.status === 0,
    lines: (run.stdout ?? '').split('\n').filter(l => l.trim() !== '' && !l.startsWith(';')),
    stderr: `${run.stdout ?? ''}${run.stderr ?? ''}${run.error?.message ?? ''}`
  }
}

function ours (type: string, text: string): string {
  const n = parseTypeName(type)!
  return formatRdata(n, parseRdata(n, tokenize(text), { origin }))
}

describe('presentation format against BIND 9 named-compilezone', { skip }, () => {
  it('is installed (required when CI=true)', () => {
    assert.ok(installed, 'named-compilezone is not on PATH')
  })

  it('writes every record as BIND does, and reads BIND\'s output back to the same bytes', () => {
    const output = compile(RECORDS)
    assert.ok(output.ok, `BIND refused the zone: ${output.stderr}`)
    const byOwner = new Map(output.lines.map((line) => {
      const [owner, , , type, ...rdata] = line.trim().split(/\s+/)
      return [owner!, { type: type!, rdata }]
    }))
    for (const [owner, type, input] of RECORDS) {
      const bind = byOwner.get(`${owner}.example.org.`)
      assert.ok(bind !== undefined, `BIND wrote no ${owner}`)
      assert.equal(bind.type, type)
      const mine = ours(type, input).split(' ')
      // BIND splits the trailing hex or base64 into pieces: join them before comparing.
      const joined = [...bind.rdata.slice(0, mine.length - 1), bind.rdata.slice(mine.length - 1).join('')]
      assert.deepEqual(mine, joined, `${owner} ${type} ${input}`)
      const n = parseTypeName(type)!
      assert.deepEqual(parseRdata(n, tokenize(bind.rdata.join(' ')), { origin }), parseRdata(n, tokenize(input), { origin }), `${owner}: BIND's text reads back`)
    }
  })

  it('refuses what BIND refuses', () => {
    REFUSED.forEach(([type, text], i) => {
      assert.equal(compile([['bad', type, text]], `refused-${i}`).ok, false, `BIND accepts ${type} ${text}`)
      assert.throws(() => ours(type, text), RdataError, `${type} ${text}`)
    })
  })

  it('gives a validation reason for what BIND refuses but the layout accepts', () => {
    VALIDATED.forEach(([type, text], i) => {
      assert.equal(compile([['bad', type, text]], `validated-${i}`).ok, false, `BIND accepts ${type} ${text}`)
      const n = parseTypeName(type)!
      assert.notDeepEqual(validateRdata(n, parseRdata(n, tokenize(text), { origin })), [], `${type} ${text}`)
    })
  })
})
