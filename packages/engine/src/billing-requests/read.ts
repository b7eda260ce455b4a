import { Effect } from "effect"
import type { NotFound, StorageError } from "@paykit/core"
import { eq, oneOf, type Page } from "../kernel/ports/list-query.ts"
import { toListQuery } from "../kernel/list-params.ts"
import type { Institution } from "../institutions/domain/institutions.ts"
import type { BillingRequest } from "./domain/billing-requests.ts"
import type { BillingRequestListParams } from "./domain/billing-request-commands.ts"
import type { BillingRequestInstitutionParams } from "../institutions/domain/institution-params.ts"
import { embedBillingDetail, embedCustomer } from "./billing-request-steps.ts"
import type { BillingRequestDeps } from "./deps.ts"

type PresentDeps = Pick<BillingRequestDeps, "customers" | "details" | "accounts">

/** The scheme a bank authorisation of this request runs on (institution lists are per scheme). */
export const bankAuthorisationScheme = (br: BillingRequest) =>
  br.payment_request !== null ? br.payment_request.scheme : "faster_payments" as const

/** The request with `resources` as its customer, billing detail and bank account are now. */
export const present = (deps: PresentDeps, organisation: string, br: BillingRequest): Effect.Effect<BillingRequest, StorageError> =>
  Effect.gen(function*() {
    const customer = yield* Effect.orDie(deps.customers.get(organisation, br.links.customer))
    const detail = yield* Effect.orDie(deps.details.get(organisation, br.links.customer_billing_detail))
    const account = br.links.customer_bank_account === undefined
      ? null
      : (yield* Effect.orDie(deps.accounts.get(organisation, br.links.customer_bank_account))).resource
    return {
      ...br,
      resources: { customer: embedCustomer(customer.resource), customer_billing_detail: embedBillingDetail(detail.resource), customer_bank_account: account }
    }
  })

export const getBillingRequest = (deps: PresentDeps & Pick<BillingRequestDeps, "requests">, organisation: string, id: string): Effect.Effect<BillingRequest, NotFound | StorageError> =>
  Effect.gen(function*() {
    const current = yield* deps.requests.get(organisation, id)
    return yield* present(deps, organisation, current.resource)
  })

export const listBillingRequests = (
  deps: PresentDeps & Pick<BillingRequestDeps, "requests">,
  organisation: string,
  params: BillingRequestListParams
): Effect.Effect<Page<BillingRequest>, StorageError> =>
  Effect.gen(function*() {
    const statuses = params.status === undefined ? undefined : typeof params.status === "string" ? [params.status] : params.status
    const page = yield* deps.requests.list(organisation, toListQuery(params, {
      customer: params.customer === undefined ? undefined : eq(params.customer),
      status: statuses === undefined ? undefined : oneOf(statuses)
    }))
    return { ...page, items: yield* Effect.forEach(page.items, (br) => present(deps, organisation, br)) }
  })

/** `GET /billing_requests/{id}/institutions`: the institutions that can take the request's scheme. */
export const billingRequestInstitutions = (
  deps: Pick<BillingRequestDeps, "requests" | "institutions">,
  organisation: string,
  id: string,
  params: BillingRequestInstitutionParams
): Effect.Effect<ReadonlyArray<Institution>, NotFound | StorageError> =>
  Effect.gen(function*() {
    const current = yield* deps.requests.get(organisation, id)
    return yield* deps.institutions.search(params, bankAuthorisationScheme(current.resource))
  })
