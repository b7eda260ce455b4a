import type { GoCardlessClient } from "gocardless-nodejs"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Receiver, startReceiver } from "../../store-sql/test/webhooks/receiver.ts"
import { accessibilityViolations, type Browser, freshPage, launchBrowser, screenshot } from "./browser.ts"
import { DASHBOARD_TOKEN, eventually } from "./dashboard-support.ts"
import { bacsPayment } from "./dashboard-setup.ts"
import { localClient, startServer, type TestServer, toMidday } from "./harness.ts"

/**
 * The dashboard in a real headless Chromium, used as a developer uses it with the sandbox token:
 * signed in with the keyboard alone, a payment made through the official client found by its id,
 * its events and status history read, a scenario run from its page (what it ran said on the page
 * it leads to), a failed webhook delivery retried, the payments filtered by a select, the clock
 * advanced a day. The browser runs in Kolkata (UTC+05:30): the pages' times show that zone, the
 * UTC value on hover. Every page is checked with axe-core; screenshots with PAYKIT_SCREENSHOTS=1
 * (docs/pages/dashboard-*.png).
 */

let server: TestServer
let client: GoCardlessClient
let browser: Browser
let receiver: Receiver
let page: Page
/** The reader's zone: half an hour off UTC's, so no UTC time can pass for it. */
const READER_ZONE = "Asia/Kolkata"
const READER_OFFSET_MS = 5.5 * 60 * 60 * 1000
beforeAll(async () => {
  ;[server, browser, receiver] = await Promise.all([startServer({ sandboxToken: DASHBOARD_TOKEN }), launchBrowser({ timezoneId: READER_ZONE }), startReceiver("not-checked-here")])
  client = localClient(DASHBOARD_TOKEN, server.url)
  // The home page's day advanced pays out the payment confirmed below on that day's run.
  await toMidday(server.url, DASHBOARD_TOKEN)
  page = await freshPage(browser)
}, 120_000)
afterAll(async () => {
  await browser.close()
  await receiver.close()
  await server.close()
})

/** axe's serious and critical findings on the page as it is (none expected). */
const expectAccessible = async (name: string) => {
  const violations = await accessibilityViolations(page)
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([])
  await screenshot(page, `dashboard-${name}`)
}

