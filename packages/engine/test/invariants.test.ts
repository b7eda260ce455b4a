import { Clock, Effect, Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { unsafeLocalDate } from "@paykit/core"
import { type Machine, mandateMachine, paymentMachine, payoutMachine, refundMachine, subscriptionMachine } from "@paykit/machines"
import { DEFAULT_FEE_SCHEDULE, collectionCharges, surchargeCharge } from "@paykit/money"
import { Creditors, Customers, type Event, Events, Mandates, Payments, Payouts, Simulator, Subscriptions } from "@paykit/engine"
import { ORG, runEngine, edge } from "./fixtures.ts"

const DAY = 86_400_000

type Op =
  | { readonly kind: "payment"; readonly payer: number; readonly amount: number }
  | { readonly kind: "instant"; readonly amount: number }
  | { readonly kind: "subscription"; readonly payer: number; readonly amount: number; readonly unit: "weekly" | "monthly" }
  | { readonly kind: "cancel_payment"; readonly pick: number }
  | { readonly kind: "cancel_subscription"; readonly pick: number }
  | { readonly kind: "cancel_mandate"; readonly payer: number }
  | { readonly kind: "refund"; readonly pick: number; readonly share: number }
  | { readonly kind: "advance"; readonly days: number }

const amount = fc.oneof({ arbitrary: fc.integer({ min: 100, max: 50_000 }), weight: 5 }, { arbitrary: fc.constantFrom(1091, 2092, 3093), weight: 1 })
// Most operations are on the payer whose collections succeed; the others pick sandbox scenarios.
const payer = fc.constantFrom(0, 0, 0, 0, 1, 2, 3)
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("payment" as const), payer: payer, amount }),
  fc.record({ kind: fc.constant("instant" as const), amount }),
  fc.record({ kind: fc.constant("subscription" as const), payer: payer, amount, unit: fc.constantFrom("weekly" as const, "monthly" as const) }),
  fc.record({ kind: fc.constant("cancel_payment" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("cancel_subscription" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("cancel_mandate" as const), payer: payer }),
  fc.record({ kind: fc.constant("refund" as const), pick: fc.nat(), share: fc.double({ min: 0.01, max: 1, noNaN: true }) }),
  fc.record({ kind: fc.constant("advance" as const), days: fc.integer({ min: 1, max: 12 }) })
)

const PAYERS = ["Ada Lovelace", "Late Failure Payer", "Chargeback Payer", "Fail Payer"]

/** Only the domain's typed errors are acceptable answers to a random operation; defects fail the test. */
const tolerate = <A, E extends { readonly _tag: string }, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.catch(Effect.asVoid(effect), (e: E) =>
    ["ValidationFailed", "InvalidState", "NotFound"].includes(e._tag) ? Effect.void : Effect.die(e))

const pickOf = <A>(items: ReadonlyArray<A>, n: number): A | undefined => (items.length === 0 ? undefined : items[n % items.length])

const program = (ops: ReadonlyArray<Op>) =>
  Effect.gen(function*() {
    const creditors = yield* Creditors
    const customers = yield* Customers
    const mandatesService = yield* Mandates
    const payments = yield* Payments
    const subscriptions = yield* Subscriptions
    const creditor = yield* creditors.create(ORG, { name: "Acme Gym", country_code: "GB", creditor_type: "company" })
    yield* creditors.createBankAccount(ORG, { account_holder_name: "Acme Gym Ltd", account_number: "55779911", branch_code: "200000", country_code: "GB", currency: "GBP", links: { creditor: creditor.id } })
    yield* creditors.createVerificationDetail(ORG, {
      name: "Acme Gym Ltd", company_number: "01234567", description: "Gyms", address_line1: "1 High Street", city: "London", postal_code: "E1 6AN",
      directors: [{ given_name: "Grace", family_name: "Hopper", date_of_birth: "1970-01-01", street: "1 High Street", city: "London", postal_code: "E1 6AN", country_code: "GB" }],
      links: { creditor: creditor.id }
    })
    const mandates: Array<string> = []
    for (const name of PAYERS) {
      const customer = yield* Effect.flatMap(edge.customer({ given_name: name.split(" ")[0], family_name: "Payer" }), (c) => customers.create(ORG, c))
      const account = yield* customers.createBankAccount(ORG, { account_holder_name: name, account_number: "55779911", branch_code: "200000", country_code: "GB", links: { customer: customer.id } })
      mandates.push((yield* mandatesService.create(ORG, { links: { customer_bank_account: account.id } })).id)
    }
    const simulator = yield* Simulator
    for (const o of ops) {
      const allPayments = (yield* payments.list(ORG, { limit: 500 })).items
      switch (o.kind) {
        case "payment":
          yield* tolerate(Effect.flatMap(edge.payment({ amount: o.amount, currency: "GBP", links: { mandate: mandates[o.payer] ?? "" } }), (c) => payments.create(ORG, c)))
          break
        case "instant":
          // A Pay by Bank payment (no mandate) as billing request fulfilment makes it.
          yield* tolerate(payments.createInstant(ORG, {
            amount: o.amount, currency: "GBP", scheme: "faster_payments", creditor: creditor.id,
            description: null, reference: null, app_fee: null, metadata: {}
          }))
          break
        case "subscription":
          yield* tolerate(Effect.flatMap(edge.subscription({ amount: o.amount, currency: "GBP", interval_unit: o.unit, count: 4, links: { mandate: mandates[o.payer] ?? "" } }), (c) => subscriptions.create(ORG, c)))
          break
        case "cancel_payment": {
          const p = pickOf(allPayments, o.pick)
          if (p !== undefined) yield* tolerate(payments.cancel(ORG, p.id))
          break
        }
        case "cancel_subscription": {
          const s = pickOf((yield* subscriptions.list(ORG, { limit: 500 })).items, o.pick)
          if (s !== undefined) yield* tolerate(subscriptions.cancel(ORG, s.id))
          break
        }
        case "cancel_mandate":
          yield* tolerate(mandatesService.cancel(ORG, mandates[o.payer] ?? ""))
          break
        case "refund": {
          const p = pickOf(allPayments, o.pick)
          if (p === undefined) break
          const refund = Math.max(1, Math.floor((p.amount - p.amount_refunded) * o.share))
          yield* tolerate(Effect.flatMap(edge.refund({ amount: refund, total_amount_confirmation: p.amount_refunded + refund, links: { payment: p.id } }), (c) => payments.createRefund(ORG, c)))
          break
        }
        case "advance":
          yield* simulator.advanceTo((yield* Clock.currentTimeMillis) + o.days * DAY)
      }
    }
    // Let everything in flight settle: collections, late failures, chargebacks and payouts.
    yield* simulator.advanceTo((yield* Clock.currentTimeMillis) + 40 * DAY)
    return {
      creditor: creditor.id,
      payments: (yield* payments.list(ORG, { limit: 500 })).items,
      refunds: (yield* payments.listRefunds(ORG, { limit: 500 })).items,
      mandates: (yield* mandatesService.list(ORG, { limit: 500 })).items,
      subscriptions: (yield* subscriptions.list(ORG, { limit: 500 })).items,
      payouts: (yield* (yield* Payouts).list(ORG, { limit: 500 })).items,
      events: [...(yield* (yield* Events).list(ORG, { limit: 500 })).items].reverse(),
      balance: yield* payments.balance(ORG, creditor.id, "GBP")
    }
  })

/**
 * Whether `actions` (oldest first) is a path through `machine` from one of its initial states to
 * `status`. Transitions that emit nothing may be taken silently; actions the table never emits
 * (e.g. `partially_refunded`) are not status changes and are skipped.
 */
const isPath = <S extends string, E extends string, C>(machine: Machine<S, E, C>, actions: ReadonlyArray<string>, status: string): boolean => {
  const known = new Set<string>(machine.transitions.flatMap((t) => (t.emits === null ? [] : [t.emits])))
  const closure = (states: ReadonlySet<string>): Set<string> => {
    const out = new Set(states)
    let grew = true
    while (grew) {
      grew = false
      for (const t of machine.transitions) {
        if (t.emits === null && t.from.some((f) => out.has(f)) && !out.has(t.to)) {
          out.add(t.to)
          grew = true
        }
      }
    }
    return out
  }
  let rest = actions
  if (machine.created !== null) {
    if (rest[0] !== machine.created) return false
    rest = rest.slice(1)
  }
  let states = closure(new Set(machine.initial))
  for (const action of rest) {
    if (!known.has(action)) continue
    const next = new Set<string>()
    for (const t of machine.transitions) if (t.emits === action && t.from.some((f) => states.has(f))) next.add(t.to)
    if (next.size === 0) return false
    states = closure(next)
  }
  return states.has(status)
}

const feeWithTax = (scheme: string | null, amountMinor: number, date: string): number => {
  const r = collectionCharges({ schedule: DEFAULT_FEE_SCHEDULE, scheme: scheme === "faster_payments" ? "faster_payments" : "bacs", currency: "GBP", amount: amountMinor, app_fee: 0, tax_jurisdiction: "GB", date: unsafeLocalDate(date), root: "payments" })
  if (Result.isFailure(r)) throw new Error("no fee rule")
  return r.success.gocardless_fee.fee + (r.success.gocardless_fee.tax?.amount ?? 0)
}

const surchargeWithTax = (kind: "late_failure_settled" | "chargeback_settled", date: string): number => {
  const s = surchargeCharge(DEFAULT_FEE_SCHEDULE, kind, "GBP", "GB", unsafeLocalDate(date))
  return s.fee + (s.tax?.amount ?? 0)
}

describe("invariants under random operations and clock advances", () => {
  it("conserves money, keeps every resource on its machine, and records every state change as an event", async () => {
    let instantPaidOut = false
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 16 }), fc.integer({ min: 1, max: 1000 }), async (ops, seed) => {
        const r = await runEngine(program(ops), seed)
        const actionsOf = (type: Event["resource_type"], link: string, id: string) =>
          r.events.filter((e) => e.resource_type === type && e.links[link] === id).map((e) => e.action)

        for (const p of r.payments) expect(isPath(paymentMachine, actionsOf("payments", "payment", p.id), p.status)).toBe(true)
        for (const m of r.mandates) expect(isPath(mandateMachine, actionsOf("mandates", "mandate", m.id), m.status)).toBe(true)
        for (const s of r.subscriptions) expect(isPath(subscriptionMachine, actionsOf("subscriptions", "subscription", s.id), s.status)).toBe(true)
        for (const p of r.payouts) expect(isPath(payoutMachine, actionsOf("payouts", "payout", p.id), p.status)).toBe(true)
        for (const f of r.refunds) expect(isPath(refundMachine, actionsOf("refunds", "refund", f.id), f.status)).toBe(true)

        // Money: what the creditor was paid plus what it is still owed is what its payers paid,
        // less @paykit/money's fees, refunds, and the reversals of late failures and chargebacks.
        let expected = 0
        for (const p of r.payments) {
          const actions = actionsOf("payments", "payment", p.id)
          if (!actions.includes("confirmed")) continue
          const fee = feeWithTax(p.scheme, p.amount, p.charge_date ?? "")
          expected += p.amount - fee
          if (p.status === "failed") expected -= p.amount - fee + surchargeWithTax("late_failure_settled", p.charge_date ?? "")
          if (p.status === "charged_back") expected -= p.amount - fee + surchargeWithTax("chargeback_settled", p.charge_date ?? "")
          expect(p.amount_refunded).toBeLessThanOrEqual(p.amount)
        }
        for (const f of r.refunds) expected -= f.amount
        const paid = r.payouts.reduce((s, p) => s + p.amount, 0)
        expect(paid + r.balance).toBe(expected)
        for (const p of r.payouts) expect(p.amount).toBeGreaterThan(0)
        instantPaidOut ||= r.payments.some((p) => p.links.mandate === undefined && p.status === "paid_out")
      }),
      {
        numRuns: 25,
        examples: [
          // Found by this property: a late failure of a payment confirmed but not yet paid out.
          [[
            { kind: "subscription", payer: 0, amount: 2092, unit: "weekly" },
            { kind: "subscription", payer: 0, amount: 146, unit: "weekly" },
            { kind: "advance", days: 10 },
            { kind: "refund", pick: 0, share: 0.01 },
            { kind: "advance", days: 1 }
          ], 1]
        ]
      }
    )
    // Instant payments (no mandate) were paid out among the direct debits in some run.
    expect(instantPaidOut).toBe(true)
  }, 120_000)
})
