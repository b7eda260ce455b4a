import { Effect } from "effect"
import { InvalidState, type MandateScheme, type OrganisationId } from "@paykit/core"
import type { Cause } from "@paykit/machines"
import { SANDBOX_BANK_FAILURES } from "../memory/sandbox-bank.ts"
import { MANDATE_ACTIVATED, MANDATE_EXPIRED, MANDATE_SUBMITTED } from "../mandates/mandate-due.ts"
import { CUSTOMER_APPROVAL, moveMandate } from "../mandates/mandate-rules.ts"
import type { Mandate } from "../mandates/domain/mandates.ts"
import { MANDATE_PATHS, MANDATE_SUBMITTED_PATHS, type MandateScenarioPaths, type MandateStep } from "./catalogue.ts"
import type { ScenarioDeps } from "./deps.ts"
import { switchAccount } from "../documents/account-switch.ts"
import { resourceOf, type Scenario, SCENARIO_SCHEME_NOT_SUPPORTED, scenariosOf, stepsFrom } from "./domain.ts"

const CASS = "The customer's bank account was moved to a new bank through the Current Account Switching Service."


/** The cause of each move a mandate scenario makes: the daily run's where it makes the move, else the bank's or the payer's. */
const CAUSES: Readonly<Record<MandateStep, Cause>> = {
  submit: MANDATE_SUBMITTED,
  activate: MANDATE_ACTIVATED,
  expire: MANDATE_EXPIRED,
  customer_approval_granted: CUSTOMER_APPROVAL,
  skip_customer_approval: { origin: "customer", cause: "customer_approval_skipped", description: "The customer skipped the approval of this mandate." },
  fail: { origin: "bank", cause: SANDBOX_BANK_FAILURES.mandateFailure.cause, description: SANDBOX_BANK_FAILURES.mandateFailure.description },
  transfer: { origin: "bank", cause: "bank_account_transferred", description: CASS },
  request_resubmission: { origin: "bank", cause: "bank_account_transferred", description: `${CASS} The mandate must be submitted again.` },
  suspend_by_payer: { origin: "payer", cause: "mandate_suspended_by_payer", description: "The payer suspended this mandate at their bank." }
}


const move = (deps: ScenarioDeps, organisation: OrganisationId, id: string, event: MandateStep, links?: Readonly<Record<string, string>>) =>
  Effect.gen(function*() {
    const current = yield* Effect.orDie(deps.payment.mandates.get(organisation, id))
    const reason = event === "fail" ? { reason_code: SANDBOX_BANK_FAILURES.mandateFailure.reason_code } : undefined
    yield* moveMandate(deps.payment.mandates, organisation, current, event, CAUSES[event], reason, undefined, links)
  })

const checkScheme = (scenario: string, m: Mandate, schemes: ReadonlyArray<MandateScheme> | undefined) =>
  schemes === undefined || schemes.includes(m.scheme)
    ? Effect.void
    : Effect.fail(new InvalidState({ reason: SCENARIO_SCHEME_NOT_SUPPORTED, message: `${scenario}: only for ${schemes.join(", ")} mandates; ${m.id} is ${m.scheme}` }))

const mandateScenario = (spec: MandateScenarioPaths): Scenario<ScenarioDeps> => ({
  run: (deps, organisation, id, scenario) =>
    Effect.flatMap(resourceOf(deps.payment.mandates.get(organisation, id), "mandate"), (current) =>
      deps.unitOfWork(Effect.gen(function*() {
        const steps = yield* stepsFrom(scenario, "mandate", current.resource, spec.paths)
        yield* checkScheme(scenario, current.resource, spec.schemes)
        for (const event of steps) {
          // A transfer is a current account switch: the payer's new account is made and the mandate follows it first.
          const links = event === "transfer"
            ? yield* switchAccount(deps.accountSwitch, organisation, yield* Effect.orDie(deps.payment.mandates.get(organisation, id)))
            : undefined
          yield* move(deps, organisation, id, event, links)
        }
      })))
})

export const MANDATE_SCENARIOS = scenariosOf(MANDATE_PATHS, mandateScenario)

/** A mandate the bank does not have yet is submitted and activated, as `mandate_activated` does. */
export const activateMandate = (deps: ScenarioDeps, organisation: OrganisationId, mandate: Mandate) =>
  Effect.forEach(MANDATE_SUBMITTED_PATHS[mandate.status] ?? [], (event) => move(deps, organisation, mandate.id, event), { discard: true })
