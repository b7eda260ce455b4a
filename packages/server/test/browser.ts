import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { arch, platform, tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import sparticuz from "@sparticuz/chromium"
import { type BrowserContext, chromium, type Page } from "playwright-core"

/**
 * A real headless Chromium driven by playwright-core, on a fresh profile each launch, with nothing
 * installed on the system: on Linux x64 the build npm's `@sparticuz/chromium` ships (preferred to
 * any local one, so that every machine runs the same browser); elsewhere a local Chrome or Chromium.
 * `PAYKIT_CHROMIUM` names another executable. With none, the launch fails saying what to install.
 */

/** Where a local Chrome or Chromium usually is, by platform. */
const LOCAL_CHROMIUMS: Readonly<Partial<Record<NodeJS.Platform, ReadonlyArray<string>>>> = {
  linux: ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable"],
  darwin: [
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome", "/Applications/Chromium.app/Contents/MacOS/Chromium"
  ],
  win32: [
    "C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe", "C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe"
  ]
}

const NO_CHROMIUM = "no Chromium found: install Google Chrome or Chromium, or set PAYKIT_CHROMIUM to one (npm's @sparticuz/chromium serves Linux x64 only)"

/** How long another test process may take to unpack npm's Chromium before its lock counts as abandoned. */
const UNPACK_LOCK_STALE_MS = 120_000

/**
 * npm's Chromium, unpacked once into the temporary directory. Test files run in parallel processes
 * and the package unpacks to a fixed path, calling it there as soon as the file exists: one process
 * at a time unpacks (a lock directory), and a marker written after says the unpacking finished, so
 * that a half-written binary left by a killed run is unpacked again rather than launched.
 */
const npmChromium = async (): Promise<string> => {
  const lock = join(tmpdir(), "paykit-chromium.lock")
  const done = join(tmpdir(), "paykit-chromium.done")
  for (;;) {
    if (existsSync(done)) return sparticuz.executablePath()
    try {
      mkdirSync(lock)
    } catch {
      const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()
      if (Date.now() - since > UNPACK_LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true })
      await sleep(200)
      continue
    }
    try {
      rmSync(join(tmpdir(), "chromium"), { force: true })
      const path = await sparticuz.executablePath()
      writeFileSync(done, path)
      return path
    } finally {
      rmSync(lock, { recursive: true, force: true })
    }
  }
}

/** The Chromium to launch: `PAYKIT_CHROMIUM`, else npm's on Linux x64, else a local one. */
export const findChromium = async (): Promise<string> => {
  const named = process.env["PAYKIT_CHROMIUM"]
  if (named !== undefined && named !== "") {
    if (!existsSync(named)) throw new Error(`no Chromium at PAYKIT_CHROMIUM=${named}`)
    return named
  }
  if (platform() === "linux" && arch() === "x64") return npmChromium()
  const local = (LOCAL_CHROMIUMS[platform()] ?? []).find((path) => existsSync(path))
  if (local === undefined) throw new Error(NO_CHROMIUM)
  return local
}

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

/** `timezoneId`: the reader's time zone (an IANA name), as a browser in that zone runs the pages' script. */
export const launchBrowser = async (options: { readonly timezoneId?: string } = {}): Promise<Browser> => {
  const executablePath = await findChromium()
  const profile = mkdtempSync(join(tmpdir(), "paykit-chromium-"))
  // A persistent context is how Playwright takes a profile directory of one's own (`--user-data-dir`).
  const context = await chromium.launchPersistentContext(profile, {
    executablePath, args: ARGS, headless: true, viewport: { width: 900, height: 900 }, ...(options.timezoneId === undefined ? {} : { timezoneId: options.timezoneId, locale: "en-GB" })
  })
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
