import { Context, Effect, Layer, Schema } from "effect"
import {
  Amount,
  Currency,
  type IdGenerator,
  InvalidState,
  LocalDate,
  type MandateScheme,
  Metadata,
  type NotFound,
  type ValidationFailed,
  isCountryCode,
  unsafeAmount,
  decodeInputEffect,
  invalidField,
  newId,
  now,
  today,
  IdOf
} from "@paykit/core"
import { type Cause, PAYMENT_STATUSES, type PaymentEvent, paymentMachine, REFUND_STATUSES, refundMachine } from "@paykit/machines"
import {
  DEFAULT_FEE_SCHEDULE,
  type PaymentScheme,
  checkDecodedRefund,
  collectionCharges,
  itemsOfEntry,
  surchargeCharge,
  taxJurisdictionOf,
  validateAppFee
} from "@paykit/money"
import { calendarFor } from "@paykit/schedule"
import { CURRENCY_OF_MANDATE_SCHEME, Description, PositiveAmount, type PaymentRequestScheme } from "@paykit/validation"
import { BankGateway } from "../kernel/ports/bank-gateway.ts"
import { EventLog } from "../kernel/ports/event-log.ts"
import { Transactor } from "../kernel/ports/repository.ts"
import { eq, oneOf, type Page } from "../kernel/ports/list-query.ts"
import type { Versioned } from "../kernel/ports/repository.ts"
import { AppAttributionRepository, AppFeeLedgerRepository, LedgerRepository, NegativeBalanceLimitRepository } from "../payouts/repositories.ts"
import { CreditorRepository } from "../creditors/repositories.ts"
import { CustomerBankAccountRepository, MandateRepository, PaymentRepository, RefundRepository } from "./repositories.ts"
import type { PartnerApp } from "../payouts/domain/app-fees.ts"
import type { Creditor } from "../creditors/domain/creditors.ts"
import type { Payment } from "./domain/payments.ts"
import type { Refund } from "./domain/refunds.ts"
import type { LedgerEntry } from "../payouts/domain/settlement-entries.ts"
import { CallingApp, recordAppFee, recordAttribution } from "../payouts/app-fees.ts"
import { idFilter, listFields, toListQuery } from "../kernel/list-params.ts"
import { CHARGEABLE_MANDATE_STATUSES, withNextPossibleChargeDate } from "./mandates.ts"
import { API_CAUSE, applyCreation, applyTransition, emit, insertNew, save, captureUnitOfWork } from "../kernel/support.ts"
import { captureDailyItems, idOfVersioned } from "../kernel/daily-items.ts"
import { MetadataUpdateRequest } from "../kernel/metadata-requests.ts"
import { linkedCreditor } from "../creditors/creditor-link.ts"

const PAYMENTS = "payments"
const REFUNDS = "refunds"

/** Working days after the charge date on which the sandbox bank reports a late failure or a chargeback. */
export const LATE_FAILURE_AFTER_BUSINESS_DAYS = 3
export const CHARGEBACK_AFTER_BUSINESS_DAYS = 5

/**
 * Why a payment (or a subscription, whose payments the daily run creates) in `currency` cannot
 * be collected on a mandate of `scheme`, or undefined when it can: each scheme collects in one
 * currency.
 */
export const mandateCurrencyRefusal = (scheme: MandateScheme, currency: Currency): string | undefined =>
  currency === CURRENCY_OF_MANDATE_SCHEME[scheme] ? undefined : `must be ${CURRENCY_OF_MANDATE_SCHEME[scheme]} for a ${scheme} mandate`

export const PaymentCreateRequest = Schema.Struct({
  amount: PositiveAmount,
  currency: Currency,
  charge_date: Schema.optionalKey(LocalDate),
  description: Schema.optionalKey(Description),
  reference: Schema.optionalKey(Schema.String),
  metadata: Schema.optionalKey(Metadata),
  app_fee: Schema.optionalKey(Amount),
  retry_if_possible: Schema.optionalKey(Schema.Boolean),
  links: Schema.Struct({ mandate: IdOf("mandate") })
})
export type PaymentCreateRequest = typeof PaymentCreateRequest.Type

