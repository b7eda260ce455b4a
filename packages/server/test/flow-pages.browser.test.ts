import type { GoCardlessClient } from "gocardless-nodejs"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { accessibilityViolations, type Browser, focusOrder, freshPage, launchBrowser, screenshot } from "./browser.ts"
import { collectPayerAccount, collectPayerDetails, localClient, startServer, type TestServer } from "./harness.ts"
import { PAGES_TOKEN } from "./pages-support.ts"

/**
 * The billing request flow and redirect flow pages in a real headless Chromium, walked as a payer
 * walks them: fields typed into, buttons pressed, no script. The merchant's site (`redirect_uri`,
 * `exit_uri`, `success_redirect_url`) is answered by the browser itself, so nothing leaves loopback.
 */

const MERCHANT = "https://merchant.example"

let server: TestServer
let client: GoCardlessClient
let browser: Browser
beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer({ sandboxToken: PAGES_TOKEN }), launchBrowser()])
  client = localClient(PAGES_TOKEN, server.url)
  await browser.context.route(`${MERCHANT}/**`, (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>Merchant</title><p>Merchant</p>" }))
})
afterAll(async () => {
  await browser.close()
  await server.close()
})

const newPage = () => freshPage(browser)

const expectAccessible = async (page: Page) => {
  expect(await accessibilityViolations(page)).toEqual([])
}

const heading = (page: Page) => page.getByRole("heading", { level: 1 }).textContent()

/** A Bacs mandate request and its flow, sending the payer back to the merchant. */
const mandateFlow = async (flow: Record<string, unknown> = {}) => {
  const request = await client.billingRequests.create({ mandate_request: { currency: "GBP", scheme: "bacs" } } as never)
  const created = await client.billingRequestFlows.create({
    links: { billing_request: request.id },
    redirect_uri: `${MERCHANT}/done`,
    exit_uri: `${MERCHANT}/exit`,
    ...flow
  } as never)
  return { request: request.id ?? "", flow: created }
}

const fillDetails = async (page: Page) => {
  await page.getByLabel("Email address").fill("ada@example.com")
  await page.getByLabel("First name").fill("Ada")
  await page.getByLabel("Last name").fill("Lovelace")
  await page.getByLabel("Address line 1").fill("1 Analytical Row")
  await page.getByLabel("Town or city").fill("London")
  await page.getByLabel("Postcode").fill("N1 1AA")
  await page.getByLabel("Country code (two letters, such as GB)").fill("GB")
}

const fillAccount = async (page: Page) => {
  await page.getByLabel("Sort code").fill("200000")
  await page.getByLabel("Account number").fill("55779911")
}

const click = async (page: Page, name: string) => {
  await page.getByRole("button", { name }).click()
  await page.waitForLoadState()
}

/** The billing request's event actions, oldest first. */
const eventActions = async (billingRequest: string) =>
  (await client.events.list({ billing_request: billingRequest, limit: 100 } as never)).events.map((e) => e.action).reverse()

