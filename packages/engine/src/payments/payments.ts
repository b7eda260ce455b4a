import { Context, Effect, Layer } from "effect"
import type { Currency, IdGenerator, NotFound, OperationError } from "@paykit/core"
import { BankGateway } from "../kernel/ports/bank-gateway.ts"
import { EventLog } from "../kernel/ports/event-log.ts"
import { Transactor } from "../kernel/ports/repository.ts"
import { eq, oneOf, type Page } from "../kernel/ports/list-query.ts"
import { AppAttributionRepository, AppFeeLedgerRepository, LedgerRepository, NegativeBalanceLimitRepository } from "../ledger/repositories.ts"
import { CreditorRepository } from "../creditors/repositories.ts"
import { CustomerBankAccountRepository } from "../customers/repositories.ts"
import { InstalmentScheduleCheckRepository, PaymentRepository, PaymentReversalRepository } from "./repositories.ts"
import { MandateDormancyRepository, MandateRepository } from "../mandates/repositories.ts"
import { RefundRepository } from "../refunds/repositories.ts"
import type { Payment, PaymentCancelRequest, PaymentCreateRequest, PaymentListParams, PaymentRetryRequest, PaymentUpdateRequest } from "./domain/payments.ts"
import type { Refund, RefundCreateRequest, RefundListParams, RefundUpdateRequest } from "../refunds/domain/refunds.ts"
import { toListQuery } from "../kernel/list-params.ts"
import { captureUnitOfWork } from "../kernel/support.ts"
import { captureDailyItems } from "../due-work/daily-items.ts"
import type { InstantPaymentInput, PaymentDeps, PaymentOrigin } from "./payment-rules.ts"
import { createInstant, createPayment } from "./payment-create.ts"
import { cancelPayment, retryPayment, updatePayment } from "./payment-actions.ts"
import { createRefund, updateRefund } from "./refund-actions.ts"
import { balance } from "./payment-ledger.ts"
import { type PaymentDueDeps, processPaymentsDay } from "./payment-due.ts"
import { keepMissingPaymentRecords } from "./side-records.ts"

type Errors = OperationError

/** What the payment and refund use cases and their due work read and write, taken from the context once. */
export const paymentDeps = Effect.gen(function*() {
  const deps: PaymentDeps = {
    payments: yield* PaymentRepository,
    reversals: yield* PaymentReversalRepository,
    refunds: yield* RefundRepository,
    dormancy: yield* MandateDormancyRepository,
    scheduleChecks: yield* InstalmentScheduleCheckRepository,
    mandates: yield* MandateRepository,
    creditors: yield* CreditorRepository,
    accounts: yield* CustomerBankAccountRepository,
    ledger: yield* LedgerRepository,
    attributions: yield* AppAttributionRepository,
    appFees: yield* AppFeeLedgerRepository,
    limits: yield* NegativeBalanceLimitRepository,
    bank: yield* BankGateway,
    log: yield* EventLog
  }
  return deps
})