export const PaymentListParams = Schema.Struct({
  ...listFields("payment"),
  creditor: idFilter("creditor"),
  mandate: idFilter("mandate"),
  subscription: idFilter("subscription"),
  currency: Schema.optionalKey(Currency),
  status: Schema.optionalKey(Schema.Array(Schema.Literals(PAYMENT_STATUSES)))
})

export const PaymentUpdateRequest = Schema.Struct({
  metadata: Schema.optionalKey(Metadata),
  retry_if_possible: Schema.optionalKey(Schema.Boolean)
})

export const PaymentRetryRequest = Schema.Struct({
  charge_date: Schema.optionalKey(LocalDate),
  metadata: Schema.optionalKey(Metadata)
})

export const RefundCreateRequest = Schema.Struct({
  amount: PositiveAmount,
  total_amount_confirmation: Amount,
  reference: Schema.optionalKey(Schema.String),
  metadata: Schema.optionalKey(Metadata),
  links: Schema.Struct({ payment: IdOf("payment") })
})

export const RefundListParams = Schema.Struct({
  ...listFields("refund"),
  payment: idFilter("payment"),
  mandate: idFilter("mandate"),
  status: Schema.optionalKey(Schema.Array(Schema.Literals(REFUND_STATUSES)))
})

/** What a payment needs besides its request: where it came from (a subscription's schedule). */
export interface PaymentOrigin {
  readonly subscription?: string
  /** The partner app the payment is created for; defaults to the `CallingApp` of the call. */
  readonly app?: PartnerApp | null
}

/**
 * The mandate a ledger row of the payment names. @paykit/money's settlement entries require one;
 * an instant payment has none, so its row names the payment itself. Payout items are not served,
 * so this never reaches the wire (docs/engine.md).
 */
export const ledgerMandateOf = (p: { readonly id: string; readonly links: { readonly mandate?: string } }): string => p.links.mandate ?? p.id

/**
 * An instant (Pay by Bank) payment a billing request's `payment_request` asks for, once the payer
 * has authorised it at their bank: already validated by the billing request, so typed here.
 */
export interface InstantPaymentInput {
  readonly amount: number
  readonly currency: "GBP" | "EUR"
  readonly scheme: PaymentRequestScheme
  readonly creditor: string
  readonly description: string | null
  readonly reference: string | null
  readonly app_fee: number | null
  readonly metadata: Readonly<Record<string, string>>
}

const paymentLinks = (p: Pick<Payment, "id" | "links">) => ({
  payment: p.id,
  ...(p.links.mandate === undefined ? {} : { mandate: p.links.mandate }),
  creditor: p.links.creditor,
  ...(p.links.subscription === undefined ? {} : { subscription: p.links.subscription })
})

/** The net effect on the creditor's balance of ledger rows not yet paid out (@paykit/money's items). */
export const unsettledBalance = (rows: ReadonlyArray<LedgerEntry>): number =>
  rows.reduce((sum, row) => sum + itemsOfEntry(row.entry, false).reduce((s, item) => s + item.amount, 0), 0)

type Errors = ValidationFailed | InvalidState | NotFound

