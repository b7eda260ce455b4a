import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import { decodeAtBoundary, type FeatureNotInstalled, type InvalidApiUsage, type OperationError, OrganisationId } from "@paykit/core"
import { decodeCommand, inMemoryEngine, Paykit, PaymentCreateRequest, PaymentListParams, Payments, REQUEST_BODIES, Simulator, SubscriptionCreateRequest } from "@paykit/engine"

const ORG = OrganisationId("OR0000000000AA")

const run = <A, E>(program: Effect.Effect<A, E, Paykit | Payments | Simulator>): Promise<A> =>
  Effect.runPromise(Effect.provide(
    Effect.andThen(TestClock.setTime(Date.UTC(2026, 10, 23, 9)), program),
    Layer.mergeAll(inMemoryEngine({ seed: 7 }), TestClock.layer())
  ))

/** A creditor collecting in GBP and a payer with a mandate, made with plain literals only. */
const payer = Effect.gen(function*() {
  const paykit = yield* Paykit
  const creditor = yield* paykit.creditors.create(ORG, { name: "Acme Gym", country_code: "GB", creditor_type: "company" })
  yield* paykit.creditors.createBankAccount(ORG, {
    account_holder_name: "Acme Gym Ltd", account_number: "55779911", branch_code: "200000",
    country_code: "GB", currency: "GBP", links: { creditor: creditor.id }
  })
  yield* paykit.creditors.createVerificationDetail(ORG, {
    name: "Acme Gym Ltd", company_number: "01234567", description: "Gyms", address_line1: "1 High Street",
    city: "London", postal_code: "E1 6AN", links: { creditor: creditor.id },
    directors: [{ given_name: "Grace", family_name: "Hopper", date_of_birth: "1970-01-01", street: "1 High Street",
      city: "London", postal_code: "E1 6AN", country_code: "GB" }]
  })
  const customer = yield* paykit.customers.create(ORG, { given_name: "Ada", family_name: "Lovelace", email: "ada@example.com" })
  const account = yield* paykit.customers.createBankAccount(ORG, {
    account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000",
    country_code: "GB", links: { customer: customer.id }
  })
  const mandate = yield* paykit.mandates.create(ORG, { links: { customer_bank_account: account.id } })
  return { paykit, creditor, customer, account, mandate }
})

/** The pointers of a validation failure; any other failure is named by its tag, so the test says what came instead. */
const pointersOf = (failure: OperationError | FeatureNotInstalled): ReadonlyArray<string> =>
  failure._tag === "ValidationFailed" ? failure.errors.map((e) => e.request_pointer) : [failure._tag]

