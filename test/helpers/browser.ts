import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core'
import { distinctColours } from './png.ts'

/** Debian's chromium (package `chromium`), or the one `ZONAL_TEST_CHROMIUM` names. */
export const CHROMIUM = process.env.ZONAL_TEST_CHROMIUM ?? '/usr/bin/chromium'

/**
 * Browser tests skip with a visible line when chromium is missing, except in CI (`CI=true`) or
 * with `ZONAL_TEST_REQUIRE_BROWSER=1`, where they fail.
 */
export const BROWSER_REQUIRED = process.env.CI === 'true' || process.env.ZONAL_TEST_REQUIRE_BROWSER === '1'

/**
 * False when chromium runs, else the reason to skip (for node:test's `skip`).
 * @throws Error when chromium is missing and required (CI)
 */
export function browserSkip (): string | false {
  if (existsSync(CHROMIUM) && spawnSync(CHROMIUM, ['--version'], { stdio: 'ignore' }).status === 0) return false
  const reason = `${CHROMIUM} not installed (Debian package chromium)`
  if (BROWSER_REQUIRED) throw new Error(`a browser is required here but ${reason}`)
  console.log(`# browser tests SKIPPED: ${reason}`)
  return reason
}

/**
 * Chromium headless, on a new empty profile (playwright-core's launch makes a temporary user
 * data dir and removes it on close), with nothing that reaches out to the network by itself.
 */
export async function launchChromium (): Promise<Browser> {
  return await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
  })
}

/** Where the test runs leave screenshots: test-artifacts/console/ (gitignored). */
export const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'console')

/**
 * Every console error and uncaught page error of `page`, as text. A request the API answers
 * with 4xx on purpose is logged by Chromium as "Failed to load resource …"; those are left out
 * for API paths (the test checks those answers itself), kept for the console's own files.
 */
export function collectErrors (page: Page): string[] {
  const errors: string[] = []
  page.on('console', (msg: ConsoleMessage) => {
    if (msg.type() !== 'error') return
    const url = msg.location().url
    const expectedApiRefusal = /^Failed to load resource: the server responded with a status of 4\d\d/.test(msg.text()) && !new URL(url, 'http://x').pathname.startsWith('/console/')
    if (!expectedApiRefusal) errors.push(`console: ${msg.text()} (${url})`)
  })
  page.on('pageerror', (err) => errors.push(`page error: ${err.message}`))
  return errors
}

/** Build the console when its build is missing or older than its sources (what `npm start` does). */
export function buildConsole (): void {
  const built = spawnSync(process.execPath, [join(import.meta.dirname, '..', '..', 'scripts', 'build-console.mjs'), '--if-stale'], { stdio: 'inherit' })
  if (built.status !== 0) throw new Error(`the console did not build (exit ${String(built.status)})`)
}

/** A new page of `browser` as the console tests use it: 1280×900, 15 s per action, its errors collected. */
export async function consolePage (browser: Browser): Promise<{ page: Page, errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  page.setDefaultTimeout(15_000)
  return { page, errors: collectErrors(page) }
}

/** Sign in on the console's sign-in page that `page` shows. */
export async function signInOn (page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

export const WIDTHS = [1280, 390] as const

/**
 * Screenshots of the page as it is, at 1280 and 390 px wide (full page), saved as
 * `<name>-<width>.png` under {@link ARTIFACTS}; each must show something: visible text in the
 * page, and more than a few colours in the picture (a blank page is one flat colour).
 * The viewport is 1280 wide again afterwards.
 * @throws Error naming the page and width when one is blank
 */
export async function screenshots (page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true })
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 })
    // Two animation frames: the page has laid itself out at the new width (the page's own code, as text: no DOM types here).
    await page.evaluate('new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(resolve)))')
    const png = await page.screenshot({ fullPage: true })
    writeFileSync(join(ARTIFACTS, `${name}-${width}.png`), png)
    const text = (await page.locator('body').innerText()).trim()
    if (text.length < 10) throw new Error(`${name} at ${width} px shows no text`)
    const colours = distinctColours(png)
    if (colours < 4) throw new Error(`${name} at ${width} px is blank (${colours} colours)`)
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth')
    if (overflow > 1) {
      // Name the elements that reach past the window, to find the culprit (often an absolutely
      // placed one that no scrolling container holds).
      const wide = await page.evaluate<string[]>('[...document.querySelectorAll(\'body *\')].filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).slice(0, 8).map(e => e.tagName + \'.\' + e.className)')
      throw new Error(`${name} at ${width} px is wider than the window by ${overflow} px (beyond its right edge: ${wide.join(', ')})`)
    }
  }
  await page.setViewportSize({ width: WIDTHS[0], height: 900 })
}
