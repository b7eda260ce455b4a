import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { IdGenerator, OrganisationId } from "@paykit/core"
import {
  BankAuthorisations,
  BillingRequests,
  ClockControl,
  Creditors,
  Customers,
  Events,
  InMemoryStorage,
  Institutions,
  Mandates,
  NegativeBalanceLimits,
  OutboundPaymentImports,
  OutboundPayments,
  PayerAuthorisations,
  PayerThemes,
  PaymentAccounts,
  Payments,
  Payouts,
  SandboxBank,
  Simulator,
  Subscriptions,
  TaxRates,
  engineServicesOn,
  sandboxWebhooks
} from "@paykit/engine"

const ORG = OrganisationId("OR0000000000AP")

// The real clock and id generator: nothing here may need ClockControl or a TestClock.
const api = engineServicesOn(InMemoryStorage).pipe(Layer.provideMerge(Layer.mergeAll(SandboxBank, IdGenerator.layer, sandboxWebhooks)))
// A type-level check as well: once storage and externals are given, nothing is left to provide.
const closed: Layer.Layer<Layer.Success<typeof api>, never, never> = api

describe("engineServicesOn: every API-facing service, without the simulator", () => {
  it("provides every API-facing service and neither the simulator nor ClockControl", async () => {
    const context = await Effect.runPromise(Effect.scoped(Layer.build(closed)))
    const services = [
      Creditors, Customers, Mandates, Payments, Subscriptions, Payouts, Events, OutboundPayments, OutboundPaymentImports,
      PaymentAccounts, BillingRequests, BankAuthorisations, PayerAuthorisations, Institutions, TaxRates, NegativeBalanceLimits, PayerThemes
    ]
    expect(services.map((s) => s.key).filter((key) => !context.mapUnsafe.has(key))).toEqual([])
    expect(context.mapUnsafe.has(Simulator.key)).toBe(false)
    expect(context.mapUnsafe.has(ClockControl.key)).toBe(false)
  })

  it("serves a creation, a read of reference data and an outbound payment on the real clock", async () => {
    const program = Effect.gen(function*() {
      const creditor = yield* (yield* Creditors).create(ORG, { name: "Acme Payroll", country_code: "GB", creditor_type: "company" })
      const customer = yield* (yield* Customers).create(ORG, { given_name: "Ada", family_name: "Lovelace", country_code: "GB" })
      const account = yield* (yield* Customers).createBankAccount(ORG, {
        account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB",
        links: { customer: customer.id }
      })
      const outbound = yield* (yield* OutboundPayments).create(ORG, {
        amount: 1250, scheme: "faster_payments", reference: "PAYROLL", links: { creditor: creditor.id, recipient_bank_account: account.id }
      })
      const rates = yield* (yield* TaxRates).list({})
      return { status: outbound.status, creditor: outbound.links.creditor === creditor.id, rates: rates.items.length > 0 }
    })
    expect(await Effect.runPromise(Effect.provide(program, closed))).toEqual({ status: "pending_approval", creditor: true, rates: true })
  })
})