describe("operations take the API's plain request values", () => {
  it("creates a payment and a subscription from plain literals through the facade, and they run", async () => {
    const r = await run(Effect.gen(function*() {
      const { paykit, mandate } = yield* payer
      const payment = yield* paykit.payments.create(ORG, { amount: 1500, currency: "GBP", links: { mandate: mandate.id } })
      const subscription = yield* paykit.subscriptions.create(ORG, {
        amount: 2500, currency: "GBP", interval_unit: "monthly", day_of_month: 1, links: { mandate: mandate.id }
      })
      yield* paykit.subscriptions.pause(ORG, subscription.id, { pause_cycles: 1 })
      yield* paykit.subscriptions.resume(ORG, subscription.id)
      yield* (yield* Simulator).advanceBy(10 * 86_400_000)
      return { payment: yield* paykit.payments.get(ORG, payment.id), subscription: yield* paykit.subscriptions.get(ORG, subscription.id) }
    }))
    expect(r.payment.amount).toBe(1500)
    expect(r.payment.status).toBe("paid_out")
    expect(r.subscription.status).toBe("active")
    expect(r.subscription.upcoming_payments.length).toBeGreaterThan(0)
  })

  it("refuses a bad literal at the boundary with the typed ValidationFailed the API answers 422 with, storing nothing", async () => {
    const r = await run(Effect.gen(function*() {
      const { paykit, mandate } = yield* payer
      const negative = yield* Effect.flip(paykit.payments.create(ORG, { amount: -1, currency: "GBP", links: { mandate: mandate.id } }))
      // The compiler refuses an unknown currency; a caller in JavaScript meets the same refusal at run time.
      // @ts-expect-error "XX" is no currency
      const currency = yield* Effect.flip(paykit.payments.create(ORG, { amount: 1500, currency: "XX", links: { mandate: mandate.id } }))
      const id = yield* Effect.flip(paykit.payments.create(ORG, { amount: 1500, currency: "GBP", links: { mandate: "not-a-mandate" } }))
      const date = yield* Effect.flip(paykit.subscriptions.create(ORG, {
        amount: 1500, currency: "GBP", interval_unit: "monthly", start_date: "2026-02-30", links: { mandate: mandate.id }
      }))
      // Held in a variable, as data read from elsewhere would be: TypeScript lets its unknown field through.
      const withTypo = { amount: 1500, currency: "GBP", chrage_date: "2026-12-01", links: { mandate: mandate.id } } as const
      const unknownField = yield* Effect.flip(paykit.payments.create(ORG, withTypo))
      const stored = yield* paykit.payments.list(ORG, {})
      return { negative, currency, id, date, unknownField, stored: stored.items.length }
    }))
    expect(pointersOf(r.negative)).toEqual(["/payments/amount"])
    expect(pointersOf(r.currency)).toEqual(["/payments/currency"])
    expect(pointersOf(r.id)).toEqual(["/payments/links/mandate"])
    expect(pointersOf(r.date)).toEqual(["/subscriptions/start_date"])
    expect(pointersOf(r.unknownField)).toEqual(["/payments/chrage_date"])
    expect(r.stored).toBe(0)
  })

  it("decodes at every operation's boundary: an unknown field is refused under the operation's resource key", async () => {
    const r = await run(Effect.gen(function*() {
      const { paykit, creditor, mandate } = yield* payer
      // Spread from elsewhere, as a caller's own data would be: TypeScript lets the field through.
      const typo = { typo_field: 1 }
      // An outcome's fields are all optional: only a value whose type names none of them gets its typo through TypeScript.
      const outcome: object = typo
      const refused = (effect: Effect.Effect<unknown, OperationError | FeatureNotInstalled>) => Effect.map(Effect.flip(effect), pointersOf)
      return [
        yield* refused(paykit.creditors.create(ORG, { name: "Acme", country_code: "GB", creditor_type: "company", ...typo })),
        yield* refused(paykit.customers.create(ORG, { given_name: "Ada", family_name: "Lovelace", ...typo })),
        yield* refused(paykit.mandates.create(ORG, { links: { customer_bank_account: "BA0000000000AB" }, ...typo })),
        yield* refused(paykit.mandates.cancel(ORG, mandate.id, { metadata: {}, ...typo })),
        yield* refused(paykit.subscriptions.create(ORG, { amount: 100, currency: "GBP", interval_unit: "weekly", links: { mandate: mandate.id }, ...typo })),
        yield* refused(paykit.payments.createRefund(ORG, { amount: 100, total_amount_confirmation: 100, links: { payment: "PM0000000000AB" }, ...typo })),
        yield* refused(paykit.webhookEndpoints.create(ORG, { url: "https://example.com/hooks", ...typo })),
        yield* refused(paykit.blocks.create(ORG, { block_type: "email", reason_type: "other", resource_reference: "a@example.com", ...typo })),
        yield* refused(paykit.outboundPaymentImports.create(ORG, { entry_items: [], links: { creditor: creditor.id }, ...typo })),
        yield* refused(paykit.payouts.update(ORG, "PO0000000000AB", { metadata: {}, ...typo })),
        yield* refused(paykit.negativeBalanceLimits.set(ORG, { balance_limit: 100, currency: "GBP", links: { creditor: creditor.id }, ...typo })),
        yield* refused(paykit.paymentAccounts.fund(ORG, { amount: 100, links: { creditor: creditor.id }, ...typo })),
        yield* refused(paykit.scenarioSimulators.run(ORG, "payment_paid_out", { links: { resource: "PM0000000000AB" }, ...typo })),
        yield* refused(paykit.mandatePdfs.create(ORG, { links: { mandate: mandate.id }, ...typo }, [])),
        yield* refused(paykit.payerAuthorisations.create(ORG, { customer: { email: "ada@example.com" }, ...typo })),
        yield* refused(paykit.payerAuthorisations.update(ORG, "PAU000000000AB", { mandate: { reference: "REF" }, ...typo })),
        yield* refused(paykit.bankAuthorisations.authorise(ORG, "BAU000000000AB", outcome)),
        yield* refused(paykit.fundsAvailabilities.check(ORG, mandate.id, { amount: "1500", ...typo }))
      ]
    }))
    expect(r).toEqual([
      ["/creditors/typo_field"],
      ["/customers/typo_field"],
      ["/mandates/typo_field"],
      ["/mandates/typo_field"],
      ["/subscriptions/typo_field"],
      ["/refunds/typo_field"],
      ["/webhook_endpoints/typo_field"],
      ["/blocks/typo_field"],
      ["/outbound_payment_imports/typo_field", "/outbound_payment_imports/entry_items"],
      ["/payouts/typo_field"],
      ["/negative_balance_limits/typo_field"],
      ["/payment_accounts/typo_field"],
      ["/scenario_simulators/typo_field"],
      ["/mandate_pdfs/typo_field"],
      ["/payer_authorisations/typo_field"],
      ["/payer_authorisations/typo_field"],
      ["/bank_authorisations/typo_field"],
      ["/funds_availability/typo_field"]
    ])
  })

  it("takes a payer authorisation's and a funds check's plain values, and refuses a malformed one", async () => {
    const r = await run(Effect.gen(function*() {
      const { paykit, mandate } = yield* payer
      const authorisation = yield* paykit.payerAuthorisations.create(ORG, { customer: { email: "ada@example.com", given_name: "Ada" } })
      const updated = yield* paykit.payerAuthorisations.update(ORG, authorisation.id, { mandate: { scheme: "bacs" } })
      // @ts-expect-error "visa" is no mandate scheme
      const badScheme = yield* Effect.flip(paykit.payerAuthorisations.create(ORG, { mandate: { scheme: "visa" } }))
      const funds = yield* paykit.fundsAvailabilities.check(ORG, mandate.id, { amount: 1500 })
      const fundsAsQueried = yield* paykit.fundsAvailabilities.check(ORG, mandate.id, { amount: "1500" })
      const badAmount = yield* Effect.flip(paykit.fundsAvailabilities.check(ORG, mandate.id, { amount: "-1" }))
      return { email: updated.customer.email, scheme: updated.mandate.scheme, badScheme: pointersOf(badScheme), funds, fundsAsQueried, badAmount: pointersOf(badAmount) }
    }))
    expect(r).toEqual({
      email: "ada@example.com",
      scheme: "bacs",
      badScheme: ["/payer_authorisations/mandate/scheme"],
      funds: { available: true },
      fundsAsQueried: { available: true },
      badAmount: ["/funds_availability/amount"]
    })
  })

  it("still takes a command decoded first, on the service's own tag as well", async () => {
    const r = await run(Effect.gen(function*() {
      const { mandate } = yield* payer
      const command = yield* decodeCommand(PaymentCreateRequest, "payments")({ amount: 900, currency: "GBP", links: { mandate: mandate.id } })
      return yield* (yield* Payments).create(ORG, command)
    }))
    expect(r.amount).toBe(900)
  })
})

