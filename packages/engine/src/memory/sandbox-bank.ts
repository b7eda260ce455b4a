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
 * naming an account holder or choosing an amount. The table is documented in docs/test-values.md;
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

/**
 * A failure a test value chose, saying so in its description (the events' `details.description`),
 * so that a payment failing in the sandbox is never mistaken for a real bank's answer.
 */
const chosen = (failure: BankFailure, value: string): BankFailure => ({
  ...failure,
  description: `${failure.description} (sandbox test value: ${value})`
})

/** Which test value, if any, chose a collection's failure: the holder's name word, else the amount's ending. */
const collectionFailure = (name: string, amount: number): { readonly outcome: "late_failure" | "charged_back" | "failed"; readonly failure: BankFailure } | undefined => {
  const ending = amount % 100
  const by = (word: string, end: number) => has(name, word) ? `account holder name containing "${word}"` : ending === end ? `amount ending in ${end}` : undefined
  const late = by(SANDBOX_NAMES.lateFailure, SANDBOX_AMOUNT_ENDINGS.lateFailure)
  if (late !== undefined) return { outcome: "late_failure", failure: chosen(LATE_FAILURE, late) }
  const chargeback = by(SANDBOX_NAMES.chargeback, SANDBOX_AMOUNT_ENDINGS.chargeback)
  if (chargeback !== undefined) return { outcome: "charged_back", failure: chosen(CHARGEBACK, chargeback) }
  const failed = by(SANDBOX_NAMES.failure, SANDBOX_AMOUNT_ENDINGS.failure)
  if (failed !== undefined) return { outcome: "failed", failure: chosen(INSUFFICIENT_FUNDS, failed) }
  return undefined
}

const collectionOutcome = (name: string, amount: number): CollectionOutcome => {
  const failure = collectionFailure(name, amount)
  return failure === undefined ? { outcome: "collected" } : { outcome: failure.outcome, ...failure.failure }
}

const AMOUNT_FAILURE = `amount ending in ${SANDBOX_AMOUNT_ENDINGS.failure}`

export const sandboxBank: BankGateway["Service"] = BankGateway.of({
  submitMandate: (s) =>
    Effect.succeed<MandateOutcome>(
      has(s.accountHolderName, SANDBOX_NAMES.mandateFailure)
        ? { outcome: "failed", ...chosen(MANDATE_FAILURE, `account holder name containing "${SANDBOX_NAMES.mandateFailure}"`) }
        : { outcome: "activated" }
    ),
  submitCollection: (s) => Effect.succeed(collectionOutcome(s.accountHolderName, s.amount)),
  submitOutboundPayment: (s) =>
    Effect.succeed<OutboundOutcome>(
      has(s.recipientAccountHolderName, SANDBOX_NAMES.failure)
        ? { outcome: "failed", ...chosen(OUTBOUND_FAILURE, `recipient account holder name containing "${SANDBOX_NAMES.failure}"`) }
        : s.amount % 100 === SANDBOX_AMOUNT_ENDINGS.failure
        ? { outcome: "failed", ...chosen(OUTBOUND_FAILURE, AMOUNT_FAILURE) }
        : { outcome: "executed" }
    ),
  // There is no direct debit to fail later: only the amount ending 91 is refused at the bank.
  authoriseInstantPayment: (s) =>
    Effect.succeed<InstantPaymentOutcome>(
      s.amount % 100 === SANDBOX_AMOUNT_ENDINGS.failure ? { outcome: "failed", ...chosen(INSUFFICIENT_FUNDS, AMOUNT_FAILURE) } : { outcome: "confirmed" }
    ),
  // A bouncing creditor's first send bounces; its retry is paid, as after fixing the account.
  sendPayout: (s) =>
    Effect.succeed<PayoutOutcome>(
      has(s.creditorName, SANDBOX_NAMES.payoutBounce) && s.attempt === 0
        ? { outcome: "bounced", ...chosen(PAYOUT_BOUNCE, `creditor name containing "${SANDBOX_NAMES.payoutBounce}"`) }
        : { outcome: "paid" }
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
