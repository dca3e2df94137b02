/**
 * Web forwards on the zone page of the web console, in Debian's chromium against the whole
 * service (its forwarding server included) started here:
 * - a forward added through the page is listed, its host's A record appears among the records,
 *   and the service's forwarding server (asked over loopback with that Host) redirects it with
 *   the type and target the form chose (the path carried over as chosen);
 * - its type changed to 302 on the page: the forwarding server answers 302;
 * - an address outside the zone refused by the API, the message at that input;
 * - deleted after a confirmation naming it: gone from the list and the records, 404 at the
 *   forwarding server;
 * - a forward with header rules shown read-only; a ReadOnly user sees the forwards without any
 *   edit control;
 * - screenshots at 1280 and 390 px (not blank, no horizontal overflow), and no console error.
 */
import assert from 'node:assert/strict'
import { request } from 'node:http'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { UserAdmin } from '../../src/auth/user-admin.ts'
import { browserSkip, buildConsole, consolePage, launchChromium, screenshots, signInOn } from '../helpers/browser.ts'
import { eventually } from '../helpers/named.ts'
import { serviceApi, startTestService, type ServiceApi, type TestService } from '../helpers/service.ts'

const ADMIN_PASSWORD = 'console forwards admin 1'
const READER_PASSWORD = 'console forwards reader 1'
const ZONE = 'fwd.test.'

interface Answer { status: number, location: string | undefined }

