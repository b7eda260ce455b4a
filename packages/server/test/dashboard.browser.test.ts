import type { GoCardlessClient } from "gocardless-nodejs"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Receiver, startReceiver } from "../../store-sql/test/webhooks/receiver.ts"
import { accessibilityViolations, type Browser, freshPage, launchBrowser, screenshot } from "./browser.ts"
import { DASHBOARD_TOKEN, eventually } from "./dashboard-support.ts"
import { bacsPayment } from "./dashboard-setup.ts"
import { localClient, startServer, type TestServer } from "./harness.ts"

/**
 * The dashboard in a real headless Chromium, used as a developer uses it with the sandbox token:
 * signed in with the keyboard alone, a payment made through the official client found by its id,
 * its events and status history read, a scenario run from its page, a failed webhook delivery
 * retried, the clock advanced a day. Every page is checked with axe-core; screenshots with
 * PAYKIT_SCREENSHOTS=1 (docs/pages/dashboard-*.png).
 */

let server: TestServer
let client: GoCardlessClient
let browser: Browser
let receiver: Receiver
let page: Page
beforeAll(async () => {
  ;[server, browser, receiver] = await Promise.all([startServer({ sandboxToken: DASHBOARD_TOKEN }), launchBrowser(), startReceiver("not-checked-here")])
  client = localClient(DASHBOARD_TOKEN, server.url)
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

    await page.getByRole("button", { name: "Run payment_confirmed" }).click()
    await page.waitForURL((url) => url.pathname === `/dashboard/resources/payments/${payment}`)
    const after = await page.getByRole("table", { name: "Event timeline, newest first" }).innerText()
    expect(after).toContain("submitted")
    expect(after).toContain("confirmed")
    expect(await page.getByRole("table", { name: "Status history, oldest first" }).innerText()).toContain("confirmed")
    expect(await page.getByRole("button", { name: "Run payment_confirmed" }).count()).toBe(0)
    await expectAccessible("payment-confirmed")
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
    expect(fields).toMatch(/successful\s+true/)
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
    await expectAccessible("home-advanced")
  })
})