describe("decodeAtBoundary", () => {
  const boundary = decodeAtBoundary(SubscriptionCreateRequest, "subscriptions")
  const plain = { amount: 1500, currency: "GBP", interval_unit: "monthly", links: { mandate: "MD0000000000AB" } } as const

  it("takes a command decoded with the same Schema as it is, and decodes anything else", () => {
    const decoded = Effect.runSync(decodeCommand(SubscriptionCreateRequest, "subscriptions")(plain))
    expect(Effect.runSync(boundary(decoded))).toBe(decoded)
    const fresh = Effect.runSync(boundary(plain))
    expect(fresh).not.toBe(plain)
    expect(fresh).toEqual(plain)
  })

  it("decodes a command another Schema decoded", () => {
    const other = Effect.runSync(decodeCommand(REQUEST_BODIES.payments.create, "payments")({ amount: 1500, currency: "GBP", links: { mandate: "MD0000000000AB" } }))
    // @ts-expect-error a payment's command is not a subscription's; JavaScript callers are checked at run time
    const failure = Effect.runSync(Effect.flip(boundary(other)))
    expect(failure.errors.map((e) => e.request_pointer)).toEqual(["/subscriptions/interval_unit"])
  })
})

describe("list operations take the API's plain list parameters", () => {
  /** What a list refused: the pointers of a validation failure, or the tag of another refusal. */
  const refused = (effect: Effect.Effect<unknown, OperationError | FeatureNotInstalled | InvalidApiUsage>) =>
    Effect.map(Effect.flip(effect), (failure) => failure._tag === "InvalidApiUsage" ? [failure._tag] : pointersOf(failure))

  /** Two mandates of one payer, and payments on each charged on the dates given. */
  const payments = Effect.gen(function*() {
    const { paykit, account, mandate } = yield* payer
    const other = yield* paykit.mandates.create(ORG, { links: { customer_bank_account: account.id } })
    const pay = (on: typeof mandate, charge_date: string) => paykit.payments.create(ORG, { amount: 1000, currency: "GBP", charge_date, links: { mandate: on.id } })
    const december = yield* pay(mandate, "2026-12-15")
    const january = yield* pay(mandate, "2027-01-15")
    const february = yield* pay(mandate, "2027-02-15")
    const others = yield* pay(other, "2027-01-15")
    return { paykit, mandate: mandate.id, ids: { december: december.id, january: january.id, february: february.id, others: others.id } }
  })

  it("filters by a plain id, a plain date range and a plain limit, answering exactly the matching payments", async () => {
    const r = await run(Effect.gen(function*() {
      const { paykit, mandate, ids } = yield* payments
      // A plain string, as a caller's own data holds an id: no brand is needed.
      const id: string = mandate
      const filtered = yield* paykit.payments.list(ORG, { mandate: id, charge_date: { gte: "2027-01-01" }, limit: 10 })
      const oldest = yield* paykit.payments.list(ORG, { mandate: id, sort_field: "charge_date", sort_direction: "asc", limit: "1" })
      const statuses = yield* paykit.payments.list(ORG, { status: ["pending_submission"], charge_date: { lt: "2027-01-01" } })
      return { ids, filtered: filtered.items.map((p) => p.id), oldest: oldest.items.map((p) => p.id), statuses: statuses.items.map((p) => p.id) }
    }))
    expect(r.filtered.toSorted()).toEqual([r.ids.january, r.ids.february].toSorted())
    expect(r.oldest).toEqual([r.ids.december])
    expect(r.statuses).toEqual([r.ids.december])
  })

  it("refuses a bad filter with ValidationFailed under the list's resource key", async () => {
    const r = await run(Effect.gen(function*() {
      const { paykit } = yield* payer
      // Held in a variable, as data read from elsewhere would be: TypeScript lets its unknown field through.
      const withTypo = { mandate: "MD0000000000AB", chrage_date: { gte: "2026-01-01" } }
      return [
        yield* refused(paykit.payments.list(ORG, { limit: 0 })),
        yield* refused(paykit.payments.list(ORG, { limit: 501 })),
        yield* refused(paykit.payments.list(ORG, { limit: "ten" })),
        yield* refused(paykit.payments.list(ORG, { mandate: "not-a-mandate" })),
        yield* refused(paykit.payments.list(ORG, { mandate: "CU0000000000AB" })),
        yield* refused(paykit.payments.list(ORG, { charge_date: { gte: "2026-02-30" } })),
        yield* refused(paykit.payments.list(ORG, withTypo)),
        // @ts-expect-error no payment has this status; a caller in JavaScript meets the same refusal at run time
        yield* refused(paykit.payments.list(ORG, { status: ["paid"] })),
        // Decoded first, the rule that needs more than one field still holds.
        yield* refused(paykit.payments.list(ORG, { customer: "CU0000000000AB", creditor: "CR0000000000AB" }))
      ]
    }))
    expect(r).toEqual([
      ["/payments/limit"],
      ["/payments/limit"],
      ["/payments/limit"],
      ["/payments/mandate"],
      ["/payments/mandate"],
      ["/payments/charge_date/gte"],
      ["/payments/chrage_date"],
      ["/payments/status/0"],
      ["InvalidApiUsage"]
    ])
  })

  it("decodes at every list operation's boundary: an unknown parameter is refused under the list's resource key", async () => {
    const r = await run(Effect.gen(function*() {
      const { paykit, creditor } = yield* payer
      // Spread from elsewhere, as a caller's own data would be: TypeScript lets the field through beside one it knows.
      const typo = { typo_field: 1 }
      return [
        yield* refused(paykit.creditors.list(ORG, { limit: 10, ...typo })),
        yield* refused(paykit.creditors.listBankAccounts(ORG, { limit: 10, ...typo })),
        yield* refused(paykit.creditors.listVerificationDetails(ORG, { creditor: creditor.id, ...typo })),
        yield* refused(paykit.schemeIdentifiers.list(ORG, { limit: 10, ...typo })),
        yield* refused(paykit.negativeBalanceLimits.list(ORG, { limit: 10, ...typo })),
        yield* refused(paykit.customers.list(ORG, { limit: 10, ...typo })),
        yield* refused(paykit.customers.listBankAccounts(ORG, { limit: 10, ...typo })),
        yield* refused(paykit.bankSubmissions.list(ORG, { limit: 10, ...typo })),
        yield* refused(paykit.mandates.list(ORG, { limit: 10, ...typo })),
        yield* refused(paykit.payments.list(ORG, { limit: 10, ...typo })),
        yield* refused(paykit.payments.listRefunds(ORG, { limit: 10, ...typo })),
        yield* refused(paykit.subscriptions.list(ORG, { limit: 10, ...typo })),
        yield* refused(paykit.instalmentSchedules.list(ORG, { limit: 10, ...typo })),
        yield* refused(paykit.payouts.list(ORG, { limit: 10, ...typo })),
        yield* refused(paykit.payoutItems.list(ORG, { payout: "PO0000000000AB", ...typo })),
        yield* refused(paykit.balances.list(ORG, { creditor: creditor.id, ...typo })),
        yield* refused(paykit.currencyExchangeRates.list({ limit: 10, ...typo })),
        yield* refused(paykit.taxRates.list({ limit: 10, ...typo })),
        yield* refused(paykit.paymentAccounts.list(ORG, { limit: 10, ...typo })),
        yield* refused(paykit.paymentAccountTransactions.list(ORG, "PA0000000000AB", { value_date_from: "2026-01-01", value_date_to: "2026-02-01", ...typo })),
        yield* refused(paykit.outboundPayments.list(ORG, { limit: 10, ...typo })),
        yield* refused(paykit.outboundPaymentImports.list(ORG, { limit: 10, ...typo })),
        yield* refused(paykit.outboundPaymentImports.listEntries(ORG, { outbound_payment_import: "IM0000000000AB", ...typo })),
        yield* refused(paykit.institutions.list({ country_code: "GB", ...typo })),
        yield* refused(paykit.billingRequests.institutions(ORG, "BRQ000000000AB", { country_code: "GB", ...typo })),
        yield* refused(paykit.billingRequests.list(ORG, { limit: 10, ...typo })),
        yield* refused(paykit.billingRequestTemplates.list(ORG, { limit: 10, ...typo })),
        yield* refused(paykit.webhookEndpoints.list(ORG, { limit: 10, ...typo })),
        yield* refused(paykit.webhooks.list(ORG, { limit: 10, ...typo })),
        yield* refused(paykit.publicKeys.list(ORG, { limit: 10, ...typo })),
        yield* refused(paykit.blocks.list(ORG, { limit: 10, ...typo })),
        yield* refused(paykit.mandateImports.listEntries(ORG, { mandate_import: "IM0000000000AB", ...typo })),
        yield* refused(paykit.exports.list(ORG, { limit: 10, ...typo })),
        yield* refused(paykit.bankReports.list(ORG, { limit: 10, ...typo })),
        yield* refused(paykit.events.list(ORG, { limit: 10, ...typo }))
      ]
    }))
    expect(r).toEqual([
      "creditors", "creditor_bank_accounts", "verification_details", "scheme_identifiers", "negative_balance_limits",
      "customers", "customer_bank_accounts", "bank_submissions", "mandates", "payments", "refunds", "subscriptions",
      "instalment_schedules", "payouts", "payout_items", "balances", "currency_exchange_rates", "tax_rates",
      "payment_accounts", "payment_account_transactions", "outbound_payments", "outbound_payment_imports",
      "outbound_payment_import_entries", "institutions", "institutions", "billing_requests", "billing_request_templates",
      "webhook_endpoints", "webhooks", "public_keys", "blocks", "mandate_import_entries", "exports", "bank_reports", "events"
    ].map((root) => [`/${root}/typo_field`]))
  })

  it("still takes list parameters decoded first, as the HTTP layer hands them on, without decoding them again", async () => {
    const r = await run(Effect.gen(function*() {
      const { paykit, mandate, ids } = yield* payments
      const params = yield* decodeCommand(PaymentListParams, "payments")({ mandate, charge_date: { lt: "2027-01-01" }, limit: "5" })
      const page = yield* (yield* Payments).list(ORG, params)
      const again = yield* paykit.payments.list(ORG, params)
      return { ids, params, page: page.items.map((p) => p.id), again: again.items.map((p) => p.id) }
    }))
    expect(r.params.limit).toBe(5)
    expect(r.page).toEqual([r.ids.december])
    expect(r.again).toEqual(r.page)
    const decoded = Effect.runSync(decodeCommand(PaymentListParams, "payments")({ limit: "5" }))
    expect(Effect.runSync(decodeAtBoundary(PaymentListParams, "payments")(decoded))).toBe(decoded)
  })
})
