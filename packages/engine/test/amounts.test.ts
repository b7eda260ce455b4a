import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Payments, Subscriptions } from "@paykit/engine"
import { ORG, runEngine, setUpPayer } from "./fixtures.ts"
import { ORG as OUTBOUND_ORG, createOutbound, runOutbound, setUpCreditor, setUpRecipient } from "./outbound-fixtures.ts"

const amountErrors = (e: unknown) =>
  typeof e === "object" && e !== null && "errors" in e && Array.isArray(e.errors)
    ? e.errors.map((x: { readonly field: string; readonly message: string }) => [x.field, x.message])
    : e

describe("an amount of 0 is refused on `amount`", () => {
  it("for payments, subscriptions (create and update) and outbound payments", async () => {
    const r = await runEngine(Effect.gen(function*() {
      const { mandate } = yield* setUpPayer(ORG)
      const payment = yield* Effect.flip((yield* Payments).create(ORG, { amount: 0, currency: "GBP", links: { mandate: mandate.id } }))
      const subscriptions = yield* Subscriptions
      const subscription = yield* Effect.flip(subscriptions.create(ORG, { amount: 0, currency: "GBP", interval_unit: "monthly", links: { mandate: mandate.id } }))
      const live = yield* subscriptions.create(ORG, { amount: 100, currency: "GBP", interval_unit: "monthly", links: { mandate: mandate.id } })
      const update = yield* Effect.flip(subscriptions.update(ORG, live.id, { amount: 0 }))
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
        return yield* Effect.result((yield* Payments).create(ORG, { amount, currency: "GBP", links: { mandate: mandate.id } }))
      }))
      expect(outcome._tag === "Success").toBe(amount > 0)
    }), { numRuns: 11, seed: 4 })
  })
})
