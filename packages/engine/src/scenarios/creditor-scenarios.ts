import { Effect } from "effect"
import { type Cause, type CreditorVerificationEvent, creditorVerificationMachine, type CreditorVerificationStatus } from "@paykit/machines"
import { applyTransition } from "../kernel/support.ts"
import { CREDITOR_VERIFIED } from "../creditors/reviews.ts"
import { CREDITOR_PATHS } from "./catalogue.ts"
import type { ScenarioDeps } from "./deps.ts"
import { type Paths, resourceOf, type Scenario, scenariosOf, stepsFrom } from "./domain.ts"

/** Each verification move's cause: the review's approval as the daily run gives it, else the review's own. */
const CAUSES: Readonly<Record<CreditorVerificationEvent, Cause>> = {
  approve: CREDITOR_VERIFIED,
  submit_details: { origin: "gocardless", cause: "creditor_verification_in_review", description: "The creditor's verification details are being reviewed." },
  require_action: { origin: "gocardless", cause: "creditor_verification_action_required", description: "More information is needed to verify the creditor." },
  change_payout_account: { origin: "gocardless", cause: "creditor_verification_review_started", description: "The creditor's verification is being reviewed again." }
}

const creditorScenario = (paths: Paths<CreditorVerificationStatus, CreditorVerificationEvent>): Scenario<ScenarioDeps> => ({
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
