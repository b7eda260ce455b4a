import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type BrowserContext, chromium, type Page } from "playwright-core"

/**
 * A real headless Chromium (Debian's `chromium` package; `.ci/run` installs it when missing),
 * driven by playwright-core, on a fresh profile each launch. `PAYKIT_CHROMIUM` names another
 * executable.
 */

export const CHROMIUM = process.env["PAYKIT_CHROMIUM"] ?? "/usr/bin/chromium"

const ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync"
]

export interface Browser {
  readonly context: BrowserContext
  readonly close: () => Promise<void>
}

/** A new tab, as a new visitor: no language kept from another test. */
export const freshPage = async (browser: Browser): Promise<Page> => {
  await browser.context.clearCookies()
  return browser.context.newPage()
}

/** What `count` presses of Tab reach, each named by its label (a field) or its text (a link, a button). */
export const focusOrder = async (page: Page, count: number): Promise<ReadonlyArray<string>> => {
  const focused: Array<string> = []
  for (let i = 0; i < count; i++) {
    await page.keyboard.press("Tab")
    focused.push(String(await page.evaluate("(e => e.labels?.[0]?.textContent ?? e.textContent?.trim() ?? '')(document.activeElement)")))
  }
  return focused
}

export const launchBrowser = async (): Promise<Browser> => {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (or set PAYKIT_CHROMIUM)`)
  const profile = mkdtempSync(join(tmpdir(), "paykit-chromium-"))
  // A persistent context is how Playwright takes a profile directory of one's own (`--user-data-dir`).
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true, viewport: { width: 900, height: 900 } })
  return {
    context,
    close: async () => {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    }
  }
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

export interface AxeViolation {
  readonly id: string
  readonly impact: string | null
  readonly help: string
  readonly nodes: ReadonlyArray<{ readonly html: string }>
}

/**
 * axe-core's WCAG 2.1 A and AA checks of the page as it is, injected through the DevTools protocol
 * (the pages' Content-Security-Policy allows no script of their own, and stays on).
 */
export const accessibilityViolations = async (page: Page): Promise<ReadonlyArray<AxeViolation>> => {
  await page.evaluate(axeSource)
  // A string, run in the page: this package's types have no DOM.
  return page.evaluate<ReadonlyArray<AxeViolation>>(`(async () => {
    const result = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] } })
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ html: n.html })) }))
  })()`)
}

/** Where the pages' screenshots are kept (docs/pages/), written when `PAYKIT_SCREENSHOTS=1` so that test runs leave the tree alone. */
const SCREENSHOTS = new URL("../../../docs/pages/", import.meta.url)

export const screenshot = async (page: Page, name: string): Promise<void> => {
  if (process.env["PAYKIT_SCREENSHOTS"] !== "1") return
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: new URL(`${name}.png`, SCREENSHOTS).pathname, fullPage: true })
}
