import type { GoCardlessClient } from "gocardless-nodejs"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { accessibilityViolations, type Browser, freshPage, launchBrowser, screenshot } from "./browser.ts"
import { DASHBOARD_TOKEN } from "./dashboard-support.ts"
import { api, bacsMandate, json, localClient, startServer, type TestServer } from "./harness.ts"

/**
 * The bank rails' dashboard pages in a real headless Chromium (docs/bank-rails.md, docs/dashboard.md):
 * the day's submissions listed from the menu, one's page with its file downloaded as its exact
 * bytes; the bank reports listed, the sandbox bank's ARUDD with its applied entry, and a report
 * whose entry names nothing of this organisation shown as unmatched, kept and never applied.
 * Every page checked with axe-core (no serious or critical finding); screenshots with
 * PAYKIT_SCREENSHOTS=1.
 */

let server: TestServer
let client: GoCardlessClient
let browser: Browser
let page: Page
let failing = ""
let unmatchedReport = ""

const expectAccessible = async (name: string) => {
  const violations = await accessibilityViolations(page)
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([])
  await screenshot(page, `dashboard-${name}`)
}

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer({ sandboxToken: DASHBOARD_TOKEN }), launchBrowser()])
  client = localClient(DASHBOARD_TOKEN, server.url)
  page = await freshPage(browser)
  const creditor = server.boot.creditor ?? ""
  const mandate = await bacsMandate(client, creditor)
  const payment = await client.payments.create({ amount: 1091, currency: "GBP", links: { mandate } } as never)
  failing = payment.id ?? ""
  const advanced = await api(server.url, DASHBOARD_TOKEN, "/sandbox/simulator/advance", { method: "POST", body: { to: `${payment.charge_date ?? ""}T12:00:00Z` } })
  expect(advanced.status).toBe(200)
  // The sandbox bank's ARUDD, its mandate reference changed: a report naming a mandate this organisation does not have.
  const headers = { authorization: `Bearer ${DASHBOARD_TOKEN}`, "gocardless-version": "2015-07-06" }
  const reports = (await json(await fetch(`${server.url}/bank_reports?format=bacs_arudd`, { headers })))["bank_reports"] as ReadonlyArray<Record<string, unknown>>
  const text = await (await fetch(`${server.url}/bank_reports/${String(reports[0]?.["id"])}/file`, { headers })).text()
  const reference = String((await client.mandates.find(mandate)).reference)
  expect(text).toContain(reference)
  const posted = await fetch(`${server.url}/bank_reports?name=foreign-arudd.xml`, { method: "POST", headers, body: text.replaceAll(reference, "NOT-OURS-0001") })
  expect(posted.status).toBe(201)
  unmatchedReport = String(((await json(posted))["bank_reports"] as Record<string, unknown>)["id"])
}, 180_000)
afterAll(async () => {
  await browser.close()
  await server.close()
})

describe("the bank rails in the dashboard", () => {
  it("lists the submissions and downloads one's file", async () => {
    await page.goto(`${server.url}/dashboard`)
    await page.locator("#token").fill(DASHBOARD_TOKEN)
    await page.keyboard.press("Enter")
    await page.waitForURL((url) => url.pathname === "/dashboard")
    await page.getByRole("link", { name: "Bank submissions" }).click()
    await page.waitForURL((url) => url.pathname === "/dashboard/resources/bank_submissions")
    const table = page.getByRole("table")
    expect(await table.innerText()).toContain("bacs")
    await expectAccessible("bank-submissions")
    await table.getByRole("link").first().click()
    await page.waitForURL((url) => /\/dashboard\/resources\/bank_submissions\/BS/.test(url.pathname))
    const main = await page.locator("main").innerText()
    expect(main).toContain("bacs_standard18")
    await expectAccessible("bank-submission")
    const href = await page.getByRole("link", { name: "Download the file" }).getAttribute("href") ?? ""
    const file = await page.request.get(`${server.url}${href}`)
    expect(file.status()).toBe(200)
    expect(file.headers()["content-type"]).toMatch(/^text\/plain/)
    expect((await file.body()).subarray(0, 4).toString()).toBe("VOL1")
  })

  it("shows a report's entries, an unmatched one kept and said so", async () => {
    await page.getByRole("link", { name: "Bank reports" }).click()
    await page.waitForURL((url) => url.pathname === "/dashboard/resources/bank_reports")
    await expectAccessible("bank-reports")
    await page.goto(`${server.url}/dashboard/resources/bank_reports/${unmatchedReport}`)
    const main = page.locator("main")
    expect(await main.innerText()).toContain("nothing of this organisation")
    expect(await main.getByRole("table", { name: "Entries, in file order" }).innerText()).toMatch(/unmatched[\s\S]*no: kept, never applied/)
    await expectAccessible("bank-report-unmatched")

    const sandbox = (await json(await fetch(`${server.url}/bank_reports?format=bacs_arudd`, { headers: { authorization: `Bearer ${DASHBOARD_TOKEN}`, "gocardless-version": "2015-07-06" } })))["bank_reports"] as ReadonlyArray<Record<string, unknown>>
    const own = sandbox.find((r) => r["source"] === "bank")
    await page.goto(`${server.url}/dashboard/resources/bank_reports/${String(own?.["id"])}`)
    const entries = page.getByRole("table", { name: "Entries, in file order" })
    expect(await entries.innerText()).toContain("applied")
    await entries.getByRole("link", { name: failing }).click()
    await page.waitForURL((url) => url.pathname === `/dashboard/resources/payments/${failing}`)
    expect(await page.locator("main").innerText()).toContain("failed")
  })
})
