/**
 * The web console end to end in Debian's chromium, against the whole service started here with
 * BIND `named` as a primary name server on loopback:
 * - create a primary zone by zone transfer from named: its records on the zone page, and dig
 *   gets them from the service's DNS server;
 * - create a secondary of a named zone (TSIG): shown as SECONDARY with its primary and transfer
 *   state; a change on named reaches the service through NOTIFY and shows after a reload;
 * - convert the secondary to a primary (a confirmation naming the zone) and add a record to it;
 * - the query volume report for several zones at once: one line and one table column per zone,
 *   their totals read from the table and the chart's accessible name;
 * - a primary zone's transfer settings (restrict list, notify addresses, TSIG) edited on the
 *   zone page, the API's refusal shown at the field, the change read back through the API;
 *   a ReadOnly user sees them without edit controls;
 * - screenshots at 1280 and 390 px of the pages visited (not blank), and no console error.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { UserAdmin } from '../../src/auth/user-admin.ts'
import { browserSkip, buildConsole, consolePage, launchChromium, screenshots, signInOn } from '../helpers/browser.ts'
import { bindSkip, dig, eventually, freeDnsPort, startNamed, type Named } from '../helpers/named.ts'
import { serviceApi, startTestService, type TestService } from '../helpers/service.ts'

const ADMIN_PASSWORD = 'console transfer admin 1'
const READER_PASSWORD = 'console transfer reader 1'
const KEY_SECRET = Buffer.from('the key copied.test. transfers are signed with').toString('base64')
const SECRET = Buffer.from('a secret the primary and the console share').toString('base64')
const zoneFile = (origin: string): string => `$ORIGIN ${origin}
$TTL 300
@     IN SOA ns1 hostmaster 2026010101 3600 1 604800 300
@     IN NS  ns1
ns1   IN A   192.0.2.53
www   IN A   192.0.2.80
mail  IN MX  10 www
`

const skip = browserSkip() || bindSkip('named', 'dig', 'nsupdate')

describe('web console: zones from a primary name server, reports of several zones, zone settings', { skip }, () => {
  let t: TestService
  let named: Named
  let browser: Browser
  let page: Page
  let errors: string[]
  let base: string
  let dnsPort: number

  before(async () => {
    buildConsole()
    dnsPort = await freeDnsPort()
    named = await startNamed({
      notifyPorts: [dnsPort],
      files: { 'copied.db': zoneFile('copied.test.'), 'upstream.db': zoneFile('upstream.test.') },
      body: `key "xfr" { algorithm hmac-sha256; secret "${SECRET}"; };
zone "copied.test." { type primary; file "$DIR/copied.db"; allow-transfer { 127.0.0.1; }; };
zone "upstream.test." { type primary; file "$DIR/upstream.db"; allow-transfer { key "xfr"; }; allow-update { key "xfr"; }; };`
    })
    t = await startTestService(ADMIN_PASSWORD, { ZONAL_DNS_PORT: String(dnsPort) })
    base = `http://127.0.0.1:${t.service.httpPort}`
    browser = await launchChromium()
    ;({ page, errors } = await consolePage(browser))
  })
  after(async () => {
    await browser?.close()
    await t?.stop()
    await named?.stop()
  })

  const signIn = async (username: string, password: string): Promise<void> => await signInOn(page, username, password)

  async function openCreate (mode: string): Promise<void> {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Zones' }).click()
    await page.getByRole('link', { name: 'Create zone' }).first().click()
    await page.getByLabel(mode).check()
  }

  it('creates a primary zone by zone transfer from named: its records shown and answered by DNS', async () => {
    await page.goto(`${base}/console/`)
    await signIn('admin', ADMIN_PASSWORD)
    await page.getByRole('heading', { name: 'Zones' }).waitFor()
    await openCreate('By zone transfer')
    await page.getByLabel('Zone name').fill('copied.test')
    await page.getByLabel('Primary name server address').fill(`127.0.0.1:${named.port}`)
    await screenshots(page, 'create-zone-transfer')
    await page.getByRole('button', { name: 'Create zone' }).click()
    await page.getByRole('heading', { name: 'copied.test.', level: 1 }).waitFor()
    await page.getByRole('definition').filter({ hasText: /^PRIMARY$/ }).waitFor()
    await page.getByRole('heading', { name: 'www.copied.test.' }).waitFor()
    await page.getByRole('cell', { name: '10 www.copied.test.' }).waitFor()
    assert.ok(await page.getByRole('button', { name: 'Add records' }).isVisible(), 'a transferred copy is a primary zone, edited here')
    assert.equal((await dig(t.service.dns.port, '+norec', '+short', 'www.copied.test.', 'A')).trim(), '192.0.2.80')
    assert.equal((await dig(t.service.dns.port, '+norec', '+short', 'mail.copied.test.', 'MX')).trim(), '10 www.copied.test.')
  })

  it('creates a secondary of a named zone with a TSIG key, and shows a change named sends by NOTIFY after a reload', async () => {
    await openCreate('Secondary')
    await page.getByLabel('Zone name').fill('upstream.test')
    await page.getByLabel('Primary name server address').fill(`127.0.0.1:${named.port}`)
    await page.getByLabel('Key name').fill('xfr')
    await page.getByLabel('Algorithm').selectOption('hmac-sha256')
    await page.getByLabel('Secret (base64)').fill(SECRET)
    await page.getByRole('button', { name: 'Create zone' }).click()
    await page.getByRole('heading', { name: 'upstream.test.', level: 1 }).waitFor()
    await page.getByRole('definition').filter({ hasText: /^SECONDARY$/ }).waitFor()
    await eventually(async () => /192\.0\.2\.80/.test(await dig(t.service.dns.port, '+norec', '+short', 'www.upstream.test.', 'A')), 10_000, 'the secondary served')
    await page.reload()
    await signIn('admin', ADMIN_PASSWORD)
    await page.getByRole('heading', { name: 'www.upstream.test.' }).waitFor()
    const transfers = page.getByRole('region', { name: 'Transfers from the primary' })
    assert.match(await transfers.innerText(), new RegExp(`127\\.0\\.0\\.1:${named.port}\\s+xfr\\.? \\(hmac-sha256\\)`))
    assert.match(await transfers.innerText(), /SUCCESSFUL/)
    assert.doesNotMatch(await page.locator('body').innerText(), new RegExp(SECRET.replaceAll('+', '\\+')), 'the secret is not shown')
    assert.equal(await page.getByRole('button', { name: 'Add records' }).count(), 0, 'a secondary is not edited here')
    await screenshots(page, 'zone-secondary')

    const script = join(named.dir, 'update.txt')
    writeFileSync(script, `server 127.0.0.1 ${named.port}\nzone upstream.test.\nupdate add fresh.upstream.test. 60 IN A 192.0.2.9\nsend\n`)
    await promisify(execFile)('nsupdate', ['-y', `hmac-sha256:xfr:${SECRET}`, script])
    await eventually(async () => /192\.0\.2\.9/.test(await dig(t.service.dns.port, '+norec', '+short', 'fresh.upstream.test.', 'A')), 10_000, 'the change served after NOTIFY')
    await page.reload()
    await signIn('admin', ADMIN_PASSWORD)
    await page.getByRole('heading', { name: 'fresh.upstream.test.' }).waitFor()
    await page.getByRole('cell', { name: '192.0.2.9' }).waitFor()

    // Transfer now: the zone is up to date, in the service's words.
    await page.getByRole('button', { name: 'Transfer now' }).click()
    await page.getByRole('status').filter({ hasText: /^Transferred upstream\.test\.: / }).waitFor()
  })

  it('converts the secondary to a primary after a confirmation naming it, then adds a record to it', async () => {
    await page.getByRole('button', { name: 'Convert to primary…' }).click()
    const confirm = page.getByRole('form', { name: 'Convert to primary upstream.test.' })
    assert.match(await confirm.innerText(), /Convert to primary upstream\.test\.\?/)
    await confirm.getByRole('button', { name: 'Convert to primary upstream.test.' }).click()
    await page.getByText('Convert to primary: done for upstream.test.').waitFor()
    await page.getByRole('definition').filter({ hasText: /^PRIMARY$/ }).waitFor()
    assert.equal(await page.getByRole('region', { name: 'Transfers from the primary' }).count(), 0)
    await page.getByRole('button', { name: 'Add records' }).click()
    const form = page.getByRole('form', { name: 'Add records' })
    await form.getByLabel('Owner').fill('added')
    await form.getByLabel('Type').selectOption('A')
    await form.getByLabel('TTL (seconds)').fill('300')
    await form.getByLabel('Records, one a line').fill('192.0.2.77')
    await form.getByRole('button', { name: 'Add' }).click()
    await page.getByRole('status').filter({ hasText: 'Records added.' }).waitFor()
    await page.getByRole('heading', { name: 'added.upstream.test.' }).waitFor()
    await eventually(async () => (await dig(t.service.dns.port, '+norec', '+short', 'added.upstream.test.', 'A')).trim() === '192.0.2.77', 10_000, 'the added record served')
    assert.match(await dig(t.service.dns.port, '+norec', '+short', 'fresh.upstream.test.', 'A'), /192\.0\.2\.9/, 'the transferred records stay')
  })

  it('draws the query volume of several zones at once, a line and a column each, with their totals', async () => {
    const api = await serviceApi(t.service, ADMIN_PASSWORD)
    for (const name of ['a.volume.test.', 'b.volume.test.']) {
      const res = await api('POST', '/zones', { properties: { name, accountName: 'default', type: 'PRIMARY' }, primaryCreateInfo: { forceImport: true, createType: 'NEW' } })
      assert.equal(res.status, 201, await res.text())
    }
    for (let i = 0; i < 5; i++) await dig(t.service.dns.port, '+norec', 'a.volume.test.', 'SOA')
    for (let i = 0; i < 3; i++) await dig(t.service.dns.port, '+norec', 'nothing.b.volume.test.', 'A')
    await t.service.queries!.flush()
    await t.service.queryCounts!.flush()
    const today = new Date().toISOString().slice(0, 10)

    await page.getByRole('link', { name: 'Reports' }).click()
    await page.getByRole('heading', { name: 'Reports' }).waitFor()
    await page.getByLabel('Zones').fill('a.volume.test, B.Volume.Test.')
    await page.getByLabel('From (UTC day)').fill(today)
    await page.getByRole('button', { name: 'Run report' }).click()
    const chart = page.getByRole('img', { name: 'Line chart of responses per day for 2 zones: a.volume.test. 5, b.volume.test. 3; 8 in all' })
    await chart.waitFor()
    assert.equal(await chart.locator('canvas').count(), 1, 'the chart is drawn')
    const legend = await chart.locator('.u-legend').innerText()
    assert.match(legend, /a\.volume\.test\.[\s\S]*b\.volume\.test\./, 'the legend names each zone')
    const table = page.locator('table.report-data')
    assert.deepEqual(await table.locator('thead th').allInnerTexts(), ['Day', 'a.volume.test.', 'b.volume.test.', 'All'])
    assert.deepEqual(await table.locator('tbody tr').allInnerTexts(), [`${today}\t5\t3\t8`])
    assert.deepEqual(await table.locator('tfoot tr').allInnerTexts(), ['Total\t5\t3\t8'])
    await screenshots(page, 'report-query-volume-zones')

    // Every zone of the account with responses (the transferred ones were asked before).
    await page.getByLabel('Scope').selectOption('account')
    assert.equal(await page.getByLabel('Zones').count(), 0, 'no zone names to give')
    await page.getByRole('button', { name: 'Run report' }).click()
    await page.getByText('Every zone of default with responses in these days (4).').waitFor()
    const heads = await table.locator('thead th').allInnerTexts()
    assert.deepEqual([...heads].sort(), ['All', 'Day', 'a.volume.test.', 'b.volume.test.', 'copied.test.', 'upstream.test.'])
    const totals = await table.locator('tfoot tr').locator('th, td').allInnerTexts()
    assert.equal(totals[heads.indexOf('a.volume.test.')], '5')
    assert.equal(totals[heads.indexOf('b.volume.test.')], '3')
    const perZone = totals.slice(1, -1).map(Number)
    assert.deepEqual(perZone, [...perZone].sort((a, b) => b - a), 'busiest first')
    assert.equal(Number(totals.at(-1)), perZone.reduce((a, n) => a + n, 0))
  })

  it('edits a primary zone\'s transfer settings, shows the API\'s refusal at the field, and stores them', async () => {
    const api = await serviceApi(t.service, ADMIN_PASSWORD)
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Zones' }).click()
    await page.getByRole('link', { name: 'copied.test.' }).click()
    const settings = page.getByRole('region', { name: 'Transfer settings' })
    await settings.getByText('No one may transfer this zone').waitFor()
    await settings.getByRole('button', { name: 'Edit transfer settings' }).click()
    const form = page.getByRole('form', { name: 'Transfer settings of copied.test.' })
    await form.getByRole('button', { name: 'Add a notify address' }).click()
    await form.getByLabel('Notify address 1', { exact: true }).fill('127.0.0.1:5399')
    await form.getByLabel('Description of notify address 1').fill('first secondary')
    await form.getByRole('button', { name: 'Add a notify address' }).click()
    await form.getByLabel('Notify address 2', { exact: true }).fill('192.0.2.300')
    await form.getByRole('button', { name: 'Add a range' }).click()
    await form.getByLabel('Start IP of range 1').fill('127.0.0.1')
    await form.getByLabel('Comment of range 1').fill('this host')
    await form.getByLabel('TSIG key name').fill('console-key')
    await form.getByLabel('TSIG secret (base64)').fill(KEY_SECRET)
    await form.getByLabel('Comment for the audit log (optional)').fill('secondaries of copied.test')
    await form.getByRole('button', { name: 'Save transfer settings' }).click()

    // Refused by the API (the second notify address): the message at that field, nothing stored.
    const second = form.getByLabel('Notify address 2', { exact: true })
    await form.locator('#notify-1-address-error').waitFor()
    assert.equal(await second.getAttribute('aria-invalid'), 'true')
    assert.match(await form.locator('#notify-1-address-error').innerText(), /192\.0\.2\.300.*notifyAddresses\[1\]\.notifyAddress/)
    assert.equal(await form.getByLabel('Notify address 1', { exact: true }).getAttribute('aria-invalid'), null, 'the first address is fine')
    await screenshots(page, 'zone-settings-refused')
    assert.deepEqual((await (await api('GET', '/zones/copied.test.')).json() as { notifyAddresses: unknown[] }).notifyAddresses, [])

    await form.getByRole('button', { name: 'Remove notify address 2' }).click()
    await form.getByRole('button', { name: 'Save transfer settings' }).click()
    await page.getByRole('status').filter({ hasText: 'Saved the transfer settings of copied.test.' }).waitFor()
    await settings.getByText('The addresses below may transfer this zone, with the TSIG key console-key.').waitFor()
    assert.match(await settings.innerText(), /127\.0\.0\.1:5399\s+first secondary/)
    const stored = await (await api('GET', '/zones/copied.test.')).json() as Record<string, unknown>
    assert.deepEqual(stored.notifyAddresses, [{ notifyAddress: '127.0.0.1:5399', description: 'first secondary' }])
    assert.deepEqual(stored.restrictIpList, [{ startIP: '127.0.0.1', endIP: '127.0.0.1', comment: 'this host' }])
    assert.deepEqual(stored.tsig, { tsigKeyName: 'console-key.', tsigKeyValue: KEY_SECRET, tsigAlgorithm: 'hmac-sha256', description: '' })
    const [audit] = await t.service.store.audit.recent(1, 'MODIFY')
    assert.equal(audit?.object, 'copied.test.')
    assert.equal(audit?.change_comment, 'secondaries of copied.test')
    // The DNS server applies them: a transfer signed with the key is answered, an unsigned one refused.
    await eventually(async () => /192\.0\.2\.80/.test(await dig(t.service.dns.port, '-y', `hmac-sha256:console-key:${KEY_SECRET}`, 'copied.test.', 'AXFR')), 10_000, 'a signed transfer answered')
    assert.match(await dig(t.service.dns.port, 'copied.test.', 'AXFR'), /Transfer failed|REFUSED/)

    // Edited again: the notify address changed, the key removed.
    await settings.getByRole('button', { name: 'Edit transfer settings' }).click()
    await form.getByLabel('Notify address 1', { exact: true }).fill('127.0.0.2:5399')
    await form.getByLabel('TSIG key name').fill('')
    await screenshots(page, 'zone-settings-edit')
    await form.getByRole('button', { name: 'Save transfer settings' }).click()
    await page.getByRole('status').filter({ hasText: 'Saved the transfer settings of copied.test.' }).waitFor()
    const again = await (await api('GET', '/zones/copied.test.')).json() as Record<string, unknown>
    assert.deepEqual(again.notifyAddresses, [{ notifyAddress: '127.0.0.2:5399', description: 'first secondary' }])
    assert.equal(again.tsig, undefined)
    await settings.getByText('The addresses below may transfer this zone.').waitFor()
    await screenshots(page, 'zone-settings')
  })

  it('shows a ReadOnly user the transfer settings without edit controls or the secret', async () => {
    const api = await serviceApi(t.service, ADMIN_PASSWORD)
    assert.equal((await api('PATCH', '/zones/copied.test.', { primaryCreateInfo: { tsig: { tsigKeyName: 'console-key', tsigKeyValue: KEY_SECRET, tsigAlgorithm: 'hmac-sha256' } } })).status, 200)
    await new UserAdmin(t.service.store).addUser('reader', READER_PASSWORD, { account: 'default', group: 'ReadOnly' })
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByText('You are signed out.').waitFor()
    await signIn('reader', READER_PASSWORD)
    await page.getByRole('heading', { name: 'Zones' }).waitFor()
    await page.getByRole('link', { name: 'copied.test.' }).click()
    const settings = page.getByRole('region', { name: 'Transfer settings' })
    await settings.getByText('127.0.0.2:5399').waitFor()
    assert.match(await settings.innerText(), /console-key\. \(hmac-sha256\)/)
    assert.equal(await settings.getByRole('button').count(), 0, 'no edit control')
    assert.equal(await settings.getByRole('textbox').count(), 0)
    assert.doesNotMatch(await page.locator('body').innerText(), new RegExp(KEY_SECRET.replaceAll('+', '\\+')))
    await screenshots(page, 'zone-settings-read-only')
  })

  it('logged no console error and no page error', () => {
    assert.deepEqual(errors, [])
  })
})
