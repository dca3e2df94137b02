/**
 * Editing pool profiles in the web console, end to end in Debian's chromium against the whole
 * service (pools made through the API first):
 * - an RD pool's order and records edited on the zone page, read back through the API, and its
 *   new records answered by the service's DNS server (dig);
 * - a new RD pool made from "Add records" (A or AAAA with an order);
 * - an SF pool's failover settings (region failure sensitivity, backup record) edited;
 * - refused edits: JSON that does not parse (nothing sent) and a value the API refuses (its
 *   message at the field it names), nothing stored and the form keeping what was typed;
 * - a ReadOnly user sees the pools without an edit control;
 * - screenshots at 1280 and 390 px (not blank, no overflow), and no console error.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { UserAdmin } from '../../src/auth/user-admin.ts'
import { browserSkip, buildConsole, consolePage, launchChromium, screenshots, signInOn } from '../helpers/browser.ts'
import { bindSkip, dig, eventually } from '../helpers/named.ts'
import { serviceApi, startTestService, type ServiceApi, type TestService } from '../helpers/service.ts'

const ADMIN_PASSWORD = 'console pools admin 1'
const READER_PASSWORD = 'console pools reader 1'
const ZONE = 'pools.test.'
const ctx = (schema: string): string => `http://schemas.ultradns.com/${schema}.jsonschema`

interface RrsetList { rrSets: Array<{ ttl: number, rdata: string[], profile: Record<string, unknown> }> }

const skip = browserSkip() || bindSkip('dig')

describe('web console: editing pool profiles', { skip }, () => {
  let t: TestService
  let api: ServiceApi
  let browser: Browser
  let page: Page
  let errors: string[]

  before(async () => {
    buildConsole()
    t = await startTestService(ADMIN_PASSWORD)
    api = await serviceApi(t.service, ADMIN_PASSWORD)
    const zone = await api('POST', '/zones', { properties: { name: ZONE, accountName: 'default', type: 'PRIMARY' }, primaryCreateInfo: { forceImport: true, createType: 'NEW' } })
    assert.equal(zone.status, 201, await zone.text())
    const pools: Array<[string, unknown]> = [
      [`rd.${ZONE}`, { ttl: 300, rdata: ['192.0.2.1', '192.0.2.2'], profile: { '@context': ctx('RDPool'), order: 'FIXED', description: 'web servers' } }],
      [`sf.${ZONE}`, { ttl: 60, rdata: ['192.0.2.21'], profile: { '@context': ctx('SFPool'), regionFailureSensitivity: 'HIGH', monitor: { method: 'GET', url: 'http://192.0.2.200/health' }, backupRecord: { rdata: '198.51.100.29' } } }],
      [`tc.${ZONE}`, { ttl: 60, rdata: ['192.0.2.11', '192.0.2.12'], profile: { '@context': ctx('TCPool'), maxToLB: 1, rdataInfo: [{ priority: 1, threshold: 1, weight: 2 }, { priority: 2, threshold: 1, weight: 4 }], backupRecord: { rdata: '198.51.100.19' } } }]
    ]
    for (const [owner, body] of pools) {
      const res = await api('POST', `/zones/${ZONE}/rrsets/A/${owner}`, body)
      assert.equal(res.status, 201, await res.text())
    }
    browser = await launchChromium()
    ;({ page, errors } = await consolePage(browser))
  })
  after(async () => {
    await browser?.close()
    await t?.stop()
  })

  const signIn = async (username: string, password: string): Promise<void> => await signInOn(page, username, password)

  async function stored (owner: string): Promise<RrsetList['rrSets'][number]> {
    const res = await api('GET', `/zones/${ZONE}/rrsets/A/${owner}`)
    assert.equal(res.status, 200)
    return (await res.json() as RrsetList).rrSets[0]!
  }

  const pool = (owner: string) => page.locator('section.owner').filter({ has: page.getByRole('heading', { name: owner }) })

  it('edits an RD pool\'s order and records; the API and DNS give the new ones', async () => {
    await page.goto(`${base()}/console/zones/${ZONE}`)
    await signIn('admin', ADMIN_PASSWORD)
    await page.getByRole('heading', { name: ZONE, level: 1 }).waitFor()
    await pool(`rd.${ZONE}`).getByText('Resource distribution pool').waitFor()
    await screenshots(page, 'zone-pools')
    await page.getByRole('button', { name: `Edit pool A rd.${ZONE}` }).click()
    const form = page.getByRole('form', { name: `Edit pool A rd.${ZONE}` })
    assert.equal(await form.getByLabel('Order', { exact: true }).inputValue(), 'FIXED')
    await form.getByLabel('Order', { exact: true }).selectOption('ROUND_ROBIN')
    await form.getByLabel('Record 2', { exact: true }).fill('192.0.2.3')
    await form.getByRole('button', { name: 'Add a record' }).click()
    await form.getByLabel('Record 3', { exact: true }).fill('192.0.2.4')
    await form.getByText('Advanced: profile as JSON').click()
    // The simple field wrote into the JSON, which keeps the fields the form does not show.
    assert.deepEqual(JSON.parse(await form.getByLabel('Profile (JSON)').inputValue()), { '@context': ctx('RDPool'), order: 'ROUND_ROBIN', description: 'web servers' })
    await form.getByLabel('TTL (seconds)').fill('120')
    await screenshots(page, 'pool-edit-rd')
    await form.getByRole('button', { name: 'Save pool' }).click()
    await page.getByRole('status').filter({ hasText: `Saved the A rd.${ZONE} pool.` }).waitFor()
    assert.equal(await form.count(), 0, 'the form closes')
    // The page reads the zone again after the save: the new records in their place.
    await pool(`rd.${ZONE}`).getByText('192.0.2.4').waitFor()
    assert.match(await pool(`rd.${ZONE}`).innerText(), /192\.0\.2\.1\s+192\.0\.2\.3\s+192\.0\.2\.4/)

    const rd = await stored(`rd.${ZONE}`)
    assert.equal(rd.ttl, 120)
    assert.deepEqual(rd.rdata, ['192.0.2.1', '192.0.2.3', '192.0.2.4'])
    assert.deepEqual(rd.profile, { '@context': ctx('RDPool'), order: 'ROUND_ROBIN', description: 'web servers' })
    const answered = async (): Promise<string[]> => (await dig(t.service.dns.port, '+norec', '+short', `rd.${ZONE}`, 'A')).trim().split('\n').sort()
    await eventually(async () => (await answered()).join() === '192.0.2.1,192.0.2.3,192.0.2.4', 10_000, 'the edited pool answered')
  })

  it('adds a new RD pool from "Add records", then it has its edit control', async () => {
    await page.getByRole('button', { name: 'Add records' }).click()
    const form = page.getByRole('form', { name: 'Add records' })
    await form.getByLabel('Owner').fill('new')
    await form.getByLabel('Type').selectOption('AAAA')
    await form.getByLabel('Records, one a line').fill('2001:db8::1\n2001:db8::2')
    assert.equal(await form.getByLabel('Pool order').count(), 0, 'plain records unless asked')
    await form.getByLabel('Pool (RD): serve the records in an order').check()
    await form.getByLabel('Pool order').selectOption('FIXED')
    await form.getByRole('button', { name: 'Add' }).click()
    await page.getByRole('status').filter({ hasText: 'Records added.' }).waitFor()
    const res = await api('GET', `/zones/${ZONE}/rrsets/AAAA/new.${ZONE}`)
    const added = (await res.json() as RrsetList).rrSets[0]!
    assert.deepEqual(added.rdata, ['2001:db8::1', '2001:db8::2'])
    assert.deepEqual(added.profile, { '@context': ctx('RDPool'), order: 'FIXED', description: `new.${ZONE}` })
    await page.getByRole('button', { name: `Edit pool AAAA new.${ZONE}` }).waitFor()
    await eventually(async () => (await dig(t.service.dns.port, '+norec', '+short', `new.${ZONE}`, 'AAAA')).trim() === '2001:db8::1\n2001:db8::2', 10_000, 'the new pool answered in its fixed order')
  })

  it('edits an SF pool\'s failover settings', async () => {
    await page.getByRole('button', { name: `Edit pool A sf.${ZONE}` }).click()
    const form = page.getByRole('form', { name: `Edit pool A sf.${ZONE}` })
    assert.equal(await form.getByLabel('Region failure sensitivity').inputValue(), 'HIGH')
    assert.equal(await form.getByLabel('Monitor URL').inputValue(), 'http://192.0.2.200/health')
    await form.getByLabel('Region failure sensitivity').selectOption('LOW')
    await form.getByLabel('Backup record (failover)').fill('198.51.100.30')
    await form.getByLabel('Live record state').selectOption('FORCED_INACTIVE')
    await form.getByRole('button', { name: 'Save pool' }).click()
    await page.getByRole('status').filter({ hasText: `Saved the A sf.${ZONE} pool.` }).waitFor()
    const sf = await stored(`sf.${ZONE}`)
    assert.equal(sf.profile.regionFailureSensitivity, 'LOW')
    assert.equal(sf.profile.liveRecordState, 'FORCED_INACTIVE')
    assert.deepEqual(sf.profile.backupRecord, { rdata: '198.51.100.30', description: '' })
    assert.deepEqual(sf.profile.monitor, { method: 'GET', url: 'http://192.0.2.200/health', transmittedData: '', searchString: '' })
    assert.deepEqual(sf.rdata, ['192.0.2.21'])
    await pool(`sf.${ZONE}`).getByText('198.51.100.30').waitFor()
    assert.match(await pool(`sf.${ZONE}`).innerText(), /198\.51\.100\.30\s*backup/)
  })

  it('shows a refused edit in words at its field, stores nothing and keeps what was typed', async () => {
    const before = await stored(`tc.${ZONE}`)
    let puts = 0
    page.on('request', req => { if (req.method() === 'PUT') puts++ })
    await page.getByRole('button', { name: `Edit pool A tc.${ZONE}` }).click()
    const form = page.getByRole('form', { name: `Edit pool A tc.${ZONE}` })
    assert.equal(await form.getByLabel('Weight of record 2').inputValue(), '4')

    // JSON that does not parse: said at the JSON, nothing sent, the simple fields wait for it.
    await form.getByText('Advanced: profile as JSON').click()
    const json = form.getByLabel('Profile (JSON)')
    const good = await json.inputValue()
    await json.fill(good.replace('"maxToLB": 1,', '"maxToLB": 1,,'))
    assert.ok(await form.getByLabel('Weight of record 2').isDisabled(), 'the fields read the JSON')
    await form.getByRole('button', { name: 'Save pool' }).click()
    await form.getByText(/^The profile is not valid JSON: /).waitFor()
    assert.equal(await json.getAttribute('aria-invalid'), 'true')
    assert.equal(puts, 0, 'nothing sent')

    // A weight the API refuses (odd): its message at the weight of that record.
    await json.fill(good)
    await form.getByLabel('Weight of record 2').fill('5')
    await form.getByLabel('Priority of record 1').fill('3')
    await form.getByRole('button', { name: 'Save pool' }).click()
    const weight = form.getByLabel('Weight of record 2')
    await form.locator('[role=alert]').filter({ hasText: 'weight must be an even integer between 2 to 100' }).waitFor()
    assert.equal(puts, 1)
    assert.equal(await weight.getAttribute('aria-invalid'), 'true')
    assert.match(await form.locator(`#${(await weight.getAttribute('aria-describedby'))!}`).innerText(), /For a Traffic Controller Pool, weight must be an even integer between 2 to 100\. \(profile\.rdataInfo\[1\]\.weight\)/)
    assert.equal(await form.getByLabel('Weight of record 1').getAttribute('aria-invalid'), null)
    await screenshots(page, 'pool-edit-refused')
    assert.equal(await weight.inputValue(), '5', 'the form keeps what was typed')
    assert.equal(await form.getByLabel('Priority of record 1').inputValue(), '3')
    assert.deepEqual(await stored(`tc.${ZONE}`), before, 'nothing stored')

    // A value only the JSON holds, refused: its message at the JSON.
    await weight.fill('6')
    await json.fill((await json.inputValue()).replace('"maxToLB": 1,', '"maxToLB": 1, "runProbes": "often",'))
    await form.getByRole('button', { name: 'Save pool' }).click()
    await form.getByText('profile.runProbes must be true or false').waitFor()
    assert.equal(await json.getAttribute('aria-invalid'), 'true')
    assert.equal(await weight.getAttribute('aria-invalid'), null, 'the weight is fine now')
    assert.deepEqual(await stored(`tc.${ZONE}`), before, 'nothing stored')

    await json.fill((await json.inputValue()).replace('"runProbes": "often"', '"runProbes": false'))
    await form.getByRole('button', { name: 'Save pool' }).click()
    await page.getByRole('status').filter({ hasText: `Saved the A tc.${ZONE} pool.` }).waitFor()
    const tc = await stored(`tc.${ZONE}`)
    assert.equal(tc.profile.runProbes, false)
    assert.deepEqual((tc.profile.rdataInfo as Array<{ priority: number, weight: number }>).map(r => [r.priority, r.weight]), [[3, 2], [2, 6]])
    const [audit] = await t.service.store.audit.recent(1)
    assert.match(JSON.stringify(audit), /tc\.pools\.test\./, 'the change is audited')
  })

  it('shows a ReadOnly user the pools without an edit control', async () => {
    await new UserAdmin(t.service.store).addUser('reader', READER_PASSWORD, { account: 'default', group: 'ReadOnly' })
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByText('You are signed out.').waitFor()
    await signIn('reader', READER_PASSWORD)
    await page.getByRole('heading', { name: 'Zones' }).waitFor()
    await page.getByRole('link', { name: ZONE }).click()
    await pool(`tc.${ZONE}`).getByText('Traffic controller pool').waitFor()
    assert.equal(await page.getByRole('button', { name: /^Edit pool/ }).count(), 0, 'no edit control')
    assert.equal(await page.getByRole('button', { name: 'Edit pool' }).count(), 0)
    await screenshots(page, 'zone-pools-read-only')
  })

  it('logged no console error and no page error', () => {
    assert.deepEqual(errors, [])
  })

  function base (): string {
    return `http://127.0.0.1:${t.service.httpPort}`
  }
})
