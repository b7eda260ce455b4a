import { Context, Effect, Layer } from "effect"
import type { OperationError } from "@paykit/core"
import { Transactor } from "../kernel/ports/repository.ts"
import { BankAuthorisations } from "./bank-authorisations.ts"
import { BillingRequests } from "./billing-requests.ts"
import type { BankAuthorisation } from "./domain/bank-authorisations.ts"
import type { BillingRequestWithActions, BillingRequestWithActionsRequest } from "./domain/billing-request-with-actions.ts"

interface Deps {
  readonly billingRequests: BillingRequests["Service"]
  readonly bankAuthorisations: BankAuthorisations["Service"]
}

/**
 * `POST /billing_requests/create_with_actions`: the creation and then each action given, in the
 * order a payer meets them (details, bank account, confirmation, bank, authorisation), each by
 * its own use case with its own checks; the first refusal undoes the whole call.
 */
const createWithActions = (deps: Deps, organisation: string, req: BillingRequestWithActionsRequest) =>
  Effect.gen(function*() {
    const { actions = {}, ...creation } = req
    const { id } = yield* deps.billingRequests.create(organisation, creation)
    if (actions.collect_customer_details !== undefined) yield* deps.billingRequests.collectCustomerDetails(organisation, id, actions.collect_customer_details)
    if (actions.collect_bank_account !== undefined) yield* deps.billingRequests.collectBankAccount(organisation, id, actions.collect_bank_account)
    if (actions.confirm_payer_details !== undefined) yield* deps.billingRequests.confirmPayerDetails(organisation, id, actions.confirm_payer_details)
    if (actions.select_institution !== undefined) yield* deps.billingRequests.selectInstitution(organisation, id, actions.select_institution)
    const authorisation: BankAuthorisation | null = actions.create_bank_authorisation === true
      ? yield* deps.bankAuthorisations.create(organisation, {
        links: { billing_request: id },
        ...(actions.bank_authorisation_redirect_uri === undefined ? {} : { redirect_uri: actions.bank_authorisation_redirect_uri })
      })
      : null
    const answer: BillingRequestWithActions = { billing_requests: yield* deps.billingRequests.get(organisation, id), bank_authorisations: authorisation }
    return answer
  })

export class BillingRequestsWithActions extends Context.Service<BillingRequestsWithActions, {
  readonly create: (organisation: string, command: BillingRequestWithActionsRequest) => Effect.Effect<BillingRequestWithActions, OperationError>
}>()("@paykit/engine/BillingRequestsWithActions") {
  static readonly layer: Layer.Layer<BillingRequestsWithActions, never, BillingRequests | BankAuthorisations | Transactor> = Layer.effect(
    BillingRequestsWithActions,
    Effect.gen(function*() {
      const deps: Deps = { billingRequests: yield* BillingRequests, bankAuthorisations: yield* BankAuthorisations }
      const transactor = yield* Transactor
      return BillingRequestsWithActions.of({ create: (o, c) => transactor.transaction(createWithActions(deps, o, c)) })
    })
  )
}
