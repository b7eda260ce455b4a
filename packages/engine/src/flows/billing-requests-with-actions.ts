import { Context, Effect, Layer } from "effect"
import { decodeAtBoundary, movedFieldErrors, type OperationError, type OrganisationId } from "@paykit/core"
import { BILLING_REQUESTS } from "@paykit/validation"
import { Transactor } from "../kernel/ports/repository.ts"
import { BankAuthorisations } from "../bank-authorisations/bank-authorisations.ts"
import { BillingRequests } from "../billing-requests/billing-requests.ts"
import type { BankAuthorisation } from "../bank-authorisations/domain/bank-authorisations.ts"
import {
  BILLING_REQUEST_WITH_ACTIONS,
  type BillingRequestWithActions,
  BillingRequestWithActionsRequest
} from "./domain/billing-request-with-actions.ts"


const decodeCreate = decodeAtBoundary(BillingRequestWithActionsRequest, BILLING_REQUEST_WITH_ACTIONS)
interface Deps {
  readonly billingRequests: BillingRequests["Service"]
  readonly bankAuthorisations: BankAuthorisations["Service"]
}

/**
 * The use cases report their field errors under `billing_requests`; here those fields are in this
 * body, the actions' under `actions/<action>`, so a refusal points at what the caller sent.
 */
const pointedAt = (path: ReadonlyArray<string>) => <A, R>(effect: Effect.Effect<A, OperationError, R>): Effect.Effect<A, OperationError, R> =>
  Effect.mapError(effect, (e) => movedFieldErrors(e, BILLING_REQUESTS, BILLING_REQUEST_WITH_ACTIONS, path))

/**
 * `POST /billing_requests/create_with_actions`: the creation and then each action given, in the
 * order a payer meets them (details, bank account, confirmation, bank, authorisation), each by
 * its own use case with its own checks; the first refusal undoes the whole call.
 */
const createWithActions = (deps: Deps, organisation: OrganisationId, req: BillingRequestWithActionsRequest) =>
  Effect.gen(function*() {
    const { actions = {}, ...creation } = req
    const br = deps.billingRequests
    const { id } = yield* pointedAt([])(br.create(organisation, creation))
    const action = (name: string) => pointedAt(["actions", name])
    if (actions.collect_customer_details !== undefined) {
      yield* action("collect_customer_details")(br.collectCustomerDetails(organisation, id, actions.collect_customer_details))
    }
    if (actions.collect_bank_account !== undefined) yield* action("collect_bank_account")(br.collectBankAccount(organisation, id, actions.collect_bank_account))
    if (actions.confirm_payer_details !== undefined) yield* action("confirm_payer_details")(br.confirmPayerDetails(organisation, id, actions.confirm_payer_details))
    if (actions.select_institution !== undefined) yield* action("select_institution")(br.selectInstitution(organisation, id, actions.select_institution))
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
  readonly create: (organisation: OrganisationId, command: typeof BillingRequestWithActionsRequest.Encoded) => Effect.Effect<BillingRequestWithActions, OperationError>
}>()("@paykit/engine/BillingRequestsWithActions") {
  static readonly layer: Layer.Layer<BillingRequestsWithActions, never, BillingRequests | BankAuthorisations | Transactor> = Layer.effect(
    BillingRequestsWithActions,
    Effect.gen(function*() {
      const deps: Deps = { billingRequests: yield* BillingRequests, bankAuthorisations: yield* BankAuthorisations }
      const transactor = yield* Transactor
      return BillingRequestsWithActions.of({ create: (o, command) => Effect.flatMap(decodeCreate(command), (c) => transactor.transaction(createWithActions(deps, o, c))) })
    })
  )
}
