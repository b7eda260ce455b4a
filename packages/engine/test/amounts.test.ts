import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Payments, Subscriptions } from "@paykit/engine"
import { ORG, runEngine, setUpPayer, edge } from "./fixtures.ts"
import { ORG as OUTBOUND_ORG, createOutbound, runOutbound, setUpCreditor, setUpRecipient } from "./outbound-fixtures.ts"

const amountErrors = (e: unknown) =>
  typeof e === "object" && e !== null && "errors" in e && Array.isArray(e.errors)
    ? e.errors.map((x: { readonly field: string; readonly message: string }) => [x.field, x.message])
    : e

describe("an amount of 0 is refused on `amount`", () => {
  it("for payments, subscriptions (create and update) and outbound payments", async () => {
    const r = await runEngine(Effect.gen(function*() {
      const { mandate } = yield* setUpPayer(ORG)
      const payment = yield* Effect.flip(Effect.flatMap(edge.payment({ amount: 0, currency: "GBP", links: { mandate: mandate.id } }), (c) => Payments.use((service) => service.create(ORG, c))))
      const subscriptions = yield* Subscriptions
      const subscription = yield* Effect.flip(Effect.flatMap(edge.subscription({ amount: 0, currency: "GBP", interval_unit: "monthly", links: { mandate: mandate.id } }), (c) => subscriptions.create(ORG, c)))
      const live = yield* Effect.flatMap(edge.subscription({ amount: 100, currency: "GBP", interval_unit: "monthly", links: { mandate: mandate.id } }), (c) => subscriptions.create(ORG, c))
      const update = yield* Effect.flip(Effect.flatMap(edge.subscriptionUpdate({ amount: 0 }), (c) => subscriptions.update(ORG, live.id, c)))
      return { payment: amountErrors(payment), subscription: amountErrors(subscription), update: amountErrors(update) }
    }))
    expect(r).toEqual({
      payment: [["amount", "must be greater than 0"]],
      subscription: [["amount", "must be greater than 0"]],
      update: [["amount", "must be greater than 0"]]
    })
    const outbound = await runOutbound(Effect.gen(function*() {
      const creditor = yield* setUpCreditor(OUTBOUND_ORG, { verified: true })
      const recipient = yield* setUpRecipient(OUTBOUND_ORG)
      return amountErrors(yield* Effect.flip(createOutbound(OUTBOUND_ORG, {
        amount: 0, scheme: "faster_payments", links: { creditor: creditor.id, recipient_bank_account: recipient.id }
      })))
    }))
    expect(outbound).toEqual([["amount", "must be a whole number greater than 0"]])
  })

  it("a payment is created for every positive amount and refused for 0 (property)", async () => {
    await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: 10 }), async (amount) => {
      const outcome = await runEngine(Effect.gen(function*() {
        const { mandate } = yield* setUpPayer(ORG)
        return yield* Effect.result(Effect.flatMap(edge.payment({ amount, currency: "GBP", links: { mandate: mandate.id } }), (c) => Payments.use((service) => service.create(ORG, c))))
      }))
      expect(outcome._tag === "Success").toBe(amount > 0)
    }), { numRuns: 11, seed: 4 })
  })
})
