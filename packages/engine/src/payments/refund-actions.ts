import { Effect } from "effect"
import { InvalidState, invalidField, newId, now, unsafeAmount } from "@paykit/core"
import { refundMachine } from "@paykit/machines"
import { checkDecodedRefund } from "@paykit/money"
import { eq } from "../kernel/ports/list-query.ts"
import type { Versioned } from "../kernel/ports/repository.ts"
import { API_CAUSE, applyCreation, emit, save } from "../kernel/support.ts"
import type { Payment } from "./domain/payments.ts"
import { type Refund, type RefundCreateRequest, REFUNDS_ROOT, type RefundUpdateRequest } from "../refunds/domain/refunds.ts"
import { balance, recordRefund } from "./payment-ledger.ts"
import { type PaymentDeps, paymentLinks } from "./payment-rules.ts"

/** The links of a refund's events. */
export const refundLinks = (r: Pick<Refund, "id" | "links">) => ({ refund: r.id, payment: r.links.payment, mandate: r.links.mandate, creditor: r.links.creditor })

// Refunds of collected payments (POST /refunds).

/** The payment a refund is for, if it can take one of this amount: the checks on the payment alone. */
const refundablePayment = (deps: PaymentDeps, organisation: string, req: RefundCreateRequest) =>
  Effect.gen(function*() {
    const payment = yield* deps.payments.get(organisation, req.links.payment).pipe(
      Effect.mapError(() => invalidField(REFUNDS_ROOT, ["links", "payment"], "must be a payment of this organisation"))
    )
    const p = payment.resource
    const mandate = p.links.mandate
    if (mandate === undefined) {
      // Refunding an instant payment needs the payer's account, which this engine does not keep.
      return yield* new InvalidState({ reason: "instant_payment_refunds_not_supported", message: "Refunds of instant payments are not supported", links: { payment: p.id } })
    }
    if (p.status !== "confirmed" && p.status !== "paid_out") {
      return yield* new InvalidState({ reason: "refund_payment_invalid_state", message: "Only confirmed or paid out payments can be refunded", links: { payment: p.id } })
    }
    if (req.total_amount_confirmation !== p.amount_refunded + req.amount) {
      // The real API's safeguard against two processes refunding unaware of each other: a state refusal, not a field's.
      return yield* new InvalidState({
        reason: "total_amount_confirmation_invalid",
        message: `total_amount_confirmation must be the payment's refunded total after this refund (${p.amount_refunded + req.amount})`,
        links: { payment: p.id }
      })
    }
    if (p.amount_refunded + req.amount > p.amount) {
      return yield* new InvalidState({ reason: "refund_amount_exceeds_payment", message: "The refunds would exceed the payment's amount", links: { payment: p.id } })
    }
    return { payment, mandate }
  })

/** The creditor's side: refunds enabled, and the balance (within its negative limit) can carry the amount. */
const checkCreditor = (deps: PaymentDeps, organisation: string, p: Payment, req: RefundCreateRequest) =>
  Effect.gen(function*() {
    const creditor = yield* Effect.orDie(deps.creditors.get(organisation, p.links.creditor))
    if (!creditor.resource.can_create_refunds) {
      return yield* new InvalidState({ reason: "refunds_not_enabled", message: "The creditor cannot create refunds" })
    }
    const limit = yield* deps.limits.scan(organisation, { creditor: eq(p.links.creditor), currency: eq(p.currency) })
    const current = yield* balance(deps, organisation, p.links.creditor, p.currency)
    const latestLimit = limit[limit.length - 1]
    yield* Effect.fromResult(checkDecodedRefund({
      currency: p.currency,
      balance: current,
      amount: req.amount,
      ...(latestLimit === undefined ? {} : { balance_limit: unsafeAmount(latestLimit.resource.balance_limit) })
    }))
  })

/**
 * The payment's refunded total grows and the ledger records the refund; the payment's event
 * (not a status change: its status stays) says whether it is now refunded in full.
 */
const markRefunded = (deps: PaymentDeps, organisation: string, payment: Versioned<Payment>, refund: Refund) =>
  Effect.gen(function*() {
    const p = payment.resource
    const amount = refund.amount
    yield* save(deps.payments, organisation, payment, { ...p, amount_refunded: p.amount_refunded + amount })
    yield* recordRefund(deps, organisation, refund)
    yield* emit(organisation, {
      resource_type: "payments",
      action: p.amount_refunded + amount === p.amount ? "refunded" : "partially_refunded",
      links: paymentLinks(p),
      cause: API_CAUSE("payment_refunded")
    })
  })

export const createRefund = (deps: PaymentDeps, organisation: string, req: RefundCreateRequest) =>
  Effect.gen(function*() {
    const { payment, mandate } = yield* refundablePayment(deps, organisation, req)
    const p = payment.resource
    yield* checkCreditor(deps, organisation, p, req)
    const fields: Omit<Refund, "status"> = {
      id: yield* newId("refund"),
      created_at: yield* now,
      amount: req.amount,
      currency: p.currency,
      reference: req.reference ?? null,
      fx: { estimated_exchange_rate: null, exchange_rate: null, fx_amount: null, fx_currency: null },
      metadata: req.metadata ?? {},
      links: { payment: p.id, mandate, creditor: p.links.creditor }
    }
    const { resource: refund } = yield* applyCreation(deps.refunds, {
      organisation,
      machine: refundMachine,
      state: "created",
      resource: fields,
      cause: API_CAUSE("payment_refunded", "The refund has been created."),
      links: refundLinks(fields)
    })
    yield* markRefunded(deps, organisation, payment, refund)
    return refund
  })


export const updateRefund = (deps: PaymentDeps, organisation: string, id: string, req: RefundUpdateRequest) =>
  Effect.gen(function*() {
    const current = yield* deps.refunds.get(organisation, id)
    const next: Refund = { ...current.resource, metadata: req.metadata ?? current.resource.metadata }
    yield* save(deps.refunds, organisation, current, next)
    return next
  })