describe("the billing request flow pages in Chromium", () => {
  it("a mandate: details, bank account, confirmation; the request is fulfilled with its mandate and the payer lands on redirect_uri", async () => {
    const { request, flow } = await mandateFlow()
    const page = await newPage()
    await page.goto(flow.authorisation_url ?? "")
    expect(await heading(page)).toBe("Your details")
    expect(await page.locator("main").innerText()).toContain("Sandbox Creditor Ltd")
    await expectAccessible(page)
    await screenshot(page, "flow-details")
    await fillDetails(page)
    await click(page, "Continue")

    expect(await heading(page)).toBe("Your bank account")
    // Prefilled with the name just given.
    expect(await page.getByLabel("Account holder name").inputValue()).toBe("Ada Lovelace")
    await expectAccessible(page)
    await screenshot(page, "flow-bank-account")
    // A wrong account number: the API's rules refuse it, said on the form, the answers kept.
    await page.getByLabel("Sort code").fill("200000")
    await page.getByLabel("Account number").fill("1")
    await click(page, "Continue")
    expect(await page.getByRole("alert").innerText()).toContain("Account number")
    expect(await page.getByLabel("Account number").getAttribute("aria-invalid")).toBe("true")
    expect(await page.getByLabel("Sort code").inputValue()).toBe("200000")
    await expectAccessible(page)
    await fillAccount(page)
    await click(page, "Continue")

    expect(await heading(page)).toBe("Check your details")
    const confirm = await page.locator("main").innerText()
    expect(confirm).toContain("ada@example.com")
    expect(confirm).toContain("1 Analytical Row")
    expect(confirm).toContain("11")
    await expectAccessible(page)
    await screenshot(page, "flow-confirm")
    await click(page, "Confirm")

    expect(await heading(page)).toBe("All done")
    await expectAccessible(page)
    await screenshot(page, "flow-done")
    const fulfilled = await client.billingRequests.find(request)
    expect(fulfilled.status).toBe("fulfilled")
    expect((await client.mandates.find(fulfilled.mandate_request?.links?.mandate ?? "")).scheme).toBe("bacs")
    await page.getByRole("link", { name: "Return to the merchant" }).click()
    await page.waitForURL(`${MERCHANT}/done`)
    await page.close()

    // An API-driven flow of the same request has the same events, in the same order.
    const viaApi = await mandateFlow()
    await collectPayerDetails(client, viaApi.request)
    await collectPayerAccount(client, viaApi.request)
    await client.billingRequests.confirmPayerDetails(viaApi.request, {} as never)
    await client.billingRequests.fulfil(viaApi.request, {} as never)
    expect(await eventActions(request)).toEqual(await eventActions(viaApi.request))
  })

  it("Pay by Bank: details, the bank chosen, authorised on the bank's page; back on the flow the request is fulfilled", async () => {
    const request = await client.billingRequests.create({ payment_request: { amount: "1250", currency: "GBP", description: "Order 77" } } as never)
    const flow = await client.billingRequestFlows.create({ links: { billing_request: request.id }, redirect_uri: `${MERCHANT}/paid`, skip_success_screen: true } as never)
    const page = await newPage()
    await page.goto(flow.authorisation_url ?? "")
    expect(await heading(page)).toBe("Your details")
    expect(await page.locator("main").innerText()).toContain("12.50 GBP")
    // A payment needs no address.
    expect(await page.getByLabel("Address line 1").count()).toBe(0)
    await page.getByLabel("Email address").fill("grace@example.com")
    await page.getByLabel("First name").fill("Grace")
    await page.getByLabel("Last name").fill("Hopper")
    await click(page, "Continue")

    expect(await heading(page)).toBe("Choose your bank")
    await expectAccessible(page)
    await screenshot(page, "flow-institution")
    await page.getByLabel("Barclays").check()
    await click(page, "Continue")

    expect(await heading(page)).toBe("Pay by bank")
    expect(await page.locator("main").innerText()).toContain("Barclays")
    await expectAccessible(page)
    await screenshot(page, "flow-pay-by-bank")
    await click(page, "Continue to your bank")
    expect(await heading(page)).toBe("Authorise at your bank")
    // Back on the flow, which fulfils and (skip_success_screen) sends the payer on at once. The
    // merchant is reached through two redirects, which the context's route does not intercept (it
    // sees only a chain's first request): the browser asking for the page is the proof.
    const sentOn = page.waitForRequest(`${MERCHANT}/paid`)
    await page.getByRole("button", { name: "Authorise" }).click()
    await sentOn
    const fulfilled = await client.billingRequests.find(request.id ?? "")
    expect(fulfilled.status).toBe("fulfilled")
    expect(fulfilled.payment_request?.links?.payment).toMatch(/^PM/)
    await page.close()
  })

  it("a denied bank authorisation brings the payer back to try again", async () => {
    const request = await client.billingRequests.create({ payment_request: { amount: "500", currency: "GBP" } } as never)
    await collectPayerDetails(client, request.id ?? "")
    const flow = await client.billingRequestFlows.create({ links: { billing_request: request.id } } as never)
    const page = await newPage()
    await page.goto(flow.authorisation_url ?? "")
    await page.getByLabel("Barclays").check()
    await click(page, "Continue")
    await click(page, "Continue to your bank")
    await page.getByRole("button", { name: "Deny" }).click()
    await page.waitForURL((url) => url.searchParams.get("outcome") === "failure")
    expect(await heading(page)).toBe("Pay by bank")
    expect(await page.getByRole("status").innerText()).toBe("Your bank did not authorise the request. You may try again.")
    expect((await client.billingRequests.find(request.id ?? "")).status).toBe("pending")
    await page.close()
  })

  it("prefilled details fill the form; locked ones are shown, not asked, and are what the request gets", async () => {
    const prefilled = { email: "locked@example.com", given_name: "Lin", family_name: "Locke", address_line1: "2 Fixed St", city: "Leeds", postal_code: "LS1 1AA", country_code: "GB" }
    const open = await mandateFlow({ prefilled_customer: prefilled })
    const page = await newPage()
    await page.goto(open.flow.authorisation_url ?? "")
    expect(await page.getByLabel("Email address").inputValue()).toBe("locked@example.com")
    expect(await page.getByLabel("Town or city").inputValue()).toBe("Leeds")

    const locked = await mandateFlow({ prefilled_customer: prefilled, lock_customer_details: true, lock_bank_account: true })
    await page.goto(locked.flow.authorisation_url ?? "")
    expect(await heading(page)).toBe("Your details")
    expect(await page.getByRole("textbox").count()).toBe(0)
    expect(await page.locator("main").innerText()).toContain("locked@example.com")
    await expectAccessible(page)
    await screenshot(page, "flow-details-locked")
    await click(page, "Continue")
    expect(await heading(page)).toBe("Your bank account")
    const customer = (await client.billingRequests.find(locked.request)).resources?.customer
    expect(customer).toMatchObject({ email: "locked@example.com", given_name: "Lin", family_name: "Locke" })
    await page.close()
  })

  it("the keyboard meets the skip link, the languages, each field in reading order, Continue, then Exit", async () => {
    const { flow } = await mandateFlow()
    const page = await newPage()
    await page.goto(flow.authorisation_url ?? "")
    expect(await focusOrder(page, 20)).toEqual([
      "Skip to content", "English", "Français", "Deutsch", "Español", "Svenska", "Dansk",
      "Email address", "First name", "Last name", "Company name (optional, for a business)",
      "Address line 1", "Address line 2 (optional)", "Address line 3 (optional)", "Town or city", "County or region (optional)", "Postcode", "Country code (two letters, such as GB)",
      "Continue", "Exit and return to the merchant"
    ])
    await page.close()
  })

  it("the flow's language picks the pages' language; the exit link leads to exit_uri", async () => {
    const { flow } = await mandateFlow({ language: "sv" })
    const page = await newPage()
    await page.goto(flow.authorisation_url ?? "")
    expect(await heading(page)).toBe("Dina uppgifter")
    expect(await page.locator("html").getAttribute("lang")).toBe("sv")
    await expectAccessible(page)
    await screenshot(page, "flow-details-sv")
    await page.getByRole("link", { name: "Avbryt och gå tillbaka till handlaren" }).click()
    await page.waitForURL(`${MERCHANT}/exit`)
    await page.close()
  })
})