export class Payments extends Context.Service<Payments, {
  readonly create: (organisation: string, input: unknown, origin?: PaymentOrigin) => Effect.Effect<Payment, Errors>
  /**
   * An instant payment without a mandate (engine operation of billing request fulfilment): created,
   * submitted to the payer's bank, and `confirmed` at once when the bank accepts it (recorded for
   * payout like a collection) or `failed`. No direct-debit collection, so no late failure or
   * chargeback follows.
   */
  readonly createInstant: (organisation: string, input: InstantPaymentInput, origin?: PaymentOrigin) => Effect.Effect<Payment, Errors>
  readonly get: (organisation: string, id: string) => Effect.Effect<Payment, NotFound>
  readonly list: (organisation: string, params: unknown) => Effect.Effect<Page<Payment>, ValidationFailed>
  readonly update: (organisation: string, id: string, input: unknown) => Effect.Effect<Payment, Errors>
  readonly cancel: (organisation: string, id: string, input?: unknown) => Effect.Effect<Payment, Errors>
  readonly retry: (organisation: string, id: string, input?: unknown) => Effect.Effect<Payment, Errors>
  readonly createRefund: (organisation: string, input: unknown) => Effect.Effect<Refund, Errors>
  readonly getRefund: (organisation: string, id: string) => Effect.Effect<Refund, NotFound>
  readonly listRefunds: (organisation: string, params: unknown) => Effect.Effect<Page<Refund>, ValidationFailed>
  /** The creditor's balance not yet paid out, in minor units (negative when it owes). */
  readonly balance: (organisation: string, creditor: string, currency: Currency) => Effect.Effect<number>
  /**
   * The bank's day for collections and refunds, in this order: submitted payments due today are
   * confirmed or fail; pending payments due on the next working day are submitted; payments the
   * bank reports late-failed or charged back move; refunds advance one step.
   */
  readonly processDay: (organisation: string) => Effect.Effect<void>
}>()("@paykit/engine/Payments") {
  static readonly layer: Layer.Layer<
    Payments,
    never,
    | PaymentRepository
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
      const payments = yield* PaymentRepository
      const refunds = yield* RefundRepository
      const mandates = yield* MandateRepository
      const creditors = yield* CreditorRepository
      const accounts = yield* CustomerBankAccountRepository
      const ledger = yield* LedgerRepository
      const attributions = yield* AppAttributionRepository
      const appFees = yield* AppFeeLedgerRepository
      const limits = yield* NegativeBalanceLimitRepository
      const bank = yield* BankGateway
      const log = yield* EventLog
      const run = yield* captureUnitOfWork
      const eachItem = yield* captureDailyItems

      const decodeCreate = decodeInputEffect(PaymentCreateRequest, PAYMENTS)
      const decodeList = decodeInputEffect(PaymentListParams, PAYMENTS)
      const decodeUpdate = decodeInputEffect(PaymentUpdateRequest, PAYMENTS)
      const decodeRetry = decodeInputEffect(PaymentRetryRequest, PAYMENTS)
      const decodeCancel = decodeInputEffect(MetadataUpdateRequest, PAYMENTS)
      const decodeRefund = decodeInputEffect(RefundCreateRequest, REFUNDS)
      const decodeRefundList = decodeInputEffect(RefundListParams, REFUNDS)

      /** Stores a new payment as its machine creates it (with its `created` event), and its app attribution. */
      const createPayment = (organisation: string, fields: Omit<Payment, "status">, origin: PaymentOrigin, cause: Cause) =>
        Effect.gen(function*() {
          const created = yield* applyCreation(payments, {
            organisation,
            machine: paymentMachine,
            state: "pending_submission",
            resource: fields,
            cause,
            links: paymentLinks(fields)
          })
          // The app fee is the partner's: remember which app, so it is credited once collected.
          const app = origin.app === undefined ? yield* CallingApp : origin.app
          if (app !== null && fields.app_fee !== null && fields.app_fee > 0) {
            yield* recordAttribution({ attributions, creditors }, organisation, fields.id, app)
          }
          return created
        })

      const move = (
        organisation: string,
        current: Versioned<Payment>,
        event: PaymentEvent,
        cause: Cause,
        options: { readonly patch?: (p: Payment) => Payment; readonly reason_code?: string } = {}
      ) =>
        applyTransition(payments, {
          organisation,
          machine: paymentMachine,
          current,
          event,
          context: {},
          cause,
          links: paymentLinks(current.resource),
          ...(options.patch === undefined ? {} : { patch: options.patch }),
          extra: {
            ...(current.resource.scheme === null ? {} : { scheme: current.resource.scheme }),
            ...(options.reason_code === undefined ? {} : { reason_code: options.reason_code })
          }
        })

      const create = (organisation: string, input: unknown, origin: PaymentOrigin = {}) =>
        Effect.gen(function*() {
          const req = yield* decodeCreate(input)
          const mandate = yield* mandates.get(organisation, req.links.mandate).pipe(
            Effect.mapError(() => invalidField(PAYMENTS, ["links", "mandate"], "must be a mandate of this organisation"))
          )
          if (!CHARGEABLE_MANDATE_STATUSES.includes(mandate.resource.status)) {
            return yield* new InvalidState({
              reason: "mandate_is_inactive",
              message: `The mandate is ${mandate.resource.status}; payments cannot be created against it`,
              links: { mandate: mandate.resource.id }
            })
          }
          const currencyRefusal = mandateCurrencyRefusal(mandate.resource.scheme, req.currency)
          if (currencyRefusal !== undefined) return yield* invalidField(PAYMENTS, ["currency"], currencyRefusal)
          if (req.app_fee !== undefined) yield* Effect.fromResult(validateAppFee(PAYMENTS, req.amount, req.app_fee))
          const creditor = yield* Effect.orDie(creditors.get(organisation, mandate.resource.links.creditor))
          const day = yield* today()
          const earliest = withNextPossibleChargeDate(mandate.resource, creditor.resource, day).next_possible_charge_date ?? day
          const calendar = calendarFor(mandate.resource.scheme)
          const chargeDate = req.charge_date === undefined ? earliest : calendar.rollForward(req.charge_date)
          if (chargeDate < earliest) {
            return yield* invalidField(PAYMENTS, ["charge_date"], `must be on or after the mandate's next_possible_charge_date (${earliest})`)
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
            faster_ach: mandate.resource.scheme === "ach" ? false : null,
            reference: req.reference ?? null,
            retry_if_possible: req.retry_if_possible ?? false,
            scheme: mandate.resource.scheme,
            fx: { estimated_exchange_rate: null, exchange_rate: null, fx_amount: null, fx_currency: null },
            metadata: req.metadata ?? {},
            links: {
              creditor: creditor.resource.id,
              mandate: mandate.resource.id,
              ...(origin.subscription === undefined ? {} : { subscription: origin.subscription })
            }
          }
          const created = yield* createPayment(organisation, fields, origin, origin.subscription === undefined
            ? API_CAUSE("payment_created", "Payment created via the API.")
            : { origin: "gocardless", cause: "payment_created", description: "Payment created by a subscription." })
          return created.resource
        })

      const createInstant = (organisation: string, input: InstantPaymentInput, origin: PaymentOrigin = {}) =>
        Effect.gen(function*() {
          if (input.app_fee !== null) yield* Effect.fromResult(validateAppFee(PAYMENTS, input.amount, input.app_fee))
          const creditor = yield* linkedCreditor(creditors, organisation, PAYMENTS, input.creditor)
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
            fx: { estimated_exchange_rate: null, exchange_rate: null, fx_amount: null, fx_currency: null },
            metadata: input.metadata,
            links: { creditor: creditor.resource.id }
          }
          const created = yield* createPayment(organisation, fields, origin,
            { origin: "gocardless", cause: "payment_created", description: "Payment created by a billing request." })
          const payment = created.resource
          yield* move(organisation, created, "submit", { origin: "gocardless", cause: "payment_submitted", description: "The payer authorised the payment at their bank." })
          const outcome = yield* bank.authoriseInstantPayment({ paymentId: payment.id, amount: payment.amount, currency: payment.currency, scheme: input.scheme })
          const submitted = yield* payments.get(organisation, payment.id)
          if (outcome.outcome === "failed") {
            return yield* move(organisation, submitted, "fail", { origin: "bank", cause: outcome.cause, description: outcome.description }, { reason_code: outcome.reason_code })
          }
          const confirmed = yield* move(organisation, submitted, "confirm", { origin: "bank", cause: "payment_confirmed", description: "The payer's bank has sent the instant payment." })
          yield* recordCollection(organisation, confirmed, creditor.resource, day)
          return confirmed
        })

      const update = (organisation: string, id: string, input: unknown) =>
        Effect.gen(function*() {
          const req = yield* decodeUpdate(input)
          const current = yield* payments.get(organisation, id)
          const next: Payment = { ...current.resource, ...req }
          yield* save(payments, organisation, current, next)
          return next
        })

      const cancel = (organisation: string, id: string, input: unknown) =>
        Effect.gen(function*() {
          const req = yield* decodeCancel(input ?? {})
          const current = yield* payments.get(organisation, id)
          return yield* move(organisation, current, "cancel", API_CAUSE("payment_cancelled", "The payment was cancelled at your request."), {
            patch: (p) => ({ ...p, metadata: req.metadata ?? p.metadata })
          })
        })

      const retry = (organisation: string, id: string, input: unknown) =>
        Effect.gen(function*() {
          const req = yield* decodeRetry(input ?? {})
          const current = yield* payments.get(organisation, id)
          const mandateId = current.resource.links.mandate
          if (mandateId === undefined) {
            return yield* new InvalidState({ reason: "instant_payment_cannot_be_retried", message: "An instant payment has no mandate to collect it again" })
          }
          const mandate = yield* Effect.orDie(mandates.get(organisation, mandateId))
          if (!CHARGEABLE_MANDATE_STATUSES.includes(mandate.resource.status)) {
            return yield* new InvalidState({ reason: "mandate_is_inactive", message: "The payment's mandate cannot be charged" })
          }
          const creditor = yield* Effect.orDie(creditors.get(organisation, mandate.resource.links.creditor))
          const earliest = withNextPossibleChargeDate(mandate.resource, creditor.resource, yield* today()).next_possible_charge_date
          const chargeDate = req.charge_date ?? earliest
          if (chargeDate === null || (earliest !== null && chargeDate < earliest)) {
            return yield* invalidField(PAYMENTS, ["charge_date"], `must be on or after the mandate's next_possible_charge_date (${earliest})`)
          }
          return yield* move(organisation, current, "retry", API_CAUSE("payment_retried", "The payment was retried at your request."), {
            patch: (p) => ({ ...p, charge_date: calendarFor(mandate.resource.scheme).rollForward(chargeDate), metadata: req.metadata ?? p.metadata })
          })
        })

      const balance = (organisation: string, creditor: string, currency: Currency) =>
        Effect.map(
          ledger.scan(organisation, { creditor: eq(creditor), currency: eq(currency), payout: eq("none") }),
          (rows) => unsettledBalance(rows.map((r) => r.resource))
        )

      const createRefund = (organisation: string, input: unknown) =>
        Effect.gen(function*() {
          const req = yield* decodeRefund(input)
          const payment = yield* payments.get(organisation, req.links.payment).pipe(
            Effect.mapError(() => invalidField(REFUNDS, ["links", "payment"], "must be a payment of this organisation"))
          )
          const p = payment.resource
          const mandateId = p.links.mandate
          if (mandateId === undefined) {
            // Refunding an instant payment needs the payer's account, which this engine does not keep.
            return yield* new InvalidState({ reason: "instant_payment_refunds_not_supported", message: "Refunds of instant payments are not supported", links: { payment: p.id } })
          }
          if (p.status !== "confirmed" && p.status !== "paid_out") {
            return yield* new InvalidState({ reason: "refund_payment_invalid_state", message: "Only confirmed or paid out payments can be refunded", links: { payment: p.id } })
          }
          if (req.total_amount_confirmation !== p.amount_refunded + req.amount) {
            return yield* invalidField(REFUNDS, ["total_amount_confirmation"], `must be the payment's refunded total after this refund (${p.amount_refunded + req.amount})`, "total_amount_confirmation_invalid")
          }
          if (p.amount_refunded + req.amount > p.amount) {
            return yield* new InvalidState({ reason: "refund_amount_exceeds_payment", message: "The refunds would exceed the payment's amount", links: { payment: p.id } })
          }
          const creditor = yield* Effect.orDie(creditors.get(organisation, p.links.creditor))
          if (!creditor.resource.can_create_refunds) {
            return yield* new InvalidState({ reason: "refunds_not_enabled", message: "The creditor cannot create refunds" })
          }
          const limit = yield* limits.scan(organisation, { creditor: eq(p.links.creditor), currency: eq(p.currency) })
          const current = yield* balance(organisation, p.links.creditor, p.currency)
          const latestLimit = limit[limit.length - 1]
          yield* Effect.fromResult(checkDecodedRefund({
            currency: p.currency,
            balance: current,
            amount: req.amount,
            ...(latestLimit === undefined ? {} : { balance_limit: unsafeAmount(latestLimit.resource.balance_limit) })
          }))
          const created_at = yield* now
          const refundFields: Omit<Refund, "status"> = {
            id: yield* newId("refund"),
            created_at,
            amount: req.amount,
            currency: p.currency,
            reference: req.reference ?? null,
            fx: { estimated_exchange_rate: null, exchange_rate: null, fx_amount: null, fx_currency: null },
            metadata: req.metadata ?? {},
            links: { payment: p.id, mandate: mandateId, creditor: p.links.creditor }
          }
          const { resource: refund } = yield* applyCreation(refunds, {
            organisation,
            machine: refundMachine,
            state: "created",
            resource: refundFields,
            cause: API_CAUSE("payment_refunded", "The refund has been created."),
            links: { refund: refundFields.id, payment: p.id, mandate: mandateId, creditor: p.links.creditor }
          })
          yield* save(payments, organisation, payment, { ...p, amount_refunded: p.amount_refunded + req.amount })
          yield* insertNew(ledger, organisation, {
            id: yield* newId("payout_item"),
            created_at,
            creditor: p.links.creditor,
            currency: p.currency,
            payout: null,
            entry: {
              kind: "payment_refunded",
              currency: p.currency,
              payment: p.id,
              mandate: mandateId,
              refund: refund.id,
              amount: req.amount,
              gocardless_fee: { fee: unsafeAmount(0), tax: null }
            }
          })
          yield* emit(organisation, {
            resource_type: "payments",
            action: p.amount_refunded + req.amount === p.amount ? "refunded" : "partially_refunded",
            links: paymentLinks(p),
            cause: API_CAUSE("payment_refunded")
          })
          return refund
        })

      /** Fixes the fees of a collected payment and records it in the ledger. */
      const recordCollection = (organisation: string, payment: Payment, creditor: Creditor, day: LocalDate) =>
        Effect.gen(function*() {
          const charges = yield* Effect.orDie(Effect.fromResult(collectionCharges({
            schedule: DEFAULT_FEE_SCHEDULE,
            scheme: payment.scheme as PaymentScheme,
            currency: payment.currency,
            amount: payment.amount,
            app_fee: payment.app_fee ?? 0,
            tax_jurisdiction: taxJurisdictionOf(isCountryCode(creditor.country_code) ? creditor.country_code : null),
            date: day,
            root: PAYMENTS
          })))
          yield* insertNew(ledger, organisation, {
            id: yield* newId("payout_item"),
            created_at: yield* now,
            creditor: creditor.id,
            currency: payment.currency,
            payout: null,
            entry: {
              kind: "payment_paid_out",
              currency: payment.currency,
              payment: payment.id,
              mandate: ledgerMandateOf(payment),
              amount: unsafeAmount(payment.amount),
              gocardless_fee: { fee: unsafeAmount(charges.gocardless_fee.fee), tax: charges.gocardless_fee.tax === null ? null : { amount: unsafeAmount(charges.gocardless_fee.tax.amount), tax_rate_id: charges.gocardless_fee.tax.tax_rate_id } },
              app_fee: unsafeAmount(charges.app_fee)
            }
          })
          yield* recordAppFee({ attributions, appFees }, organisation, payment, "app_fee_collected", unsafeAmount(charges.app_fee), day)
        })

      /** Takes back a paid-out payment (late failure or chargeback): fees refunded, surcharge charged. */
      const recordReversal = (organisation: string, payment: Payment, creditor: Creditor, kind: "late_failure_settled" | "chargeback_settled", day: LocalDate) =>
        Effect.gen(function*() {
          const collected = (yield* ledger.scan(organisation, { payment: eq(payment.id), kind: eq("payment_paid_out") }))[0]
          const original = collected?.resource.entry
          const jurisdiction = taxJurisdictionOf(isCountryCode(creditor.country_code) ? creditor.country_code : null)
          const surcharge = surchargeCharge(DEFAULT_FEE_SCHEDULE, kind, payment.currency, jurisdiction, day)
          yield* insertNew(ledger, organisation, {
            id: yield* newId("payout_item"),
            created_at: yield* now,
            creditor: creditor.id,
            currency: payment.currency,
            payout: null,
            entry: {
              kind,
              currency: payment.currency,
              payment: payment.id,
              mandate: ledgerMandateOf(payment),
              amount: unsafeAmount(payment.amount),
              refunded_gocardless_fee: original?.kind === "payment_paid_out" ? original.gocardless_fee : { fee: unsafeAmount(0), tax: null },
              refunded_app_fee: original?.kind === "payment_paid_out" ? original.app_fee : unsafeAmount(0),
              surcharge: { fee: unsafeAmount(surcharge.fee), tax: surcharge.tax === null ? null : { amount: unsafeAmount(surcharge.tax.amount), tax_rate_id: surcharge.tax.tax_rate_id } }
            }
          })
          // The merchant gets the app fee back, so the partner gives it back.
          const refundedAppFee = original?.kind === "payment_paid_out" ? original.app_fee : unsafeAmount(0)
          yield* recordAppFee({ attributions, appFees }, organisation, payment, "app_fee_refunded", refundedAppFee, day)
        })

      const outcomeOf = (organisation: string, payment: Payment, mandateId: string) =>
        Effect.gen(function*() {
          const mandate = yield* Effect.orDie(mandates.get(organisation, mandateId))
          const account = yield* Effect.orDie(accounts.get(organisation, mandate.resource.links.customer_bank_account))
          const retries = yield* log.scan(organisation, { payment: eq(payment.id), action: eq("resubmission_requested") })
          return yield* bank.submitCollection({
            paymentId: payment.id,
            amount: payment.amount,
            currency: payment.currency,
            scheme: mandate.resource.scheme,
            accountHolderName: account.resource.account_holder_name,
            attempt: retries.length
          })
        })

      /** A collection due today: confirmed (and recorded for payout) or failed. */
      const collect = (organisation: string, current: Versioned<Payment>, day: LocalDate) =>
        Effect.gen(function*() {
          const mandateId = current.resource.links.mandate
          // Instant payments are confirmed when authorised and never wait here.
          if (mandateId === undefined) return
          const outcome = yield* outcomeOf(organisation, current.resource, mandateId)
          if (outcome.outcome === "failed") {
            yield* move(organisation, current, "fail", { origin: "bank", cause: outcome.cause, description: outcome.description }, { reason_code: outcome.reason_code })
            return
          }
          const creditor = yield* Effect.orDie(creditors.get(organisation, current.resource.links.creditor))
          yield* move(organisation, current, "confirm", { origin: "gocardless", cause: "payment_confirmed", description: "Enough time has passed since the payment was submitted for the banks to return an error, so this payment is now confirmed." })
          yield* recordCollection(organisation, current.resource, creditor.resource, day)
        })

      /** Submission, one working day before the charge date, once the mandate is with the bank. */
      const submitDue = (organisation: string, current: Versioned<Payment>, day: LocalDate) =>
        Effect.gen(function*() {
          const p = current.resource
          if (p.charge_date === null || p.links.mandate === undefined) return
          const calendar = calendarFor(p.scheme as PaymentScheme)
          const mandate = yield* Effect.orDie(mandates.get(organisation, p.links.mandate))
          if (mandate.resource.status === "failed" || mandate.resource.status === "cancelled" || mandate.resource.status === "expired" ||
            mandate.resource.status === "blocked" || mandate.resource.status === "consumed") {
            yield* move(organisation, current, "cancel", { origin: "gocardless", cause: `mandate_${mandate.resource.status}`, description: "The mandate for this payment can no longer be charged." })
            return
          }
          if (calendar.previousBusinessDay(p.charge_date) > day) return
          if (mandate.resource.status !== "active" && mandate.resource.status !== "submitted") return
          // A charge date that has passed while waiting for the mandate moves to the next working day.
          const chargeDate = p.charge_date <= day ? calendar.nextBusinessDay(day) : p.charge_date
          yield* move(organisation, current, "submit", { origin: "gocardless", cause: "payment_submitted", description: "Payment submitted to the banks. As a result, it can no longer be cancelled." }, {
            patch: (x) => ({ ...x, charge_date: chargeDate })
          })
        })

      /** What the bank reports after pay-out: late failures and chargebacks. */
      const reverseIfReported = (organisation: string, current: Versioned<Payment>, day: LocalDate) =>
        Effect.gen(function*() {
          const p = current.resource
          // An instant payment is final: no late failure or chargeback (no direct debit indemnity).
          if (p.charge_date === null || p.links.mandate === undefined) return
          const calendar = calendarFor(p.scheme as PaymentScheme)
          const outcome = yield* outcomeOf(organisation, p, p.links.mandate)
          if (outcome.outcome !== "late_failure" && outcome.outcome !== "charged_back") return
          const after = outcome.outcome === "late_failure" ? LATE_FAILURE_AFTER_BUSINESS_DAYS : CHARGEBACK_AFTER_BUSINESS_DAYS
          if (calendar.addBusinessDays(p.charge_date, after) > day) return
          const creditor = yield* Effect.orDie(creditors.get(organisation, p.links.creditor))
          yield* move(organisation, current, outcome.outcome === "late_failure" ? "fail" : "charge_back", { origin: "bank", cause: outcome.cause, description: outcome.description }, { reason_code: outcome.reason_code })
          yield* recordReversal(organisation, p, creditor.resource, outcome.outcome === "late_failure" ? "late_failure_settled" : "chargeback_settled", day)
        })

      /** Refunds: queued, submitted the next day, paid the day after. */
      const advanceRefund = (organisation: string, current: Versioned<Refund>) => {
        const r = current.resource
        const event = r.status === "created" ? "queue" : r.status === "pending_submission" ? "submit" : "pay"
        return applyTransition(refunds, {
          organisation,
          machine: refundMachine,
          current,
          event,
          context: {},
          cause: { origin: "gocardless", cause: `refund_${event}`, description: `The refund moved on: ${event}.` },
          links: { refund: r.id, payment: r.links.payment, mandate: r.links.mandate, creditor: r.links.creditor }
        })
      }

      /** Each step scans after the previous one has run, and each payment or refund is its own unit of work. */
      const processDay = (organisation: string) =>
        Effect.gen(function*() {
          const day = yield* today()
          yield* eachItem("payments: collections", organisation, yield* payments.scan(organisation, { status: eq("submitted"), charge_date: { op: "range", lte: day } }), idOfVersioned, (current) =>
            collect(organisation, current, day))
          yield* eachItem("payments: submission", organisation, yield* payments.scan(organisation, { status: eq("pending_submission") }), idOfVersioned, (current) =>
            submitDue(organisation, current, day))
          yield* eachItem("payments: late failures and chargebacks", organisation, yield* payments.scan(organisation, { status: oneOf(["paid_out", "confirmed"]) }), idOfVersioned, (current) =>
            reverseIfReported(organisation, current, day))
          yield* eachItem("refunds", organisation, yield* refunds.scan(organisation, { status: oneOf(["created", "pending_submission", "submitted"]) }), idOfVersioned, (current) =>
            advanceRefund(organisation, current))
        })

      return Payments.of({
        create: (o, i, origin) => run(create(o, i, origin)),
        createInstant: (o, i, origin) => run(createInstant(o, i, origin)),
        get: (o, id) => Effect.map(payments.get(o, id), (v) => v.resource),
        list: (o, p) =>
          Effect.flatMap(decodeList(p), (params) =>
            payments.list(o, toListQuery(params, {
              creditor: params.creditor === undefined ? undefined : eq(params.creditor),
              mandate: params.mandate === undefined ? undefined : eq(params.mandate),
              subscription: params.subscription === undefined ? undefined : eq(params.subscription),
              currency: params.currency === undefined ? undefined : eq(params.currency),
              status: params.status === undefined ? undefined : oneOf(params.status)
            }))),
        update: (o, id, i) => run(update(o, id, i)),
        cancel: (o, id, i) => run(cancel(o, id, i)),
        retry: (o, id, i) => run(retry(o, id, i)),
        createRefund: (o, i) => run(createRefund(o, i)),
        getRefund: (o, id) => Effect.map(refunds.get(o, id), (v) => v.resource),
        listRefunds: (o, p) =>
          Effect.flatMap(decodeRefundList(p), (params) =>
            refunds.list(o, toListQuery(params, {
              payment: params.payment === undefined ? undefined : eq(params.payment),
              mandate: params.mandate === undefined ? undefined : eq(params.mandate),
              status: params.status === undefined ? undefined : oneOf(params.status)
            }))),
        balance,
        processDay
      })
    })
  )
}
