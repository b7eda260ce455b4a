import { Effect } from "effect"
import { InvalidState, invalidField, today } from "@paykit/core"
import { calendarFor } from "@paykit/schedule"
import { API_CAUSE, save } from "../kernel/support.ts"
import { CHARGEABLE_MANDATE_STATUSES } from "../mandates/domain/mandates.ts"
import { paymentMachine } from "@paykit/machines"
import { EventLog } from "../kernel/ports/event-log.ts"
import {
  type Payment,
  type PaymentCancelRequest,
  PAYMENT_RETRIES_MAX,
  type PaymentRetryRequest,
  PAYMENTS_ROOT,
  type PaymentUpdateRequest
} from "./domain/payments.ts"
import { withNextPossibleChargeDate } from "../mandates/mandate-rules.ts"
import { movePayment, type PaymentDeps } from "./payment-rules.ts"

// What the API does to a payment after its creation: update, cancel, retry.

export const updatePayment = (deps: PaymentDeps, organisation: string, id: string, req: PaymentUpdateRequest) =>
  Effect.gen(function*() {
    const current = yield* deps.payments.get(organisation, id)
    const next: Payment = { ...current.resource, ...req }
    yield* save(deps.payments, organisation, current, next)
    return next
  })

export const cancelPayment = (deps: PaymentDeps, organisation: string, id: string, req: PaymentCancelRequest = {}) =>
  Effect.gen(function*() {
    const current = yield* deps.payments.get(organisation, id)
    // The body's metadata goes on the cancellation event, as the real API keeps it.
    return yield* movePayment(deps, organisation, current, "cancel", API_CAUSE("payment_cancelled", "The payment was cancelled at your request."), {
      ...(req.metadata === undefined ? {} : { eventMetadata: req.metadata })
    })
  })

/** How many times the payment was retried, from its history. */
const retriesOf = (organisation: string, id: string) =>
  Effect.map(EventLog.use((log) => log.history(organisation, paymentMachine.name, id)), (history) => history.filter((entry) => entry.event === "retry").length)

/** A failed collection tried again, on the date asked for or the mandate's next possible one; at most `PAYMENT_RETRIES_MAX` times. */
export const retryPayment = (deps: PaymentDeps, organisation: string, id: string, req: PaymentRetryRequest = {}) =>
  Effect.gen(function*() {
    const current = yield* deps.payments.get(organisation, id)
    if ((yield* retriesOf(organisation, id)) >= PAYMENT_RETRIES_MAX) {
      return yield* new InvalidState({ reason: "retry_failed", message: `A payment can be retried at most ${PAYMENT_RETRIES_MAX} times`, links: { payment: id } })
    }
    const mandateId = current.resource.links.mandate
    if (mandateId === undefined) {
      return yield* new InvalidState({ reason: "instant_payment_cannot_be_retried", message: "An instant payment has no mandate to collect it again" })
    }
    const mandate = yield* Effect.orDie(deps.mandates.get(organisation, mandateId))
    if (!CHARGEABLE_MANDATE_STATUSES.includes(mandate.resource.status)) {
      return yield* new InvalidState({ reason: "mandate_is_inactive", message: "The payment's mandate cannot be charged" })
    }
    const creditor = yield* Effect.orDie(deps.creditors.get(organisation, mandate.resource.links.creditor))
    const earliest = withNextPossibleChargeDate(mandate.resource, creditor.resource, yield* today()).next_possible_charge_date
    const chargeDate = req.charge_date ?? earliest
    if (chargeDate === null || (earliest !== null && chargeDate < earliest)) {
      return yield* invalidField(PAYMENTS_ROOT, ["charge_date"], `must be on or after the mandate's next_possible_charge_date (${earliest})`)
    }
    return yield* movePayment(deps, organisation, current, "retry", API_CAUSE("payment_retried", "The payment was retried at your request."), {
      patch: (p) => ({ ...p, charge_date: calendarFor(mandate.resource.scheme).rollForward(chargeDate) }),
      // The body's metadata goes on the event the retry causes, as the real API keeps it.
      ...(req.metadata === undefined ? {} : { eventMetadata: req.metadata })
    })
  })

