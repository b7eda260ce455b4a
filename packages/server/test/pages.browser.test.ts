import type { GoCardlessClient } from "gocardless-nodejs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { accessibilityViolations, type Browser, focusOrder, freshPage, launchBrowser, screenshot } from "./browser.ts"
import { localClient, startServer, type TestServer } from "./harness.ts"
import { advance, bankAuthorisation, PAGES_TOKEN, validatedImport } from "./pages-support.ts"

/**
 * The pages in a real headless Chromium, used as a payer and a creditor's user use them: links
 * followed, buttons clicked, fields typed into, with no JavaScript of the pages' own (they have
 * none). Each page is checked with axe-core, and its screenshot kept (PAYKIT_SCREENSHOTS=1).
 */

/** The creditor's payer theme: the pages wear its colours. */
const THEME = { header_background_colour: "#0b3d2e", button_background_colour: "#0b6e4f", link_text_colour: "#0b6e4f", content_box_border_colour: "#9fc5b8" }

let server: TestServer
let client: GoCardlessClient
let browser: Browser
beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer({ sandboxToken: PAGES_TOKEN }), launchBrowser()])
  client = localClient(PAGES_TOKEN, server.url)
  await client.payerThemes.createForCreditor({ ...THEME, links: { creditor: server.boot.creditor } } as never)
})
afterAll(async () => {
  await browser.close()
  await server.close()
})

const newPage = () => freshPage(browser)

const expectAccessible = async (page: Parameters<typeof accessibilityViolations>[0]) => {
  expect(await accessibilityViolations(page)).toEqual([])
}