export class Payments extends Context.Service<Payments, {
  /** `origin`: the subscription whose schedule makes the payment, and the partner app it is made for. */
  readonly create: (organisation: string, command: PaymentCreateRequest, origin?: PaymentOrigin) => Effect.Effect<Payment, Errors>
  /**
   * An instant payment without a mandate (engine operation of billing request fulfilment): created,
   * submitted to the payer's bank, and `confirmed` at once when the bank accepts it (recorded for
   * payout like a collection) or `failed`. No direct-debit collection, so no late failure or
   * chargeback follows.
   */
  readonly createInstant: (organisation: string, input: InstantPaymentInput, origin?: PaymentOrigin) => Effect.Effect<Payment, Errors>
  readonly get: (organisation: string, id: string) => Effect.Effect<Payment, NotFound>
  readonly list: (organisation: string, params: PaymentListParams) => Effect.Effect<Page<Payment>>
  readonly update: (organisation: string, id: string, command: PaymentUpdateRequest) => Effect.Effect<Payment, Errors>
  readonly cancel: (organisation: string, id: string, command?: PaymentCancelRequest) => Effect.Effect<Payment, Errors>
  readonly retry: (organisation: string, id: string, command?: PaymentRetryRequest) => Effect.Effect<Payment, Errors>
  readonly createRefund: (organisation: string, command: RefundCreateRequest) => Effect.Effect<Refund, Errors>
  readonly updateRefund: (organisation: string, id: string, command: RefundUpdateRequest) => Effect.Effect<Refund, Errors>
  readonly getRefund: (organisation: string, id: string) => Effect.Effect<Refund, NotFound>
  readonly listRefunds: (organisation: string, params: RefundListParams) => Effect.Effect<Page<Refund>>
  /** The creditor's balance not yet paid out, in minor units (negative when it owes). */
  readonly balance: (organisation: string, creditor: string, currency: Currency) => Effect.Effect<number>
  /** The bank's day for collections and refunds (`payment-due.ts`). Run by the simulator once per day. */
  readonly processDay: (organisation: string) => Effect.Effect<void>
  /** Makes the side records of mandates and payments made before they were kept (`side-records.ts`). */
  readonly keepMissingSideRecords: (organisation: string) => Effect.Effect<void>
}>()("@paykit/engine/Payments") {
  static readonly layer: Layer.Layer<
    Payments,
    never,
    | PaymentRepository
    | PaymentReversalRepository
    | InstalmentScheduleCheckRepository
    | MandateDormancyRepository
    | RefundRepository
    | MandateRepository
    | CreditorRepository
    | CustomerBankAccountRepository
    | LedgerRepository
    | AppAttributionRepository
    | AppFeeLedgerRepository
    | NegativeBalanceLimitRepository
    | BankGateway
    | IdGenerator
    | EventLog
    | Transactor
  > = Layer.effect(
    Payments,
    Effect.gen(function*() {
      const deps = yield* paymentDeps
      const run = yield* captureUnitOfWork
      const due: PaymentDueDeps = { ...deps, eachItem: yield* captureDailyItems }
      return Payments.of({
        create: (o, command, origin) => run(createPayment(deps, o, command, origin)),
        createInstant: (o, input, origin) => run(createInstant(deps, o, input, origin)),
        get: (o, id) => Effect.map(deps.payments.get(o, id), (v) => v.resource),
        list: (o, params) =>
          deps.payments.list(o, toListQuery(params, {
            creditor: params.creditor === undefined ? undefined : eq(params.creditor),
            mandate: params.mandate === undefined ? undefined : eq(params.mandate),
            subscription: params.subscription === undefined ? undefined : eq(params.subscription),
            currency: params.currency === undefined ? undefined : eq(params.currency),
            status: params.status === undefined ? undefined : oneOf(params.status)
          })),
        update: (o, id, command) => run(updatePayment(deps, o, id, command)),
        cancel: (o, id, command) => run(cancelPayment(deps, o, id, command)),
        retry: (o, id, command) => run(retryPayment(deps, o, id, command)),
        createRefund: (o, command) => run(createRefund(deps, o, command)),
        updateRefund: (o, id, command) => run(updateRefund(deps, o, id, command)),
        getRefund: (o, id) => Effect.map(deps.refunds.get(o, id), (v) => v.resource),
        listRefunds: (o, params) =>
          deps.refunds.list(o, toListQuery(params, {
            payment: params.payment === undefined ? undefined : eq(params.payment),
            mandate: params.mandate === undefined ? undefined : eq(params.mandate),
            status: params.status === undefined ? undefined : oneOf(params.status)
          })),
        balance: (o, creditor, currency) => balance(deps, o, creditor, currency),
        processDay: (o) => processPaymentsDay(due, o),
        keepMissingSideRecords: (o) => keepMissingPaymentRecords(due, o)
      })
    })
  )
}
