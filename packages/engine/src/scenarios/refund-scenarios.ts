import type { OrganisationId } from "@paykit/core"
import { Effect } from "effect"
import { type Cause, type RefundEvent, refundMachine, type RefundStatus } from "@paykit/machines"
import { applyTransition } from "../kernel/support.ts"
import { advanceRefund } from "../payments/payment-due.ts"
import { recordRefundReturned } from "../payments/payment-ledger.ts"
import { refundLinks } from "../payments/refund-actions.ts"
import { REFUND_PATHS, type RefundAdvance, type RefundAnswer, type RefundStep } from "./catalogue.ts"
import type { ScenarioDeps } from "./deps.ts"
import { type Paths, resourceOf, type Scenario, scenariosOf, stepsFrom } from "./domain.ts"

/** The daily run's own steps: queued, submitted, paid, one a day (`advanceRefund` picks the one due). */
const ADVANCES: ReadonlyArray<RefundEvent> = ["queue", "submit", "pay"] satisfies ReadonlyArray<RefundAdvance>

/** The moves no daily run makes: the bank's answers after a refund is sent, and its settlement. */
const CAUSES: Readonly<Record<RefundAnswer, Cause>> = {
  settle: { origin: "gocardless", cause: "refund_settled", description: "The refund has been deducted from a payout." },
  bounce: { origin: "bank", cause: "refund_failed", description: "The payer's bank returned the refund." },
  return_funds: { origin: "bank", cause: "refund_funds_returned", description: "The payer's bank returned the refunded funds to you." }
}

const isAdvance = (step: RefundStep): step is RefundAdvance => ADVANCES.includes(step)

const move = (deps: ScenarioDeps, organisation: OrganisationId, id: string, step: RefundStep) =>
  Effect.gen(function*() {
    const current = yield* Effect.orDie(deps.payment.refunds.get(organisation, id))
    if (isAdvance(step)) return yield* advanceRefund(deps.payment, organisation, current)
    yield* applyTransition(deps.payment.refunds, {
      organisation, machine: refundMachine, current, event: step, context: {}, cause: CAUSES[step], links: refundLinks(current.resource)
    })
    // The refund's money was taken from the creditor's balance when it was made; it comes back.
    if (step !== "settle") yield* recordRefundReturned(deps.payment, organisation, current.resource)
  })

const refundScenario = (paths: Paths<RefundStatus, RefundStep>): Scenario<ScenarioDeps> => ({
  run: (deps, organisation, id, scenario) =>
    Effect.flatMap(resourceOf(deps.payment.refunds.get(organisation, id), "refund"), (current) =>
      deps.unitOfWork(Effect.gen(function*() {
        for (const event of yield* stepsFrom(scenario, "refund", current.resource, paths)) yield* move(deps, organisation, id, event)
      })))
})

export const REFUND_SCENARIOS = scenariosOf(REFUND_PATHS, refundScenario)
