import { Effect, Result } from "effect"
import { type InvalidState, now, type Timestamp, type StorageError } from "@paykit/core"
import {
  applyBillingRequestEvent,
  type BillingRequestEvent,
  type BillingRequestFacts,
  type Cause
} from "@paykit/machines"
import type { Repository, Versioned } from "../kernel/ports/repository.ts"
import type { BillingRequest, EmbeddedBillingDetail, EmbeddedCustomer } from "./domain/billing-requests.ts"
import type { CustomerBillingDetail } from "./domain/billing-details.ts"
import type { Customer } from "../customers/domain/customers.ts"
import { type EngineContext, saveMove } from "../kernel/support.ts"

/**
 * The one way a billing request changes status or actions: @paykit/machines'
 * `applyBillingRequestEvent` decides the new status and actions (or refuses), the request is
 * saved at the version it was read, and the event the table names is appended with it. Shared by
 * the billing request and bank authorisation services.
 */

/** The facts of a billing request its actions are built from. */
export const factsOf = (
  br: Pick<BillingRequest, "mandate_request" | "payment_request">,
  customer: Pick<Customer, "email" | "given_name" | "family_name" | "company_name">,
  detail: Pick<CustomerBillingDetail, "address_line1" | "city" | "postal_code" | "country_code" | "swedish_identity_number" | "danish_identity_number">,
  bankAccountPresent: boolean,
  institutionSelected: boolean
): BillingRequestFacts => ({
  mandate_request: br.mandate_request === null ? null : { scheme: br.mandate_request.scheme, currency: br.mandate_request.currency },
  payment_request: br.payment_request === null ? null : { scheme: br.payment_request.scheme, currency: br.payment_request.currency },
  customer: { email: customer.email, given_name: customer.given_name, family_name: customer.family_name, company_name: customer.company_name },
  customer_billing_detail: {
    address_line1: detail.address_line1,
    city: detail.city,
    postal_code: detail.postal_code,
    country_code: detail.country_code,
    swedish_identity_number: detail.swedish_identity_number,
    danish_identity_number: detail.danish_identity_number
  },
  bank_account_present: bankAccountPresent,
  institution_selected: institutionSelected
})

export const embedCustomer = (c: Customer): EmbeddedCustomer => ({
  id: c.id,
  created_at: c.created_at,
  email: c.email,
  given_name: c.given_name,
  family_name: c.family_name,
  company_name: c.company_name,
  language: c.language,
  phone_number: c.phone_number,
  metadata: c.metadata
})

export const embedBillingDetail = (d: CustomerBillingDetail): EmbeddedBillingDetail => {
  const { links: _links, ...embedded } = d
  return embedded
}

/** The links a billing request's events carry. */
export const billingRequestEventLinks = (br: BillingRequest): Record<string, string> => ({
  billing_request: br.id,
  customer: br.links.customer,
  creditor: br.links.creditor,
  ...(br.links.bank_authorisation === undefined ? {} : { bank_authorisation: br.links.bank_authorisation }),
  ...(br.links.mandate_request_mandate === undefined ? {} : { mandate_request_mandate: br.links.mandate_request_mandate }),
  ...(br.links.payment_request_payment === undefined ? {} : { payment_request_payment: br.links.payment_request_payment })
})

export interface StepOptions {
  /** Changes made before the machine sees the request (e.g. refreshed `incomplete_fields`). */
  readonly prepare?: (br: BillingRequest) => BillingRequest
  /** Changes that come with the transition (links, metadata, timestamps). */
  readonly patch?: (br: BillingRequest, at: Timestamp) => BillingRequest
}

const outcomeOf = (br: BillingRequest, event: BillingRequestEvent, at: Timestamp, cause: Cause) =>
  applyBillingRequestEvent(
    { status: br.status, actions: br.actions, has_payment_request: br.payment_request !== null, fallback_enabled: br.fallback_enabled },
    event,
    { at, cause }
  )

/** Whether the machine accepts the event now; used before side effects so a refusal changes nothing. */
export const checkBillingRequestEvent = (
  br: BillingRequest,
  event: BillingRequestEvent,
  options: Pick<StepOptions, "prepare"> = {}
): Effect.Effect<void, InvalidState | StorageError> =>
  Effect.flatMap(now, (at) =>
    Effect.fromResult(
      Result.map(outcomeOf(options.prepare === undefined ? br : options.prepare(br), event, at, { origin: "api", cause: "check" }), () => undefined)
    ))

export const stepBillingRequest = <K extends string>(
  repository: Repository<BillingRequest, K>,
  organisation: string,
  current: Versioned<BillingRequest>,
  event: BillingRequestEvent,
  cause: Cause,
  options: StepOptions = {}
): Effect.Effect<BillingRequest, InvalidState | StorageError, EngineContext> =>
  Effect.gen(function*() {
    const at = yield* now
    const prepared = options.prepare === undefined ? current.resource : options.prepare(current.resource)
    const outcome = yield* Effect.fromResult(outcomeOf(prepared, event, at, cause))
    const moved: BillingRequest = { ...prepared, status: outcome.status, actions: outcome.actions }
    const next = options.patch === undefined ? moved : options.patch(moved, at)
    return yield* saveMove(repository, organisation, current, { next, entry: outcome.history }, { cause, links: billingRequestEventLinks(next) })
  })
