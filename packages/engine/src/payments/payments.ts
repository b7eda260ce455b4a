import { Context, Effect, Layer } from "effect"
import { type Currency, decodeAtBoundary, decodeOptionalAtBoundary, type IdGenerator, InvalidApiUsage, type NotFound, type OperationError, type OrganisationId, type StorageError, type ValidationFailed } from "@paykit/core"
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
import { PAYMENT_SORT_KEYS, type Payment, PaymentCancelRequest, PaymentCreateRequest, PaymentListParams, PaymentRetryRequest, PaymentUpdateRequest } from "./domain/payments.ts"
import { type Refund, RefundCreateRequest, RefundListParams, RefundUpdateRequest } from "../refunds/domain/refunds.ts"
import { dateRangeFilter, orderOf, toListQuery } from "../kernel/list-params.ts"
import { captureUnitOfWork } from "../kernel/support.ts"
import { captureDailyItems } from "../due-work/daily-items.ts"
import type { InstantPaymentInput, PaymentDeps, PaymentOrigin } from "./payment-rules.ts"
import { createInstant, createPayment } from "./payment-create.ts"
import { cancelPayment, retryPayment, updatePayment } from "./payment-actions.ts"
import { createRefund, updateRefund } from "./refund-actions.ts"
import { balance } from "./payment-ledger.ts"
import { type PaymentDueDeps, processPaymentsDay } from "./payment-due.ts"
import { keepMissingPaymentRecords, ReportedReversals } from "./side-records.ts"
import { BankBatchRepository, BankItemRepository } from "../bank-submissions/repositories.ts"
import type { QueueDeps } from "../bank-submissions/queue.ts"
import { BankDetailsVault } from "../customers/bank-details-vault.ts"

type Errors = OperationError

const decodeCreate = decodeAtBoundary(PaymentCreateRequest, "payments")
const decodeUpdate = decodeAtBoundary(PaymentUpdateRequest, "payments")
const decodeCancel = decodeOptionalAtBoundary(PaymentCancelRequest, "payments")
const decodeRetry = decodeOptionalAtBoundary(PaymentRetryRequest, "payments")
const decodeRefund = decodeAtBoundary(RefundCreateRequest, "refunds")
const decodeRefundUpdate = decodeAtBoundary(RefundUpdateRequest, "refunds")
const decodeList = decodeAtBoundary(PaymentListParams, "payments")
const decodeRefundList = decodeAtBoundary(RefundListParams, "refunds")

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
  readonly create: (organisation: OrganisationId, command: typeof PaymentCreateRequest.Encoded, origin?: PaymentOrigin) => Effect.Effect<Payment, Errors>
  /**
   * An instant payment without a mandate (engine operation of billing request fulfilment): created,
   * submitted to the payer's bank, and `confirmed` at once when the bank accepts it (recorded for
   * payout like a collection) or `failed`. No direct-debit collection, so no late failure or
   * chargeback follows.
   */
  readonly createInstant: (organisation: OrganisationId, input: InstantPaymentInput, origin?: PaymentOrigin) => Effect.Effect<Payment, Errors>
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<Payment, NotFound | StorageError>
  readonly list: (organisation: OrganisationId, params: typeof PaymentListParams.Encoded) => Effect.Effect<Page<Payment>, ValidationFailed | InvalidApiUsage | StorageError>
  readonly update: (organisation: OrganisationId, id: string, command: typeof PaymentUpdateRequest.Encoded) => Effect.Effect<Payment, Errors>
  readonly cancel: (organisation: OrganisationId, id: string, command?: typeof PaymentCancelRequest.Encoded) => Effect.Effect<Payment, Errors>
  readonly retry: (organisation: OrganisationId, id: string, command?: typeof PaymentRetryRequest.Encoded) => Effect.Effect<Payment, Errors>
  readonly createRefund: (organisation: OrganisationId, command: typeof RefundCreateRequest.Encoded) => Effect.Effect<Refund, Errors>
  readonly updateRefund: (organisation: OrganisationId, id: string, command: typeof RefundUpdateRequest.Encoded) => Effect.Effect<Refund, Errors>
  readonly getRefund: (organisation: OrganisationId, id: string) => Effect.Effect<Refund, NotFound | StorageError>
  readonly listRefunds: (organisation: OrganisationId, params: typeof RefundListParams.Encoded) => Effect.Effect<Page<Refund>, ValidationFailed | StorageError>
  /** The creditor's balance not yet paid out, in minor units (negative when it owes). */
  readonly balance: (organisation: OrganisationId, creditor: string, currency: Currency) => Effect.Effect<number, StorageError>
  /** The bank's day for collections and refunds (`payment-due.ts`). Run by the simulator once per day. */
  readonly processDay: (organisation: OrganisationId) => Effect.Effect<void, StorageError>
  /** Makes the side records of mandates and payments made before they were kept (`side-records.ts`). */
  readonly keepMissingSideRecords: (organisation: OrganisationId) => Effect.Effect<void, StorageError>
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
    | BankItemRepository
    | BankBatchRepository
    | BankDetailsVault
    | ReportedReversals
    | IdGenerator
    | EventLog
    | Transactor
  > = Layer.effect(
    Payments,
    Effect.gen(function*() {
      const deps = yield* paymentDeps
      const run = yield* captureUnitOfWork
      const queue: QueueDeps = { items: yield* BankItemRepository, batches: yield* BankBatchRepository, accounts: deps.accounts, vault: yield* BankDetailsVault }
      const due: PaymentDueDeps = { ...deps, queue, eachItem: yield* captureDailyItems }
      const reported = yield* ReportedReversals
      return Payments.of({
        create: (o, command, origin) => Effect.flatMap(decodeCreate(command), (c) => run(createPayment(deps, o, c, origin))),
        createInstant: (o, input, origin) => run(createInstant(deps, o, input, origin)),
        get: (o, id) => Effect.map(deps.payments.get(o, id), (v) => v.resource),
        list: (o, params) => Effect.flatMap(decodeList(params), (p) => listPayments(deps, o, p)),
        update: (o, id, command) => Effect.flatMap(decodeUpdate(command), (c) => run(updatePayment(deps, o, id, c))),
        cancel: (o, id, command) => Effect.flatMap(decodeCancel(command), (c) => run(cancelPayment(deps, o, id, c))),
        retry: (o, id, command) => Effect.flatMap(decodeRetry(command), (c) => run(retryPayment(deps, o, id, c))),
        createRefund: (o, command) => Effect.flatMap(decodeRefund(command), (c) => run(createRefund(deps, o, c))),
        updateRefund: (o, id, command) => Effect.flatMap(decodeRefundUpdate(command), (c) => run(updateRefund(deps, o, id, c))),
        getRefund: (o, id) => Effect.map(deps.refunds.get(o, id), (v) => v.resource),
        listRefunds: (o, plain) =>
          Effect.flatMap(decodeRefundList(plain), (params) =>
            // Every refund paykit makes is a payment's (`refund_type=payment`); none is a mandate's.
            params.refund_type === "mandate" ? Effect.succeed({ items: [], before: null, after: null }) : deps.refunds.list(o, toListQuery(params, {
              payment: params.payment === undefined ? undefined : eq(params.payment),
              mandate: params.mandate === undefined ? undefined : eq(params.mandate),
              status: params.status === undefined ? undefined : oneOf(params.status)
            }))),
        balance: (o, creditor, currency) => balance(deps, o, creditor, currency),
        processDay: (o) => processPaymentsDay(due, o),
        keepMissingSideRecords: (o) => keepMissingPaymentRecords(due, reported, o)
      })
    })
  )
}

