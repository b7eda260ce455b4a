import { Effect } from "effect"
import { InvalidState, invalidField, newId, now, today } from "@paykit/core"
import { type Cause, paymentMachine } from "@paykit/machines"
import { validateAppFee } from "@paykit/money"
import { calendarFor } from "@paykit/schedule"
import { CallingApp, recordAttribution } from "../ledger/app-fees.ts"
import { linkedCreditor } from "../creditors/creditor-link.ts"
import { API_CAUSE, applyCreation } from "../kernel/support.ts"
import { keepLastUse } from "./mandate-last-use.ts"
import { CHARGEABLE_MANDATE_STATUSES } from "../mandates/domain/mandates.ts"
import { type Payment, type PaymentCreateRequest, PAYMENTS_ROOT } from "./domain/payments.ts"
import { withNextPossibleChargeDate } from "../mandates/mandate-rules.ts"
import { recordCollection } from "./payment-ledger.ts"
import { type InstantPaymentInput, mandateCurrencyRefusal, movePayment, type PaymentDeps, paymentLinks, type PaymentOrigin } from "./payment-rules.ts"

const NO_FX: Payment["fx"] = { estimated_exchange_rate: null, exchange_rate: null, fx_amount: null, fx_currency: null }

// The creation of payments: collections on a mandate (the API, subscriptions) and instant payments (billing requests).


/** Stores a new payment as its machine creates it (with its `created` event), and its app attribution. */
const storePayment = (deps: PaymentDeps, organisation: string, fields: Omit<Payment, "status">, origin: PaymentOrigin, cause: Cause) =>
  Effect.gen(function*() {
    const created = yield* applyCreation(deps.payments, {
      organisation,
      machine: paymentMachine,
      state: "pending_submission",
      resource: fields,
      cause,
      links: paymentLinks(fields)
    })
    yield* keepLastUse(deps, organisation, created.resource)
    // The app fee is the partner's: remember which app, so it is credited once collected.
    const app = origin.app === undefined ? yield* CallingApp : origin.app
    if (app !== null && fields.app_fee !== null && fields.app_fee > 0) {
      yield* recordAttribution(deps, organisation, fields.id, app)
    }
    return created
  })

/** The mandate a collection is made on, if it can still be charged in the request's currency. */
const chargeableMandate = (deps: PaymentDeps, organisation: string, req: PaymentCreateRequest) =>
  Effect.gen(function*() {
    const mandate = yield* deps.mandates.get(organisation, req.links.mandate).pipe(
      Effect.mapError(() => invalidField(PAYMENTS_ROOT, ["links", "mandate"], "must be a mandate of this organisation"))
    )
    if (!CHARGEABLE_MANDATE_STATUSES.includes(mandate.resource.status)) {
      return yield* new InvalidState({
        reason: "mandate_is_inactive",
        message: `The mandate is ${mandate.resource.status}; payments cannot be created against it`,
        links: { mandate: mandate.resource.id }
      })
    }
    const currencyRefusal = mandateCurrencyRefusal(mandate.resource.scheme, req.currency)
    if (currencyRefusal !== undefined) return yield* invalidField(PAYMENTS_ROOT, ["currency"], currencyRefusal)
    return mandate.resource
  })

/** Why a collection was made: the API's call, or the schedule (subscription or instalments) that made it. */
const creationCause = (origin: PaymentOrigin): Cause =>
  origin.subscription !== undefined
    ? { origin: "gocardless", cause: "payment_created", description: "Payment created by a subscription." }
    : origin.instalment_schedule !== undefined
    ? { origin: "gocardless", cause: "payment_created", description: "Payment created by an instalment schedule." }
    : API_CAUSE("payment_created", "Payment created via the API.")

export const createPayment = (deps: PaymentDeps, organisation: string, req: PaymentCreateRequest, origin: PaymentOrigin = {}) =>
  Effect.gen(function*() {
    const mandate = yield* chargeableMandate(deps, organisation, req)
    if (req.app_fee !== undefined) yield* Effect.fromResult(validateAppFee(PAYMENTS_ROOT, req.amount, req.app_fee))
    const creditor = yield* Effect.orDie(deps.creditors.get(organisation, mandate.links.creditor))
    const day = origin.noticeFrom ?? (yield* today())
    const earliest = withNextPossibleChargeDate(mandate, creditor.resource, day).next_possible_charge_date ?? day
    const chargeDate = req.charge_date === undefined ? earliest : calendarFor(mandate.scheme).rollForward(req.charge_date)
    if (chargeDate < earliest) {
      return yield* invalidField(PAYMENTS_ROOT, ["charge_date"], `must be on or after the mandate's next_possible_charge_date (${earliest})`)
    }
    const fields: Omit<Payment, "status"> = {
      id: yield* newId("payment"),
      created_at: yield* now,
      amount: req.amount,
      amount_refunded: 0,
      app_fee: req.app_fee ?? null,
      charge_date: chargeDate,
      currency: req.currency,
      description: req.description ?? null,
      faster_ach: mandate.scheme === "ach" ? false : null,
      reference: req.reference ?? null,
      retry_if_possible: req.retry_if_possible ?? false,
      scheme: mandate.scheme,
      fx: NO_FX,
      metadata: req.metadata ?? {},
      links: {
        creditor: creditor.resource.id,
        mandate: mandate.id,
        ...(origin.subscription === undefined ? {} : { subscription: origin.subscription }),
        ...(origin.instalment_schedule === undefined ? {} : { instalment_schedule: origin.instalment_schedule })
      }
    }
    const created = yield* storePayment(deps, organisation, fields, origin, creationCause(origin))
    return created.resource
  })

export const createInstant = (deps: PaymentDeps, organisation: string, input: InstantPaymentInput, origin: PaymentOrigin = {}) =>
  Effect.gen(function*() {
    if (input.app_fee !== null) yield* Effect.fromResult(validateAppFee(PAYMENTS_ROOT, input.amount, input.app_fee))
    const creditor = yield* linkedCreditor(deps.creditors, organisation, PAYMENTS_ROOT, input.creditor)
    const day = yield* today()
    const fields: Omit<Payment, "status"> = {
      id: yield* newId("payment"),
      created_at: yield* now,
      amount: input.amount,
      amount_refunded: 0,
      app_fee: input.app_fee,
      charge_date: day,
      currency: input.currency,
      description: input.description,
      faster_ach: null,
      reference: input.reference,
      retry_if_possible: false,
      scheme: input.scheme,
      fx: NO_FX,
      metadata: input.metadata,
      links: { creditor: creditor.resource.id }
    }
    const created = yield* storePayment(deps, organisation, fields, origin,
      { origin: "gocardless", cause: "payment_created", description: "Payment created by a billing request." })
    yield* movePayment(deps, organisation, created, "submit", { origin: "gocardless", cause: "payment_submitted", description: "The payer authorised the payment at their bank." })
    const outcome = yield* deps.bank.authoriseInstantPayment({ paymentId: fields.id, amount: fields.amount, currency: fields.currency, scheme: input.scheme })
    const submitted = yield* deps.payments.get(organisation, fields.id)
    if (outcome.outcome === "failed") {
      return yield* movePayment(deps, organisation, submitted, "fail", { origin: "bank", cause: outcome.cause, description: outcome.description }, { reason_code: outcome.reason_code })
    }
    const confirmed = yield* movePayment(deps, organisation, submitted, "confirm", { origin: "bank", cause: "payment_confirmed", description: "The payer's bank has sent the instant payment." })
    yield* recordCollection(deps, organisation, confirmed, creditor.resource, day)
    return confirmed
  })

