import { settleSubscriptionRequest } from "@paykit/schedule"
import { Effect } from "effect"
import { fieldError, InvalidState, invalidField, newId, now, validationFailed, type StorageError } from "@paykit/core"
import { billingRequestMachine, buildActions } from "@paykit/machines"
import { paymentRequestScheme } from "@paykit/validation"
import { type Customer, isRemoved } from "../customers/domain/customers.ts"
import { schemeRefusal } from "../creditors/scheme-identifiers.ts"
import { resolveCreditor } from "../creditors/creditor-link.ts"
import { API_CAUSE, applyCreation, type EngineContext, insertNew } from "../kernel/support.ts"
import type { CustomerBillingDetail } from "./domain/billing-details.ts"
import type { BillingRequest, StoredMandateRequest, StoredPaymentRequest, StoredSubscriptionRequest } from "./domain/billing-requests.ts"
import type { BillingRequestCreateCommand } from "./domain/billing-request-commands.ts"
import { embedBillingDetail, embedCustomer, factsOf } from "./billing-request-steps.ts"
import { type BillingRequestDeps, type Errors, ROOT } from "./deps.ts"
import { present } from "./read.ts"
import { CallingApp, recordAttribution } from "../ledger/app-fees.ts"

type Requested<K extends "mandate_request" | "payment_request" | "subscription_request"> = NonNullable<BillingRequestCreateCommand[K]>

const storedMandateRequest = (m: Requested<"mandate_request">): StoredMandateRequest => ({
  currency: m.currency,
  scheme: m.scheme ?? null,
  verify: m.verify ?? "recommended",
  metadata: m.metadata ?? {},
  reference: m.reference ?? null,
  description: m.description ?? null,
  constraints: m.constraints ?? null,
  ...(m.sweeping === undefined ? {} : { sweeping: m.sweeping }),
  ...(m.authorisation_source === undefined ? {} : { authorisation_source: m.authorisation_source }),
  funds_settlement: m.funds_settlement ?? "managed",
  consent_type: m.consent_type ?? null,
  payer_requested_dual_signature: false,
  links: {}
})

const storedPaymentRequest = (p: Requested<"payment_request">): StoredPaymentRequest => ({
  amount: p.amount,
  currency: p.currency,
  description: p.description ?? null,
  scheme: paymentRequestScheme(p),
  funds_settlement: p.funds_settlement ?? "managed",
  app_fee: p.app_fee ?? null,
  metadata: p.metadata ?? {},
  reference: p.reference ?? null,
  retry_if_possible: p.retry_if_possible ?? false,
  links: {}
})

/** @paykit/validation has checked it is with an ACH or PAD mandate request in its currency. */
const storedSubscriptionRequest = (s: Requested<"subscription_request">): StoredSubscriptionRequest => ({
  ...settleSubscriptionRequest(s),
  links: {}
})

/** The creditor the request is for, refused when it cannot collect on the requested scheme. */
const creditorFor = (deps: Pick<BillingRequestDeps, "creditors">, organisation: string, req: BillingRequestCreateCommand) =>
  Effect.gen(function*() {
    // Instalment schedules are created by a service this engine does not have yet.
    if (req.instalment_schedule_request !== undefined && req.instalment_schedule_request !== null) {
      return yield* validationFailed([fieldError(ROOT, ["instalment_schedule_request"], "is not supported by this engine yet")])
    }
    const creditor = yield* resolveCreditor(deps.creditors, organisation, ROOT, req.links?.creditor)
    const requestedScheme = req.mandate_request?.scheme ?? undefined
    const refusal = requestedScheme === undefined ? undefined : schemeRefusal(creditor.resource, requestedScheme)
    if (refusal !== undefined) return yield* invalidField(ROOT, ["mandate_request", "scheme"], refusal)
    return creditor.resource
  })

/** The empty customer a billing request starts with when none is linked; its details come later. */
const blankCustomer = (deps: Pick<BillingRequestDeps, "customers">, organisation: string) =>
  Effect.gen(function*() {
    const customer: Customer = {
      id: yield* newId("customer"),
      created_at: yield* now,
      email: null, given_name: null, family_name: null, company_name: null,
      address_line1: null, address_line2: null, address_line3: null, city: null, region: null, postal_code: null, country_code: null,
      language: "en", phone_number: null, swedish_identity_number: null, danish_identity_number: null,
      metadata: {}
    }
    yield* insertNew(deps.customers, organisation, customer)
    return customer
  })

/** A linked customer of the organisation, refused once removed: their data is erased (`customer_data_removed`). */
const linkedCustomer = (deps: Pick<BillingRequestDeps, "customers">, organisation: string, id: string) =>
  Effect.gen(function*() {
    const found = yield* deps.customers.get(organisation, id).pipe(
      Effect.mapError(() => invalidField(ROOT, ["links", "customer"], "must be a customer of this organisation"))
    )
    if (isRemoved(found.resource)) {
      return yield* new InvalidState({ reason: "customer_data_removed", message: "The customer was removed and their data erased", links: { customer: id } })
    }
    return found.resource
  })

