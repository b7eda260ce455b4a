import { Effect } from "effect"
import type { Currency, InvalidState, LocalDate, MandateScheme, Metadata, StorageError } from "@paykit/core"
import { type Cause, type PaymentEvent, paymentMachine } from "@paykit/machines"
import { itemsOfEntry } from "@paykit/money"
import { CURRENCY_OF_MANDATE_SCHEME, type PaymentRequestScheme } from "@paykit/validation"
import type { BankGateway } from "../kernel/ports/bank-gateway.ts"
import type { EventLog } from "../kernel/ports/event-log.ts"
import type { Versioned } from "../kernel/ports/repository.ts"
import { applyTransition, type EngineContext } from "../kernel/support.ts"
import type { AppAttributionRepository, AppFeeLedgerRepository, LedgerRepository, NegativeBalanceLimitRepository } from "../ledger/repositories.ts"
import type { CreditorRepository } from "../creditors/repositories.ts"
import type { PartnerApp } from "../ledger/domain/app-fees.ts"
import type { LedgerEntry } from "../ledger/domain/settlement-entries.ts"
import type { Payment } from "./domain/payments.ts"
import { markScheduleDue } from "./instalment-schedule-checks.ts"
import { keepLastUse, type LastUseDeps } from "./mandate-last-use.ts"
import type { CustomerBankAccountRepository } from "../customers/repositories.ts"
import type { InstalmentScheduleCheckRepository, PaymentRepository, PaymentReversalRepository } from "./repositories.ts"
import type { MandateDormancyRepository, MandateRepository } from "../mandates/repositories.ts"
import type { RefundRepository } from "../refunds/repositories.ts"

/**
 * Why a payment (or a subscription, whose payments the daily run creates) in `currency` cannot
 * be collected on a mandate of `scheme`, or undefined when it can: each scheme collects in one
 * currency.
 */
export const mandateCurrencyRefusal = (scheme: MandateScheme, currency: Currency): string | undefined =>
  currency === CURRENCY_OF_MANDATE_SCHEME[scheme] ? undefined : `must be ${CURRENCY_OF_MANDATE_SCHEME[scheme]} for a ${scheme} mandate`

/** What a payment needs besides its request: where it came from (a subscription's schedule). */
export interface PaymentOrigin {
  readonly subscription?: string
  /** The instalment schedule the payment is an instalment of (`links.instalment_schedule`). */
  readonly instalment_schedule?: string
  /** The partner app the payment is created for; defaults to the `CallingApp` of the call. */
  readonly app?: PartnerApp | null
  /**
   * The day the payer's notice of this charge counts from, when it is not today: a subscription's
   * occurrence announced on a day whose run did not make it (`subscriptions/subscription-due.ts`).
   */
  readonly noticeFrom?: LocalDate
}

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

/**
 * The mandate a ledger row of the payment names. @paykit/money's settlement entries require one;
 * an instant payment has none, so its row names the payment itself. Payout items are not served,
 * so this never reaches the wire (docs/engine.md).
 */
export const ledgerMandateOf = (p: { readonly id: string; readonly links: { readonly mandate?: string } }): string => p.links.mandate ?? p.id

/** The net effect on the creditor's balance of ledger rows not yet paid out (@paykit/money's items). */
export const unsettledBalance = (rows: ReadonlyArray<LedgerEntry>): number =>
  rows.reduce((sum, row) => sum + itemsOfEntry(row.entry, false).reduce((s, item) => s + item.amount, 0), 0)

/** The links of a payment's events. */
export const paymentLinks = (p: Pick<Payment, "id" | "links">) => ({
  payment: p.id,
  ...(p.links.mandate === undefined ? {} : { mandate: p.links.mandate }),
  creditor: p.links.creditor,
  ...(p.links.subscription === undefined ? {} : { subscription: p.links.subscription }),
  ...(p.links.instalment_schedule === undefined ? {} : { instalment_schedule: p.links.instalment_schedule })
})

/** What the use cases of payments and refunds read and write. */
export interface PaymentDeps {
  readonly payments: PaymentRepository["Service"]
  /** Collected payments their bank will take back, by the day it does (`domain/payment-reversals.ts`). */
  readonly reversals: PaymentReversalRepository["Service"]
  readonly refunds: RefundRepository["Service"]
  /** Lapsing mandates' last use, kept as their payments move (`mandate-last-use.ts`). */
  readonly dormancy: MandateDormancyRepository["Service"]
  readonly scheduleChecks: InstalmentScheduleCheckRepository["Service"]
  readonly mandates: MandateRepository["Service"]
  readonly creditors: CreditorRepository["Service"]
  readonly accounts: CustomerBankAccountRepository["Service"]
  readonly ledger: LedgerRepository["Service"]
  readonly attributions: AppAttributionRepository["Service"]
  readonly appFees: AppFeeLedgerRepository["Service"]
  readonly limits: NegativeBalanceLimitRepository["Service"]
  readonly bank: BankGateway["Service"]
  readonly log: EventLog["Service"]
}

/** A payment's status change through its machine; a bank's answer carries its reason code. */
export const movePayment = (
  deps: LastUseDeps,
  organisation: string,
  current: Versioned<Payment>,
  event: PaymentEvent,
  cause: Cause,
  options: { readonly patch?: (p: Payment) => Payment; readonly reason_code?: string; readonly eventMetadata?: Metadata } = {}
): Effect.Effect<Payment, InvalidState | StorageError, EngineContext> =>
  Effect.tap(applyTransition(deps.payments, {
    organisation,
    machine: paymentMachine,
    current,
    event,
    context: {},
    cause,
    links: paymentLinks(current.resource),
    ...(options.patch === undefined ? {} : { patch: options.patch }),
    ...(options.eventMetadata === undefined ? {} : { eventMetadata: options.eventMetadata }),
    extra: {
      ...(current.resource.scheme === null ? {} : { scheme: current.resource.scheme }),
      ...(options.reason_code === undefined ? {} : { reason_code: options.reason_code }),
      // The real API says on every failure whether Success+ will retry it; paykit runs no such retries.
      ...(event === "fail" ? { will_attempt_retry: false } : {})
    }
  }), (next) =>
    Effect.andThen(
      // Only a new charge date or a cancellation moves the mandate's last use.
      next.charge_date !== current.resource.charge_date || (next.status === "cancelled" && current.resource.status !== "cancelled")
        ? keepLastUse(deps, organisation, next)
        : Effect.void,
      next.status === current.resource.status ? Effect.void : markScheduleDue(deps.scheduleChecks, organisation, next)
    ))
