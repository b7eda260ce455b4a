import { Context } from "effect"
import type { Effect } from "effect"

/**
 * The bank port: the schemes the engine submits mandates, collections, outbound payments and
 * payouts to. Each call answers with the outcome the bank will report; the engine (and its
 * simulator) applies that outcome on the scheme's timetable. The default implementation,
 * `SandboxBank`, chooses outcomes from documented magic inputs (docs/engine.md).
 */

export interface BankFailure {
  /** The event's `details.cause`, e.g. `insufficient_funds`. */
  readonly cause: string
  /** The scheme's reason code, e.g. Bacs ARUDD `0`. */
  readonly reason_code: string
  readonly description: string
}

export type MandateOutcome = { readonly outcome: "activated" } | ({ readonly outcome: "failed" } & BankFailure)

export type CollectionOutcome =
  | { readonly outcome: "collected" }
  /** Fails on the charge date: never confirmed. */
  | ({ readonly outcome: "failed" } & BankFailure)
  /** Confirmed and paid out, then reported failed by the payer's bank. */
  | ({ readonly outcome: "late_failure" } & BankFailure)
  /** Confirmed and paid out, then disputed by the payer under the scheme's indemnity. */
  | ({ readonly outcome: "charged_back" } & BankFailure)

export type OutboundOutcome = { readonly outcome: "executed" } | ({ readonly outcome: "failed" } & BankFailure)

/** An instant bank payment is final once the payer's bank has authorised it: confirmed, or refused. */
export type InstantPaymentOutcome = { readonly outcome: "confirmed" } | ({ readonly outcome: "failed" } & BankFailure)

export interface InstantPaymentSubmission {
  readonly paymentId: string
  readonly amount: number
  readonly currency: string
  /** `faster_payments`, `sepa_credit_transfer` or `sepa_instant_credit_transfer`. */
  readonly scheme: string
}

export type PayoutOutcome = { readonly outcome: "paid" } | ({ readonly outcome: "bounced" } & BankFailure)

export interface MandateSubmission {
  readonly mandateId: string
  readonly scheme: string
  readonly accountHolderName: string
}

export interface CollectionSubmission {
  readonly paymentId: string
  readonly amount: number
  readonly currency: string
  readonly scheme: string
  readonly accountHolderName: string
  /** How many times this payment has been submitted before (retries). */
  readonly attempt: number
}

export interface OutboundSubmission {
  readonly outboundPaymentId: string
  readonly amount: number
  readonly recipientAccountHolderName: string
}

export interface PayoutSubmission {
  readonly payoutId: string
  readonly amount: number
  readonly currency: string
  readonly creditorName: string
  /** 0 for the first send, 1 for the first retry of a bounced payout, ... */
  readonly attempt: number
}

export interface FundsCheck {
  readonly mandateId: string
  readonly accountHolderName: string
  readonly amount: number
}

export class BankGateway extends Context.Service<BankGateway, {
  readonly submitMandate: (submission: MandateSubmission) => Effect.Effect<MandateOutcome>
  readonly submitCollection: (submission: CollectionSubmission) => Effect.Effect<CollectionOutcome>
  readonly submitOutboundPayment: (submission: OutboundSubmission) => Effect.Effect<OutboundOutcome>
  readonly sendPayout: (submission: PayoutSubmission) => Effect.Effect<PayoutOutcome>
  /** An instant payment the payer authorised at their bank (billing requests without a mandate). */
  readonly authoriseInstantPayment: (submission: InstantPaymentSubmission) => Effect.Effect<InstantPaymentOutcome>
  /**
   * Whether the payer's account would cover `amount` now (`GET /funds_availability`): the payer's
   * bank answers yes or no and discloses no balance.
   */
  readonly checkFunds: (check: FundsCheck) => Effect.Effect<boolean>
}>()("@paykit/engine/BankGateway") {}
