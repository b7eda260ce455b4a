import { Context } from "effect"
import type { Effect } from "effect"

/** Confirmation of payee results, as the spec's `verifications` object. */
export const NAME_VERIFICATION_RESULTS = ["full_match", "partial_match", "no_match", "unable_to_match"] as const
export type NameVerificationResult = (typeof NAME_VERIFICATION_RESULTS)[number]

export interface NameVerification {
  readonly result: NameVerificationResult
  /** The name the bank holds: only on a partial match. */
  readonly actual_account_name: string | null
}

export interface NameVerificationRequest {
  readonly account_holder_name: string
  readonly account_number_ending: string
  readonly country_code: string | null
}

/** The confirmation-of-payee port: does this name match the account the bank holds? */
export class NameVerifier extends Context.Service<NameVerifier, {
  readonly verify: (request: NameVerificationRequest) => Effect.Effect<NameVerification>
}>()("@paykit/engine/NameVerifier") {}
