import { Effect } from "effect"
import { NameVerifier } from "../kernel/ports/name-verifier.ts"
import { BillingRequestRepository, CustomerBillingDetailRepository } from "./repositories.ts"
import { CreditorRepository } from "../creditors/repositories.ts"
import { CustomerBankAccountRepository, CustomerRepository } from "../customers/repositories.ts"
import { Customers } from "../customers/customers.ts"
import { Mandates } from "../mandates/mandates.ts"
import { Payments } from "../payments/payments.ts"
import { Subscriptions } from "../subscriptions/subscriptions.ts"
import { Institutions } from "../institutions/institutions.ts"
import { AppAttributionRepository } from "../ledger/repositories.ts"

/** The API resource key billing request field errors are reported under. */
export { BILLING_REQUESTS as ROOT } from "@paykit/validation"

export type { BillingRequestErrors as Errors } from "./billing-requests.ts"

/**
 * Everything the billing request use cases reach: storage of their own and neighbouring
 * resources, and the typed services of collections. Each use case takes only the part it uses
 * (`Pick<BillingRequestDeps, ...>`), so its dependencies are read from its signature.
 */
export interface BillingRequestDeps {
  readonly requests: BillingRequestRepository["Service"]
  readonly details: CustomerBillingDetailRepository["Service"]
  readonly customers: CustomerRepository["Service"]
  readonly accounts: CustomerBankAccountRepository["Service"]
  readonly creditors: CreditorRepository["Service"]
  readonly customerService: Customers["Service"]
  readonly mandates: Mandates["Service"]
  readonly payments: Payments["Service"]
  readonly subscriptions: Subscriptions["Service"]
  readonly institutions: Institutions["Service"]
  readonly verifier: NameVerifier["Service"]
  /** The partner app a request was created by (keyed by the request's id): its fulfilment's payment and subscription are the app's. */
  readonly attributions: AppAttributionRepository["Service"]
}

export const billingRequestDeps = Effect.gen(function*() {
  const deps: BillingRequestDeps = {
    requests: yield* BillingRequestRepository,
    details: yield* CustomerBillingDetailRepository,
    customers: yield* CustomerRepository,
    accounts: yield* CustomerBankAccountRepository,
    creditors: yield* CreditorRepository,
    customerService: yield* Customers,
    mandates: yield* Mandates,
    payments: yield* Payments,
    subscriptions: yield* Subscriptions,
    institutions: yield* Institutions,
    verifier: yield* NameVerifier,
    attributions: yield* AppAttributionRepository
  }
  return deps
})
