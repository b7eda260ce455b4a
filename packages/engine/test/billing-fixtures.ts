import { OrganisationId } from "@paykit/core"
import { Effect, Layer, type Schema } from "effect"
import { TestClock } from "effect/testing"
import {
  BankAuthorisationOutcomeRequest,
  BankAuthorisations,
  BillingRequestInstitutionParams,
  BillingRequestListParams,
  BillingRequests,
  Creditors,
  decodeCommand,
  InstitutionListParams,
  REQUEST_BODIES,
  Institutions,
  NegativeBalanceLimits,
  TaxRates,
  PayerAuthorisations,
  inMemoryEngine
} from "@paykit/engine"
import type { InstitutionRecord } from "@paykit/engine"

export const ORG = OrganisationId("OR0000000000AA")

/** Monday 23 November 2026, 09:00 UTC. */
export const START = Date.UTC(2026, 10, 23, 9, 0, 0)

/**
 * The whole in-memory engine with the billing services built on it here, so a test can give
 * its own institutions dataset. `Layer.fresh` keeps them from being shared with (memoised as)
 * any the engine builds itself.
 */
export const billingLayer = (seed = 1, institutions?: ReadonlyArray<InstitutionRecord>) => {
  const engine = inMemoryEngine({ seed })
  const billing = Layer.mergeAll(Layer.fresh(BankAuthorisations.layer), Layer.fresh(PayerAuthorisations.layer)).pipe(
    Layer.provideMerge(Layer.fresh(BillingRequests.layer)),
    Layer.provideMerge(Layer.mergeAll(
      institutions === undefined ? Institutions.layer : Institutions.layerWith(institutions),
      TaxRates.layer,
      NegativeBalanceLimits.layer
    )),
    Layer.provide(engine)
  )
  return Layer.merge(engine, billing).pipe(Layer.provideMerge(TestClock.layer()))
}

export type BillingServices = Layer.Success<ReturnType<typeof billingLayer>>

export const runBilling = <A, E>(program: Effect.Effect<A, E, BillingServices>, seed = 1, institutions?: ReadonlyArray<InstitutionRecord>): Promise<A> =>
  Effect.runPromise(Effect.provide(Effect.flatMap(TestClock.setTime(START), () => program), billingLayer(seed, institutions)))

/** A GB creditor (the organisation's only one), as billing requests need. */
export const setUpCreditor = Effect.gen(function*() {
  const creditors = yield* Creditors
  return yield* creditors.create(ORG, { name: "Acme Gym", country_code: "GB", creditor_type: "company" })
})

export const UK_ACCOUNT = { account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB" }

export const ADA = {
  customer: { email: "ada@example.com", given_name: "Ada", family_name: "Lovelace" },
  customer_billing_detail: { address_line1: "1 Analytical Row", city: "London", postal_code: "N1 1AA", country_code: "GB" }
}

/** Decodes a raw body with the Schema the edge uses, then calls the typed operation with it. */
const atEdge = <S extends Schema.Decoder<unknown>, A, E>(schema: S, root: string, op: (command: S["Type"]) => Effect.Effect<A, E>) =>
  (raw: unknown) => Effect.flatMap(decodeCommand(schema, root)(raw), op)

const BR = REQUEST_BODIES.billing_requests

/**
 * The billing request operations as the HTTP edge calls them: each raw body (as a test writes it,
 * valid or not) is decoded with its `REQUEST_BODIES` Schema under `billing_requests`, then the
 * typed use case runs.
 */
export const billingRequestsAtEdge = Effect.map(BillingRequests, (s) => {
  const decoded = <S extends Schema.Decoder<unknown>, A, E>(schema: S, op: (o: OrganisationId, id: string, c: S["Type"]) => Effect.Effect<A, E>) =>
    (o: OrganisationId, id: string, raw: unknown = {}) => atEdge(schema, "billing_requests", (c: S["Type"]) => op(o, id, c))(raw)
  return {
    ...s,
    create: (o: OrganisationId, raw: unknown) => atEdge(BR.create, "billing_requests", (c) => s.create(o, c))(raw),
    list: (o: OrganisationId, raw: unknown) => atEdge(BillingRequestListParams, "billing_requests", (c) => s.list(o, c))(raw),
    collectCustomerDetails: decoded(BR.collect_customer_details, s.collectCustomerDetails),
    collectBankAccount: decoded(BR.collect_bank_account, s.collectBankAccount),
    confirmPayerDetails: decoded(BR.confirm_payer_details, s.confirmPayerDetails),
    fulfil: decoded(BR.fulfil, s.fulfil),
    cancel: decoded(BR.cancel, s.cancel),
    notify: decoded(BR.notify, s.notify),
    chooseCurrency: decoded(BR.choose_currency, s.chooseCurrency),
    selectInstitution: decoded(BR.select_institution, s.selectInstitution),
    institutions: (o: OrganisationId, id: string, raw: unknown) => atEdge(BillingRequestInstitutionParams, "institutions", (c) => s.institutions(o, id, c))(raw)
  }
})

/** Bank authorisations at the edge: the create body and the bank's reported outcome decoded first. */
export const bankAuthorisationsAtEdge = Effect.map(BankAuthorisations, (s) => ({
  ...s,
  create: (o: OrganisationId, raw: unknown) => atEdge(REQUEST_BODIES.bank_authorisations.create, "bank_authorisations", (c) => s.create(o, c))(raw),
  authorise: (o: OrganisationId, id: string, raw: unknown = {}) => atEdge(BankAuthorisationOutcomeRequest, "bank_authorisations", (c) => s.authorise(o, id, c))(raw)
}))

/** Payer authorisations at the edge: create and update bodies decoded first. */
export const payerAuthorisationsAtEdge = Effect.map(PayerAuthorisations, (s) => ({
  ...s,
  create: (o: OrganisationId, raw: unknown) => atEdge(REQUEST_BODIES.payer_authorisations.create, "payer_authorisations", (c) => s.create(o, c))(raw),
  update: (o: OrganisationId, id: string, raw: unknown) => atEdge(REQUEST_BODIES.payer_authorisations.update, "payer_authorisations", (c) => s.update(o, id, c))(raw)
}))

/** Institutions at the edge: the list query decoded first. */
export const institutionsAtEdge = Effect.map(Institutions, (s) => ({
  ...s,
  list: (raw: unknown) => atEdge(InstitutionListParams, "institutions", (c) => s.list(c))(raw)
}))
