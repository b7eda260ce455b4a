import { Effect } from "effect"
import { type Cause, type CreditorVerificationEvent, creditorVerificationMachine, type CreditorVerificationStatus } from "@paykit/machines"
import { applyTransition } from "../kernel/support.ts"
import { CREDITOR_VERIFIED } from "../creditors/reviews.ts"
import type { ScenarioDeps } from "./deps.ts"
import { type Paths, resourceOf, type Scenario, scenariosOf, stepsFrom } from "./domain.ts"

/** Each verification move's cause: the review's approval as the daily run gives it, else the review's own. */
const CAUSES: Readonly<Record<CreditorVerificationEvent, Cause>> = {
  approve: CREDITOR_VERIFIED,
  submit_details: { origin: "gocardless", cause: "creditor_verification_in_review", description: "The creditor's verification details are being reviewed." },
  require_action: { origin: "gocardless", cause: "creditor_verification_action_required", description: "More information is needed to verify the creditor." },
  change_payout_account: { origin: "gocardless", cause: "creditor_verification_review_started", description: "The creditor's verification is being reviewed again." }
}

/**
 * GoCardless's creditor verification scenarios set the status from any other: here each takes the
 * machine's shortest way there (a verified creditor goes back to review first, as when its payout
 * account changes). A creditor already in the status fails the precondition.
 */
export const CREDITOR_PATHS = {
  creditor_verification_status_action_required: { in_review: ["require_action"], successful: ["change_payout_account", "require_action"] },
  creditor_verification_status_in_review: { action_required: ["submit_details"], successful: ["change_payout_account"] },
  creditor_verification_status_successful: { in_review: ["approve"], action_required: ["submit_details", "approve"] }
} as const satisfies Record<string, Paths<CreditorVerificationStatus, CreditorVerificationEvent>>

const creditorScenario = (paths: Paths<CreditorVerificationStatus, CreditorVerificationEvent>): Scenario<ScenarioDeps> => ({
  resource: "creditor",
  run: (deps, organisation, id, scenario) =>
    Effect.flatMap(resourceOf(deps.payment.creditors.get(organisation, id), "creditor"), (found) =>
      deps.unitOfWork(Effect.gen(function*() {
        const c = found.resource
        for (const event of yield* stepsFrom(scenario, "creditor", { id: c.id, status: c.verification_status }, paths)) {
          const current = yield* Effect.orDie(deps.payment.creditors.get(organisation, id))
          yield* applyTransition(deps.payment.creditors, {
            organisation, machine: creditorVerificationMachine, current, event, context: {}, cause: CAUSES[event], links: { creditor: id }
          })
        }
      })))
})

export const CREDITOR_SCENARIOS = scenariosOf(CREDITOR_PATHS, creditorScenario)
