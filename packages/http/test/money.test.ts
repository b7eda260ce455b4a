import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ApiError, InvalidApiUsageError, ValidationFailedError } from "gocardless-nodejs"
import { type Timestamp, unsafeAmount as a, OrganisationId } from "@paykit/core"
import {
  Creditors,
  CreditorRepository,
  Customers,
  decodeCommand,
  type LedgerEntry,
  LedgerRepository,
  PAYMENT_ACCOUNTS,
  PaymentAccountFundRequest,
  PaymentAccounts,
  PayoutRepository
} from "@paykit/engine"
import { creditor, payout } from "./fixtures.ts"
import { failure, localClient, startServer, type TestServer } from "./harness.ts"

/**
 * Issue 18's money reads through the official client over HTTP: payout items (their pages, both
 * ways, and the six-month rule), balances and exchange rates. Payouts and the ledger rows they
 * took are written to the store, as the daily run writes them (server/test/money.test.ts makes
 * them through the daily run itself).
 */

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server.close()
})

const run = <A, E, R>(effect: Effect.Effect<A, E, R>) => server.run(effect)

const expectError = (error: unknown, kind: abstract new (...args: never) => ApiError, code: number) => {
  expect(error).toBeInstanceOf(kind)
  expect((error as ApiError).code).toBe(code)
}

const CREDITOR = creditor(1)
const CREATED = "2026-11-20T06:00:00.000Z" as Timestamp
const TAXED_FEE = { fee: a(20), tax: { amount: a(4), tax_rate_id: "GB_VAT_1" } }
const NO_FEE = { fee: a(0), tax: null }

/** One of each kind of settled movement, and the items each makes (worked out by hand from the API's sign rules). */
const ENTRIES: ReadonlyArray<readonly [LedgerEntry["entry"], ReadonlyArray<readonly [string, string]>]> = [
  [
    { kind: "payment_paid_out", currency: "GBP", payment: "PM000000000001", mandate: "MD000000000001", amount: a(1000), gocardless_fee: TAXED_FEE, app_fee: a(10) },
    [["payment_paid_out", "1000.0"], ["gocardless_fee", "-24.0"], ["app_fee", "-10.0"]]
  ],
  [
    {
      kind: "chargeback_settled", currency: "GBP", payment: "PM000000000002", mandate: "MD000000000001", amount: a(500),
      refunded_gocardless_fee: { fee: a(20), tax: null }, refunded_app_fee: a(0), surcharge: { fee: a(150), tax: null }
    },
    [["payment_charged_back", "-500.0"], ["gocardless_fee", "20.0"], ["surcharge_fee", "-150.0"]]
  ],
  [
    { kind: "payment_refunded", currency: "GBP", payment: "PM000000000001", mandate: "MD000000000001", refund: "RF000000000001", amount: a(200), gocardless_fee: NO_FEE },
    [["payment_refunded", "-200.0"]]
  ],
  [{ kind: "refund_funds_returned", currency: "GBP", refund: "RF000000000002", amount: a(50) }, [["refund_funds_returned", "50.0"]]]
]
const ITEM_TOTAL = 1000 - 24 - 10 - 500 + 20 - 150 - 200 + 50

const ledgerRow = (n: number, payoutId: string | null, entry: LedgerEntry["entry"]): LedgerEntry => ({
  id: `POI${String(n).padStart(12, "0")}`,
  created_at: CREATED,
  creditor: CREDITOR.id,
  currency: "GBP",
  entry,
  payout: payoutId
})

/** A payout of `ENTRIES` (their rows numbered from `first`), created at `created_at`. */
const seedPayoutWithRows = (org: string, n: number, first: number, created_at: Timestamp) =>
  Effect.gen(function*() {
    const stored = { ...payout(n, CREDITOR.id, "BA000000000001"), created_at, amount: ITEM_TOTAL, tax_currency: "GBP" as const }
    yield* Effect.orDie((yield* PayoutRepository).insert(org, stored))
    const ledger = yield* LedgerRepository
    for (const [i, [entry]] of ENTRIES.entries()) yield* Effect.orDie(ledger.insert(org, ledgerRow(first + i, stored.id, entry)))
    return stored.id
  })