/**
 * `GET /payments`: the filters, a customer's payments (those of the customer's mandates: a payment
 * names its mandate, not its customer), a charge-date range, and `sort_field` (`charge_date`,
 * `amount`) with `sort_direction`. As GoCardless documents, `customer` and `creditor` are not
 * taken together.
 */
const listPayments = (deps: PaymentDeps, organisation: string, params: PaymentListParams): Effect.Effect<Page<Payment>, InvalidApiUsage | StorageError> =>
  Effect.gen(function*() {
    if (params.customer !== undefined && params.creditor !== undefined) {
      return yield* new InvalidApiUsage({ status: 400, reason: "invalid_filters", message: "`customer` and `creditor` cannot be given together: a customer's payments are listed without a creditor" })
    }
    const mandates = params.customer === undefined ? undefined : yield* mandatesOfCustomer(deps, organisation, params.customer, params.mandate)
    if (mandates !== undefined && mandates.length === 0) return { items: [], before: null, after: null }
    const mandate = mandates !== undefined ? oneOf(mandates) : params.mandate === undefined ? undefined : eq(params.mandate)
    return yield* deps.payments.list(organisation, toListQuery(params, {
      creditor: params.creditor === undefined ? undefined : eq(params.creditor),
      mandate,
      subscription: params.subscription === undefined ? undefined : eq(params.subscription),
      currency: params.currency === undefined ? undefined : eq(params.currency),
      scheme: params.scheme === undefined ? undefined : eq(params.scheme),
      charge_date: params.charge_date === undefined ? undefined : dateRangeFilter(params.charge_date),
      status: params.status === undefined ? undefined : oneOf(params.status)
    }, orderOf(PAYMENT_SORT_KEYS, params.sort_field, params.sort_direction)))
  })

/** The customer's mandates (read through the mandates' `customer` index), narrowed to `mandate` when one is named too. */
const mandatesOfCustomer = (deps: PaymentDeps, organisation: string, customer: string, mandate: string | undefined) =>
  Effect.map(deps.mandates.scan(organisation, { customer: eq(customer) }), (rows) =>
    rows.map((row) => row.resource.id).filter((id) => mandate === undefined || id === mandate))