describe("the dashboard in Chromium", () => {
  it("signs in with the keyboard alone", async () => {
    await page.goto(`${server.url}/dashboard`)
    expect(new URL(page.url()).pathname).toBe("/dashboard/sign_in")
    await expectAccessible("sign-in")
    // The skip link first, then the token's field.
    await page.keyboard.press("Tab")
    await page.keyboard.press("Tab")
    expect(await page.evaluate("document.activeElement.id")).toBe("token")
    await page.keyboard.type(DASHBOARD_TOKEN)
    await page.keyboard.press("Enter")
    await page.waitForURL((url) => url.pathname === "/dashboard")
    expect(await page.locator("main").innerText()).toContain("Sandbox Creditor Ltd")
    await expectAccessible("home")
  })

  it("shows times in the reader's zone, the UTC value on hover; says sandbox; has an icon", async () => {
    const now = page.locator("#clock-now time")
    await expect.poll(() => now.getAttribute("data-zone")).toBe("local")
    const utc = await now.getAttribute("datetime") ?? ""
    const local = new Date(Date.parse(utc) + READER_OFFSET_MS).toISOString()
    expect(await now.innerText()).toContain(local.slice(11, 16))
    expect(await now.getAttribute("title")).toBe(`${utc.slice(0, 10)} ${utc.slice(11, 23)} UTC`)
    expect(await page.getByRole("complementary", { name: "Sandbox" }).innerText()).toContain("Nothing here moves real money")
    const icon = await page.locator("link[rel=icon]").getAttribute("href") ?? ""
    expect((await page.request.get(`${server.url}${icon}`)).status()).toBe(200)
    expect((await page.request.get(`${server.url}/favicon.ico`)).headers()["content-type"]).toBe("image/svg+xml")
  })

  it("creates a webhook endpoint, its secret shown once", async () => {
    await page.getByRole("link", { name: "Webhooks" }).click()
    await expectAccessible("webhooks")
    // Every delivery fails until the receiver is made healthy below.
    receiver.answer(...Array.from({ length: 200 }, () => ({ _tag: "status", status: 500 }) as const))
    await page.getByLabel("New endpoint's URL").fill(receiver.url)
    await page.getByRole("button", { name: "Create endpoint" }).click()
    expect(await page.locator("#secret").innerText()).toMatch(/\S{20,}/)
  })

  it("finds a payment made through the API by its id, with its events and status history; a scenario run from its page adds events", async () => {
    const payment = await bacsPayment(client)
    // A Bacs payment is submitted only on a mandate the bank has: the merchant activates it first.
    const mandate = (await client.payments.find(payment)).links?.mandate ?? ""
    await client.scenarioSimulators.run("mandate_activated", { links: { resource: mandate } } as never)
    await page.getByLabel("Find by id").fill(payment)
    await page.getByRole("button", { name: "Find" }).click()
    await page.waitForURL((url) => url.pathname === `/dashboard/resources/payments/${payment}`)
    const history = page.getByRole("table", { name: "Status history, oldest first" })
    expect(await history.innerText()).toContain("pending_submission")
    const timeline = page.getByRole("table", { name: "Event timeline, newest first" })
    expect(await timeline.innerText()).toContain("created")
    await expectAccessible("payment")

    expect(await page.locator("main").innerText()).toMatch(/amount\s+£15\.00/)
    expect(await page.locator("main").innerText()).toContain("Customer: Ada Lovelace")

    await page.getByRole("button", { name: "Run payment_confirmed" }).click()
    await page.waitForURL((url) => url.pathname === `/dashboard/resources/payments/${payment}`)
    expect(await page.getByRole("status").innerText()).toBe(
      `Ran payment_confirmed on ${payment}. It made 2 events: payments.submitted ${payment}, payments.confirmed ${payment}. They are queued as webhooks to 1 enabled endpoint.`)
    const after = await page.getByRole("table", { name: "Event timeline, newest first" }).innerText()
    expect(after).toContain("payments.submitted")
    expect(after).toContain("payments.confirmed")
    expect(await page.getByRole("table", { name: "Status history, oldest first" }).innerText()).toContain("confirmed")
    expect(await page.getByRole("button", { name: "Run payment_confirmed" }).count()).toBe(0)
    expect(await page.locator("#scenarios + p").innerText()).toBe("No scenario simulator starts from confirmed. The payment scenarios start:")
    await expectAccessible("payment-confirmed")
    // Shown once: a reload says nothing more.
    await page.reload()
    expect(await page.getByRole("status").count()).toBe(0)
  })

  it("filters the payments by a status chosen from a select", async () => {
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Payments", exact: true }).click()
    await page.getByLabel("status").selectOption("confirmed")
    await page.getByRole("button", { name: "Filter" }).click()
    await page.waitForURL((url) => url.searchParams.get("status") === "confirmed")
    const rows = await page.getByRole("table", { name: "Payments, newest first" }).locator("tbody tr").allInnerTexts()
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) expect(row).toContain("confirmed")
    expect(rows.join("\n")).toContain("Ada Lovelace")
    await expectAccessible("payments")
  })

  it("retries a failed webhook delivery from its page", async () => {
    await eventually(() => receiver.received.some((r) => r.answered === 500), "a delivery answered 500")
    receiver.healthy()
    await page.getByRole("link", { name: "Webhooks" }).click()
    await page.getByRole("link", { name: "Failed deliveries" }).click()
    await page.locator("main table tbody tr td a").first().click()
    expect(await page.locator("main").innerText()).toContain("response_code")
    await expectAccessible("delivery")
    const delivered = receiver.received.length
    await page.getByRole("button", { name: "Retry this delivery" }).click()
    await page.waitForURL((url) => url.pathname.startsWith("/dashboard/resources/webhooks/"))
    expect(receiver.received.length).toBeGreaterThan(delivered)
    expect(receiver.received.at(-1)?.answered).toBe(200)
    const fields = await page.locator("main").innerText()
    expect(fields).toMatch(/successful\s+succeeded/)
  })

  it("lists the organisation's access tokens; lists of resources page through the API's cursors", async () => {
    await page.getByRole("link", { name: "Access tokens" }).click()
    expect(await page.getByRole("table", { name: "Access tokens, newest first" }).innerText()).toContain("read_write")
    await expectAccessible("tokens")
    await page.goto(`${server.url}/dashboard/resources/events?limit=2`)
    const first = await page.locator("main table tbody").innerText()
    await page.getByRole("link", { name: "Older" }).click()
    expect(await page.locator("main table tbody").innerText()).not.toBe(first)
    await expectAccessible("events")
  })

  it("shows the sandbox test values from the menu", async () => {
    await page.getByRole("link", { name: "Test values" }).click()
    await page.waitForURL((url) => url.pathname === "/dashboard/test-values")
    expect(await page.getByRole("table", { name: "Sandbox test values" }).innerText()).toContain("the mandate fails at submission")
    await expectAccessible("test-values")
  })

  it("advances the clock one day from the home page", async () => {
    await page.getByRole("link", { name: "Home" }).click()
    await page.getByRole("button", { name: "Advance 1 day" }).click()
    await page.waitForURL((url) => url.pathname === "/dashboard")
    expect(await page.locator("main").innerText()).toMatch(/Offset\s+P1D/)
    // The confirmed payment is paid out on the day's run.
    expect(await page.getByRole("status").innerText()).toMatch(/^Advanced the clock by P1D\. The organisation's clock is now .* UTC\. It made \d+ events?: .*payments\.paid_out/)
    await expectAccessible("home-advanced")
  })
})
