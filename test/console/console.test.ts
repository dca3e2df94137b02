/**
 * The web console end to end, in Debian's chromium driven by playwright-core, against the whole
 * service started here (HTTP, DNS, tasks) on loopback:
 * - sign in; a reload (tokens are in memory only) goes to sign-in and back to the same page;
 * - create a zone by uploading a BIND file with a broken line: the problem is shown with its
 *   line; fixed and uploaded again, the zone page opens;
 * - add records of several types (A, MX, TXT with spaces and a semicolon), one first refused by
 *   the API with its message at the field; dig gets every one of them from the DNS server;
 *   one edited (TTL, a second record) and deleted after a confirmation, as dig then sees;
 * - a failover pool's records with their live state (serving, forced inactive);
 * - a zone of 1,007 record sets shown a page of 1,000 at a time;
 * - page through the zone list by cursor, search and filter it; keyboard reach, dark theme;
 * - a signed zone's DNSSEC status and its DS records, copied to the clipboard;
 * - export the zone (task progress, then download the BIND file) and see the task listed;
 * - run the query volume and response code reports after sending DNS traffic: the charts are
 *   drawn (a canvas each) and their accessible names and data tables give the right totals;
 *   the client networks and countries of that traffic (127.0.0.0, no country) as bars and tables;
 *   health scores per zone with the failing checks, usage per month, failover events in order;
 * - read the audit log of those changes by pages, filter it, download it as CSV;
 * - scan the zone's CNAME records: the one whose chain ends at a missing name is listed;
 * - create an alias, unalias it, delete it and suspend another zone, each confirmed by name;
 * - a ReadOnly user sees the zone without any edit control, and the calls it forces from the
 *   page (POST and DELETE of records) are refused with 403;
 * - a session whose tokens are revoked goes to sign-in and comes back to the page after;
 * - each page visited is saved as a screenshot at 1280 and 390 px (test-artifacts/console/) and
 *   must not be blank; no console error or page error is logged.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { UserAdmin } from '../../src/auth/user-admin.ts'
import { browserSkip, buildConsole, consolePage, launchChromium, screenshots, signInOn } from '../helpers/browser.ts'
import { bindSkip, dig, eventually, freeDnsPort } from '../helpers/named.ts'
import { apiKsks, serviceApi, startTestService, type TestService } from '../helpers/service.ts'

const ADMIN_PASSWORD = 'console admin password 1'
const READER_PASSWORD = 'console reader password 1'
const ZONE = 'example.org.'
const GOOD = [
  '$TTL 300',
  '@ IN SOA ns1.example.org. hostmaster.example.org. 2024010101 3600 900 604800 300',
  '@ IN NS ns1.example.org.',
  'ns1 IN A 192.0.2.53',
  'www IN A 192.0.2.80'
]
/** Line 6 is broken: an IPv4 address with 999 in it. */
const BROKEN = [...GOOD, 'bad IN A 192.0.2.999']

const skip = browserSkip() || bindSkip('dig')

