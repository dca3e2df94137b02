import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { zonal } from '../helpers/cli.ts'

describe('zonal zonefile check and format', () => {
  let dir: string
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'zonal-zonefile-'))
    writeFileSync(join(dir, 'good.zone'), [
      '$TTL 3600',
      '@ IN SOA ns1 hostmaster 1 3600 900 604800 300',
      '@ IN NS ns1',
      'ns1 IN A 192.0.2.1',
      'www IN A 192.0.2.2',
      'www 60 IN A 192.0.2.3',
      '$INCLUDE extra.inc',
      ''
    ].join('\n'))
    writeFileSync(join(dir, 'extra.inc'), 'mail IN MX 10 ns1\n')
    writeFileSync(join(dir, 'origin.zone'), [
      '; example.org, with its name inside',
      '$TTL 3600',
      '$ORIGIN example.org. ; the zone',
      '',
      '@ IN SOA ns1 hostmaster 1 3600 900 604800 300',
      '@ IN NS ns1',
      'ns1 IN A 192.0.2.1',
      ''
    ].join('\n'))
    writeFileSync(join(dir, 'relative.zone'), '$ORIGIN example.org\n@ IN NS ns1\n')
    writeFileSync(join(dir, 'late.zone'), '@ IN NS ns1\n$ORIGIN example.org.\n')
    writeFileSync(join(dir, 'bad.zone'), [
      '$TTL 3600',
      '@ IN SOA ns1 hostmaster 1 3600 900 604800 300',
      '@ IN NS ns1',
      'ns1 IN A 192.0.2.999',
      'www IN CNAME elsewhere.example.net.',
      'www IN TXT "beside a cname"',
      'x IN BOGUS 1',
      ''
    ].join('\n'))
  })
  after(() => rmSync(dir, { recursive: true, force: true }))

  it('check: reports warnings, counts records and exits 0 for a usable zone (includes allowed from the CLI)', async () => {
    const res = await zonal('sqlite::memory:', ['zonefile', 'check', join(dir, 'good.zone'), '--origin', 'example.org'])
    assert.equal(res.code, 0, res.stderr)
    assert.match(res.stderr, /good\.zone:5: warning ZONE_TTL_MISMATCH/)
    assert.match(res.stdout, /6 records, 0 error\(s\), 1 warning\(s\)/)
  })

  it('check: lists every problem with its line and code, and exits 1', async () => {
    const res = await zonal('sqlite::memory:', ['zonefile', 'check', join(dir, 'bad.zone'), '--origin', 'example.org.'])
    assert.equal(res.code, 1)
    assert.match(res.stderr, /bad\.zone:4: error ZONEFILE_BAD_RDATA: .*192\.0\.2\.999/)
    assert.match(res.stderr, /bad\.zone:7: error ZONEFILE_UNKNOWN_TYPE/)
    assert.match(res.stderr, /error ZONE_CNAME_WITH_OTHER_DATA: www\.example\.org\./)
    assert.match(res.stderr, /error ZONE_GLUE_MISSING/)
  })

  it('check and format: take the zone name from the $ORIGIN before the first record when --origin is not given', async () => {
    const check = await zonal('sqlite::memory:', ['zonefile', 'check', join(dir, 'origin.zone')])
    assert.equal(check.code, 0, check.stderr)
    assert.match(check.stdout, /origin\.zone: 3 records, 0 error\(s\), 0 warning\(s\)/)
    const format = await zonal('sqlite::memory:', ['zonefile', 'format', join(dir, 'origin.zone')])
    assert.equal(format.code, 0, format.stderr)
    assert.match(format.stdout, /^\$ORIGIN example\.org\.$/m)
    assert.match(format.stdout, /^ns1\t3600\tIN\tA\t192\.0\.2\.1$/m)
  })

  it('check: without --origin, a file with no $ORIGIN before its first record (or a relative one) exits 2 with a clear message', async () => {
    const none = await zonal('sqlite::memory:', ['zonefile', 'check', join(dir, 'good.zone')])
    assert.equal(none.code, 2)
    assert.match(none.stderr, /^zonal: .*good\.zone has no \$ORIGIN before its first record: give the zone name with --origin\n$/)
    const late = await zonal('sqlite::memory:', ['zonefile', 'check', join(dir, 'late.zone')])
    assert.equal(late.code, 2)
    assert.match(late.stderr, /has no \$ORIGIN before its first record/)
    const relative = await zonal('sqlite::memory:', ['zonefile', 'check', join(dir, 'relative.zone')])
    assert.equal(relative.code, 2)
    assert.match(relative.stderr, /^zonal: .*the \$ORIGIN before the first record \("example\.org"\) must be absolute/)
  })

  it('format: writes canonical BIND text with the lowest TTL applied', async () => {
    const res = await zonal('sqlite::memory:', ['zonefile', 'format', join(dir, 'good.zone'), '--origin', 'example.org'])
    assert.equal(res.code, 0, res.stderr)
    const lines = res.stdout.split('\n').filter(l => !l.startsWith(';'))
    assert.deepEqual(lines, [
      '$ORIGIN example.org.',
      '@\t3600\tIN\tSOA\tns1.example.org. hostmaster.example.org. 1 3600 900 604800 300',
      '@\t3600\tIN\tNS\tns1.example.org.',
      'mail\t3600\tIN\tMX\t10 ns1.example.org.',
      'ns1\t3600\tIN\tA\t192.0.2.1',
      'www\t60\tIN\tA\t192.0.2.2',
      'www\t60\tIN\tA\t192.0.2.3',
      ''
    ])
  })

  it('format: refuses a zone with errors and a bad origin or missing file', async () => {
    assert.equal((await zonal('sqlite::memory:', ['zonefile', 'format', join(dir, 'bad.zone'), '--origin', 'example.org'])).code, 1)
    const origin = await zonal('sqlite::memory:', ['zonefile', 'check', join(dir, 'good.zone'), '--origin', 'a..b'])
    assert.equal(origin.code, 2)
    assert.match(origin.stderr, /invalid --origin/)
    const missing = await zonal('sqlite::memory:', ['zonefile', 'check', join(dir, 'nope.zone'), '--origin', 'example.org'])
    assert.equal(missing.code, 2)
    assert.match(missing.stderr, /cannot read/)
  })
})
