import { Effect } from "effect"
import { InvalidState, isCurrency, type StorageError } from "@paykit/core"
import { incompleteFields, reopenActions } from "@paykit/machines"
import { isMandateSchemeOfCurrency } from "@paykit/validation"
import type { EngineContext } from "../kernel/support.ts"
import type { BillingRequest } from "./domain/billing-requests.ts"
import type { ChooseCurrencyRequest } from "./domain/billing-request-commands.ts"
import { factsOf, stepBillingRequest } from "./billing-request-steps.ts"
import type { BillingRequestDeps, Errors } from "./deps.ts"
import { withIncompleteFields } from "./collect-customer-details.ts"
import { present } from "./read.ts"

export const chooseCurrency = (
  deps: Pick<BillingRequestDeps, "requests" | "customers" | "details" | "accounts">,
  organisation: string,
  id: string,
  req: ChooseCurrencyRequest
): Effect.Effect<BillingRequest, Errors | StorageError, EngineContext> =>
  Effect.gen(function*() {
    const current = yield* deps.requests.get(organisation, id)
    const br = current.resource
    const m = br.mandate_request
    if (br.payment_request === null && m !== null && br.links.customer_bank_account !== undefined) {
      return yield* new InvalidState({ reason: "bank_account_already_collected", message: "The currency cannot change once a bank account has been collected" })
    }
    const customer = yield* Effect.orDie(deps.customers.get(organisation, br.links.customer))
    const detail = yield* Effect.orDie(deps.details.get(organisation, br.links.customer_billing_detail))
    const mandate_request = m === null ? null : {
      ...m,
      currency: req.currency,
      // The scheme stays when the new currency has it; otherwise the payer's scheme is chosen at fulfilment.
      scheme: m.scheme !== null && isCurrency(req.currency) && isMandateSchemeOfCurrency(m.scheme, req.currency) ? m.scheme : null
    }
    const incomplete = incompleteFields(factsOf({ mandate_request, payment_request: br.payment_request }, customer.resource, detail.resource, false, false))
    const detailsDone = incomplete.customer.length === 0 && incomplete.customer_billing_detail.length === 0
    // Choosing again reopens the choice; customer details reopen when the new scheme needs more.
    const reopen = (b: BillingRequest): BillingRequest => ({
      ...b,
      actions: reopenActions(withIncompleteFields(b.actions, incomplete), detailsDone ? ["choose_currency"] : ["choose_currency", "collect_customer_details"])
    })
    const next = yield* stepBillingRequest(deps.requests, organisation, current, "choose_currency",
      { origin: "payer", cause: "billing_request_choose_currency", description: `The currency ${req.currency} was chosen.` },
      {
        prepare: (b) => (b.payment_request === null ? reopen(b) : b),
        patch: (b) => ({ ...b, mandate_request, metadata: req.metadata ?? b.metadata })
      })
    return yield* present(deps, organisation, next)
  })