describe("the redirect flow pages in Chromium", () => {
  it("end at success_redirect_url with redirect_flow_id; the merchant completes the flow with its session token", async () => {
    const created = await client.redirectFlows.create({
      session_token: "SESS_pages",
      success_redirect_url: `${MERCHANT}/redirect/done`,
      scheme: "bacs",
      description: "Wine club",
      prefilled_customer: { given_name: "Ada", family_name: "Lovelace", email: "ada@example.com", language: "de" }
    } as never)
    const page = await newPage()
    await page.goto(created.redirect_url ?? "")
    expect(await heading(page)).toBe("Ihre Angaben")
    expect(await page.locator("main").innerText()).toContain("Wine club")
    await screenshot(page, "redirect-flow-details-de")
    await page.getByRole("link", { name: "English" }).click()
    await page.waitForURL((url) => url.searchParams.get("lang") === "en")
    expect(await page.getByLabel("First name").inputValue()).toBe("Ada")
    await fillDetails(page)
    await click(page, "Continue")
    await fillAccount(page)
    await click(page, "Continue")
    await click(page, "Confirm")
    // Not fulfilled by the page: the merchant completes a redirect flow.
    expect(await heading(page)).toBe("All done")
    await expectAccessible(page)
    await page.getByRole("link", { name: "Return to the merchant" }).click()
    await page.waitForURL((url) => url.pathname === "/redirect/done")
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ redirect_flow_id: created.id })
    const completed = await client.redirectFlows.complete(created.id ?? "", { session_token: "SESS_pages" })
    expect(completed.links?.mandate).toMatch(/^MD/)
    expect((await client.customers.find(completed.links?.customer ?? "")).email).toBe("ada@example.com")
    // The confirmation page the completed flow names.
    await page.goto(completed.confirmation_url ?? "")
    expect(await heading(page)).toBe("Your Direct Debit is set up")
    const confirmation = await page.locator("main").innerText()
    expect(confirmation).toContain(completed.mandate_reference ?? "no reference")
    expect(confirmation).toContain("Ada Lovelace")
    await expectAccessible(page)
    await screenshot(page, "redirect-flow-confirmation")
    await page.close()
  })
})

describe("a billing request template's page in Chromium", () => {
  it("Start makes a billing request of the template's and sends the payer through its flow to fulfilment", async () => {
    const template = await client.billingRequestTemplates.create({
      name: "Gym membership", mandate_request_currency: "GBP", mandate_request_scheme: "bacs", redirect_uri: `${MERCHANT}/welcome`
    } as never)
    const page = await newPage()
    await page.goto(template.authorisation_url ?? "")
    expect(await heading(page)).toBe("Set up with Sandbox Creditor Ltd")
    expect(await page.locator("main").innerText()).toContain("Gym membership")
    await expectAccessible(page)
    await screenshot(page, "template-start")
    await click(page, "Start")
    expect(await heading(page)).toBe("Your details")
    const flowId = new URL(page.url()).pathname.split("/").at(-2) ?? ""
    await fillDetails(page)
    await click(page, "Continue")
    await fillAccount(page)
    await click(page, "Continue")
    await click(page, "Confirm")
    expect(await heading(page)).toBe("All done")
    const flow = await client.billingRequestFlows.initialise(flowId, {} as never)
    const request = await client.billingRequests.find(flow.links?.billing_request ?? "")
    expect(request.status).toBe("fulfilled")
    expect((await client.mandates.find(request.mandate_request?.links?.mandate ?? "")).scheme).toBe("bacs")
    await page.getByRole("link", { name: "Return to the merchant" }).click()
    await page.waitForURL(`${MERCHANT}/welcome`)
  })
})
