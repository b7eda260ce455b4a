import { Effect, Exit, Layer, Logger } from "effect"
import { TestClock } from "effect/testing"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ORG, START, edge } from "./fixtures.ts"
import { MANDATE_SCHEMES } from "@paykit/core"
import {
  Creditors,
  Customers,
  inMemoryEngine,
  Mandates,
  type OutboundPaymentImports,
  Payments,
  Simulator,
  Subscriptions
} from "@paykit/engine"
import { setUpPayer } from "@paykit/engine/testing"
import { createImport } from "./outbound-fixtures.ts"

/**
 * The rule of "accept only what the daily run can process", stated as a property: whatever
 * sequence of creations is tried (mandates on any scheme, account and creditor; subscriptions
 * and payments in any currency on any mandate made; imports to known and unknown recipients),
 * every one the engine accepts is then processed by the daily runs of the following weeks with no
 * item or job failing (nothing is logged at error level) and every advance succeeds.
 */

const DAY = 86_400_000
// GBP first and most often: the organisation's first mandate is a Bacs one.
const currency = fc.oneof({ arbitrary: fc.constant("GBP"), weight: 3 }, { arbitrary: fc.constantFrom("EUR", "USD", "AUD", "SEK"), weight: 2 })

const engine = () => Layer.mergeAll(
  inMemoryEngine({ seed: 11 }),
  TestClock.layer()
)

const index = fc.nat({ max: 5 })
const creation = fc.oneof(
  fc.record({ kind: fc.constant("mandate" as const), account: index, creditor: index, scheme: fc.option(fc.constantFrom(...MANDATE_SCHEMES), { nil: undefined }) }),
  fc.record({
    kind: fc.constant("subscription" as const),
    mandate: index,
    currency,
    amount: fc.integer({ min: 1, max: 100_000 }),
    interval_unit: fc.constantFrom("weekly", "monthly", "yearly"),
    app_fee: fc.option(fc.integer({ min: 0, max: 60_000 }), { nil: undefined })
  }),
  fc.record({ kind: fc.constant("payment" as const), mandate: index, currency, amount: fc.integer({ min: 1, max: 100_000 }) }),
  fc.record({ kind: fc.constant("import" as const), recipients: fc.array(fc.option(index, { nil: undefined }), { minLength: 1, maxLength: 3 }) })
)
type Creation = typeof creation extends fc.Arbitrary<infer C> ? C : never

const pick = <A>(items: ReadonlyArray<A>, i: number): A | undefined => items[i % items.length]

const scenario = (creations: ReadonlyArray<Creation>) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(START)
    const gb = yield* setUpPayer(ORG, { verifyCreditor: true })
    const creditors = [gb.creditor, yield* (yield* Creditors).create(ORG, { name: "Acme DE", country_code: "DE", creditor_type: "company" }),
      yield* (yield* Creditors).create(ORG, { name: "Acme US", country_code: "US", creditor_type: "company" })]
    const customers = yield* Customers
    const erika = yield* customers.create(ORG, { given_name: "Erika", family_name: "Mustermann", country_code: "DE" })
    const grace = yield* customers.create(ORG, { given_name: "Grace", family_name: "Hopper", country_code: "US" })
    const accounts = [
      gb.account,
      yield* customers.createBankAccount(ORG, { account_holder_name: "Erika Mustermann", iban: "DE89370400440532013000", links: { customer: erika.id } }),
      yield* customers.createBankAccount(ORG, { account_holder_name: "Grace Hopper", country_code: "US", bank_code: "026009593", account_number: "123456789", account_type: "checking", links: { customer: grace.id } })
    ]
    const mandates = [gb.mandate.id]
    let accepted = 0
    const subscriptionService = yield* Subscriptions
    const paymentService = yield* Payments
    for (const c of creations) {
      const attempt: Effect.Effect<unknown, unknown, OutboundPaymentImports> = c.kind === "mandate"
        ? Effect.map((yield* Mandates).create(ORG, {
          ...(c.scheme === undefined ? {} : { scheme: c.scheme }),
          payer_ip_address: "127.0.0.1",
          links: { customer_bank_account: pick(accounts, c.account)?.id ?? "", creditor: pick(creditors, c.creditor)?.id ?? "" }
        }), (m) => void mandates.push(m.id))
        : c.kind === "subscription"
        ? Effect.flatMap(edge.subscription({
          amount: c.amount, currency: c.currency, interval_unit: c.interval_unit,
          ...(c.app_fee === undefined ? {} : { app_fee: c.app_fee }),
          links: { mandate: pick(mandates, c.mandate) ?? "" }
        }), (command) => subscriptionService.create(ORG, command))
        : c.kind === "payment"
        ? Effect.flatMap(edge.payment({ amount: c.amount, currency: c.currency, links: { mandate: pick(mandates, c.mandate) ?? "" } }), (command) => paymentService.create(ORG, command))
        : createImport(ORG, {
          links: { creditor: gb.creditor.id },
          entry_items: c.recipients.map((r) => ({ scheme: "faster_payments", amount: 100, recipient_bank_account_id: r === undefined ? "BA0000000000ZZ" : pick(accounts, r)?.id ?? "" }))
        })
      if (Exit.isSuccess(yield* Effect.exit(Effect.asVoid(attempt)))) accepted++
    }
    const errors: Array<string> = []
    const collector = Logger.make((options) => {
      if (options.logLevel === "Error" || options.logLevel === "Fatal") errors.push(String(options.message))
    })
    const simulator = yield* Simulator
    const advances = yield* Effect.forEach([7, 14, 21, 28].map((d) => START + d * DAY), (to) =>
      Effect.map(Effect.exit(simulator.advanceTo(to)), Exit.isSuccess)).pipe(Effect.provide(Logger.layer([collector])))
    return { accepted, errors, advances }
  })

describe("accepted creations are processed by the daily runs", () => {
  it("any creation the engine accepts is processed by the following daily runs without a failure", { timeout: 120_000 }, async () => {
    let acceptedInAll = 0
    await fc.assert(fc.asyncProperty(fc.array(creation, { minLength: 1, maxLength: 8 }), async (creations) => {
      const r = await Effect.runPromise(Effect.provide(scenario(creations), engine()))
      acceptedInAll += r.accepted
      expect(r.errors).toEqual([])
      expect(r.advances).toEqual([true, true, true, true])
    }), { numRuns: 40 })
    // The property was about something: creations were accepted, not only refused.
    expect(acceptedInAll).toBeGreaterThan(40)
  })
})
