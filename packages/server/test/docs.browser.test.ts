import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { accessibilityViolations, type Browser, launchBrowser, screenshot } from "./browser.ts"
import { startServer, type TestServer } from "./harness.ts"

/**
 * `/docs` in a real headless Chromium, as a developer reads it: a sidebar by resource, each
 * operation closed under its summary (the page's first layout is a few screens, not 430,000 px),
 * an operation opened by its link, the search finding an event's cause, and axe finding nothing
 * serious or critical.
 */

let server: TestServer
let browser: Browser
beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer({ publicUrl: "http://127.0.0.1:8000" }), launchBrowser()])
}, 180_000)
afterAll(async () => {
  await browser.close()
  await server.close()
})

describe("/docs in Chromium", () => {
  it("lays out its operations closed, with a sidebar by resource, and passes axe", async () => {
    const page = await browser.context.newPage()
    await page.goto(`${server.url}/docs`)
    const height = await page.evaluate<number>("document.documentElement.scrollHeight")
    expect(height).toBeLessThan(60_000)
    expect(await page.locator("nav.sidebar summary", { hasText: "payments" }).count()).toBeGreaterThan(0)
    expect(await page.locator("section.op > details[open]").count()).toBe(0)
    const serious = (await accessibilityViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical")
    expect(serious.map((v) => `${v.id}: ${v.help} ${v.nodes.slice(0, 2).map((n) => n.html).join(" ")}`)).toEqual([])
    await screenshot(page, "docs")
  }, 120_000)

  it("opens the operation a link names, with its samples and errors", async () => {
    const page = await browser.context.newPage()
    await page.goto(`${server.url}/docs#post-payments`)
    const operation = page.locator("#post-payments > details")
    await expect(operation.getAttribute("open")).resolves.not.toBeNull()
    const text = await operation.innerText()
    expect(text).toContain("curl -X POST \"http://127.0.0.1:8000/payments\"")
    expect(text).toContain("client.payments.create(")
    expect(text).toContain("mandate_is_inactive")
    expect(text).toContain("Idempotency-Key")
  }, 120_000)

  it("finds mandate_activated with its search and takes the reader to it", async () => {
    const page = await browser.context.newPage()
    await page.goto(`${server.url}/docs`)
    await page.locator("#search-input").fill("mandate_activated")
    const results = page.locator("#search-results a")
    const labels = await results.allInnerTexts()
    expect(labels).toEqual(expect.arrayContaining(["mandate_activated"]))
    await page.locator("#search-results a", { hasText: /^mandate_activated$/ }).first().click()
    expect(await page.evaluate<string>("location.hash")).toMatch(/#(event|scenario)-mandate_activated/)
    await page.locator("#search-input").fill("charge_date")
    expect((await results.allInnerTexts()).some((label) => label.startsWith("GET /payments"))).toBe(true)
    await page.locator("#search-input").fill("mandate_is_inactive")
    expect(await results.allInnerTexts()).toContain("mandate_is_inactive")
  }, 120_000)
})