/** An action on a billing request needs its customer not removed: their data is erased (`customer_data_removed`). */
export const checkPayerNotRemoved = (deps: Pick<BillingRequestDeps, "customers" | "requests">, organisation: string, id: string) =>
  Effect.flatMap(deps.requests.get(organisation, id), (br) => linkedCustomer(deps, organisation, br.resource.links.customer))

/** The linked customer (or a new blank one) and the linked bank account, which must be theirs. */
const payerOf = (deps: Pick<BillingRequestDeps, "customers" | "accounts">, organisation: string, links: BillingRequestCreateCommand["links"]) =>
  Effect.gen(function*() {
    const customer = links?.customer === undefined
      ? yield* blankCustomer(deps, organisation)
      : yield* linkedCustomer(deps, organisation, links.customer)
    if (links?.customer_bank_account === undefined) return { customer, accountId: undefined }
    const account = yield* deps.accounts.get(organisation, links.customer_bank_account).pipe(
      Effect.mapError(() => invalidField(ROOT, ["links", "customer_bank_account"], "must be a customer bank account of this organisation"))
    )
    if (account.resource.links.customer !== customer.id || !account.resource.enabled) {
      return yield* invalidField(ROOT, ["links", "customer_bank_account"], "must be an enabled bank account of the billing request's customer")
    }
    return { customer, accountId: account.resource.id }
  })

/** A new billing detail, starting from the address and identity numbers the customer has. */
const newBillingDetail = (deps: Pick<BillingRequestDeps, "details">, organisation: string, customer: Customer) =>
  Effect.gen(function*() {
    const detail: CustomerBillingDetail = {
      id: yield* newId("customer_billing_detail"),
      created_at: yield* now,
      address_line1: customer.address_line1,
      address_line2: customer.address_line2,
      address_line3: customer.address_line3,
      city: customer.city,
      region: customer.region,
      postal_code: customer.postal_code,
      country_code: customer.country_code,
      swedish_identity_number: customer.swedish_identity_number,
      danish_identity_number: customer.danish_identity_number,
      ip_address: null,
      schemes: [],
      links: { customer: customer.id }
    }
    yield* insertNew(deps.details, organisation, detail)
    return detail
  })

const hasAppFee = (br: BillingRequest): boolean =>
  (br.payment_request?.app_fee ?? 0) > 0 || (br.subscription_request?.app_fee ?? 0) > 0

export const createBillingRequest = (
  deps: Pick<BillingRequestDeps, "requests" | "details" | "customers" | "accounts" | "creditors" | "attributions">,
  organisation: string,
  req: BillingRequestCreateCommand
): Effect.Effect<BillingRequest, Errors | StorageError, EngineContext> =>
  Effect.gen(function*() {
    const creditor = yield* creditorFor(deps, organisation, req)
    const { customer, accountId } = yield* payerOf(deps, organisation, req.links)
    const detail = yield* newBillingDetail(deps, organisation, customer)
    const mandate_request = req.mandate_request === undefined || req.mandate_request === null ? null : storedMandateRequest(req.mandate_request)
    const payment_request = req.payment_request === undefined || req.payment_request === null ? null : storedPaymentRequest(req.payment_request)
    const subscription_request = req.subscription_request === undefined || req.subscription_request === null
      ? null
      : storedSubscriptionRequest(req.subscription_request)
    const fields: Omit<BillingRequest, "status"> = {
      id: yield* newId("billing_request"),
      created_at: detail.created_at,
      mandate_request,
      payment_request,
      subscription_request,
      instalment_schedule_request: null,
      metadata: req.metadata ?? {},
      fallback_enabled: req.fallback_enabled ?? false,
      fallback_occurred: false,
      purpose_code: req.purpose_code ?? null,
      payment_purpose_code: req.payment_purpose_code ?? null,
      payment_context_code: req.payment_context_code ?? null,
      actions: buildActions(factsOf({ mandate_request, payment_request }, customer, detail, accountId !== undefined, false)),
      resources: { customer: embedCustomer(customer), customer_billing_detail: embedBillingDetail(detail), customer_bank_account: null },
      links: {
        creditor: creditor.id,
        customer: customer.id,
        customer_billing_detail: detail.id,
        ...(accountId === undefined ? {} : { customer_bank_account: accountId })
      }
    }
    const { resource: br } = yield* applyCreation(deps.requests, {
      organisation,
      machine: billingRequestMachine,
      state: "pending",
      resource: fields,
      cause: API_CAUSE("billing_request_created", "This billing request has been created."),
      links: { billing_request: fields.id, customer: customer.id, creditor: creditor.id }
    })
    // Its fulfilment may come later from the payer's page, where no app calls: the app is remembered now.
    const app = yield* CallingApp
    // A subscription is the app's even without a fee: the app may set one later by an update.
    if (app !== null && (hasAppFee(br) || br.subscription_request !== null)) yield* recordAttribution(deps, organisation, br.id, app)
    return yield* present(deps, organisation, br)
  })
