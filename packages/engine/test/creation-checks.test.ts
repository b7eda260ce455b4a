import { Effect, Exit, Layer } from "effect"
import { TestClock } from "effect/testing"
import {
  Creditors,
  Customers,
  InMemoryStorage,
  Mandates,
  OutboundPaymentImports,
  Payments,
  sandboxEngineOn,
  Simulator,
  Subscriptions,
  ENTRY_NOT_CHECKED
} from "@paykit/engine"
import { FailureInjection, setUpPayer, withFailureInjection } from "@paykit/engine/testing"
import { describe, expect, it } from "vitest"
import { ORG, START, edge } from "./fixtures.ts"
import { billingRequestsAtEdge } from "./billing-fixtures.ts"
import { createImport, fundAccount } from "./outbound-fixtures.ts"

/**
 * Finding 4 and 10 of issue 14: what a later daily run would refuse is refused at creation, and a
 * poisoned import neither stops the clock nor stays uncancellable. Each case ends with an advance
 * that succeeds and another subscription that still charges.
 */

const DAY = 86_400_000
const DE_ACCOUNT = { account_holder_name: "Erika Mustermann", iban: "DE89370400440532013000" }

const storage = withFailureInjection(InMemoryStorage)
const engine = Layer.mergeAll(
  storage,
  sandboxEngineOn(storage, { seed: 9 }),
  TestClock.layer()
)
const run = <A, E>(program: Effect.Effect<A, E, Layer.Success<typeof engine>>) =>
  Effect.runPromise(Effect.provide(Effect.andThen(TestClock.setTime(START), program), engine))

/** A refusal's field and message, or the success. */
const refusalOf = <A, E>(exit: Exit.Exit<A, E>) => {
  if (Exit.isSuccess(exit)) return "accepted"
  const text = JSON.stringify(exit.cause)
  return text.includes("ValidationFailed") ? (/"field":"([^"]+)"/.exec(text)?.[1] ?? text) : text
}

/** Advances some days and answers whether it succeeded and how many payments the healthy subscription has. */
const advanceAndCount = (healthy: string, days = 7) =>
  Effect.gen(function*() {
    const advanced = yield* Effect.exit((yield* Simulator).advanceBy(days * DAY))
    const charged = (yield* (yield* Payments).list(ORG, { subscription: healthy })).items.length
    return { advanced: Exit.isSuccess(advanced), charged }
  })

