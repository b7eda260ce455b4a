import { Effect } from "effect"
import { InvalidState, type LocalDate, type MandateScheme, type OrganisationId, type StorageError, today } from "@paykit/core"
import type { PaymentStatus } from "@paykit/machines"
import { SANDBOX_BANK_FAILURES } from "../memory/sandbox-bank.ts"
import { eq } from "../kernel/ports/list-query.ts"
import type { EngineContext } from "../kernel/support.ts"
import type { Payment } from "../payments/domain/payments.ts"
import { confirmCollection, failCollection, reverseCollection, SUBMITTABLE_MANDATE_STATUSES, submitToBank } from "../payments/payment-due.ts"
import { PAYMENT_PATHS, type PaymentStep } from "./catalogue.ts"
import type { ScenarioDeps } from "./deps.ts"
import { type Paths, payoutNotPossible, resourceOf, type Scenario, scenariosOf, stepsFrom } from "./domain.ts"
import { activateMandate } from "./mandate-scenarios.ts"
import { assembleFrom } from "./payout-scenarios.ts"


const reread = (deps: ScenarioDeps, organisation: OrganisationId, id: string) => Effect.orDie(deps.payment.payments.get(organisation, id))

/** A payout takes the payment's rows; answers whether any of them is still left unsettled. */
const settleRows = (deps: ScenarioDeps, organisation: OrganisationId, p: Payment, group: "payment" | "creditor") =>
  Effect.gen(function*() {
    const ledger = deps.payment.ledger
    const rows = group === "payment"
      ? yield* ledger.scan(organisation, { payment: eq(p.id), payout: eq("none") })
      : yield* ledger.scan(organisation, { creditor: eq(p.links.creditor), currency: eq(p.currency), payout: eq("none") })
    yield* assembleFrom(deps, organisation, rows)
    return (yield* ledger.scan(organisation, { payment: eq(p.id), payout: eq("none") })).length > 0
  })

const runStep = (deps: ScenarioDeps, organisation: OrganisationId, scenario: string, id: string, step: PaymentStep, day: LocalDate) =>
  Effect.gen(function*() {
    const current = yield* reread(deps, organisation, id)
    switch (step) {
      case "submit":
        // Handed to the bank as the daily run hands it: the bank's later answers (a late failure,
        // a chargeback) still come in its reports.
        return yield* submitToBank({ ...deps.payment, queue: deps.queue }, organisation, current, day)
      case "confirm":
        return yield* confirmCollection(deps.payment, organisation, current, day)
      case "fail":
        return yield* failCollection(deps.payment, organisation, current, SANDBOX_BANK_FAILURES.insufficientFunds)
      case "late_failure":
        return yield* reverseCollection(deps.payment, organisation, current, { outcome: "late_failure", ...SANDBOX_BANK_FAILURES.lateFailure }, day)
      case "charge_back":
        return yield* reverseCollection(deps.payment, organisation, current, { outcome: "charged_back", ...SANDBOX_BANK_FAILURES.chargeback }, day)
      case "pay_out":
      case "settle": {
        // Paid out: a payout of the payment's own collection. Settled: the reversal is netted
        // against the creditor's other unsettled movements, as the daily assembly groups them.
        const left = yield* settleRows(deps, organisation, current.resource, step === "pay_out" ? "payment" : "creditor")
        if (left) return yield* payoutNotPossible(scenario, step === "pay_out" ? "pay this payment out" : "settle this payment's reversal")
      }
    }
  })

/** Schemes whose mandate goes to the bank with its first payment (GoCardless's exception to "activate it first"). */
const SUBMITTED_WITH_FIRST_PAYMENT: ReadonlyArray<MandateScheme> = ["ach", "becs", "becs_nz", "sepa_core"]

/**
 * A payment is submitted only on a mandate the bank has: the daily run waits for it. A scenario
 * sets a pending mandate up first (as `mandate_activated` does) where the mandate goes with its
 * first payment (those schemes, or a billing request's new mandate), and refuses otherwise.
 */
const readyMandate = (deps: ScenarioDeps, organisation: OrganisationId, scenario: string, p: Payment, withFirstPayment: boolean) =>
  Effect.gen(function*() {
    if (p.links.mandate === undefined) return
    const mandate = (yield* Effect.orDie(deps.payment.mandates.get(organisation, p.links.mandate))).resource
    if (SUBMITTABLE_MANDATE_STATUSES.some((s) => s === mandate.status)) return
    if (mandate.status === "pending_submission" && (withFirstPayment || SUBMITTED_WITH_FIRST_PAYMENT.includes(mandate.scheme))) {
      return yield* activateMandate(deps, organisation, mandate)
    }
    return yield* new InvalidState({
      reason: "mandate_not_active",
      message: `${scenario}: the payment's mandate ${mandate.id} must be ${SUBMITTABLE_MANDATE_STATUSES.join(" or ")} to submit the payment; it is ${mandate.status} (run mandate_activated on it first)`
    })
  })

/**
 * The payment's steps from where it is, all in the caller's unit of work. `withFirstPayment`: the
 * payment is its mandate's first, made with it (a billing request's), so the mandate goes too.
 */
export const movePaymentThrough = (
  deps: ScenarioDeps,
  organisation: OrganisationId,
  scenario: string,
  p: Payment,
  paths: Paths<PaymentStatus, PaymentStep>,
  withFirstPayment = false
): Effect.Effect<void, InvalidState | StorageError, EngineContext> =>
  Effect.gen(function*() {
    const steps = yield* stepsFrom(scenario, "payment", p, paths)
    if (steps.includes("submit")) yield* readyMandate(deps, organisation, scenario, p, withFirstPayment)
    const day = yield* today()
    for (const step of steps) yield* runStep(deps, organisation, scenario, p.id, step, day)
  })

const paymentScenario = (paths: Paths<PaymentStatus, PaymentStep>): Scenario<ScenarioDeps> => ({
  run: (deps, organisation, id, scenario) =>
    Effect.flatMap(resourceOf(deps.payment.payments.get(organisation, id), "payment"), (current) =>
      deps.unitOfWork(movePaymentThrough(deps, organisation, scenario, current.resource, paths)))
})

export const PAYMENT_SCENARIOS = scenariosOf(PAYMENT_PATHS, paymentScenario)
