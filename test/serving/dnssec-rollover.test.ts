/**
 * Key rollovers of a zone signed through the API, served by the running service and validated
 * at every step by an independent validator (dnspython, test/helpers/python-validator.ts) at the
 * time of a test clock: the maintenance job is driven in this process with that clock (as
 * test/zones/dnssec/maintenance.test.ts does) on the store the service's DNS serves from. At each
 * step the DNSKEY rrset is checked against the DS resolvers hold then, and the SOA, an A rrset
 * and an NXDOMAIN proof validate:
 *
 * - KSK by double signature (`POST …/dnssec/kskrollover`): the new KSK signs the DNSKEY rrset
 *   beside the old, so both the old DS and the new one validate, from the start through the DS
 *   change at the parent (after the DNSKEY TTL) until the old DS has left the caches (its TTL,
 *   a day); once the old KSK has left, the new DS validates (and the old no longer does);
 * - ZSK by pre-publication (the job at the rollover frequency): published (the old ZSK signs),
 *   active (the new signs, and answers a resolver cached from the step before still validate,
 *   the old key being published), the old removed.
 *
 * A second validator, `unbound-host` under `faketime` with the DS as trust anchor, checks each
 * step's A answer where it is installed. A BIND secondary of the zone follows every step (NOTIFY,
 * transfer), its copy passing `kzonecheck --dnssec` at the clock's time.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { SecretBox } from '../../src/auth/secrets.ts'
import type { DnssecKey, Store } from '../../src/store/store.ts'
import { readSoa } from '../../src/zone/rdata/soa.ts'
import { RRType } from '../../src/zone/rrtype.ts'
import { maintainZone } from '../../src/zones/dnssec/maintenance.ts'
import { ask } from '../helpers/dnssec-zones.ts'
import { dnssecToolsSkip, runTool, tempDir } from '../helpers/dnssec-tools.ts'
import { BIND_REQUIRED, bindSkip, dig, eventually, freeDnsPort, startNamed, type Named } from '../helpers/named.ts'
import { runProcess } from '../helpers/process.ts'
import { pythonValidatorSkip, validateServed, type CachedAnswer, type ValidationResult } from '../helpers/python-validator.ts'
import { apiKsks, serviceApi, startTestService, type ServiceApi, type TestService } from '../helpers/service.ts'
import { storeZone } from '../helpers/stored-zones.ts'

const skip = pythonValidatorSkip() || bindSkip('named', 'dig') || dnssecToolsSkip()
const PASSWORD = 'dnssec rollover password'
const ZONE = 'roll.test.'
const DAY = 86_400_000
const RECORDS = `@ 3600 IN SOA ns1 hostmaster 1 7200 3600 1209600 300
@ 3600 IN NS ns1
ns1 3600 IN A 127.0.0.1
www 300 IN A 192.0.2.10
`

/** `unbound-host` and `faketime` both installed (the second validator is optional: it is tried where it is). */
const unboundHost = spawnSync('sh', ['-c', 'command -v unbound-host && command -v faketime'], { stdio: 'ignore' }).status === 0
if (!unboundHost) {
  if (BIND_REQUIRED) throw new Error('unbound-host and faketime are required here (.ci/run installs them)')
  console.log('# unbound-host under faketime SKIPPED: unbound-host or faketime not installed')
}