describe('web console: the web forwards of a primary zone', { skip: browserSkip() }, () => {
  let t: TestService
  let api: ServiceApi
  let browser: Browser
  let page: Page
  let errors: string[]
  let base: string

  /** One request to the service's forwarding server for `host`, never following a redirect. */
  const forwarded = async (host: string, path = '/'): Promise<Answer> => await new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: t.service.forwards.server.httpPort, method: 'GET', path, headers: { Host: host } }, (res) => {
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }))
    })
    req.on('error', reject)
    req.end()
  })

  before(async () => {
    buildConsole()
    t = await startTestService(ADMIN_PASSWORD)
    base = `http://127.0.0.1:${t.service.httpPort}`
    api = await serviceApi(t.service, ADMIN_PASSWORD)
    const res = await api('POST', '/zones', { properties: { name: ZONE, accountName: 'default', type: 'PRIMARY' }, primaryCreateInfo: { forceImport: true, createType: 'NEW' } })
    assert.equal(res.status, 201, await res.text())
    browser = await launchChromium()
    ;({ page, errors } = await consolePage(browser))
  })
  after(async () => {
    await browser?.close()
    await t?.stop()
  })

  const signIn = async (username: string, password: string): Promise<void> => await signInOn(page, username, password)

  const section = () => page.getByRole('region', { name: 'Web forwards' })

  it('says what a forward is when the zone has none', async () => {
    await page.goto(`${base}/console/zones/${ZONE}`)
    await signIn('admin', ADMIN_PASSWORD)
    await page.getByRole('heading', { name: ZONE, level: 1 }).waitFor()
    await section().getByText(/^No web forwards\. A web forward sends the visitors of an address in this zone/).waitFor()
    assert.equal(await page.getByRole('heading', { name: `www.${ZONE}` }).count(), 0, 'no record at www yet')
    await screenshots(page, 'web-forwards-empty')
  })

  it('adds a forward: listed, its A record among the records, redirected by the forwarding server as chosen', async () => {
    assert.equal((await forwarded('www.fwd.test', '/docs/a')).status, 404, 'nothing forwarded yet')
    await section().getByRole('button', { name: 'Add a web forward' }).click()
    const form = page.getByRole('form', { name: 'Add a web forward' })
    await form.getByLabel('Forwarded address').fill('www.fwd.test')
    await form.getByLabel('Target', { exact: true }).fill('https://brand.example/landing')
    await form.getByLabel('Forward type').selectOption({ label: 'Permanent redirect (301)' })
    await form.getByLabel('Carried over to the target').selectOption({ label: 'The path below the forwarded address' })
    await screenshots(page, 'web-forwards-add')
    await form.getByRole('button', { name: 'Add web forward' }).click()
    await page.getByRole('status').filter({ hasText: /^Added the web forward of www\.fwd\.test;/ }).waitFor()

    const item = section().getByRole('listitem', { name: 'Web forward of www.fwd.test' })
    await item.waitFor()
    assert.match(await item.innerText(), /Target\s+https:\/\/brand\.example\/landing\s+Type\s+Permanent redirect \(301\)\s+Carried over\s+The path below the forwarded address/)
    const owner = page.getByRole('region', { name: `www.${ZONE}` })
    await owner.getByRole('cell', { name: '127.0.0.1' }).waitFor()
    assert.equal(await owner.locator('tr[data-rrtype="A"]').count(), 1, 'the host\'s A record is listed')
    const row = owner.locator('tr[data-rrtype="A"]')
    await row.getByText('Written by its web forwards').waitFor()
    assert.equal(await row.getByRole('button').count(), 0, 'the forward\'s record offers no edit or delete (the API refuses them)')

    await eventually(async () => (await forwarded('www.fwd.test', '/docs/a')).status === 301, 10_000, 'the forwarding server redirects')
    assert.deepEqual(await forwarded('www.fwd.test', '/docs/a'), { status: 301, location: 'https://brand.example/landing/docs/a' })
  })

  it('changes the forward\'s type to 302: the forwarding server answers 302', async () => {
    const item = section().getByRole('listitem', { name: 'Web forward of www.fwd.test' })
    await item.getByRole('button', { name: 'Edit the web forward of www.fwd.test' }).click()
    const form = page.getByRole('form', { name: 'Edit the web forward of www.fwd.test' })
    assert.equal(await form.getByLabel('Forwarded address').isDisabled(), true, 'the address is not changed here')
    assert.equal(await form.getByLabel('Target', { exact: true }).inputValue(), 'https://brand.example/landing')
    await form.getByLabel('Forward type').selectOption({ label: 'Temporary redirect (302)' })
    await form.getByLabel('Carried over to the target').selectOption({ label: 'Nothing: always the target as given' })
    await form.getByRole('button', { name: 'Save web forward' }).click()
    await page.getByRole('status').filter({ hasText: 'Saved the web forward of www.fwd.test.' }).waitFor()
    await item.getByText('Temporary redirect (302)').waitFor()
    assert.match(await item.innerText(), /Nothing: always the target as given/)
    await eventually(async () => (await forwarded('www.fwd.test', '/docs/a')).status === 302, 10_000, 'the forwarding server answers 302')
    assert.deepEqual(await forwarded('www.fwd.test', '/docs/a'), { status: 302, location: 'https://brand.example/landing' })
    const stored = await (await api('GET', `/zones/${ZONE}/webforwards`)).json() as { webForwards: Array<Record<string, unknown>> }
    assert.equal(stored.webForwards.length, 1)
    assert.equal(stored.webForwards[0]!.defaultForwardType, 'HTTP_302_REDIRECT')
    assert.equal(stored.webForwards[0]!.relativeForwardType, undefined)
  })

  it('shows the API\'s refusal of an address outside the zone at that input, adding nothing', async () => {
    await section().getByRole('button', { name: 'Add a web forward' }).click()
    const form = page.getByRole('form', { name: 'Add a web forward' })
    await form.getByLabel('Forwarded address').fill('www.elsewhere.test')
    await form.getByLabel('Target', { exact: true }).fill('https://brand.example/')
    await form.getByRole('button', { name: 'Add web forward' }).click()
    const message = form.locator('#forward-add-request-to-error')
    await message.waitFor()
    assert.match(await message.innerText(), /requestTo host www\.elsewhere\.test\.? is not in the zone fwd\.test\./)
    assert.equal(await form.getByLabel('Forwarded address').getAttribute('aria-invalid'), 'true')
    assert.equal(await form.getByLabel('Target', { exact: true }).getAttribute('aria-invalid'), null, 'the target is fine')
    await screenshots(page, 'web-forwards-refused')
    const stored = await (await api('GET', `/zones/${ZONE}/webforwards`)).json() as { webForwards: unknown[] }
    assert.equal(stored.webForwards.length, 1)
    await form.getByRole('button', { name: 'Cancel' }).click()
  })

  it('deletes the forward after a confirmation naming it: gone from the list and the records, 404 at the forwarding server', async () => {
    const item = section().getByRole('listitem', { name: 'Web forward of www.fwd.test' })
    await item.getByRole('button', { name: 'Delete the web forward of www.fwd.test' }).click()
    const confirm = item.getByRole('group', { name: 'Confirm deleting the web forward of www.fwd.test' })
    assert.match(await confirm.innerText(), /Delete the web forward of www\.fwd\.test\?/)
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await page.getByRole('status').filter({ hasText: 'Deleted the web forward of www.fwd.test.' }).waitFor()
    await section().getByText(/^No web forwards\./).waitFor()
    assert.equal(await page.getByRole('region', { name: `www.${ZONE}` }).count(), 0, 'the host\'s A record is gone')
    await eventually(async () => (await forwarded('www.fwd.test', '/docs/a')).status === 404, 10_000, 'the forwarding server forgets the host')
  })

  it('shows a forward\'s header rules read-only, and a ReadOnly user no edit control', async () => {
    const res = await api('POST', `/zones/${ZONE}/webforwards`, {
      requestTo: 'go.fwd.test/app',
      defaultRedirectTo: 'https://app.example/',
      defaultForwardType: 'HTTP_307_REDIRECT',
      relativeForwardType: 'PARAMETER',
      records: [{ redirectTo: 'https://mobile.example/', forwardType: 'HTTP_302_REDIRECT', priority: 1, rules: [{ header: 'User-Agent', matchCriteria: 'CONTAINS', value: 'Mobile', caseInsensitive: true }] }]
    })
    assert.equal(res.status, 201, await res.text())
    await new UserAdmin(t.service.store).addUser('reader', READER_PASSWORD, { account: 'default', group: 'ReadOnly' })
    await page.reload()
    await signIn('admin', ADMIN_PASSWORD)
    const item = section().getByRole('listitem', { name: 'Web forward of go.fwd.test/app' })
    await item.waitFor()
    const text = await item.innerText()
    assert.match(text, /advanced/)
    assert.match(text, /edit header rules through the API/)
    assert.match(text, /User-Agent contains Mobile \(any case\)\s+https:\/\/mobile\.example\/\s+Temporary redirect \(302\)/)
    assert.match(text, /Temporary redirect keeping the method \(307\)[\s\S]*The query parameters/)
    await screenshots(page, 'web-forwards')

    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByText('You are signed out.').waitFor()
    await signIn('reader', READER_PASSWORD)
    await page.getByRole('heading', { name: 'Zones' }).waitFor()
    await page.getByRole('link', { name: ZONE }).click()
    const seen = section().getByRole('listitem', { name: 'Web forward of go.fwd.test/app' })
    await seen.waitFor()
    assert.match(await seen.innerText(), /User-Agent contains Mobile/)
    assert.equal(await section().getByRole('button').count(), 0, 'no edit control')
    assert.equal(await section().getByRole('textbox').count(), 0)
    await screenshots(page, 'web-forwards-read-only')
  })

  it('logged no console error and no page error', () => {
    assert.deepEqual(errors, [])
  })
})
