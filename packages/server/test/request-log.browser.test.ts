import { Effect } from "effect"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CurrentRequestRecorder, DISPLAY_PREFIX_LENGTH, issueAccessToken } from "@paykit/http"
import { accessibilityViolations, type Browser, freshPage, launchBrowser, screenshot } from "./browser.ts"
import { DASHBOARD_TOKEN } from "./dashboard-support.ts"
import { api, localClient, startServer, type TestServer } from "./harness.ts"

/**
 * The request log's page (`/dashboard/logs`) in a real headless Chromium, as a developer reads it
 * after their integration made requests with a token of its own: reached from the menu, newest
 * first with the token's id and prefix, times in the reader's zone (UTC on hover), filtered by
 * status class and by resource id, paged with cursors, one request opened to its redacted bodies
 * and from there to the customer it made. Every page is checked with axe-core.
 */

let server: TestServer
let browser: Browser
let page: Page
let token = ""
let customer = ""
let account = ""
const READER_ZONE = "Asia/Kolkata"
const ACCOUNT_NUMBER = "55779911"

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer({ sandboxToken: DASHBOARD_TOKEN }), launchBrowser({ timezoneId: READER_ZONE })])
  token = await server.runtime.runPromise(issueAccessToken({ id: "AT_browser_log1", organisation: server.boot.organisation.id, scope: "read_write" }))
  const client = localClient(token, server.url)
  customer = (await client.customers.create({ email: "ada@example.com", given_name: "Ada", family_name: "Lovelace", country_code: "GB" } as never)).id ?? ""
  account = (await client.customerBankAccounts.create({
    account_holder_name: "Ada Lovelace", account_number: ACCOUNT_NUMBER, branch_code: "200000", country_code: "GB", links: { customer }
  } as never, "browser-log-key")).id ?? ""
  expect((await api(server.url, token, "/customer_bank_accounts", { method: "POST", body: { customer_bank_accounts: {} } })).status).toBe(422)
  // More than a page of reads, so the log pages.
  for (let i = 0; i < 26; i++) expect((await api(server.url, token, "/customers")).status).toBe(200)
  await server.runtime.runPromise(Effect.gen(function*() {
    const recorder = yield* CurrentRequestRecorder
    yield* Effect.promise(() => recorder?.flush() ?? Promise.resolve())
  }))
  page = await freshPage(browser)
}, 120_000)
afterAll(async () => {
  await browser.close()
  await server.close()
})

const expectAccessible = async (name: string) => {
  const violations = await accessibilityViolations(page)
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([])
  await screenshot(page, `dashboard-${name}`)
}

const rows = () => page.locator("table tbody tr")

describe("the request log in Chromium", () => {
  it("is reached from the menu: the newest requests first, with the token's id and prefix, times in the reader's zone", async () => {
    await page.goto(`${server.url}/dashboard/sign_in`)
    await page.getByLabel("Access token").fill(DASHBOARD_TOKEN)
    await page.keyboard.press("Enter")
    await page.waitForURL((url) => url.pathname === "/dashboard")
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Request log" }).click()
    await page.waitForURL((url) => url.pathname === "/dashboard/logs")
    await expectAccessible("logs")
    expect(await rows().count()).toBe(25)
    const first = rows().first()
    expect(await first.innerText()).toContain("GET")
    expect(await first.innerText()).toContain("/customers")
    expect(await first.innerText()).toContain(`AT_browser_log1 ${token.slice(0, DISPLAY_PREFIX_LENGTH)}…`)
    const time = first.locator("time")
    await expect.poll(() => time.getAttribute("data-zone")).toBe("local")
    const utc = await time.getAttribute("datetime") ?? ""
    expect(await time.getAttribute("title")).toBe(`${utc.slice(0, 10)} ${utc.slice(11, 23)} UTC`)
    expect(await time.innerText()).toContain(new Date(Date.parse(utc) + 5.5 * 3_600_000).toISOString().slice(11, 16))
  })

  it("pages to older requests with its cursor", async () => {
    const newest = await rows().first().locator("td").nth(5).innerText()
    await page.getByRole("link", { name: "Older" }).click()
    await page.waitForURL((url) => url.searchParams.has("after"))
    const older = await rows().allInnerTexts()
    expect(older.length).toBeGreaterThanOrEqual(3)
    expect(older.join("\n")).not.toContain(newest)
    expect(older.join("\n")).toContain("browser-log-key")
  })

  it("filters by status class and by resource id", async () => {
    await page.goto(`${server.url}/dashboard/logs`)
    await page.getByLabel("status").selectOption("4xx")
    await page.getByRole("button", { name: "Filter" }).click()
    await page.waitForURL((url) => url.searchParams.get("status_class") === "4xx")
    await expectAccessible("logs-filtered")
    expect(await rows().count()).toBe(1)
    expect(await rows().first().innerText()).toContain("422")
    await page.getByLabel("status").selectOption("")
    await page.getByLabel("resource id").fill(account)
    await page.getByRole("button", { name: "Filter" }).click()
    await page.waitForURL((url) => url.searchParams.get("resource_id") === account)
    // The bank account's creation alone: the 422 made none, and no list read it.
    expect((await rows().allInnerTexts()).map((row) => row.split("\t")[2])).toEqual(["/customer_bank_accounts"])
  })

  it("opens a request: its redacted bodies and links to the resources it touched", async () => {
    await page.getByRole("row").filter({ hasText: "browser-log-key" }).getByRole("link").click()
    await page.waitForURL((url) => url.pathname.startsWith("/dashboard/logs/"))
    await expectAccessible("log")
    const main = await page.locator("main").innerText()
    expect(main).toContain("POST /customer_bank_accounts")
    expect(main).toContain("\"account_number_ending\": \"11\"")
    expect(main).not.toContain(ACCOUNT_NUMBER)
    expect(main).not.toContain(token)
    await page.getByRole("region", { name: "Resources it touched" }).getByRole("link", { name: customer }).click()
    await page.waitForURL((url) => url.pathname === `/dashboard/resources/customers/${customer}`)
  })
})
