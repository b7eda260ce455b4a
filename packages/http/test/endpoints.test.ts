import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiError, InvalidApiUsageError, InvalidStateError, ValidationFailedError } from "gocardless-nodejs"
import { unsafeAmount, OrganisationId } from "@paykit/core"
import {
  Creditors,
  Customers,
  decodeCommand,
  NegativeBalanceLimits,
  PAYMENT_ACCOUNTS,
  PayerThemes,
  PaymentAccountFundRequest,
  PaymentAccounts,
  PaymentCreateRequest,
  Payments
} from "@paykit/engine"
import { ADA, DUAL, seedPayouts, UK_ACCOUNT } from "./fixtures.ts"
import { failure, localClient, payerPageUrl, startServer, type TestServer } from "./harness.ts"

/**
 * Every endpoint of the issue through the official client, unchanged: paths, query strings and
 * envelopes exactly as it sends them, each with its happy path and an error parsed into the
 * client's error class. Resources the API cannot create (customers, bank accounts of creditors,
 * money in a payment account, payouts) are set up through the engine or the store.
 */

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server.close()
})

const run = <A, E, R>(effect: Effect.Effect<A, E, R>) => server.run(effect)

const DIRECTOR = {
  given_name: "Grace", family_name: "Hopper", date_of_birth: "1970-01-01", street: "1 High Street", city: "London",
  postal_code: "EC1A 1AA", country_code: "GB"
}

const expectError = (error: unknown, kind: abstract new (...args: never) => ApiError, code: number) => {
  expect(error).toBeInstanceOf(kind)
  expect((error as ApiError).code).toBe(code)
  expect((error as ApiError).requestId).toMatch(/^[0-9a-f-]{36}$/)
}

