import { Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { Creditors, Customers, Events, Mandates, Payments, Subscriptions } from "@paykit/engine"
import { ORG, OTHER_ORG, runEngine, setUpPayer, edge } from "./fixtures.ts"

const failureOf = <A, E>(exit: Exit.Exit<A, E>): unknown => (Exit.isFailure(exit) ? JSON.parse(JSON.stringify(exit.cause)) : undefined)

describe("creditors, customers, bank accounts and mandates", () => {
  it("creates a creditor with GB scheme identifiers, and a payout account as the default", async () => {
    const result = await runEngine(Effect.gen(function*() {
      const { creditor } = yield* setUpPayer(ORG)
      return yield* (yield* Creditors).get(ORG, creditor.id)
    }))
    expect(result.scheme_identifiers.map((s) => s.scheme)).toEqual(["bacs", "faster_payments"])
    expect(result.bank_reference_prefix).toBe("ACMEGYM")
    expect(result.links.default_gbp_payout_account).toMatch(/^BA/)
    expect(result.verification_status).toBe("action_required")
  })

  it("refuses a customer without names, naming both fields", async () => {
    const exit = await runEngine(Effect.exit(Effect.flatMap(Customers, (c) => c.create(ORG, { email: "x@example.com" }))))
    expect(JSON.stringify(failureOf(exit))).toContain("given_name")
    expect(JSON.stringify(failureOf(exit))).toContain("family_name")
  })

  it("gives a new Bacs mandate a next possible charge date 3 working days out, and records its creation", async () => {
    const { mandate, events } = await runEngine(Effect.gen(function*() {
      const { mandate } = yield* setUpPayer(ORG)
      const events = yield* (yield* Events).list(ORG, { mandate: mandate.id })
      return { mandate, events }
    }))
    expect(mandate.status).toBe("pending_submission")
    expect(mandate.scheme).toBe("bacs")
    // Monday 23 Nov 2026 plus the Bacs notice of 3 working days (@paykit/schedule): Thu 26 Nov.
    expect(mandate.next_possible_charge_date).toBe("2026-11-26")
    expect(events.items.map((e) => `${e.resource_type}.${e.action}`)).toEqual(["mandates.created"])
  })

  it("keeps organisations apart", async () => {
    const exit = await runEngine(Effect.gen(function*() {
      const { mandate } = yield* setUpPayer(ORG)
      return yield* Effect.exit((yield* Mandates).get(OTHER_ORG, mandate.id))
    }))
    expect(Exit.isFailure(exit)).toBe(true)
  })

  it("cancels a mandate through its machine and refuses a second cancel with the table's reason", async () => {
    const second = await runEngine(Effect.gen(function*() {
      const { mandate } = yield* setUpPayer(ORG)
      const mandates = yield* Mandates
      const cancelled = yield* mandates.cancel(ORG, mandate.id)
      expect(cancelled.status).toBe("cancelled")
      expect(cancelled.next_possible_charge_date).toBeNull()
      return yield* Effect.exit(mandates.cancel(ORG, mandate.id))
    }))
    expect(JSON.stringify(failureOf(second))).toContain("cancellation_failed")
  })
})

describe("payments and refunds", () => {
  it("creates a payment on the next possible charge date by default and refuses an earlier one", async () => {
    const { payment, early } = await runEngine(Effect.gen(function*() {
      const { mandate } = yield* setUpPayer(ORG)
      const payments = yield* Payments
      const payment = yield* Effect.flatMap(edge.payment({ amount: 1500, currency: "GBP", links: { mandate: mandate.id } }), (c) => payments.create(ORG, c))
      const early = yield* Effect.exit(Effect.flatMap(edge.payment({ amount: 1500, currency: "GBP", charge_date: "2026-11-25", links: { mandate: mandate.id } }), (c) => payments.create(ORG, c)))
      return { payment, early }
    }))
    expect(payment.charge_date).toBe("2026-11-26")
    expect(payment.status).toBe("pending_submission")
    expect(JSON.stringify(failureOf(early))).toContain("charge_date")
  })

  it("refuses a payment in the wrong currency and an app fee above half the amount", async () => {
    const [currency, appFee] = await runEngine(Effect.gen(function*() {
      const { mandate } = yield* setUpPayer(ORG)
      const payments = yield* Payments
      return [
        yield* Effect.exit(Effect.flatMap(edge.payment({ amount: 1500, currency: "EUR", links: { mandate: mandate.id } }), (c) => payments.create(ORG, c))),
        yield* Effect.exit(Effect.flatMap(edge.payment({ amount: 1500, currency: "GBP", app_fee: 751, links: { mandate: mandate.id } }), (c) => payments.create(ORG, c)))
      ] as const
    }))
    expect(JSON.stringify(failureOf(currency))).toContain("currency")
    expect(JSON.stringify(failureOf(appFee))).toContain("app_fee")
  })

  it("refuses a subscription whose app fee is above half its amount, naming the field once", async () => {
    const exit = await runEngine(Effect.gen(function*() {
      const { mandate } = yield* setUpPayer(ORG)
      const subscriptions = yield* Subscriptions
      return yield* Effect.exit(Effect.flatMap(
        edge.subscription({ amount: 2000, currency: "GBP", interval_unit: "monthly", day_of_month: 1, app_fee: 1001, links: { mandate: mandate.id } }),
        (c) => subscriptions.create(ORG, c)
      ))
    }))
    const errors = JSON.stringify(failureOf(exit))
    expect(errors.match(/"field":"app_fee"/g)).toHaveLength(1)
  })

  it("refuses to refund a payment that has not been collected", async () => {
    const exit = await runEngine(Effect.gen(function*() {
      const { mandate } = yield* setUpPayer(ORG)
      const payments = yield* Payments
      const payment = yield* Effect.flatMap(edge.payment({ amount: 1500, currency: "GBP", links: { mandate: mandate.id } }), (c) => payments.create(ORG, c))
      return yield* Effect.exit(Effect.flatMap(edge.refund({ amount: 100, total_amount_confirmation: 100, links: { payment: payment.id } }), (c) => payments.createRefund(ORG, c)))
    }))
    expect(JSON.stringify(failureOf(exit))).toContain("refund_payment_invalid_state")
  })

  it("cancels a pending payment with a cancelled event", async () => {
    const events = await runEngine(Effect.gen(function*() {
      const { mandate } = yield* setUpPayer(ORG)
      const payments = yield* Payments
      const payment = yield* Effect.flatMap(edge.payment({ amount: 1500, currency: "GBP", links: { mandate: mandate.id } }), (c) => payments.create(ORG, c))
      yield* payments.cancel(ORG, payment.id)
      return yield* (yield* Events).list(ORG, { payment: payment.id })
    }))
    expect(events.items.map((e) => e.action)).toEqual(["cancelled", "created"])
  })
})