describe("GET /payout_items", () => {
  const org = OrganisationId("OR0PAY0VT1TEMS")
  let client: ReturnType<typeof localClient>
  let payoutId = ""
  const expected = ENTRIES.slice().reverse().flatMap(([, items]) => items)

  beforeAll(async () => {
    client = localClient(await server.token(org), server.url)
    await run(Effect.orDie(Effect.flatMap(CreditorRepository, (r) => r.insert(org, CREDITOR))))
    payoutId = await run(seedPayoutWithRows(org, 1, 1, CREATED))
  })

  it("lists the items of the payout's rows, newest row first, each row's items in order; they sum to the payout's amount", async () => {
    const page = await client.payoutItems.list({ payout: payoutId })
    expect(page.payout_items.map((i) => [i.type, i.amount])).toEqual(expected)
    expect(page.payout_items.reduce((sum, i) => sum + Number(i.amount), 0)).toBe((await client.payouts.find(payoutId)).amount)
    expect(page.meta.cursors).toEqual({ before: null, after: null })
    const fee = page.payout_items.find((i) => i.type === "gocardless_fee" && i.amount === "-24.0")
    expect(fee).toMatchObject({
      links: { payment: "PM000000000001", mandate: "MD000000000001" },
      taxes: [{ amount: "4.0", currency: "GBP", destination_amount: "4.0", destination_currency: "GBP", exchange_rate: null, tax_rate_id: "GB_VAT_1" }]
    })
  })

  it("pages of any size cut inside a row, forwards with after and backwards with before, give the same items once each", async () => {
    for (const limit of [1, 2, 3, 4, 7]) {
      const forwards: Array<readonly [string, string]> = []
      let after: string | null = null
      let lastCursor = ""
      do {
        const page = await client.payoutItems.list({ payout: payoutId, limit, ...(after === null ? {} : { after }) })
        expect(page.payout_items.length).toBeLessThanOrEqual(limit)
        forwards.push(...page.payout_items.map((i) => [i.type ?? "", i.amount ?? ""] as const))
        lastCursor = page.meta.cursors.after ?? lastCursor
        after = page.meta.cursors.after
      } while (after !== null)
      expect(forwards, `limit ${limit}`).toEqual(expected)

      // The last page again (from the last cursor met), then before cursors back to the start.
      const backwards: Array<readonly [string, string]> = []
      const lastPage = await client.payoutItems.list({ payout: payoutId, limit, after: lastCursor })
      backwards.unshift(...lastPage.payout_items.map((i) => [i.type ?? "", i.amount ?? ""] as const))
      let before = lastPage.meta.cursors.before
      while (before !== null) {
        const page = await client.payoutItems.list({ payout: payoutId, limit, before })
        backwards.unshift(...page.payout_items.map((i) => [i.type ?? "", i.amount ?? ""] as const))
        before = page.meta.cursors.before
      }
      expect(backwards, `limit ${limit} backwards`).toEqual(expected)
    }
  })

  it("404 for an unknown payout, 422 without one or with a cursor of another list, 410 past six months", async () => {
    expectError(await failure(client.payoutItems.list({ payout: "PO999999999999" })), InvalidApiUsageError, 404)
    expectError(await failure(client.payoutItems.list({} as never)), ValidationFailedError, 422)
    expectError(await failure(client.payoutItems.list({ payout: payoutId, after: "POI999999999999.0" })), ValidationFailedError, 422)
    expectError(await failure(client.payoutItems.list({ payout: payoutId, after: "not-a-cursor" })), ValidationFailedError, 422)
    const old = await run(seedPayoutWithRows(org, 2, 100, "2026-04-30T06:00:00.000Z" as Timestamp))
    const gone = await failure(client.payoutItems.list({ payout: old }))
    expect((gone as ApiError).code).toBe(410)
    expect((gone as ApiError).errors[0]?.reason).toBe("payout_items_no_longer_available")
    const openapi = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, { get?: { responses?: Record<string, unknown> } }> }
    expect(Object.keys(openapi.paths["/payout_items"]?.get?.responses ?? {})).toContain("410")
  })
})

