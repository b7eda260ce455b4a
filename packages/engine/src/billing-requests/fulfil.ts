import { Effect } from "effect"
import { InvalidState, type OrganisationId, type StorageError, unsafeAmount } from "@paykit/core"
import type { MandateCreateRequest } from "../mandates/domain/mandates.ts"
import type { PaymentCreateRequest } from "../payments/domain/payments.ts"
import type { SubscriptionCreateRequest } from "../subscriptions/domain/subscriptions.ts"
import { API_CAUSE, type EngineContext } from "../kernel/support.ts"
import type { BillingRequest, StoredMandateRequest, StoredPaymentRequest, StoredSubscriptionRequest } from "./domain/billing-requests.ts"
import type { MetadataCommand } from "./domain/billing-request-commands.ts"
import { stepBillingRequest } from "./billing-request-steps.ts"
import type { BillingRequestDeps, Errors } from "./deps.ts"
import { present } from "./read.ts"
import { attributionOf } from "../ledger/app-fees.ts"

const mandateCommand = (m: StoredMandateRequest, accountId: string, creditor: string, ipAddress: string | null): MandateCreateRequest => ({
  ...(m.scheme === null ? {} : { scheme: m.scheme }),
  ...(m.reference === null ? {} : { reference: m.reference }),
  metadata: m.metadata,
  ...(m.authorisation_source === undefined ? {} : { authorisation_source: m.authorisation_source }),
  ...(ipAddress === null ? {} : { payer_ip_address: ipAddress }),
  links: { customer_bank_account: accountId, creditor }
})

const paymentCommand = (p: StoredPaymentRequest, mandate: string): PaymentCreateRequest => ({
  amount: unsafeAmount(p.amount),
  currency: p.currency,
  ...(p.description === null ? {} : { description: p.description }),
  ...(p.app_fee === null ? {} : { app_fee: unsafeAmount(p.app_fee) }),
  metadata: p.metadata,
  retry_if_possible: p.retry_if_possible,
  links: { mandate }
})

/** The stored request as POST /subscriptions' command: its settled fields, with the mandate fulfilment made. */
const subscriptionCommand = ({ links: _made, amount, app_fee, ...settled }: StoredSubscriptionRequest, mandate: string): SubscriptionCreateRequest => ({
  ...settled,
  amount: unsafeAmount(amount),
  app_fee: app_fee === null ? null : unsafeAmount(app_fee),
  links: { mandate }
})

interface Fulfilment {
  readonly mandate?: string
  readonly payment?: string
  readonly subscription?: string
}

/** The mandate of the request's mandate_request, on the collected bank account. */
const createMandate = (deps: Pick<BillingRequestDeps, "details" | "mandates">, organisation: OrganisationId, br: BillingRequest, m: StoredMandateRequest) =>
  Effect.gen(function*() {
    const accountId = br.links.customer_bank_account
    if (accountId === undefined) {
      return yield* new InvalidState({ reason: "billing_request_bank_account_missing", message: "The billing request has no bank account to create the mandate on" })
    }
    const detail = yield* Effect.orDie(deps.details.get(organisation, br.links.customer_billing_detail))
    const command = mandateCommand(m, accountId, br.links.creditor, detail.resource.ip_address)
    return yield* deps.mandates.create(organisation, command, { customerApproval: m.payer_requested_dual_signature })
  })

/** The resources the request asks for: its mandate, then a payment and a subscription on it. */
const createResources = (deps: Pick<BillingRequestDeps, "details" | "mandates" | "payments" | "subscriptions" | "attributions">, organisation: OrganisationId, br: BillingRequest) =>
  Effect.gen(function*() {
    // The app that created the request gets its fees, whoever fulfils it (the payer's page, the merchant).
    // A request no app created is the fulfilling app's, if an app fulfils it (undefined: the caller's).
    const attributed = yield* attributionOf(deps.attributions, organisation, br.id)
    const origin = attributed === null ? {} : { app: attributed }
    const mandate = br.mandate_request === null ? undefined : (yield* createMandate(deps, organisation, br, br.mandate_request)).id
    const p = br.payment_request
    // Pay by Bank: the payer authorised this payment at their bank (the request's
    // bank_authorisation action), so it is paid now without a mandate.
    const payment = p === null
      ? undefined
      : mandate === undefined
      ? yield* deps.payments.createInstant(organisation, {
        amount: p.amount,
        currency: p.currency,
        scheme: p.scheme,
        creditor: br.links.creditor,
        description: p.description,
        reference: p.reference,
        app_fee: p.app_fee,
        metadata: p.metadata
      }, origin)
      : yield* deps.payments.create(organisation, paymentCommand(p, mandate), origin)
    const sr = br.subscription_request
    // Planned by @paykit/schedule through the Subscriptions service, like POST /subscriptions.
    const subscription = sr === null || mandate === undefined ? undefined : yield* deps.subscriptions.create(organisation, subscriptionCommand(sr, mandate), origin)
    const done: Fulfilment = {
      ...(mandate === undefined ? {} : { mandate }),
      ...(payment === undefined ? {} : { payment: payment.id }),
      ...(subscription === undefined ? {} : { subscription: subscription.id })
    }
    return done
  })

/** The request linked to what fulfilment created. */
const linkedTo = (b: BillingRequest, done: Fulfilment): BillingRequest => ({
  ...b,
  mandate_request: b.mandate_request === null || done.mandate === undefined ? b.mandate_request : { ...b.mandate_request, links: { mandate: done.mandate } },
  payment_request: b.payment_request === null || done.payment === undefined ? b.payment_request : { ...b.payment_request, links: { payment: done.payment } },
  subscription_request: b.subscription_request === null || done.subscription === undefined
    ? b.subscription_request
    : { ...b.subscription_request, links: { subscription: done.subscription } },
  links: {
    ...b.links,
    ...(done.mandate === undefined ? {} : { mandate_request_mandate: done.mandate }),
    ...(done.payment === undefined ? {} : { payment_request_payment: done.payment }),
    ...(done.subscription === undefined ? {} : { subscription_request_subscription: done.subscription })
  }
})

export const fulfilBillingRequest = (
  deps: Pick<BillingRequestDeps, "requests" | "customers" | "details" | "accounts" | "mandates" | "payments" | "subscriptions" | "attributions">,
  organisation: OrganisationId,
  id: string,
  req: MetadataCommand
): Effect.Effect<BillingRequest, Errors | StorageError, EngineContext> =>
  Effect.gen(function*() {
    const current = yield* deps.requests.get(organisation, id)
    const fulfilling = yield* stepBillingRequest(deps.requests, organisation, current, "fulfil",
      API_CAUSE("billing_request_fulfil", "The billing request is being fulfilled."),
      { patch: (b) => ({ ...b, metadata: req.metadata ?? b.metadata }) })
    const done = yield* createResources(deps, organisation, fulfilling)
    const stored = yield* deps.requests.get(organisation, id)
    const next = yield* stepBillingRequest(deps.requests, organisation, stored, "fulfilment_completed",
      { origin: "gocardless", cause: "billing_request_fulfilled", description: "This billing request has been fulfilled, and the resources have been created." },
      { patch: (b) => linkedTo(b, done) })
    return yield* present(deps, organisation, next)
  })
