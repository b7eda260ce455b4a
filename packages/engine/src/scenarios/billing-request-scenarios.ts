import { Effect, Schema } from "effect"
import type { OperationError, OrganisationId } from "@paykit/core"
import { findAction, type PaymentStatus, pendingRequirements } from "@paykit/machines"
import { BankAuthorisationCreateRequest } from "../bank-authorisations/domain/bank-authorisation-commands.ts"
import type { BillingRequest } from "../billing-requests/domain/billing-requests.ts"
import { BILLING_REQUEST_PATHS, type PaymentStep } from "./catalogue.ts"
import type { ScenarioDeps } from "./deps.ts"
import { type Paths, preconditionFailed, resourceOf, type Scenario, scenariosOf } from "./domain.ts"
import { movePaymentThrough } from "./payment-scenarios.ts"

/** What the scenario needs of the request before it acts: a payment to make, and nothing the payer must still give but the authorisation. */
const checkRequest = (scenario: string, br: BillingRequest) => {
  if (br.payment_request === null) return Effect.fail(preconditionFailed(scenario, `needs a billing request with a payment_request; ${br.id} has none`))
  if (br.status !== "pending" && br.status !== "ready_to_fulfil") {
    return Effect.fail(preconditionFailed(scenario, `needs a billing request in pending or ready_to_fulfil; ${br.id} is ${br.status}`))
  }
  const missing = pendingRequirements(br.actions, "bank_authorisation")
  if (missing.length > 0) return Effect.fail(preconditionFailed(scenario, `the payer must first complete ${missing.join(", ")} on ${br.id}`))
  if (br.mandate_request !== null && br.links.customer_bank_account === undefined) {
    return Effect.fail(preconditionFailed(scenario, `the mandate of ${br.id} needs the payer's bank account: collect it first`))
  }
  return Effect.void
}

/** The payer authorises at their bank (through the sandbox's bank authorisation), then the request is fulfilled. */
const authoriseAndFulfil = (deps: ScenarioDeps, organisation: OrganisationId, scenario: string, br: BillingRequest) =>
  Effect.gen(function*() {
    if (findAction(br.actions, "bank_authorisation")?.status === "pending") {
      const command = yield* Effect.orDie(Schema.decodeUnknownEffect(BankAuthorisationCreateRequest)({ links: { billing_request: br.id } }))
      const authorisation = yield* deps.bankAuthorisations.create(organisation, command)
      yield* deps.bankAuthorisations.authorise(organisation, authorisation.id, {})
    }
    const authorised = yield* Effect.orDie(deps.billingRequests.get(organisation, br.id))
    const fulfilled = authorised.status === "ready_to_fulfil" ? yield* deps.billingRequests.fulfil(organisation, br.id, {}) : authorised
    if (fulfilled.status !== "fulfilled") return yield* preconditionFailed(scenario, `${br.id} could not be fulfilled; it is ${fulfilled.status}`)
    return fulfilled
  })

/** The created payment's moves, in one unit of work; its new mandate goes to the bank with it. */
const movePayment = (deps: ScenarioDeps, organisation: OrganisationId, scenario: string, paymentId: string, paths: Paths<PaymentStatus, PaymentStep>) =>
  deps.unitOfWork(Effect.gen(function*() {
    const payment = (yield* Effect.orDie(deps.payment.payments.get(organisation, paymentId))).resource
    yield* movePaymentThrough(deps, organisation, scenario, payment, paths, true)
  }))

const billingRequestScenario = (paths: Paths<PaymentStatus, PaymentStep> | undefined): Scenario<ScenarioDeps> => ({
  run: (deps, organisation, id, scenario): Effect.Effect<void, OperationError> =>
    Effect.gen(function*() {
      const br = yield* resourceOf(deps.billingRequests.get(organisation, id), "billing request")
      yield* checkRequest(scenario, br)
      // Fulfilment is the billing request use cases' own units of work; it stays done if the payment's moves then fail.
      const fulfilled = yield* authoriseAndFulfil(deps, organisation, scenario, br)
      const payment = fulfilled.links.payment_request_payment
      if (paths === undefined || payment === undefined) return
      yield* movePayment(deps, organisation, scenario, payment, paths)
    })
})

export const BILLING_REQUEST_SCENARIOS = scenariosOf(BILLING_REQUEST_PATHS, billingRequestScenario)
