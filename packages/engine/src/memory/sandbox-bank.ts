import { Effect, Layer } from "effect"
import {
  type BankFailure,
  BankGateway,
  type CollectionOutcome,
  type InstantPaymentOutcome,
  type MandateOutcome,
  type OutboundOutcome,
  type PayoutOutcome
} from "../kernel/ports/bank-gateway.ts"
import { type NameVerification, NameVerifier } from "../kernel/ports/name-verifier.ts"

/**
 * The deterministic sandbox bank and confirmation-of-payee service. Outcomes are chosen by magic
 * inputs, the way a payments sandbox's scenario simulators work, so a test picks a scenario by
 * naming an account holder or choosing an amount. The table is documented in docs/engine.md;
 * these constants are its single source.
 */

/** Account holder names (case-insensitive substrings) that choose a collection scenario. */
export const SANDBOX_NAMES = {
  mandateFailure: "mandate fail",
  lateFailure: "late failure",
  chargeback: "chargeback",
  failure: "fail",
  payoutBounce: "bounce",
  noMatch: "no match",
  partialMatch: "partial",
  unableToMatch: "unable"
} as const

/** Amounts (in minor units) whose last two digits choose a scenario. */
export const SANDBOX_AMOUNT_ENDINGS = {
  failure: 91,
  lateFailure: 92,
  chargeback: 93
} as const

const has = (name: string, needle: string): boolean => name.toLowerCase().includes(needle)

const INSUFFICIENT_FUNDS: BankFailure = {
  cause: "insufficient_funds",
  reason_code: "ARUDD-0",
  description: "The customer's account had insufficient funds to make this payment."
}
const LATE_FAILURE: BankFailure = {
  cause: "insufficient_funds",
  reason_code: "ARUDD-0",
  description: "The payment was reported failed by the customer's bank after it had been collected."
}
const CHARGEBACK: BankFailure = {
  cause: "authorisation_disputed",
  reason_code: "DDICA-1",
  description: "The customer has disputed having authorised you to take this payment."
}
const MANDATE_FAILURE: BankFailure = {
  cause: "invalid_bank_details",
  reason_code: "ADDACS-B",
  description: "The bank account details for this mandate are invalid."
}
const PAYOUT_BOUNCE: BankFailure = {
  cause: "payout_bounced",
  reason_code: "BACS-RETURN-0",
  description: "The creditor's bank returned the payout."
}
const OUTBOUND_FAILURE: BankFailure = {
  cause: "scheme_rejected",
  reason_code: "FPS-REJECT",
  description: "The recipient's bank rejected the payment."
}

/** The sandbox bank's answers, also given by the scenario simulators that play the bank. */
export const SANDBOX_BANK_FAILURES = {
  insufficientFunds: INSUFFICIENT_FUNDS,
  lateFailure: LATE_FAILURE,
  chargeback: CHARGEBACK,
  mandateFailure: MANDATE_FAILURE,
  payoutBounce: PAYOUT_BOUNCE
} as const

const collectionOutcome = (name: string, amount: number): CollectionOutcome => {
  const ending = amount % 100
  if (has(name, SANDBOX_NAMES.lateFailure) || ending === SANDBOX_AMOUNT_ENDINGS.lateFailure) {
    return { outcome: "late_failure", ...LATE_FAILURE }
  }
  if (has(name, SANDBOX_NAMES.chargeback) || ending === SANDBOX_AMOUNT_ENDINGS.chargeback) {
    return { outcome: "charged_back", ...CHARGEBACK }
  }
  if (has(name, SANDBOX_NAMES.failure) || ending === SANDBOX_AMOUNT_ENDINGS.failure) {
    return { outcome: "failed", ...INSUFFICIENT_FUNDS }
  }
  return { outcome: "collected" }
}

export const sandboxBank: BankGateway["Service"] = BankGateway.of({
  submitMandate: (s) =>
    Effect.succeed<MandateOutcome>(
      has(s.accountHolderName, SANDBOX_NAMES.mandateFailure) ? { outcome: "failed", ...MANDATE_FAILURE } : { outcome: "activated" }
    ),
  submitCollection: (s) => Effect.succeed(collectionOutcome(s.accountHolderName, s.amount)),
  submitOutboundPayment: (s) =>
    Effect.succeed<OutboundOutcome>(
      has(s.recipientAccountHolderName, SANDBOX_NAMES.failure) || s.amount % 100 === SANDBOX_AMOUNT_ENDINGS.failure
        ? { outcome: "failed", ...OUTBOUND_FAILURE }
        : { outcome: "executed" }
    ),
  // There is no direct debit to fail later: only the amount ending 91 is refused at the bank.
  authoriseInstantPayment: (s) =>
    Effect.succeed<InstantPaymentOutcome>(
      s.amount % 100 === SANDBOX_AMOUNT_ENDINGS.failure ? { outcome: "failed", ...INSUFFICIENT_FUNDS } : { outcome: "confirmed" }
    ),
  // A bouncing creditor's first send bounces; its retry is paid, as after fixing the account.
  sendPayout: (s) =>
    Effect.succeed<PayoutOutcome>(
      has(s.creditorName, SANDBOX_NAMES.payoutBounce) && s.attempt === 0 ? { outcome: "bounced", ...PAYOUT_BOUNCE } : { outcome: "paid" }
    ),
  // The account lacks the funds exactly when a collection of the amount would fail on them now.
  checkFunds: (c) => Effect.succeed(collectionOutcome(c.accountHolderName, c.amount).outcome !== "failed")
})

/** The name the sandbox bank holds for a partial match: the given name without the magic word. */
const actualNameOf = (name: string): string =>
  name.replace(/partial/gi, "").replace(/\s+/g, " ").trim().toUpperCase()

export const sandboxNameVerifier: NameVerifier["Service"] = NameVerifier.of({
  verify: (r) =>
    Effect.succeed<NameVerification>(
      has(r.account_holder_name, SANDBOX_NAMES.noMatch)
        ? { result: "no_match", actual_account_name: null }
        : has(r.account_holder_name, SANDBOX_NAMES.unableToMatch)
        ? { result: "unable_to_match", actual_account_name: null }
        : has(r.account_holder_name, SANDBOX_NAMES.partialMatch)
        ? { result: "partial_match", actual_account_name: actualNameOf(r.account_holder_name) }
        : { result: "full_match", actual_account_name: null }
    )
})

export const SandboxBank: Layer.Layer<BankGateway | NameVerifier> = Layer.mergeAll(
  Layer.succeed(BankGateway, sandboxBank),
  Layer.succeed(NameVerifier, sandboxNameVerifier)
)
