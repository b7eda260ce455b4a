import { Effect } from "effect"
import { fieldError, isCountryCode, movedFieldErrors, type OrganisationId, type StorageError, validationFailed } from "@paykit/core"
import { type BillingRequestAction, incompleteFields } from "@paykit/machines"
import { type Customer, CUSTOMERS_ROOT, type CustomerUpdateRequest } from "../customers/domain/customers.ts"
import { type EngineContext, save } from "../kernel/support.ts"
import type { CustomerBillingDetail } from "./domain/billing-details.ts"
import type { BillingRequest } from "./domain/billing-requests.ts"
import type { CollectCustomerDetailsRequest } from "./domain/billing-request-commands.ts"
import { checkBillingRequestEvent, embedCustomer, factsOf, stepBillingRequest } from "./billing-request-steps.ts"
import { type BillingRequestDeps, type Errors, ROOT } from "./deps.ts"
import { present } from "./read.ts"

/** The actions with `collect_customer_details` naming the fields still missing. */
export const withIncompleteFields = (actions: ReadonlyArray<BillingRequestAction>, incomplete: ReturnType<typeof incompleteFields>) =>
  actions.map((a) => (a.type === "collect_customer_details" ? { ...a, collect_customer_details: { incomplete_fields: incomplete } } : a))

/** The customer as collection leaves it: its own fields, and the address the billing detail gives. */
const customerUpdate = (c: Customer, d: CustomerBillingDetail): CustomerUpdateRequest => {
  const { id: _id, created_at: _createdAt, ...own } = embedCustomer(c)
  return {
    ...own,
    address_line1: d.address_line1,
    address_line2: d.address_line2,
    address_line3: d.address_line3,
    city: d.city,
    region: d.region,
    postal_code: d.postal_code,
    // Stored country codes were decoded as such; the guard only narrows the stored string.
    country_code: d.country_code !== null && isCountryCode(d.country_code) ? d.country_code : null,
    ...(d.swedish_identity_number === null ? {} : { swedish_identity_number: d.swedish_identity_number }),
    ...(d.danish_identity_number === null ? {} : { danish_identity_number: d.danish_identity_number })
  }
}

export const collectCustomerDetails = (
  deps: Pick<BillingRequestDeps, "requests" | "customers" | "details" | "accounts" | "customerService">,
  organisation: OrganisationId,
  id: string,
  req: CollectCustomerDetailsRequest
): Effect.Effect<BillingRequest, Errors | StorageError, EngineContext> =>
  Effect.gen(function*() {
    const current = yield* deps.requests.get(organisation, id)
    const br = current.resource
    yield* checkBillingRequestEvent(br, "collect_customer_details")
    const customer = yield* Effect.orDie(deps.customers.get(organisation, br.links.customer))
    const detail = yield* Effect.orDie(deps.details.get(organisation, br.links.customer_billing_detail))
    const c = req.customer ?? {}
    const mergedCustomer: Customer = { ...customer.resource, ...c, language: c.language ?? customer.resource.language }
    const mergedDetail: CustomerBillingDetail = { ...detail.resource, ...req.customer_billing_detail }
    const incomplete = incompleteFields(factsOf(br, mergedCustomer, mergedDetail, false, false))
    const missing = [
      ...incomplete.customer.map((f) => fieldError(ROOT, ["customer", f], "is required for this billing request")),
      ...incomplete.customer_billing_detail.map((f) => fieldError(ROOT, ["customer_billing_detail", f], "is required for this billing request's scheme"))
    ]
    if (missing.length > 0) return yield* validationFailed(missing)
    // The customer is updated immediately, addresses included, through the customers service; its
    // refusals (a blocked email) point at the customer as this body gives it.
    yield* deps.customerService.update(organisation, customer.resource.id, customerUpdate(mergedCustomer, mergedDetail)).pipe(
      Effect.mapError((e) => movedFieldErrors(e, CUSTOMERS_ROOT, ROOT, ["customer"]))
    )
    const schemes = br.mandate_request?.scheme === null || br.mandate_request === null ? [] : [br.mandate_request.scheme]
    yield* save(deps.details, organisation, detail, { ...mergedDetail, schemes })
    const next = yield* stepBillingRequest(deps.requests, organisation, current, "collect_customer_details",
      { origin: "payer", cause: "billing_request_collect_customer_details", description: "The payer's details were collected." },
      { prepare: (b) => ({ ...b, actions: withIncompleteFields(b.actions, incomplete) }) })
    return yield* present(deps, organisation, next)
  })