describe("the bank authorisation page in Chromium", () => {
  it("shows the institution, amount and payee in the creditor's colours; Authorise lands on redirect_uri with outcome=success", async () => {
    const { authorisation, institution } = await bankAuthorisation(client, "Order 42")
    const page = await newPage()
    await page.goto(authorisation.url ?? "")
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Authorise at your bank")
    const body = await page.locator("main").innerText()
    expect(body).toContain(institution)
    expect(body).toContain("12.50 GBP")
    expect(body).toContain("Sandbox Creditor Ltd")
    const authorise = page.getByRole("button", { name: "Authorise" })
    expect(await page.evaluate("getComputedStyle(document.querySelector('button.primary')).backgroundColor")).toBe("rgb(11, 110, 79)")
    await expectAccessible(page)
    await screenshot(page, "bank-authorisation")
    expect((await client.bankAuthorisations.find(authorisation.id ?? "")).last_visited_at).not.toBeNull()

    await authorise.click()
    await page.waitForURL((url) => url.searchParams.get("outcome") !== null)
    const landed = new URL(page.url())
    expect(`${landed.origin}${landed.pathname}`).toBe(authorisation.redirect_uri)
    expect(Object.fromEntries(landed.searchParams)).toEqual({ outcome: "success", id: authorisation.id })
    expect(await page.getByRole("status").innerText()).toBe("You authorised the request at your bank. You may close this page.")
    await expectAccessible(page)
    await screenshot(page, "bank-authorisation-complete")
    expect((await client.bankAuthorisations.find(authorisation.id ?? "")).authorised_at).not.toBeNull()
    await page.close()
  })

  it("Deny lands with outcome=failure, and the authorisation is denied", async () => {
    const { authorisation } = await bankAuthorisation(client)
    const page = await newPage()
    await page.goto(authorisation.url ?? "")
    await page.getByRole("button", { name: "Deny" }).click()
    await page.waitForURL((url) => url.searchParams.get("outcome") !== null)
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ outcome: "failure", id: authorisation.id })
    expect(await page.getByRole("status").innerText()).toBe("The request was not authorised.")
    expect((await client.bankAuthorisations.find(authorisation.id ?? "")).authorised_at).toBeNull()
    await page.close()
  })

  it("for a mandate, the payer types the account the bank reports; Deny needs none of it", async () => {
    const first = await bankAuthorisation(client, "First payment", true)
    const page = await newPage()
    await page.goto(first.authorisation.url ?? "")
    await expectAccessible(page)
    await screenshot(page, "bank-authorisation-mandate")
    await page.getByLabel("Account holder name").fill("Ada Lovelace")
    await page.getByLabel("Sort code").fill("200000")
    await page.getByLabel("Account number").fill("55779911")
    await page.getByRole("button", { name: "Authorise" }).click()
    await page.waitForURL((url) => url.searchParams.get("outcome") !== null)
    expect(new URL(page.url()).searchParams.get("outcome")).toBe("success")
    expect((await client.billingRequests.find(first.billingRequest)).links?.customer_bank_account).toBeDefined()
    const second = await bankAuthorisation(client, "First payment", true)
    await page.goto(second.authorisation.url ?? "")
    await page.getByRole("button", { name: "Deny" }).click()
    await page.waitForURL((url) => url.searchParams.get("outcome") !== null)
    expect(new URL(page.url()).searchParams.get("outcome")).toBe("failure")
    await page.close()
  })

  it("a choice after the link expired lands with outcome=timeout", async () => {
    const { authorisation } = await bankAuthorisation(client)
    const page = await newPage()
    await page.goto(authorisation.url ?? "")
    // The payer leaves the page open past the link's fifteen minutes.
    await advance(server, 16 * 60)
    await page.getByRole("button", { name: "Authorise" }).click()
    await page.waitForURL((url) => url.searchParams.get("outcome") !== null)
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ outcome: "timeout", id: authorisation.id })
    expect(await page.getByRole("status").innerText()).toBe("The authorisation link expired before it was used.")
    expect((await client.bankAuthorisations.find(authorisation.id ?? "")).authorised_at).toBeNull()
    // Opened again, the page says so and offers only the way back.
    await page.goto(authorisation.url ?? "")
    expect(await page.getByRole("button").count()).toBe(0)
    await page.close()
  })

  it("the keyboard reaches the skip link, the languages, then Authorise before Deny; the language switch works without script", async () => {
    const { authorisation } = await bankAuthorisation(client)
    const page = await newPage()
    await page.goto(authorisation.url ?? "")
    expect(await focusOrder(page, 9)).toEqual(["Skip to content", "English", "Français", "Deutsch", "Español", "Svenska", "Dansk", "Authorise", "Deny"])
    await page.getByRole("link", { name: "Français" }).click()
    await page.waitForURL((url) => url.searchParams.get("lang") === "fr")
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Autoriser auprès de votre banque")
    expect(await page.locator("html").getAttribute("lang")).toBe("fr")
    await expectAccessible(page)
    await screenshot(page, "bank-authorisation-fr")
    // The language chosen is kept (a cookie of the pages'): the outcome page is French too.
    await page.getByRole("button", { name: "Refuser" }).click()
    await page.waitForURL((url) => url.searchParams.get("outcome") !== null)
    expect(await page.getByRole("status").innerText()).toBe("La demande n'a pas été autorisée.")
    await page.close()
  })
})

describe("the import authorisation page in Chromium", () => {
  it("lists the entries with their name checks; authorised there with an access token, the import is processed", async () => {
    const created = await validatedImport(server, client)
    const page = await newPage()
    await page.goto(created.authorisation_url ?? "")
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Authorise an outbound payment import")
    const rows = await page.locator("tbody tr").allInnerTexts()
    expect(rows).toHaveLength(2)
    expect(rows.find((row) => row.includes("JAN PAY & CO"))).toContain("15.00 GBP")
    expect(rows.find((row) => row.includes("FEB PAY"))).toContain("25.00 GBP")
    const entries = (await client.outboundPaymentImportEntries.list({ outbound_payment_import: created.id } as never)).outbound_payment_import_entries
    for (const entry of entries) expect(rows.join("\n")).toContain(String(entry.verification_result))
    await expectAccessible(page)
    await screenshot(page, "outbound-payment-import")

    await page.getByLabel("Access token of the organisation (read-write)").fill(PAGES_TOKEN)
    await page.getByRole("button", { name: "Authorise the import" }).click()
    await page.waitForLoadState()
    expect(await page.locator("dd.status").innerText()).toBe("processed")
    expect(await page.getByRole("button").count()).toBe(0)
    await screenshot(page, "outbound-payment-import-processed")
    expect((await client.outboundPaymentImports.find(created.id ?? "")).status).toBe("processed")
    await page.close()
  })
})