describe('web console in chromium', { skip }, () => {
  let t: TestService
  let browser: Browser
  let page: Page
  let errors: string[]
  let base: string

  before(async () => {
    buildConsole()
    // The service's own DNS server is the resolver its dangling scans ask (names of its zones only).
    const dnsPort = await freeDnsPort()
    t = await startTestService(ADMIN_PASSWORD, { ZONAL_DNS_PORT: String(dnsPort), ZONAL_RESOLVERS: `127.0.0.1:${dnsPort}` })
    base = `http://127.0.0.1:${t.service.httpPort}`
    browser = await launchChromium()
    ;({ page, errors } = await consolePage(browser))
  })
  after(async () => {
    await browser?.close()
    await t?.stop()
  })

  const signIn = async (username: string, password: string): Promise<void> => await signInOn(page, username, password)

  it('sends / to the sign-in page, signs in, and shows the empty zone list with what to do next', async () => {
    await page.goto(`${base}/`)
    await page.getByRole('button', { name: 'Sign in' }).waitFor()
    assert.match(page.url(), /\/console\/sign-in\?next=/)
    await screenshots(page, 'sign-in')
    await signIn('admin', 'wrong password')
    await page.getByRole('alert').filter({ hasText: /password/i }).waitFor()
    await signIn('admin', ADMIN_PASSWORD)
    await page.getByRole('heading', { name: 'Zones' }).waitFor()
    await page.getByText('There are no zones yet.').waitFor()
    assert.ok(await page.getByRole('banner').getByText('admin').isVisible(), 'the header names the user')
    await screenshots(page, 'zones-empty')
  })

  it('lists the problems of a broken zone file by line, then creates the zone from the fixed file', async () => {
    await page.getByRole('link', { name: 'Create zone' }).first().click()
    await page.getByLabel('Zone name').fill(ZONE)
    await page.getByLabel('Zone file').setInputFiles({ name: 'example.org.zone', mimeType: 'text/plain', buffer: Buffer.from(BROKEN.join('\n') + '\n') })
    await page.getByRole('button', { name: 'Upload and create' }).click()
    const problems = page.locator('.problems')
    await problems.waitFor()
    assert.match(await problems.innerText(), /Line 6: /)
    await screenshots(page, 'create-zone-problems')
    assert.equal((await fetch(`${base}/zones/${ZONE}`, { headers: { authorization: `Bearer ${await token('admin', ADMIN_PASSWORD)}` } })).status, 404, 'no zone was created')

    await page.getByLabel('Zone file').setInputFiles({ name: 'example.org.zone', mimeType: 'text/plain', buffer: Buffer.from(GOOD.join('\n') + '\n') })
    await page.getByRole('button', { name: 'Upload and create' }).click()
    await page.getByRole('heading', { name: ZONE, level: 1 }).waitFor()
    await page.getByRole('heading', { name: 'www.example.org.' }).waitFor()
    assert.match(page.url(), /\/console\/zones\/example\.org\.$/)
  })

  it('keeps the page through a reload: sign-in, then back to the zone', async () => {
    await page.reload()
    await page.getByRole('button', { name: 'Sign in' }).waitFor()
    assert.match(decodeURIComponent(page.url()), /next=\/zones\/example\.org\./)
    await signIn('admin', ADMIN_PASSWORD)
    await page.getByRole('heading', { name: ZONE, level: 1 }).waitFor()
  })

  async function addRecords (owner: string, type: string, ttl: string, rdata: string): Promise<void> {
    await page.getByRole('button', { name: 'Add records' }).click()
    const form = page.getByRole('form', { name: 'Add records' })
    await form.getByLabel('Owner').fill(owner)
    await form.getByLabel('Type').selectOption(type)
    await form.getByLabel('TTL (seconds)').fill(ttl)
    await form.getByLabel('Records, one a line').fill(rdata)
    await form.getByRole('button', { name: 'Add' }).click()
  }

  it('adds A, MX and TXT records, shows the API\'s refusal at the field, and DNS answers them', async () => {
    // Refused by the API: the message is shown under the records field.
    await addRecords('app', 'A', '300', '192.0.2.300')
    const form = page.getByRole('form', { name: 'Add records' })
    const rdata = form.getByLabel('Records, one a line')
    await page.locator('#add-rdata-error').waitFor()
    assert.equal(await rdata.getAttribute('aria-invalid'), 'true')
    assert.match(await page.locator('#add-rdata-error').innerText(), /192\.0\.2\.300/)
    await screenshots(page, 'zone-record-refused')
    await rdata.fill('192.0.2.10\n192.0.2.11')
    await form.getByRole('button', { name: 'Add' }).click()
    await page.getByRole('status').filter({ hasText: 'Records added.' }).waitFor()

    await addRecords('@', 'MX', '3600', '10 mail.example.org.')
    await page.getByRole('cell', { name: '10 mail.example.org.' }).waitFor()
    await addRecords('txt', 'TXT', '600', 'hello world; with a semicolon')
    await page.getByText('hello world; with a semicolon').waitFor()
    // A failover pool made through the API, one record forced out: its live state in words.
    const api = await serviceApi(t.service, ADMIN_PASSWORD)
    const pool = await api('POST', `/zones/${ZONE}/rrsets/A/pool.${ZONE}`, {
      ttl: 60,
      rdata: ['192.0.2.21', '192.0.2.22'],
      profile: { '@context': 'http://schemas.ultradns.com/SBPool.jsonschema', order: 'FIXED', maxActive: 1, rdataInfo: [{ priority: 1, threshold: 1, state: 'INACTIVE' }, { priority: 2, threshold: 1 }], backupRecords: [{ rdata: '192.0.2.29' }] }
    })
    assert.equal(pool.status, 201, await pool.text())
    await page.reload()
    await signIn('admin', ADMIN_PASSWORD)
    const poolRow = page.locator('section.owner').filter({ has: page.getByRole('heading', { name: `pool.${ZONE}` }) })
    await poolRow.waitFor()
    assert.match(await poolRow.innerText(), /Simple failover \(SiteBacker\) pool — status WARNING/)
    assert.match(await poolRow.innerText(), /192\.0\.2\.21\s*not serving\s*forced inactive/)
    assert.match(await poolRow.innerText(), /192\.0\.2\.22\s*serving/)
    const owners = await page.locator('section.owner h3').allInnerTexts()
    for (const owner of ['example.org.', 'app.example.org.', 'pool.example.org.', 'txt.example.org.', 'www.example.org.']) assert.ok(owners.includes(owner), `${owner} in ${owners.join(', ')}`)
    await screenshots(page, 'zone')

    const port = t.service.dns.port
    await eventually(async () => (await dig(port, 'app.example.org.', 'A', '+short')).trim().split('\n').sort().join(' ') === '192.0.2.10 192.0.2.11', 10_000, 'A answered')

    // Edit (PUT): a new TTL and a second record; delete after a confirmation naming the rrset.
    await page.getByRole('button', { name: 'Edit TXT txt.example.org.' }).click()
    const edit = page.getByRole('form', { name: 'Edit TXT records of txt' })
    await edit.getByLabel('TTL (seconds)').fill('900')
    await edit.getByLabel('Records, one a line').fill('hello world; with a semicolon\nsecond string')
    await edit.getByRole('button', { name: 'Save' }).click()
    await page.getByRole('status').filter({ hasText: 'Saved the TXT records of txt.example.org.' }).waitFor()
    await eventually(async () => (await dig(port, 'txt.example.org.', 'TXT', '+noall', '+answer')).includes('second string'), 10_000, 'TXT changed')
    assert.match(await dig(port, 'txt.example.org.', 'TXT', '+noall', '+answer'), /\s900\s+IN\s+TXT\s+"hello world; with a semicolon"/)
    await page.getByRole('button', { name: 'Delete TXT txt.example.org.' }).click()
    await page.getByText('Delete the TXT records of txt.example.org.?').waitFor()
    await page.getByRole('group', { name: 'Confirm deleting TXT txt.example.org.' }).getByRole('button', { name: 'Delete' }).click()
    await page.getByRole('status').filter({ hasText: 'Deleted the TXT records of txt.example.org.' }).waitFor()
    await eventually(async () => /status: NXDOMAIN/.test(await dig(port, 'txt.example.org.', 'TXT')), 10_000, 'TXT deleted')
    await addRecords('txt', 'TXT', '600', 'hello world; with a semicolon')
    await page.getByText('hello world; with a semicolon').waitFor()
    assert.equal((await dig(port, 'example.org.', 'MX', '+short')).trim(), '10 mail.example.org.')
    await eventually(async () => (await dig(port, 'txt.example.org.', 'TXT', '+short')).trim() === '"hello world; with a semicolon"', 10_000, 'TXT answered whole')
  })

  it('pages through the zone list by cursor, searches by name and filters by type', async () => {
    const api = await serviceApi(t.service, ADMIN_PASSWORD)
    for (let i = 0; i < 55; i++) {
      const name = `z${String(i).padStart(2, '0')}.example.net.`
      const res = await api('POST', '/zones', { properties: { name, accountName: 'default', type: 'PRIMARY' }, primaryCreateInfo: { forceImport: true, createType: 'NEW' } })
      assert.equal(res.status, 201, await res.text())
    }
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Zones' }).click()
    const rows = page.locator('table.zones tbody tr')
    await rows.first().waitFor()
    assert.equal(await rows.count(), 50)
    assert.equal(await rows.first().locator('th').innerText(), ZONE, 'sorted by name')
    await screenshots(page, 'zones')
    await page.getByRole('button', { name: 'Next' }).click()
    await page.waitForURL(/cursor=/)
    await page.getByRole('link', { name: 'z54.example.net.' }).waitFor()
    assert.equal(await rows.count(), 6)
    await page.getByRole('button', { name: 'Previous' }).click()
    await page.getByRole('link', { name: ZONE }).waitFor()

    await page.getByLabel('Name contains').fill('z07')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.waitForURL(/name=z07/)
    // z07 is on the first page too: wait for the search's own answer, a list of one.
    await rows.nth(1).waitFor({ state: 'detached' })
    assert.equal(await rows.count(), 1)
    assert.equal(await rows.first().locator('th').innerText(), 'z07.example.net.')
    await page.getByLabel('Type').selectOption('SECONDARY')
    await page.getByText('No zone matches these filters.').waitFor()
    await screenshots(page, 'zones-no-match')
    await page.getByRole('link', { name: 'Clear the filters' }).click()
    await page.getByRole('link', { name: 'z00.example.net.' }).waitFor()
  })

  it('shows a large zone\'s record sets a page at a time', async () => {
    const lines = ['$TTL 300', '@ IN SOA ns1.example.net. hostmaster.example.net. 1 3600 900 604800 300', '@ IN NS ns1.example.net.']
    for (let i = 0; i < 1005; i++) lines.push(`h${String(i).padStart(4, '0')} IN A 192.0.2.${i % 250}`)
    const form = new FormData()
    form.append('zone', new Blob([JSON.stringify({ properties: { name: 'big.example.net.', accountName: 'default', type: 'PRIMARY' }, primaryCreateInfo: { forceImport: true, createType: 'UPLOAD' } })], { type: 'application/json' }))
    form.append('file', new Blob([lines.join('\n') + '\n']), 'big.zone')
    const auth = { authorization: `Bearer ${await token('admin', ADMIN_PASSWORD)}` }
    const res = await fetch(`${base}/zones`, { method: 'POST', headers: auth, body: form })
    assert.ok(res.status === 201 || res.status === 202, await res.text())
    await eventually(async () => (await fetch(`${base}/zones/big.example.net.`, { headers: auth })).status === 200, 20_000, 'the zone is created')
    await page.getByLabel('Name contains').fill('big')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByRole('link', { name: 'big.example.net.' }).click()
    await page.getByText('Showing the first 1000 of 1007 record sets').waitFor()
    assert.equal(await page.getByRole('heading', { name: 'h1004.big.example.net.' }).count(), 0)
    await page.getByRole('button', { name: 'Show 7 more record sets' }).click()
    await page.getByRole('heading', { name: 'h1004.big.example.net.' }).waitFor()
    assert.equal(await page.locator('section.owner').count(), 1006, 'the apex and 1,005 owners')
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Zones' }).click()
    await page.getByRole('link', { name: ZONE }).waitFor()
  })

  it('is reachable by keyboard (a skip link first, visible focus) and readable in dark mode', async () => {
    await page.getByRole('link', { name: ZONE }).click()
    await page.getByRole('heading', { name: ZONE, level: 1 }).waitFor()
    assert.equal(await page.evaluate<string>('document.activeElement.id'), 'page-top', 'a new page puts the focus at its top')
    await page.keyboard.press('Tab')
    assert.equal(await page.evaluate<string>('document.activeElement.textContent'), 'Skip to content')
    assert.notEqual(await page.evaluate<string>('getComputedStyle(document.activeElement).outlineStyle'), 'none', 'focus is visible')
    await page.keyboard.press('Enter')
    assert.equal(await page.evaluate<string>('document.activeElement.id'), 'main')
    await page.emulateMedia({ colorScheme: 'dark' })
    const background = await page.evaluate<string>('getComputedStyle(document.body).backgroundColor')
    assert.equal(background, 'rgb(15, 19, 23)', 'the dark palette applies')
    await screenshots(page, 'zone-dark')
    await page.getByRole('button', { name: /^Colour theme: system/ }).click()
    await page.getByRole('button', { name: /^Colour theme: light/ }).waitFor()
    await page.locator('html[data-theme="light"]').waitFor({ state: 'attached' })
    assert.notEqual(await page.evaluate<string>('getComputedStyle(document.body).backgroundColor'), background, 'the toggle chooses light over the system\'s dark')
    await page.emulateMedia({ colorScheme: 'light' })
  })

  it('shows a signed zone\'s DNSSEC status and copies its DS records for the registrar', async () => {
    const api = await serviceApi(t.service, ADMIN_PASSWORD)
    const signed = await api('POST', '/zones/z02.example.net./dnssec')
    assert.ok(signed.status === 201 || signed.status === 202, await signed.text())
    const ds = (await apiKsks(api, 'z02.example.net.')).flatMap(k => k.dsRecords)
    assert.ok(ds.length > 0)
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base })
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Zones' }).click()
    await page.getByRole('link', { name: 'z02.example.net.' }).click()
    await page.getByText('This zone is signed.').waitFor()
    assert.equal(await page.getByLabel('DS records').innerText(), ds.join('\n'))
    await page.getByRole('button', { name: 'Copy DS records' }).click()
    await page.getByText('Copied the DS records.').waitFor()
    assert.equal(await page.evaluate<string>('navigator.clipboard.readText()'), ds.join('\n'))
    await screenshots(page, 'zone-dnssec')
    await page.getByRole('link', { name: 'Zones', exact: true }).first().click()
    await page.getByRole('link', { name: ZONE }).click()
    await page.getByRole('heading', { name: ZONE, level: 1 }).waitFor()
  })

  it('exports the zone with the task\'s progress, downloads the BIND file, and lists the task', async () => {
    await page.getByRole('button', { name: 'Export as BIND file' }).click()
    await page.getByRole('button', { name: 'Download' }).waitFor()
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()])
    assert.match(download.suggestedFilename(), /\.zone$/)
    const text = readFileSync(await download.path(), 'utf8')
    assert.match(text, /^\$ORIGIN example\.org\.$/m)
    assert.match(text, /hello world; with a semicolon/)
    assert.match(text, /192\.0\.2\.11/)
    await page.getByRole('link', { name: 'Tasks' }).first().click()
    await page.getByRole('heading', { name: 'Tasks' }).waitFor()
    await page.getByRole('cell', { name: 'Complete' }).first().waitFor()
    await screenshots(page, 'tasks')
  })

  it('runs the query volume and response code reports after DNS traffic and draws them with the right totals', async () => {
    const port = t.service.dns.port
    for (let i = 0; i < 7; i++) await dig(port, 'z01.example.net.', 'SOA', '+short')
    for (let i = 0; i < 3; i++) await dig(port, 'nope.z01.example.net.', 'A', '+short')
    await t.service.queries!.flush()
    await t.service.queryCounts!.flush()
    await t.service.clientCounts!.flush()

    await page.getByRole('link', { name: 'Reports' }).click()
    await page.getByRole('heading', { name: 'Reports' }).waitFor()
    await page.getByLabel('Zone').fill('z01.example.net')
    await page.getByLabel('From (UTC day)').fill('2000-01-01')
    await page.getByRole('button', { name: 'Run report' }).click()
    await page.getByRole('alert').filter({ hasText: 'at most 60 days' }).waitFor()
    const today = new Date().toISOString().slice(0, 10)
    await page.getByLabel('From (UTC day)').fill(today)
    await page.getByRole('button', { name: 'Run report' }).click()
    const volume = page.getByRole('img', { name: /^Line chart of responses per day for z01\.example\.net/ })
    await volume.waitFor()
    assert.match(String(await volume.getAttribute('aria-label')), /: 10 in all$/)
    // uPlot draws in an effect after the figure is shown: wait for its canvas.
    await volume.locator('canvas').waitFor()
    assert.equal(await volume.locator('canvas').count(), 1, 'the chart is drawn')
    assert.deepEqual(await page.locator('table.report-data tbody tr').allInnerTexts(), [`${today}\t10\t10\t0`])
    await screenshots(page, 'report-query-volume')

    await page.getByLabel('Report', { exact: true }).selectOption('rcodes')
    await page.getByRole('button', { name: 'Run report' }).click()
    const codes = page.getByRole('img', { name: /^Stacked bar chart of response codes for 1 zone: 10 responses in all$/ })
    await codes.waitFor()
    await codes.locator('canvas').waitFor()
    assert.equal(await codes.locator('canvas').count(), 1)
    const cells = await page.locator('table.report-data tbody tr').first().locator('th, td').allInnerTexts()
    assert.deepEqual(cells, ['z01.example.net.', '7', '3', '0', '0', '0', '0', '10'])
    await screenshots(page, 'report-response-codes')

    // Client networks and countries of the same zone: dig asked from 127.0.0.1, which has no country.
    await page.getByLabel('Report', { exact: true }).selectOption('clients')
    await page.getByLabel('From (UTC day)').fill('2000-01-01')
    await page.getByRole('button', { name: 'Run report' }).click()
    await page.getByRole('alert').filter({ hasText: 'at most 90 days' }).waitFor()
    await page.getByLabel('From (UTC day)').fill(today)
    await page.getByRole('button', { name: 'Run report' }).click()
    const networks = page.getByRole('table', { name: 'Responses by class C network' })
    await networks.waitFor()
    assert.deepEqual(await networks.locator('tbody tr').allInnerTexts(), ['127.0.0.0\t10\t100%'])
    assert.deepEqual(await networks.locator('tfoot tr').allInnerTexts(), ['Total\t10\t100%'])
    const countries = page.getByRole('table', { name: 'Responses by country' })
    assert.deepEqual(await countries.locator('tbody tr').allInnerTexts(), ['Unknown or not listed\t10\t100%'])
    assert.deepEqual(await countries.locator('tfoot tr').allInnerTexts(), ['Total\t10\t100%'])
    await page.getByRole('img', { name: 'Bar chart of responses by class C network, top 1 of 1: 10 responses in all' }).waitFor()
    await page.getByRole('img', { name: 'Bar chart of responses by country, top 1 of 1: 10 responses in all' }).waitFor()
    await screenshots(page, 'report-clients')
    // A zone without responses: said in words.
    await page.getByLabel('Zone (optional)').fill('z05.example.net')
    await page.getByRole('button', { name: 'Run report' }).click()
    await page.getByText('No responses in these days.').waitFor()
    await page.getByLabel('Zone (optional)').fill('z01.example.net')

    // Health scores: a check of example.org. run through the API, then read in the console.
    const api = await serviceApi(t.service, ADMIN_PASSWORD)
    assert.equal((await api('POST', `/zones/${ZONE}/healthchecks`, {})).status, 202)
    await eventually(async () => {
      const res = await api('GET', `/zones/${ZONE}/healthchecks/latest`)
      return res.status === 200 && (await res.json() as { state: string }).state === 'COMPLETED'
    }, 20_000, 'the health check completes')
    await page.getByLabel('Report', { exact: true }).selectOption('health')
    await page.getByLabel('Zone or account contains (optional)').fill('example.org')
    await page.getByRole('button', { name: 'Run report' }).click()
    const score = page.getByRole('meter', { name: `Health score of ${ZONE}` })
    await score.waitFor()
    const value = Number(await score.getAttribute('value'))
    assert.ok(value >= 0 && value <= 10, String(value))
    await page.getByRole('button', { name: 'Failing checks' }).first().click()
    await page.locator('.checks').filter({ hasText: /ERROR|WARNING|BEST_PRACTICE|passed/ }).first().waitFor()
    await screenshots(page, 'report-health')

    await page.getByLabel('Report', { exact: true }).selectOption('usage')
    await page.getByRole('button', { name: 'Run report' }).click()
    const month = new Date().toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' })
    await page.getByRole('rowheader', { name: month }).waitFor()
    const usage = page.getByRole('img', { name: /^Bar chart of responses per month for default/ })
    await usage.locator('canvas').waitFor()
    assert.equal(await usage.locator('canvas').count(), 1)
    await screenshots(page, 'report-usage')

    // Failover events: the pool's first record forced back to normal, then inactive again.
    const sb = (state: string) => ({ ttl: 60, rdata: ['192.0.2.21', '192.0.2.22'], profile: { '@context': 'http://schemas.ultradns.com/SBPool.jsonschema', order: 'FIXED', maxActive: 1, rdataInfo: [{ priority: 1, threshold: 1, state }, { priority: 2, threshold: 1 }], backupRecords: [{ rdata: '192.0.2.29' }] } })
    assert.equal((await api('PUT', `/zones/${ZONE}/rrsets/A/pool.${ZONE}`, sb('NORMAL'))).status, 200)
    assert.equal((await api('PUT', `/zones/${ZONE}/rrsets/A/pool.${ZONE}`, sb('INACTIVE'))).status, 200)
    await page.getByLabel('Report', { exact: true }).selectOption('failover')
    await page.getByLabel('Zone (optional)').fill('')
    await page.getByLabel('From (UTC day)').fill(today)
    await page.getByRole('button', { name: 'Run report' }).click()
    const events = page.locator('ol.timeline li')
    await events.first().waitFor()
    const texts = await events.allInnerTexts()
    assert.equal(texts.length, 2, texts.join('\n'))
    assert.match(texts[0]!, /192\.0\.2\.21 became active[\s\S]*Manual — pool pool\.example\.org\./)
    assert.match(texts[1]!, /192\.0\.2\.21 became inactive/)
    await screenshots(page, 'report-failover')
  })

  it('shows the audit log of those changes, filters it, and downloads it as CSV', async () => {
    await page.getByRole('link', { name: 'Audit log' }).click()
    await page.getByRole('heading', { name: 'Audit log' }).waitFor()
    const rows = page.locator('table.audit tbody tr')
    await rows.first().waitFor()
    assert.equal(await rows.count(), 50, 'a page of 50, newest first')
    await page.getByRole('cell', { name: 'EXPORT ZONE' }).first().waitFor()
    await screenshots(page, 'audit')
    await page.getByRole('button', { name: 'Older' }).click()
    await page.getByRole('cell', { name: /txt\.example\.org/ }).first().waitFor()
    await page.getByRole('button', { name: 'Newer' }).click()
    await page.getByRole('cell', { name: 'EXPORT ZONE' }).first().waitFor()
    await page.getByLabel('Object type').fill('TXT')
    await page.getByRole('button', { name: 'Filter' }).click()
    await page.waitForURL(/object_type=TXT/)
    await page.getByRole('cell', { name: /txt\.example\.org/ }).first().waitFor()
    for (const text of await rows.allInnerTexts()) assert.match(text, /TXT/)
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()])
    assert.equal(download.suggestedFilename(), 'audit-log.csv')
    const csv = readFileSync(await download.path(), 'utf8')
    assert.match(csv.split('\n')[0]!, /objectType/i)
    assert.match(csv, /txt\.example\.org/)
    assert.doesNotMatch(csv, /app\.example\.org/, 'the CSV has the filter of the page')
  })

  it('scans the zone\'s CNAME records and lists the dangling one with where its chain ends', async () => {
    const api = await serviceApi(t.service, ADMIN_PASSWORD)
    assert.equal((await api('POST', `/zones/${ZONE}/rrsets/CNAME/old.${ZONE}`, { ttl: 300, rdata: ['gone.z03.example.net.'] })).status, 201)
    assert.equal((await api('POST', `/zones/${ZONE}/rrsets/CNAME/fine.${ZONE}`, { ttl: 300, rdata: [`www.${ZONE}`] })).status, 201)
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Zones' }).click()
    await page.getByRole('link', { name: ZONE }).click()
    await page.getByText('Not scanned yet.').waitFor()
    await page.getByRole('button', { name: 'Scan CNAME records' }).click()
    const found = page.getByRole('table', { name: /^1 dangling record/ })
    await found.waitFor({ timeout: 30_000 })
    assert.deepEqual(await found.locator('tbody tr').first().locator('th, td').allInnerTexts().then(c => c.slice(0, 4)), ['old.example.org', 'CNAME', 'gone.z03.example.net', 'gone.z03.example.net'])
    await screenshots(page, 'zone-dangling')
  })

  it('creates an alias, unaliases it, suspends and deletes zones after a confirmation naming them', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Zones' }).click()
    await page.getByRole('link', { name: 'Create zone' }).click()
    await page.getByLabel('Alias').check()
    await page.getByLabel('Zone name').fill('alias.example.com')
    await page.getByLabel('Primary zone to alias').fill(ZONE)
    await screenshots(page, 'create-zone-alias')
    await page.getByRole('button', { name: 'Create zone' }).click()
    await page.getByRole('heading', { name: 'alias.example.com.', level: 1 }).waitFor()
    await page.getByText('ALIAS of example.org.').waitFor()
    await page.getByRole('heading', { name: 'app.alias.example.com.' }).waitFor()

    await page.getByRole('button', { name: 'Unalias…' }).click()
    await page.getByRole('button', { name: 'Unalias alias.example.com.' }).click()
    await page.getByText('Unalias: done for alias.example.com.').waitFor()
    await page.getByRole('definition').filter({ hasText: /^PRIMARY$/ }).waitFor()

    await page.getByRole('button', { name: 'Delete…' }).click()
    const confirm = page.getByRole('button', { name: 'Delete alias.example.com.' })
    assert.ok(await confirm.isDisabled(), 'nothing deleted before the name is typed')
    await page.getByLabel('Type the zone name, alias.example.com., to confirm').fill('alias.example.com')
    await screenshots(page, 'zone-delete-confirm')
    await confirm.click()
    await page.getByText('Deleted the zone alias.example.com..').waitFor()
    assert.equal(await page.getByRole('link', { name: 'alias.example.com.' }).count(), 0)

    await page.getByRole('link', { name: 'z00.example.net.' }).click()
    await page.getByRole('button', { name: 'Suspend…' }).click()
    await page.getByLabel('Type the zone name, z00.example.net., to confirm').fill('z00.example.net.')
    await page.getByRole('button', { name: 'Suspend z00.example.net.' }).click()
    await page.getByText('Suspend: done for z00.example.net.').waitFor()
    await page.getByRole('definition').filter({ hasText: 'SUSPENDED' }).waitFor()
    assert.equal(await page.getByRole('button', { name: 'Add records' }).count(), 0, 'a suspended zone is not edited')
    await page.getByRole('link', { name: ZONE }).count()
    await page.getByRole('link', { name: 'Zones', exact: true }).first().click()
    await page.getByRole('link', { name: ZONE }).click()
    await page.getByRole('heading', { name: ZONE, level: 1 }).waitFor()
  })

  it('shows a ReadOnly user no edit controls, and the API refuses the calls it forces', async () => {
    await new UserAdmin(t.service.store).addUser('reader', READER_PASSWORD, { account: 'default', group: 'ReadOnly' })
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByText('You are signed out.').waitFor()
    await signIn('reader', READER_PASSWORD)
    await page.getByRole('heading', { name: 'Zones' }).waitFor()
    await page.getByRole('link', { name: ZONE }).click()
    await page.getByRole('heading', { name: 'app.example.org.' }).waitFor()
    await page.getByText('You can read this zone').waitFor()
    assert.equal(await page.getByRole('button', { name: /^(Add records|Edit|Delete)/ }).count(), 0, 'no edit control')
    assert.equal(await page.getByRole('link', { name: 'Create zone' }).count(), 0)
    await screenshots(page, 'zone-read-only')

    const statuses = await page.evaluate(async (password) => {
      const login = await fetch('/authorization/token', { method: 'POST', body: new URLSearchParams({ grant_type: 'password', username: 'reader', password }) })
      const { accessToken } = await login.json() as { accessToken: string }
      const headers = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' }
      const add = await fetch('/zones/example.org./rrsets/A/forced.example.org.', { method: 'POST', headers, body: JSON.stringify({ ttl: 300, rdata: ['192.0.2.1'] }) })
      const remove = await fetch('/zones/example.org./rrsets/A/app.example.org.', { method: 'DELETE', headers })
      return [add.status, remove.status]
    }, READER_PASSWORD)
    assert.deepEqual(statuses, [403, 403])
    assert.equal((await dig(t.service.dns.port, 'app.example.org.', 'A', '+short')).trim().split('\n').length, 2, 'the records are still there')
  })

  it('sends a user whose session ends (tokens revoked) to sign-in, and back to the page after', async () => {
    await page.getByRole('heading', { name: 'app.example.org.' }).waitFor()
    await new UserAdmin(t.service.store).setPassword('reader', `${READER_PASSWORD} changed`)
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Tasks' }).click()
    await page.getByText('Your session has ended.').waitFor()
    assert.match(decodeURIComponent(page.url()), /\/console\/sign-in\?next=\/tasks&reason=expired$/)
    await screenshots(page, 'sign-in-expired')
    await signIn('reader', `${READER_PASSWORD} changed`)
    await page.getByRole('heading', { name: 'Tasks' }).waitFor()
    assert.match(page.url(), /\/console\/tasks$/)
  })

  it('logged no console error and no page error', () => {
    assert.deepEqual(errors, [])
  })

  async function token (username: string, password: string): Promise<string> {
    const res = await fetch(`${base}/authorization/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password', username, password }) })
    return (await res.json() as { accessToken: string }).accessToken
  }
})