describe("creation checks: accept only what the daily run can process", () => {
  it("refuses a subscription in a currency its mandate cannot collect; advances then succeed and others charge", async () => {
    const r = await run(Effect.gen(function*() {
      const { mandate } = yield* setUpPayer(ORG)
      const subscriptions = yield* Subscriptions
      const healthy = yield* Effect.flatMap(edge.subscription({ amount: 1500, currency: "GBP", interval_unit: "weekly", links: { mandate: mandate.id } }), (c) => subscriptions.create(ORG, c))
      const eur = yield* Effect.exit(Effect.flatMap(edge.subscription({ amount: 1000, currency: "EUR", interval_unit: "monthly", links: { mandate: mandate.id } }), (c) => subscriptions.create(ORG, c)))
      return { eur: refusalOf(eur), message: JSON.stringify(eur), ...(yield* advanceAndCount(healthy.id)) }
    }))
    expect(r.eur).toBe("currency")
    expect(r.message).toContain("must be GBP for a bacs mandate")
    expect(r.advanced).toBe(true)
    expect(r.charged).toBeGreaterThan(0)
  })

  it("refuses a mandate, and a billing request's mandate request, on a scheme the creditor has no identifier for", async () => {
    const r = await run(Effect.gen(function*() {
      const { creditor } = yield* setUpPayer(ORG)
      const customers = yield* Customers
      const customer = yield* customers.create(ORG, { given_name: "Erika", family_name: "Mustermann", country_code: "DE" })
      const account = yield* customers.createBankAccount(ORG, { ...DE_ACCOUNT, links: { customer: customer.id } })
      const mandates = yield* Mandates
      const onGb = yield* Effect.exit(mandates.create(ORG, { scheme: "sepa_core", links: { customer_bank_account: account.id, creditor: creditor.id } }))
      const brs = yield* billingRequestsAtEdge
      const requestOnGb = yield* Effect.exit(brs.create(ORG, { mandate_request: { currency: "EUR", scheme: "sepa_core" }, links: { creditor: creditor.id } }))
      const de = yield* (yield* Creditors).create(ORG, { name: "Acme Gym DE", country_code: "DE", creditor_type: "company" })
      const onDe = yield* Effect.exit(mandates.create(ORG, { scheme: "sepa_core", links: { customer_bank_account: account.id, creditor: de.id } }))
      const requestOnDe = yield* Effect.exit(brs.create(ORG, { mandate_request: { currency: "EUR", scheme: "sepa_core" }, links: { creditor: de.id } }))
      return { onGb: refusalOf(onGb), requestOnGb: refusalOf(requestOnGb), onDe: refusalOf(onDe), requestOnDe: refusalOf(requestOnDe), message: JSON.stringify(onGb) }
    }))
    expect([r.onGb, r.requestOnGb, r.onDe, r.requestOnDe]).toEqual(["scheme", "mandate_request.scheme", "accepted", "accepted"])
    expect(r.message).toContain("must be a scheme the creditor has an active scheme identifier for (bacs, faster_payments)")
  })

  it("an entry whose recipient cannot be read stops no advance and fails only itself: the import's other entries are checked, it ends invalid; others still charge", async () => {
    const r = await run(Effect.gen(function*() {
      const { mandate, creditor } = yield* setUpPayer(ORG)
      const healthy = yield* Effect.flatMap(edge.subscription({ amount: 1500, currency: "GBP", interval_unit: "weekly", links: { mandate: mandate.id } }), (c) => Subscriptions.use((service) => service.create(ORG, c)))
      yield* fundAccount(ORG, { amount: 100_000, links: { creditor: creditor.id } })
      const customers = yield* Customers
      const recipient = yield* customers.create(ORG, { given_name: "Bob", family_name: "Payee", country_code: "GB" })
      const bankAccount = (number: string) =>
        customers.createBankAccount(ORG, { account_holder_name: "Bob Payee", account_number: number, branch_code: "200000", country_code: "GB", links: { customer: recipient.id } })
      const account = yield* bankAccount("55779911")
      const good = yield* bankAccount("55779922")
      const imports = yield* OutboundPaymentImports
      const entry = (id: string) => ({ scheme: "faster_payments", amount: 100, recipient_bank_account_id: id })
      const poisoned = yield* createImport(ORG, { entry_items: [entry(good.id), entry(account.id), entry(good.id)] })
      // An entry naming no bank account of the organisation is refused at once, with its import.
      const unknown = yield* Effect.exit(createImport(ORG, { entry_items: [entry("BA0000000000ZZ")] }))
      // Reading the recipient's account dies, as the NUL id of the finding did on PostgreSQL.
      yield* (yield* FailureInjection).failFor([account.id])
      // Three days: the import's authorisation window (seven days) has not ended.
      const first = yield* advanceAndCount(healthy.id, 3)
      const checked = yield* imports.get(ORG, poisoned.id)
      const entries = yield* imports.listEntries(ORG, { outbound_payment_import: poisoned.id })
      const second = yield* advanceAndCount(healthy.id)
      return { first, checked, entries: entries.items, second, unknown: JSON.stringify(unknown), account: account.id }
    }))
    expect(r.first.advanced).toBe(true)
    expect(r.first.charged).toBeGreaterThan(0)
    expect(r.checked.status).toBe("invalid")
    expect(r.checked.entry_counts).toMatchObject({ total: 3, valid: 2, invalid: 1, verified: 2 })
    const bad = r.entries.filter((e) => e.links.recipient_bank_account === r.account)
    expect(bad.map((e) => e.validation_errors)).toEqual([{ outbound_payment: { recipient_bank_account: [ENTRY_NOT_CHECKED] } }])
    expect(r.entries.filter((e) => e.verification_result !== null)).toHaveLength(2)
    expect(r.second.advanced).toBe(true)
    expect(r.second.charged).toBeGreaterThan(r.first.charged)
    expect(r.unknown).toContain("entry_items.0.recipient_bank_account_id")
  })
})