describe("billing requests, their actions, customers, bank accounts, mandates, subscriptions, payments, events", () => {
  const org = OrganisationId("OR00000B1111NG")
  let client: ReturnType<typeof localClient>
  let mandateId = ""
  beforeAll(async () => {
    client = localClient(await server.token(org), server.url)
    await client.creditors.create({ name: "Acme Gym", country_code: "GB", creditor_type: "company" } as never)
  })

  it("billing requests: create, get, list, collect details and account, confirm, fulfil; an action out of turn is InvalidStateError", async () => {
    const created = await client.billingRequests.create({ mandate_request: { currency: "GBP", scheme: "bacs" }, metadata: { order: "42" } } as never)
    expect((created.__response__ as { statusCode: number }).statusCode).toBe(201)
    expect((await client.billingRequests.find(created.id ?? "")).status).toBe("pending")
    const pending = await client.billingRequests.list({ status: "pending" } as never)
    expect(pending.billing_requests.map((b) => b.id)).toContain(created.id)
    await client.billingRequests.collectCustomerDetails(created.id ?? "", ADA as never)
    await client.billingRequests.collectBankAccount(created.id ?? "", UK_ACCOUNT as never)
    const confirmed = await client.billingRequests.confirmPayerDetails(created.id ?? "", {} as never)
    expect(confirmed.status).toBe("ready_to_fulfil")
    const fulfilled = await client.billingRequests.fulfil(created.id ?? "", {} as never)
    expect(fulfilled.status).toBe("fulfilled")
    mandateId = fulfilled.mandate_request?.links?.mandate ?? ""
    expect(mandateId).toMatch(/^MD/)
    expectError(await failure(client.billingRequests.collectCustomerDetails(created.id ?? "", ADA as never)), InvalidStateError, 422)
    expectError(await failure(client.billingRequests.list({ status: "nope" } as never)), ValidationFailedError, 422)
    expectError(await failure(client.billingRequests.find("BRQ000000000000")), InvalidApiUsageError, 404)
  })

  it("billing requests: choose_currency, fallback, cancel, and a refused choose_currency", async () => {
    const mandateOnly = await client.billingRequests.create({ mandate_request: { currency: "GBP", scheme: "bacs" } } as never)
    const chosen = await client.billingRequests.chooseCurrency(mandateOnly.id ?? "", { currency: "EUR" } as never)
    expect(chosen.mandate_request?.currency).toBe("EUR")
    expectError(await failure(client.billingRequests.notify(mandateOnly.id ?? "", { notification_type: "email" } as never)), InvalidStateError, 422)
    expectError(await failure(client.billingRequests.notify(mandateOnly.id ?? "", { notification_type: "sms" } as never)), ValidationFailedError, 422)
    const cancelled = await client.billingRequests.cancel(mandateOnly.id ?? "", {} as never)
    expect(cancelled.status).toBe("cancelled")
    const dual = await client.billingRequests.create({ ...DUAL, fallback_enabled: true } as never)
    expectError(await failure(client.billingRequests.chooseCurrency(dual.id ?? "", { currency: "EUR" } as never)), InvalidStateError, 422)
    const fell = await client.billingRequests.fallback(dual.id ?? "", {} as never)
    expect(fell.id).toBe(dual.id)
  })

  it("institutions (both lists), select_institution, bank authorisations create/get, notify", async () => {
    const all = await client.institutions.list({ country_code: "GB" } as never)
    expect(all.institutions.length).toBeGreaterThan(0)
    expectError(await failure(client.institutions.list({ country_code: "XX" } as never)), ValidationFailedError, 422)
    const dual = await client.billingRequests.create(DUAL as never)
    const choice = await client.institutions.list_for_billing_request(dual.id ?? "", { country_code: "GB", search: "monzo" } as never)
    expect(choice.institutions.map((i) => i.name)).toEqual(["Monzo"])
    expectError(await failure(client.institutions.list_for_billing_request("BRQ000000000000", { country_code: "GB" } as never)), InvalidApiUsageError, 404)
    await client.billingRequests.collectCustomerDetails(dual.id ?? "", ADA as never)
    await client.billingRequests.collectBankAccount(dual.id ?? "", UK_ACCOUNT as never)
    await client.billingRequests.confirmPayerDetails(dual.id ?? "", {} as never)
    expectError(await failure(client.bankAuthorisations.create({ links: { billing_request: dual.id } } as never)), InvalidStateError, 422)
    const chosen = await client.billingRequests.selectInstitution(dual.id ?? "", { institution: choice.institutions[0]?.id ?? "", country_code: "GB" } as never)
    expect((chosen.links as { institution?: string } | undefined)?.institution).toBe(choice.institutions[0]?.id)
    const authorisation = await client.bankAuthorisations.create({ links: { billing_request: dual.id } } as never)
    expect((authorisation.__response__ as { statusCode: number }).statusCode).toBe(201)
    expect((await client.bankAuthorisations.find(authorisation.id ?? "")).authorisation_type).toBe("payment")
    expect(authorisation.url).toBe(payerPageUrl("bankAuthorisation", org, authorisation.id ?? ""))
    const notified = await client.billingRequests.notify(dual.id ?? "", { notification_type: "email", redirect_uri: "https://acme.example/done" } as never)
    expect(notified.id).toBe(dual.id)
    expectError(await failure(client.bankAuthorisations.find("BAU000000000000")), InvalidApiUsageError, 404)
  })

  it("a redirect_uri the payer is sent to is an absolute http(s) URL without control characters (bank authorisations, notify)", async () => {
    const dual = await client.billingRequests.create(DUAL as never)
    await client.billingRequests.collectCustomerDetails(dual.id ?? "", ADA as never)
    await client.billingRequests.collectBankAccount(dual.id ?? "", UK_ACCOUNT as never)
    const bank = (await client.institutions.list({ country_code: "GB" } as never)).institutions[0]?.id ?? ""
    await client.billingRequests.selectInstitution(dual.id ?? "", { institution: bank, country_code: "GB" } as never)
    // Put in a link's href and a 303's Location: a script, inline content or a header split.
    for (const redirect_uri of ["javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "https://acme.example/done\r\nSet-Cookie: a=b", "https://acme.example/\u0000", "/relative"]) {
      expectError(await failure(client.bankAuthorisations.create({ redirect_uri, links: { billing_request: dual.id } } as never)), ValidationFailedError, 422)
      expectError(await failure(client.billingRequests.notify(dual.id ?? "", { notification_type: "email", redirect_uri } as never)), ValidationFailedError, 422)
    }
    const created = await client.bankAuthorisations.create({ redirect_uri: "https://acme.example/done?order=42", links: { billing_request: dual.id } } as never)
    expect(created.redirect_uri).toBe("https://acme.example/done?order=42")
  })

  it("customers, customer bank accounts and mandates: get and list; a bad filter is ValidationFailedError", async () => {
    const mandate = await client.mandates.find(mandateId)
    expect(mandate.scheme).toBe("bacs")
    const customerId = mandate.links?.customer ?? ""
    expect((await client.customers.list()).customers.map((c) => c.id)).toContain(customerId)
    expect((await client.customers.find(customerId)).email).toBe("ada@example.com")
    expectError(await failure(client.customers.find("CU000000000000")), InvalidApiUsageError, 404)
    const accounts = await client.customerBankAccounts.list({ customer: customerId } as never)
    expect(accounts.customer_bank_accounts).toHaveLength(1)
    expect((await client.customerBankAccounts.find(accounts.customer_bank_accounts[0]?.id ?? "")).account_holder_name).toBe("Ada Lovelace")
    expectError(await failure(client.customerBankAccounts.list({ created_at: { gt: "yesterday" } } as never)), ValidationFailedError, 422)
    const listed = await client.mandates.list({ status: ["pending_submission", "submitted", "active"] } as never)
    expect(listed.mandates.map((m) => m.id)).toContain(mandateId)
    const error = await failure(client.mandates.list({ status: "bogus" } as never))
    expectError(error, ValidationFailedError, 422)
    expect((error as ValidationFailedError).errors[0]).toMatchObject({ field: "status", request_pointer: "/status" })
  })

  it("subscriptions: create, get, list, update, pause, resume, cancel; resuming an active one is InvalidStateError", async () => {
    const created = await client.subscriptions.create({
      amount: 1500, currency: "GBP", interval_unit: "monthly", day_of_month: 1, name: "Membership", links: { mandate: mandateId }
    } as never)
    expect((created.__response__ as { headers: Record<string, string> }).headers["location"]).toBe(`/subscriptions/${created.id}`)
    const id = created.id ?? ""
    expect((await client.subscriptions.find(id)).name).toBe("Membership")
    expect((await client.subscriptions.list({ mandate: mandateId } as never)).subscriptions.map((s) => s.id)).toEqual([id])
    expect((await client.subscriptions.update(id, { name: "Gold membership" } as never)).name).toBe("Gold membership")
    expectError(await failure(client.subscriptions.resume(id, {} as never)), InvalidStateError, 422)
    expect((await client.subscriptions.pause(id, {} as never)).status).toBe("paused")
    expect((await client.subscriptions.resume(id, {} as never)).status).toBe("active")
    expect((await client.subscriptions.cancel(id, {} as never)).status).toBe("cancelled")
    expectError(await failure(client.subscriptions.create({ amount: 1500, currency: "GBP", links: { mandate: mandateId } } as never)), ValidationFailedError, 422)
  })

  it("payments and refunds: get and list", async () => {
    const command = decodeCommand(PaymentCreateRequest, "payments")({ amount: 1500, currency: "GBP", links: { mandate: mandateId } })
    const payment = await run(Effect.flatMap(command, (c) => Payments.use((p) => p.create(org, c))))
    expect((await client.payments.find(payment.id)).amount).toBe(1500)
    const listed = await client.payments.list({ mandate: mandateId, status: "pending_submission" } as never)
    expect(listed.payments.map((p) => p.id)).toContain(payment.id)
    expectError(await failure(client.payments.list({ limit: 0 } as never)), ValidationFailedError, 422)
    expect((await client.refunds.list({ payment: payment.id } as never)).refunds).toEqual([])
    expectError(await failure(client.refunds.find("RF000000000000")), InvalidApiUsageError, 404)
  })

  it("events: list with filters and get", async () => {
    const page = await client.events.list({ resource_type: "billing_requests", limit: 5 } as never)
    expect(page.events).toHaveLength(5)
    expect(page.events.every((e) => e.resource_type === "billing_requests")).toBe(true)
    const first = page.events[0]
    expect((await client.events.find(first?.id ?? "")).action).toBe(first?.action)
    expectError(await failure(client.events.list({ resource_type: "nope" } as never)), ValidationFailedError, 422)
    expectError(await failure(client.events.find("EV000000000000")), InvalidApiUsageError, 404)
  })

  it("payer authorisations: create, get, update, submit, confirm; submitting an incomplete one fails", async () => {
    const created = await client.payerAuthorisations.create({ customer: { email: "ada@example.com" } } as never)
    const id = created.id ?? ""
    expect((await client.payerAuthorisations.find(id)).id).toBe(id)
    const refused = await failure(client.payerAuthorisations.submit(id))
    expect(refused).toBeInstanceOf(ApiError)
    expect((refused as ApiError).code).toBe(422)
    const full = await client.payerAuthorisations.update(id, {
      customer: { email: "ada@example.com", given_name: "Ada", family_name: "Lovelace", address_line1: "1 Analytical Row", city: "London", postal_code: "N1 1AA", country_code: "GB" },
      bank_account: UK_ACCOUNT,
      mandate: { scheme: "bacs" }
    } as never)
    expect(full.id).toBe(id)
    expect((await client.payerAuthorisations.submit(id)).status).toBe("submitted")
    expect((await client.payerAuthorisations.confirm(id)).status).toBe("completed")
    expectError(await failure(client.payerAuthorisations.find("PA000000000000")), InvalidApiUsageError, 404)
  })
})

describe("outbound payments, imports, payment accounts, verification details, limits, payouts", () => {
  const org = OrganisationId("OR00000VTB0VND")
  let client: ReturnType<typeof localClient>
  let creditorId = ""
  let recipientId = ""
  beforeAll(async () => {
    client = localClient(await server.token(org), server.url)
    const creditor = await client.creditors.create({ name: "Acme Payroll", country_code: "GB", creditor_type: "company" } as never)
    creditorId = creditor.id ?? ""
    const recipient = await run(Effect.gen(function*() {
      const creditors = yield* Creditors
      yield* creditors.createBankAccount(org, {
        account_holder_name: "Acme Payroll Ltd", account_number: "55779911", branch_code: "200000", country_code: "GB", currency: "GBP",
        links: { creditor: creditorId }
      })
      const customers = yield* Customers
      const customer = yield* customers.create(org, { given_name: "Ada", family_name: "Lovelace", country_code: "GB" })
      return yield* customers.createBankAccount(org, {
        account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB", links: { customer: customer.id }
      })
    }))
    recipientId = recipient.id
  })

  it("verification details: create and list; a list without its creditor is ValidationFailedError", async () => {
    const detail = await client.verificationDetails.create({
      name: "Acme Payroll Ltd", company_number: "01234567", description: "Payroll services", address_line1: "1 High Street",
      city: "London", postal_code: "EC1A 1AA", directors: [DIRECTOR], links: { creditor: creditorId }
    } as never)
    expect((detail.__response__ as { statusCode: number }).statusCode).toBe(201)
    expect((await client.verificationDetails.list({ creditor: creditorId } as never)).verification_details).toHaveLength(1)
    const error = await failure(client.verificationDetails.list({} as never))
    expectError(error, ValidationFailedError, 422)
    expect((error as ValidationFailedError).errors[0]?.field).toBe("creditor")
    await run(Effect.flatMap(Creditors, (c) => c.completeReviews(org)))
    expect((await client.creditors.find(creditorId)).verification_status).toBe("successful")
  })

  it("outbound payments: create, get, list, update, approve, cancel, withdrawal; errors parsed", async () => {
    const funding = decodeCommand(PaymentAccountFundRequest, PAYMENT_ACCOUNTS)({ amount: 10_000, links: { creditor: creditorId } })
    await run(Effect.flatMap(Effect.zip(PaymentAccounts, funding), ([a, command]) => a.fund(org, command)))
    const created = await client.outboundPayments.create({
      amount: 2500, scheme: "faster_payments", reference: "INV 42", links: { recipient_bank_account: recipientId }
    } as never)
    const id = created.id ?? ""
    expect((created.__response__ as { headers: Record<string, string> }).headers["location"]).toBe(`/outbound_payments/${id}`)
    expect((await client.outboundPayments.find(id)).amount).toBe(2500)
    expect((await client.outboundPayments.list({ status: created.status } as never)).outbound_payments.map((p) => p.id)).toContain(id)
    expect((await client.outboundPayments.update(id, { metadata: { invoice: "42" } } as never)).metadata).toEqual({ invoice: "42" })
    const approved = await client.outboundPayments.approve(id)
    expect(approved.status).toBe("scheduled")
    expectError(await failure(client.outboundPayments.approve(id)), InvalidStateError, 422)
    const second = await client.outboundPayments.create({ amount: 100, scheme: "faster_payments", links: { recipient_bank_account: recipientId } } as never)
    expect((await client.outboundPayments.cancel(second.id ?? "", {} as never)).status).toBe("cancelled")
    const withdrawal = await client.outboundPayments.withdraw({ amount: 100, scheme: "faster_payments", links: { creditor: creditorId } } as never)
    expect((withdrawal.__response__ as { statusCode: number }).statusCode).toBe(201)
    expect(withdrawal.is_withdrawal).toBe(true)
    expectError(await failure(client.outboundPayments.create({ amount: 100, scheme: "faster_payments", links: { recipient_bank_account: "BA000000000000" } } as never)), ValidationFailedError, 422)
    expectError(await failure(client.outboundPayments.find("OUT000000000000")), InvalidApiUsageError, 404)
  })

  it("payment accounts: get and list", async () => {
    const accounts = await client.paymentAccounts.list({ creditor: creditorId } as never)
    expect(accounts.payment_accounts).toHaveLength(1)
    const account = accounts.payment_accounts[0]
    expect((await client.paymentAccounts.find(account?.id ?? "")).id).toBe(account?.id)
    expectError(await failure(client.paymentAccounts.find("BA000000000000")), InvalidApiUsageError, 404)
  })

  it("outbound payment imports: create, get, list, and their entries", async () => {
    const created = await client.outboundPaymentImports.create({
      entry_items: [{ scheme: "faster_payments", amount: 1000, recipient_bank_account_id: recipientId, reference: "JAN PAY" }]
    } as never)
    const id = created.id ?? ""
    expect(created.status).toBe("validating")
    expect((await client.outboundPaymentImports.find(id)).id).toBe(id)
    expect((await client.outboundPaymentImports.list()).outbound_payment_imports.map((i) => i.id)).toContain(id)
    const entries = await client.outboundPaymentImportEntries.list({ outbound_payment_import: id } as never)
    expect(entries.outbound_payment_import_entries).toHaveLength(1)
    expectError(await failure(client.outboundPaymentImportEntries.list({} as never)), ValidationFailedError, 422)
    expectError(await failure(client.outboundPaymentImports.create({ entry_items: [{ amount: -1 }] } as never)), ValidationFailedError, 422)
  })

  it("negative balance limits: list", async () => {
    await run(Effect.flatMap(NegativeBalanceLimits, (n) => n.set(org, { balance_limit: unsafeAmount(5000), currency: "GBP", links: { creditor: creditorId } })))
    const limits = await client.negativeBalanceLimits.list({ currency: "GBP" } as never)
    expect(limits.negative_balance_limits.map((l) => l.balance_limit)).toEqual([5000])
    expectError(await failure(client.negativeBalanceLimits.list({ limit: 501 } as never)), ValidationFailedError, 422)
  })

  it("payouts: get, list, update; only metadata may change", async () => {
    await run(seedPayouts(org, 3, creditorId))
    const page = await client.payouts.list({ creditor: creditorId, status: "paid" } as never)
    expect(page.payouts).toHaveLength(3)
    const id = page.payouts[0]?.id ?? ""
    expect((await client.payouts.find(id)).amount).toBe(12_345)
    expect((await client.payouts.update(id, { metadata: { batch: "7" } } as never)).metadata).toEqual({ batch: "7" })
    expectError(await failure(client.payouts.update(id, { amount: 1 } as never)), ValidationFailedError, 422)
    expectError(await failure(client.payouts.find("PO999999999999")), InvalidApiUsageError, 404)
  })
})

describe("reference data and stateless endpoints", () => {
  let client: ReturnType<typeof localClient>
  beforeAll(async () => {
    client = localClient(await server.token("OR000REFERENCE"), server.url)
  })

  it("tax rates: list and get", async () => {
    const rates = await client.taxRates.list({ jurisdiction: "GB" } as never)
    expect(rates.tax_rates.length).toBeGreaterThan(0)
    const first = rates.tax_rates[0]
    expect((await client.taxRates.find(first?.id ?? "")).jurisdiction).toBe("GB")
    expectError(await failure(client.taxRates.find("nope")), InvalidApiUsageError, 404)
  })

  it("bank details lookups: the schemes of valid details; bad details are ValidationFailedError", async () => {
    const lookup = await client.bankDetailsLookups.create({ account_number: "55779911", branch_code: "200000", country_code: "GB" } as never)
    expect((lookup.__response__ as { statusCode: number }).statusCode).toBe(200)
    expect(lookup.available_debit_schemes).toContain("bacs")
    expectError(await failure(client.bankDetailsLookups.create({ iban: "GB00NOPE" } as never)), ValidationFailedError, 422)
  })

  it("payer themes: stored per creditor (a second call updates it); a bad colour or another's creditor is ValidationFailedError", async () => {
    const creditor = await client.creditors.create({ name: "Acme Brand", country_code: "GB", creditor_type: "company" } as never)
    const theme = await client.payerThemes.createForCreditor({ header_background_colour: "#FFFFFF", links: { creditor: creditor.id } } as never)
    expect(theme.id).toMatch(/^PTH/)
    const again = await client.payerThemes.createForCreditor({ link_text_colour: "#000000", links: { creditor: creditor.id } } as never)
    expect(again.id).toBe(theme.id)
    const stored = await run(Effect.flatMap(PayerThemes, (s) => s.forCreditor(OrganisationId("OR000REFERENCE"), creditor.id ?? "")))
    expect(stored).toMatchObject({ id: theme.id, header_background_colour: "#FFFFFF", link_text_colour: "#000000" })
    expectError(await failure(client.payerThemes.createForCreditor({ header_background_colour: "white" } as never)), ValidationFailedError, 422)
    expectError(await failure(client.payerThemes.createForCreditor({ links: { creditor: "CR999999999999" } } as never)), ValidationFailedError, 422)
  })
})