describe("GET /balances", () => {
  const org = OrganisationId("OR0000BA1ANCES")
  let client: ReturnType<typeof localClient>

  beforeAll(async () => {
    client = localClient(await server.token(org), server.url)
    await run(Effect.orDie(Effect.flatMap(CreditorRepository, (r) => r.insert(org, CREDITOR))))
  })

  it("confirmed funds are the unsettled rows net of fees, pending payouts the payouts not yet sent", async () => {
    await run(Effect.gen(function*() {
      const ledger = yield* LedgerRepository
      for (const [i, [entry]] of ENTRIES.entries()) yield* Effect.orDie(ledger.insert(org, ledgerRow(200 + i, null, entry)))
      const pending = { ...payout(5, CREDITOR.id, "BA000000000001"), status: "pending" as const, amount: 7000 }
      yield* Effect.orDie((yield* PayoutRepository).insert(org, pending))
      yield* Effect.orDie((yield* PayoutRepository).insert(org, payout(6, CREDITOR.id, "BA000000000001")))
    }))
    const page = await client.balances.list({ creditor: CREDITOR.id })
    expect(page.balances.map((b) => [b.currency, b.balance_type, b.amount])).toEqual([
      ["GBP", "pending_payments_submitted", 0],
      ["GBP", "confirmed_funds", ITEM_TOTAL],
      ["GBP", "pending_payouts", 7000]
    ])
    expect(page.balances[0]?.links).toEqual({ creditor: CREDITOR.id })
    const first = await client.balances.list({ creditor: CREDITOR.id, limit: 2 })
    const rest = await client.balances.list({ creditor: CREDITOR.id, limit: 2, after: first.meta.cursors.after ?? "" })
    expect([...first.balances, ...rest.balances]).toEqual(page.balances.map((b) => ({ ...b, last_updated_at: expect.any(String) })))
    expect(rest.meta.cursors.after).toBeNull()
  })

  it("422 without a creditor, 404 for an unknown one", async () => {
    expectError(await failure(client.balances.list({} as never)), ValidationFailedError, 422)
    expectError(await failure(client.balances.list({ creditor: "CR999999999999" })), InvalidApiUsageError, 404)
  })
})

describe("GET /currency_exchange_rates", () => {
  let client: ReturnType<typeof localClient>
  beforeAll(async () => {
    client = localClient(await server.token("OR0000000000FX"), server.url)
  })

  it("every ordered pair of the eight currencies, filtered by source and target, paged", async () => {
    const all = []
    for await (const rate of client.currencyExchangeRates.all({ limit: 10 })) all.push(rate)
    expect(all).toHaveLength(8 * 7)
    expect(new Set(all.map((r) => `${r.source}${r.target}`)).size).toBe(56)
    const gbp = await client.currencyExchangeRates.list({ source: "GBP", target: "USD" })
    // The sandbox values a pound at 1.27 dollars: exact at ten places, and the inverse rounds down.
    expect(gbp.currency_exchange_rates.map((r) => r.rate)).toEqual(["1.2700000000"])
    const usd = await client.currencyExchangeRates.list({ source: "USD", target: "GBP" })
    expect(usd.currency_exchange_rates.map((r) => r.rate)).toEqual(["0.7874015748"])
    expect(usd.currency_exchange_rates[0]?.time).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/)
    expect((await client.currencyExchangeRates.list({ source: "EUR" })).currency_exchange_rates.every((r) => r.source === "EUR")).toBe(true)
    expectError(await failure(client.currencyExchangeRates.list({ source: "XYZ" })), ValidationFailedError, 422)
  })
})

describe("scheme identifiers", () => {
  let client: ReturnType<typeof localClient>
  let creditorId = ""
  beforeAll(async () => {
    client = localClient(await server.token("ORSCHEME1DENT1"), server.url)
    const made = await client.creditors.create({ name: "Acme Ltd", country_code: "GB", creditor_type: "company" } as never)
    creditorId = made.id ?? ""
  })

  it("a creditor's identifiers are listed and read by id; a new one is pending, with the scheme's currency and notice", async () => {
    const initial = await client.schemeIdentifiers.list({ creditor: creditorId })
    expect(initial.scheme_identifiers.map((s) => [s.scheme, s.status]).sort()).toEqual([["bacs", "active"], ["faster_payments", "active"]])

    const created = await client.schemeIdentifiers.create({ name: "ACME EUROPE", scheme: "sepa" })
    expect(created).toMatchObject({ name: "ACME EUROPE", scheme: "sepa", status: "pending", currency: "EUR", minimum_advance_notice: 3, reference: null })
    expect(created.id).toMatch(/^SU/)
    expect(await client.schemeIdentifiers.find(created.id ?? "")).toEqual(expect.objectContaining({ id: created.id, name: "ACME EUROPE" }))
    const creditorNow = await client.creditors.find(creditorId)
    expect(creditorNow.scheme_identifiers?.map((s) => s.id)).toContain(created.id)

    const listed = await client.schemeIdentifiers.list({ creditor: creditorId, limit: 2 })
    expect(listed.scheme_identifiers.map((s) => s.id)[0]).toBe(created.id)
    const next = await client.schemeIdentifiers.list({ creditor: creditorId, limit: 2, after: listed.meta.cursors.after ?? "" })
    expect([...listed.scheme_identifiers, ...next.scheme_identifiers]).toHaveLength(3)
  })

  it("422 for an unknown scheme, a blank name or no creditor when there are two; 404 for an unknown id", async () => {
    expectError(await failure(client.schemeIdentifiers.create({ name: "X", scheme: "swift" as never })), ValidationFailedError, 422)
    expectError(await failure(client.schemeIdentifiers.create({ name: " ", scheme: "bacs" })), ValidationFailedError, 422)
    await client.creditors.create({ name: "Second Ltd", country_code: "SE", creditor_type: "company" } as never)
    expectError(await failure(client.schemeIdentifiers.create({ name: "ACME", scheme: "bacs" })), ValidationFailedError, 422)
    expectError(await failure(client.schemeIdentifiers.find("SU999999999999")), InvalidApiUsageError, 404)
  })
})