describe('DNSSEC rollovers across a test clock, validated at every step', { skip }, () => {
  let t: TestService
  let api: ServiceApi
  let store: Store
  let zoneId = ''
  let port = 0
  let now = new Date()
  let tmp: ReturnType<typeof tempDir>
  let secondary: Named
  const secrets = new SecretBox(undefined)

  const keys = async (): Promise<DnssecKey[]> => await store.dnssec.keys(zoneId)
  /** The SHA-256 DS of a KSK, as GET /zones/{z}/dnssec gives it to the parent. */
  const dsOf = async (keyTag: number): Promise<string> => {
    const ds = (await apiKsks(api, ZONE)).find(k => k.keyId === keyTag)?.dsRecords.find(d => d.split(' ')[2] === '2')
    assert.ok(ds !== undefined, `GET lists the DS of KSK ${keyTag}`)
    return ds
  }
  /**
   * The zone's maintenance at the test clock's time, turn after turn while the zone is due then
   * (a key step that changes only the DNSKEY rrset leaves the zone due at once, for the
   * signatures the clock's jump left near their expiry): the key steps taken, their serial served.
   */
  const maintain = async (): Promise<string[]> => {
    const steps: string[] = []
    for (let turn = 0; turn === 0 || (turn < 5 && (await store.dnssec.due(now.toISOString(), 100)).includes(zoneId)); turn++) {
      steps.push(...(await maintainZone(store, secrets, zoneId, now)).steps)
    }
    const serial = (await store.zones.findById(zoneId))!.serial
    await eventually(async () => (await ask(port, ZONE, 'SOA')).answers.some(r => r.type === RRType.SOA && readSoa(r.rdata).serial === serial), 20_000, `serial ${serial} served`)
    await secondaryFollows()
    return steps
  }
  /**
   * BIND's secondary of the zone (told by Zonal's NOTIFY) has transferred the serial the store
   * holds, and its copy passes `kzonecheck --dnssec` at the test clock's time.
   */
  const secondaryFollows = async (): Promise<void> => {
    const serial = (await store.zones.findById(zoneId))!.serial
    await eventually(async () => new RegExp(`\\s${serial}\\s`).test(await dig(secondary.port, '+norec', '+short', ZONE, 'SOA')), 20_000, `the secondary at serial ${serial}`)
    const copy = join(tmp.dir, `secondary-${serial}.zone`)
    writeFileSync(copy, (await dig(secondary.port, ZONE, 'AXFR', '+onesoa')).split('\n').filter(l => l !== '' && !l.startsWith(';')).join('\n') + '\n')
    const check = runTool('kzonecheck', ['--dnssec', 'on', '-t', String(Math.floor(now.getTime() / 1000)), '-o', ZONE, copy])
    assert.equal(check.status, 0, `the secondary's copy at ${now.toISOString()}: ${check.stdout}${check.stderr}`)
  }
  /** The dnspython verdict, and unbound-host's ("secure" …) where it is installed and one DS is the anchor. */
  const validate = async (ds: string[], cached: CachedAnswer[] = []): Promise<ValidationResult & { unbound?: string }> => {
    const result = await validateServed({ port, zone: ZONE, ds, now, positive: [[`www.${ZONE}`, 'A']], nxdomain: [`nothing.${ZONE}`], cached })
    return unboundHost && ds.length === 1 ? { ...result, unbound: await unboundValidates(ds[0]!) } : result
  }
  const valid = async (ds: string[], cached: CachedAnswer[] = []): Promise<ValidationResult> => {
    const result = await validate(ds, cached)
    assert.deepEqual(result.errors, [], `at ${now.toISOString()} with DS ${ds.join(', ')}`)
    if (result.unbound !== undefined) assert.equal(result.unbound, 'secure', `unbound-host at ${now.toISOString()} with DS ${ds[0]}`)
    return result
  }
  /** `unbound-host` with the DS as its trust anchor, its clock at the test's: "secure", "insecure" or "bogus". */
  const unboundValidates = async (ds: string): Promise<string> => {
    const conf = join(tmp.dir, 'unbound.conf')
    writeFileSync(conf, `server:\n  do-not-query-localhost: no\n  local-zone: "test." nodefault\n  trust-anchor: "${ZONE} DS ${ds}"\nstub-zone:\n  name: "${ZONE}"\n  stub-addr: 127.0.0.1@${port}\n`)
    const stamp = now.toISOString().replace('T', ' ').replace(/\.\d+Z$/, '')
    const r = await runProcess('faketime', ['-f', `@${stamp}`, 'unbound-host', '-C', conf, '-v', '-t', 'A', `www.${ZONE}`], { env: { ...process.env, TZ: 'UTC' } })
    const out = r.stdout + r.stderr
    if (/\(secure\)/.test(out)) return 'secure'
    if (/\(insecure\)/.test(out)) return `insecure: ${out}`
    return `bogus: ${out}`
  }

  before(async () => {
    tmp = tempDir('zonal-rollover-')
    t = await startTestService(PASSWORD, { ZONAL_DNS_HOST: '127.0.0.1', ZONAL_DNS_WORKERS: '1', ZONAL_DNS_RRL: '0' })
    store = t.service.store
    port = t.service.dns.port
    api = await serviceApi(t.service, PASSWORD)
    zoneId = (await storeZone(store, 'default', ZONE, RECORDS)).id
    await t.service.dns.loaded
    assert.equal((await api('POST', `/zones/${ZONE}/dnssec`, {})).status, 201)
    await eventually(async () => (await ask(port, ZONE, 'DNSKEY')).answers.some(r => r.type === RRType.DNSKEY), 20_000, 'the DNSKEY rrset served')
    // BIND as a secondary of the signed zone: transfers opened to loopback, NOTIFY sent to it.
    const secondaryPort = await freeDnsPort()
    const opened = await api('PATCH', `/zones/${ZONE}`, { primaryCreateInfo: { restrictIPList: [{ singleIP: '127.0.0.1' }], notifyAddresses: [{ notifyAddress: `127.0.0.1:${secondaryPort}` }] } })
    assert.ok(opened.status === 200 || opened.status === 204, `${opened.status} ${await opened.text()}`)
    secondary = await startNamed({ port: secondaryPort, body: `zone "${ZONE}" { type secondary; primaries { 127.0.0.1 port ${port}; }; file "$DIR/secondary.db"; allow-transfer { 127.0.0.1; }; };` })
    now = new Date()
    await secondaryFollows()
  })
  after(async () => {
    await secondary?.stop()
    await t?.stop()
    tmp?.remove()
  })

  it('rolls the KSK by double signature: both DS validate while both KSKs sign, then only the new one once the old has left', async () => {
    const [oldKsk] = (await keys()).filter(k => k.role === 'KSK')
    const oldDs = await dsOf(oldKsk!.keyTag)
    await valid([oldDs])

    const res = await api('POST', `/zones/${ZONE}/dnssec/kskrollover`, {})
    assert.equal(res.status, 200, await res.clone().text())
    now = new Date()
    const newKsk = (await keys()).find(k => k.role === 'KSK' && k.id !== oldKsk!.id)!
    const newDs = await dsOf(newKsk.keyTag)
    assert.ok((await res.json() as { dsRecords: string[] }).dsRecords.includes(newDs), 'the rollover answers the new DS')
    await eventually(async () => (await ask(port, ZONE, 'DNSKEY')).answers.filter(r => r.type === RRType.DNSKEY).length === 3, 20_000, 'the new KSK served')
    await secondaryFollows()
    // Resolvers hold the old DS until the parent publishes the new one: both must validate now.
    const published = await valid([oldDs])
    assert.deepEqual(published.dnskeyTags, [...(await keys()).map(k => k.keyTag)].sort((a, b) => a - b))
    await valid([newDs])

    // DS change (RFC 6781 §4.1.2): the parent may take the new DS once the new DNSKEY rrset has
    // reached every cache (its TTL, 3600, plus an hour); resolvers then hold the old DS for its
    // TTL at the parent (a day at most top-level domains), so both must still validate until then.
    const started = Date.parse(newKsk.activeAt!)
    for (const at of [started + (3600 + 3600) * 1000, started + (3600 + 3600 + 86_400) * 1000]) {
      now = new Date(at)
      assert.deepEqual(await maintain(), [], `no key step at ${now.toISOString()}`)
      await valid([oldDs])
      await valid([newDs])
    }

    now = new Date(Date.parse((await keys()).find(k => k.id === oldKsk!.id)!.removedAt!) + 1000)
    assert.deepEqual(await maintain(), [`KSK ${oldKsk!.keyTag} removed`])
    const removed = await valid([newDs])
    assert.equal(removed.dnskeyTags.includes(oldKsk!.keyTag), false)
    // The old DS no longer leads to a key of the zone: the validator tells the two apart.
    const stale = await validate([oldDs])
    assert.match(stale.errors.join('\n'), /no DNSKEY matches the trust anchor DS/)
    if (stale.unbound !== undefined) assert.match(stale.unbound, /^bogus/)
  })

  it('rolls the ZSK by pre-publication: published, active (cached answers still validate), the old one removed', async () => {
    const [ksk] = (await keys()).filter(k => k.role === 'KSK')
    const ds = [await dsOf(ksk!.keyTag)]
    const [oldZsk] = (await keys()).filter(k => k.role === 'ZSK')
    const www = `www.${ZONE} A`

    now = new Date(Date.parse(oldZsk!.activeAt!) + 91 * DAY)
    assert.deepEqual(await maintain(), ['ZSK rollover started (new key published)'])
    const fresh = (await keys()).find(k => k.role === 'ZSK' && k.state === 'PUBLISHED')!
    const published = await valid(ds)
    assert.ok(published.dnskeyTags.includes(fresh.keyTag), 'the new ZSK is published')
    assert.deepEqual(published.signers[www], [oldZsk!.keyTag], 'the old ZSK still signs')

    now = new Date(Date.parse(fresh.activeAt!) + 1000)
    assert.deepEqual(await maintain(), [`ZSK ${fresh.keyTag} active`, `ZSK ${oldZsk!.keyTag} retired`])
    // A resolver may still hold the answers of the step before (signed by the old ZSK): they validate with today's keys.
    const active = await valid(ds, published.answers)
    assert.deepEqual(active.signers[www], [fresh.keyTag], 'the new ZSK signs')
    assert.ok(active.dnskeyTags.includes(oldZsk!.keyTag), 'the old ZSK stays published')

    now = new Date(Date.parse((await keys()).find(k => k.id === oldZsk!.id)!.removedAt!) + 1000)
    assert.deepEqual(await maintain(), [`ZSK ${oldZsk!.keyTag} removed`])
    const removed = await valid(ds)
    assert.equal(removed.dnskeyTags.includes(oldZsk!.keyTag), false)
    assert.deepEqual(removed.signers[www], [fresh.keyTag])
  })
})
