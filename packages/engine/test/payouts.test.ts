import { unsafeLocalDate } from "@paykit/core"
import { Effect, Logger, References } from "effect"
import { describe, expect, it } from "vitest"
import { Creditors, Customers, Events, Mandates, PAYOUT_HOLD_REASONS, PAYOUTS_HELD, Payments, Payouts, Simulator } from "@paykit/engine"
import { ORG, START, runEngine, edge } from "./fixtures.ts"

const DAY = 86_400_000

/** A verified creditor (options: its name, its FX payout currency) with one collected payment due. */
const collect = (creditorName: string, fxPayoutCurrency?: "EUR") =>
  Effect.gen(function*() {
    const creditors = yield* Creditors
    const creditor = yield* creditors.create(ORG, {
      name: creditorName, country_code: "GB", creditor_type: "company",
      ...(fxPayoutCurrency === undefined ? {} : { fx_payout_currency: fxPayoutCurrency })
    })
    yield* creditors.createBankAccount(ORG, { account_holder_name: creditorName, account_number: "55779911", branch_code: "200000", country_code: "GB", currency: "GBP", links: { creditor: creditor.id } })
    yield* creditors.createVerificationDetail(ORG, {
      name: creditorName, company_number: "01234567", description: "Gyms", address_line1: "1 High Street", city: "London", postal_code: "E1 6AN",
      directors: [{ given_name: "Grace", family_name: "Hopper", date_of_birth: unsafeLocalDate("1970-01-01"), street: "1 High Street", city: "London", postal_code: "E1 6AN", country_code: "GB" }],
      links: { creditor: creditor.id }
    })
    const customers = yield* Customers
    const customer = yield* customers.create(ORG, { given_name: "Ada", family_name: "Lovelace" })
    const account = yield* customers.createBankAccount(ORG, { account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB", links: { customer: customer.id } })
    const mandate = yield* (yield* Mandates).create(ORG, { links: { customer_bank_account: account.id } })
    yield* Effect.flatMap(edge.payment({ amount: 10_000, currency: "GBP", links: { mandate: mandate.id } }), (c) => Payments.use((service) => service.create(ORG, c)))
    return creditor
  })

describe("payouts", () => {
  it("pays an FX payout only after fx_rate_confirmed, with the confirmed rate and the exchanged amount", async () => {
    const r = await runEngine(Effect.gen(function*() {
      yield* collect("Euro Gym", "EUR")
      const simulator = yield* Simulator
      const payouts = yield* Payouts
      // Collected on Thursday 26 Nov; assembled at the next run, sent at the one after.
      yield* simulator.advanceTo(START + 4 * DAY)
      const pending = (yield* payouts.list(ORG, {})).items[0]
      yield* simulator.advanceTo(START + 6 * DAY)
      const paid = (yield* payouts.list(ORG, {})).items[0]
      const events = yield* (yield* Events).list(ORG, { resource_type: "payouts" })
      return { pending, paid, actions: events.items.map((e) => e.action).reverse() }
    }))
    expect(r.pending?.status).toBe("pending")
    expect(r.pending?.fx).toEqual({ fx_currency: "EUR", fx_amount: null, exchange_rate: null, estimated_exchange_rate: "1.1759259259" })
    expect(r.paid?.status).toBe("paid")
    expect(r.paid?.fx.exchange_rate).toBe("1.1759259259")
    expect(r.paid?.fx.estimated_exchange_rate).toBeNull()
    // 10000 - (20 + 100 fee + 24 VAT) = 9856 GBP at 1.1759259259, rounded half to even.
    expect(r.paid?.amount).toBe(9856)
    expect(r.paid?.fx.fx_amount).toBe(11590)
    expect(r.actions).toEqual(["fx_rate_confirmed", "paid"])
  })

  it("bounces a payout of a creditor named Bounce, and pays it when retried", async () => {
    const r = await runEngine(Effect.gen(function*() {
      yield* collect("Bounce Gym")
      const simulator = yield* Simulator
      const payouts = yield* Payouts
      yield* simulator.advanceTo(START + 6 * DAY)
      const bounced = (yield* payouts.list(ORG, {})).items[0]
      const retried = yield* payouts.retry(ORG, bounced?.id ?? "")
      const again = yield* Effect.exit(payouts.retry(ORG, bounced?.id ?? ""))
      yield* simulator.advanceTo(START + 7 * DAY)
      const paid = yield* payouts.get(ORG, bounced?.id ?? "")
      const events = yield* (yield* Events).list(ORG, { payout: bounced?.id ?? "", resource_type: "payouts" })
      return { bounced, retried, again: again._tag, paid, actions: events.items.map((e) => e.action).reverse() }
    }))
    expect(r.bounced?.status).toBe("bounced")
    expect(r.retried.status).toBe("pending")
    expect(r.again).toBe("Failure")
    expect(r.paid.status).toBe("paid")
    expect(r.paid.arrival_date).toBe("2026-11-30")
    expect(r.actions).toEqual(["bounced", "retried", "paid"])
  })

  it("does not pay out to an unverified creditor: its balance waits, and each day's run logs why", async () => {
    const held: Array<Readonly<Record<string, unknown>>> = []
    const collector = Logger.make((options) => {
      const message = Array.isArray(options.message) ? options.message.map(String).join(" ") : String(options.message)
      if (message === PAYOUTS_HELD) held.push({ level: options.logLevel, ...options.fiber.getRef(References.CurrentLogAnnotations) })
    })
    const r = await runEngine(Effect.gen(function*() {
      const creditors = yield* Creditors
      const creditor = yield* creditors.create(ORG, { name: "New Gym", country_code: "GB", creditor_type: "company" })
      yield* creditors.createBankAccount(ORG, { account_holder_name: "New Gym", account_number: "55779911", branch_code: "200000", country_code: "GB", currency: "GBP", links: { creditor: creditor.id } })
      const customers = yield* Customers
      const customer = yield* customers.create(ORG, { company_name: "Payer Ltd" })
      const account = yield* customers.createBankAccount(ORG, { account_holder_name: "Payer Ltd", account_number: "55779911", branch_code: "200000", country_code: "GB", links: { customer: customer.id } })
      const mandate = yield* (yield* Mandates).create(ORG, { links: { customer_bank_account: account.id } })
      yield* Effect.flatMap(edge.payment({ amount: 10_000, currency: "GBP", links: { mandate: mandate.id } }), (c) => Payments.use((service) => service.create(ORG, c)))
      yield* (yield* Simulator).advanceTo(START + 10 * DAY).pipe(Effect.provide(Logger.layer([collector])))
      return { creditor: creditor.id, payouts: (yield* (yield* Payouts).list(ORG, {})).items, balance: yield* (yield* Payments).balance(ORG, creditor.id, "GBP") }
    }))
    expect(r.payouts).toEqual([])
    expect(r.balance).toBe(10_000 - 144)
    // From the day the payment was confirmed, one warning a day, naming the creditor and the reason.
    expect(held.length).toBeGreaterThanOrEqual(3)
    expect(held.length).toBeLessThanOrEqual(10)
    for (const line of held) {
      expect(line).toMatchObject({ level: "Warn", creditor: r.creditor, currency: "GBP", reason: "creditor_not_verified", description: PAYOUT_HOLD_REASONS.creditor_not_verified })
    }
  })

  it("answers why payouts are held: creditor_not_verified, then no_payout_account, then nothing once they come", async () => {
    const r = await runEngine(Effect.gen(function*() {
      const creditors = yield* Creditors
      const payouts = yield* Payouts
      const simulator = yield* Simulator
      const creditor = yield* creditors.create(ORG, { name: "Held Gym", country_code: "GB", creditor_type: "company" })
      const customers = yield* Customers
      const customer = yield* customers.create(ORG, { company_name: "Payer Ltd" })
      const account = yield* customers.createBankAccount(ORG, { account_holder_name: "Payer Ltd", account_number: "55779911", branch_code: "200000", country_code: "GB", links: { customer: customer.id } })
      const mandate = yield* (yield* Mandates).create(ORG, { links: { customer_bank_account: account.id, creditor: creditor.id } })
      const before = yield* payouts.holds(ORG, creditor.id)
      yield* Effect.flatMap(edge.payment({ amount: 10_000, currency: "GBP", links: { mandate: mandate.id } }), (c) => Payments.use((service) => service.create(ORG, c)))
      yield* simulator.advanceTo(START + 10 * DAY)
      const unverified = yield* payouts.holds(ORG, creditor.id)
      const everyone = yield* payouts.holds(ORG)
      yield* creditors.createVerificationDetail(ORG, {
        name: "Held Gym", company_number: "01234567", description: "Gyms", address_line1: "1 High Street", city: "London", postal_code: "E1 6AN",
        directors: [{ given_name: "Grace", family_name: "Hopper", date_of_birth: unsafeLocalDate("1970-01-01"), street: "1 High Street", city: "London", postal_code: "E1 6AN", country_code: "GB" }],
        links: { creditor: creditor.id }
      })
      yield* simulator.advanceTo(START + 11 * DAY)
      const noAccount = yield* payouts.holds(ORG, creditor.id)
      yield* creditors.createBankAccount(ORG, {
        account_holder_name: "Held Gym", account_number: "55779911", branch_code: "200000", country_code: "GB", currency: "GBP",
        set_as_default_payout_account: true, links: { creditor: creditor.id }
      })
      yield* simulator.advanceTo(START + 14 * DAY)
      const unknown = yield* Effect.exit(payouts.holds(ORG, "CR000000000000"))
      return {
        creditor: creditor.id, before, unverified, everyone, noAccount, after: yield* payouts.holds(ORG, creditor.id), unknown: unknown._tag,
        payouts: (yield* payouts.list(ORG, { creditor: creditor.id })).items
      }
    }))
    expect(r.before).toEqual([])
    const waiting = 10_000 - 144
    expect(r.unverified).toEqual([
      { currency: "GBP", reason: "creditor_not_verified", description: PAYOUT_HOLD_REASONS.creditor_not_verified, amount: waiting, links: { creditor: r.creditor } }
    ])
    expect(r.everyone).toContainEqual(r.unverified[0])
    expect(r.noAccount).toEqual([
      { currency: "GBP", reason: "no_payout_account", description: PAYOUT_HOLD_REASONS.no_payout_account, amount: waiting, links: { creditor: r.creditor } }
    ])
    expect(r.after).toEqual([])
    expect(r.unknown).toBe("Failure")
    expect(r.payouts.map((p) => [p.amount, p.status])).toEqual([[waiting, "paid"]])
  })

  it("fails a mandate for an account holder named Mandate Fail and cancels its pending payments", async () => {
    const r = await runEngine(Effect.gen(function*() {
      const creditor = yield* (yield* Creditors).create(ORG, { name: "Acme", country_code: "GB", creditor_type: "company" })
      const customers = yield* Customers
      const customer = yield* customers.create(ORG, { company_name: "Payer Ltd" })
      const account = yield* customers.createBankAccount(ORG, { account_holder_name: "Mandate Fail Ltd", account_number: "55779911", branch_code: "200000", country_code: "GB", links: { customer: customer.id } })
      const mandate = yield* (yield* Mandates).create(ORG, { links: { customer_bank_account: account.id, creditor: creditor.id } })
      const payment = yield* Effect.flatMap(edge.payment({ amount: 1000, currency: "GBP", links: { mandate: mandate.id } }), (c) => Payments.use((service) => service.create(ORG, c)))
      yield* (yield* Simulator).advanceTo(START + 5 * DAY)
      return { mandate: yield* (yield* Mandates).get(ORG, mandate.id), payment: yield* (yield* Payments).get(ORG, payment.id) }
    }))
    expect(r.mandate.status).toBe("failed")
    expect(r.mandate.next_possible_charge_date).toBeNull()
    expect(r.payment.status).toBe("cancelled")
  })
})