describe("payment account transactions, outbound payment stats, import cancel", () => {
  const org = OrganisationId("ORM0NEY0VTB0VN")
  let client: ReturnType<typeof localClient>
  let creditorId = ""
  let recipientId = ""
  let token = ""
  const fund = (amount: number) =>
    run(Effect.flatMap(
      Effect.zip(PaymentAccounts, decodeCommand(PaymentAccountFundRequest, PAYMENT_ACCOUNTS)({ amount, links: { creditor: creditorId } })),
      ([accounts, command]) => accounts.fund(org, command)
    ))

  beforeAll(async () => {
    token = await server.token(org)
    client = localClient(token, server.url)
    creditorId = (await client.creditors.create({ name: "Acme Payroll", country_code: "GB", creditor_type: "company" } as never)).id ?? ""
    recipientId = await run(Effect.gen(function*() {
      yield* (yield* Creditors).createBankAccount(org, {
        account_holder_name: "Acme Payroll Ltd", account_number: "55779911", branch_code: "200000", country_code: "GB", currency: "GBP",
        links: { creditor: creditorId }
      })
      const customers = yield* Customers
      const customer = yield* customers.create(org, { given_name: "Ada", family_name: "Lovelace", country_code: "GB" })
      const account = yield* customers.createBankAccount(org, {
        account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB", links: { customer: customer.id }
      })
      return account.id
    }))
  })

  it("funds received are credits, each with the statement balance after it; filtered by value date and direction", async () => {
    const account = await fund(10_000)
    await fund(2_500)
    const today = new Date().toISOString().slice(0, 10)
    const page = await client.paymentAccountTransactions.list(account.id, { value_date_from: today, value_date_to: today })
    expect(page.payment_account_transactions.map((t) => [t.direction, t.amount, t.balance_after_transaction])).toEqual([
      ["credit", 2500, 12_500],
      ["credit", 10_000, 10_000]
    ])
    const newest = page.payment_account_transactions[0]
    expect(newest).toMatchObject({ currency: "GBP", counterparty_name: "Acme Payroll", value_date: today, links: { payment_bank_account: account.id } })
    expect(await client.paymentAccountTransactions.find(newest?.id ?? "")).toMatchObject({ id: newest?.id, amount: 2500 })
    const events = await client.events.list({ resource_type: "payment_account_transactions" } as never)
    expect(events.events.map((e) => [e.action, e.links?.payment_account_transaction])).toEqual(
      page.payment_account_transactions.map((t) => ["created", t.id])
    )
    const debits = await client.paymentAccountTransactions.list(account.id, { value_date_from: today, value_date_to: today, direction: "debit" })
    expect(debits.payment_account_transactions).toEqual([])
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)
    expect((await client.paymentAccountTransactions.list(account.id, { value_date_from: yesterday, value_date_to: yesterday })).payment_account_transactions).toEqual([])

    expectError(await failure(client.paymentAccountTransactions.list(account.id, { value_date_from: today } as never)), ValidationFailedError, 422)
    expectError(await failure(client.paymentAccountTransactions.list(account.id, { value_date_from: today, value_date_to: yesterday })), ValidationFailedError, 422)
    expectError(await failure(client.paymentAccountTransactions.list("BA000000000000", { value_date_from: today, value_date_to: today })), InvalidApiUsageError, 404)
    expectError(await failure(client.paymentAccountTransactions.find("PAT000000000000")), InvalidApiUsageError, 404)
  })

  it("outbound payment stats count and sum the organisation's payments per status", async () => {
    const empty = await client.outboundPayments.stats()
    expect(empty).toMatchObject({ currency: "GBP", total_count: 0, total_amount: 0 })
    const create = (amount: number) =>
      client.outboundPayments.create({ amount, scheme: "faster_payments", links: { recipient_bank_account: recipientId } } as never)
    await create(300)
    await create(200)
    const approved = await create(1000)
    await client.outboundPayments.approve(approved.id ?? "")
    const stats = await client.outboundPayments.stats()
    expect(stats).toMatchObject({ total_count: 3, total_amount: 1500 })
    const byStatus = (stats as unknown as { statuses: ReadonlyArray<{ status: string; count: number; amount: number }> }).statuses
    const nonZero = byStatus.filter((s) => s.count > 0).map((s) => [s.status, s.count, s.amount])
    expect(nonZero).toEqual([["pending_approval", 2, 500], ["scheduled", 1, 1000]])
  })

  it("POST /outbound_payment_imports/{id}/actions/cancel cancels an import not yet authorised, once", async () => {
    const created = await client.outboundPaymentImports.create({
      entry_items: [{ scheme: "faster_payments", amount: 1000, recipient_bank_account_id: recipientId, reference: "JAN PAY" }]
    } as never)
    const id = created.id ?? ""
    const cancel = () => fetch(`${server.url}/outbound_payment_imports/${id}/actions/cancel`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "gocardless-version": "2015-07-06", "content-type": "application/json" },
      body: "{}"
    })
    const answer = await cancel()
    expect(answer.status).toBe(200)
    expect(await answer.json()).toMatchObject({ outbound_payment_imports: { id, status: "cancelled" } })
    expect((await client.outboundPaymentImports.find(id)).status).toBe("cancelled")
    const again = await cancel()
    expect(again.status).toBe(422)
    expect(await again.json()).toMatchObject({ error: { errors: [{ reason: "cancellation_failed" }] } })
  })
})

describe("funds availability and exports", () => {
  const org = OrganisationId("OR0000000FVNDS")
  let client: ReturnType<typeof localClient>
  beforeAll(async () => {
    client = localClient(await server.token(org), server.url)
    await client.creditors.create({ name: "Acme Ltd", country_code: "GB", creditor_type: "company" } as never)
  })

  /** A Bacs mandate made by a billing request the payer completed with `holder`'s account. */
  const mandateOf = async (holder: string): Promise<string> => {
    const request = await client.billingRequests.create({ mandate_request: { currency: "GBP", scheme: "bacs" } })
    const id = request.id ?? ""
    await client.billingRequests.collectCustomerDetails(id, {
      customer: { email: "ada@example.com", given_name: "Ada", family_name: "Lovelace" },
      customer_billing_detail: { address_line1: "1 Analytical Row", city: "London", postal_code: "N1 1AA", country_code: "GB" }
    })
    await client.billingRequests.collectBankAccount(id, { account_holder_name: holder, account_number: "55779911", branch_code: "200000", country_code: "GB" })
    await client.billingRequests.confirmPayerDetails(id, {})
    return (await client.billingRequests.fulfil(id, {})).mandate_request?.links?.mandate ?? ""
  }

  it("the payer's bank says whether the amount is covered; an unknown mandate is 404, a bad amount 422", async () => {
    const mandate = await mandateOf("Ada Lovelace")
    expect((await client.fundsAvailabilities.check(mandate, { amount: "1500" })).available).toBe(true)
    expect((await client.fundsAvailabilities.check(mandate, {})).available).toBe(true)
    // The sandbox bank's amount ending 91 is the payer's insufficient funds, as a collection of it would fail.
    expect((await client.fundsAvailabilities.check(mandate, { amount: "1591" })).available).toBe(false)
    const short = await mandateOf("Ada Fail")
    expect((await client.fundsAvailabilities.check(short, { amount: "100" })).available).toBe(false)
    expectError(await failure(client.fundsAvailabilities.check("MD999999999999", { amount: "100" })), InvalidApiUsageError, 404)
    expectError(await failure(client.fundsAvailabilities.check("not a mandate", { amount: "100" })), InvalidApiUsageError, 404)
    expectError(await failure(client.fundsAvailabilities.check(mandate, { amount: "-5" })), ValidationFailedError, 422)
  })

  it("exports: none is made without a dashboard, so the list is empty and an id is 404", async () => {
    const page = await client.exports.list({ limit: 10 })
    expect(page.exports).toEqual([])
    expect(page.meta.cursors).toEqual({ before: null, after: null })
    expectError(await failure(client.exports.find("EX000000000000")), InvalidApiUsageError, 404)
  })
})
