import { Effect } from "effect"
import { type Cause, isEndedMandateStatus } from "@paykit/machines"
import { today } from "@paykit/core"
import type { BankGateway } from "../kernel/ports/bank-gateway.ts"
import { eq } from "../kernel/ports/list-query.ts"
import type { Versioned } from "../kernel/ports/repository.ts"
import { type DailyItems, eachInChunks, idOfVersioned } from "../due-work/daily-items.ts"
import type { Mandate } from "./domain/mandates.ts"
import { BACS_DORMANCY_MONTHS } from "./mandate-dormancy.ts"
import type { MandateDormancy } from "./domain/mandate-dormancy.ts"
import { save } from "../kernel/support.ts"
import { CUSTOMER_APPROVAL, moveMandate } from "./mandate-rules.ts"
import type { CustomerBankAccountRepository } from "../customers/repositories.ts"
import type { MandateDormancyRepository, MandateRepository } from "./repositories.ts"

export interface MandateDueDeps {
  readonly mandates: MandateRepository["Service"]
  readonly accounts: CustomerBankAccountRepository["Service"]
  readonly dormancy: MandateDormancyRepository["Service"]
  readonly bank: BankGateway["Service"]
  readonly eachItem: DailyItems
}

/** The causes of the bank's moves of a mandate, on the daily run and in the scenario simulators. */
export const MANDATE_SUBMITTED: Cause = { origin: "gocardless", cause: "mandate_submitted", description: "The mandate has been submitted to the banks." }
export const MANDATE_ACTIVATED: Cause = { origin: "bank", cause: "mandate_activated", description: "The mandate has been successfully set up." }
export const MANDATE_EXPIRED: Cause = {
  origin: "bank",
  cause: "mandate_expired",
  description: `The mandate expired because no payment was collected on it for ${BACS_DORMANCY_MONTHS} months.`
}

const answerBank = (deps: MandateDueDeps, organisation: string, current: Versioned<Mandate>) =>
  Effect.gen(function*() {
    const account = yield* Effect.orDie(deps.accounts.get(organisation, current.resource.links.customer_bank_account))
    const outcome = yield* deps.bank.submitMandate({
      mandateId: current.resource.id,
      scheme: current.resource.scheme,
      accountHolderName: account.resource.account_holder_name
    })
    if (outcome.outcome === "activated") {
      return yield* moveMandate(deps.mandates, organisation, current, "activate", MANDATE_ACTIVATED)
    }
    return yield* moveMandate(deps.mandates, organisation, current, "fail", { origin: "bank", cause: outcome.cause, description: outcome.description }, { reason_code: outcome.reason_code })
  })

/**
 * A mandate whose dormancy falls due today: expired if active; no longer watched once it ended;
 * looked at again tomorrow while it waits for the bank (pending, submitted or suspended), as the
 * daily scan of active mandates did.
 */
const expireDormant = (deps: MandateDueDeps, organisation: string, record: Versioned<MandateDormancy>) =>
  Effect.gen(function*() {
    const current = yield* Effect.orDie(deps.mandates.get(organisation, record.resource.id))
    const status = current.resource.status
    if (status === "active") yield* moveMandate(deps.mandates, organisation, current, "expire", MANDATE_EXPIRED)
    if (status === "active" || isEndedMandateStatus(status)) {
      yield* save(deps.dormancy, organisation, record, { ...record.resource, watching: false })
    }
  })

/**
 * The bank's day for mandates (the simulator's `mandates` job): mandates awaiting the payer's
 * approval since an earlier day are approved (the sandbox payer approves by the next day),
 * submitted mandates become active or failed as the bank answers, then pending ones are
 * submitted; last, dormant Bacs mandates (no payment for `BACS_DORMANCY_MONTHS`) expire, found by
 * the day their dormancy falls due (kept as their payments move, `mandate-last-use.ts`). Each
 * step scans after the previous one has run, and each mandate is its own unit of work.
 */
export const processMandatesDay = (deps: MandateDueDeps, organisation: string) =>
  Effect.gen(function*() {
    const day = yield* today()
    const startOfDay = `${day}T00:00:00.000Z`
    yield* deps.eachItem("mandates: customer approval", organisation, yield* deps.mandates.scan(organisation, { status: eq("pending_customer_approval"), created_at: { op: "range", lt: startOfDay } }), idOfVersioned, (current) =>
      moveMandate(deps.mandates, organisation, current, "customer_approval_granted", CUSTOMER_APPROVAL))
    yield* deps.eachItem("mandates: bank answers", organisation, yield* deps.mandates.scan(organisation, { status: eq("submitted") }), idOfVersioned, (current) =>
      answerBank(deps, organisation, current))
    yield* deps.eachItem("mandates: submission", organisation, yield* deps.mandates.scan(organisation, { status: eq("pending_submission") }), idOfVersioned, (current) =>
      moveMandate(deps.mandates, organisation, current, "submit", MANDATE_SUBMITTED))
    yield* eachInChunks(deps.dormancy, organisation, { due_on: { op: "range", lte: day } }, (due) =>
      deps.eachItem("mandates: dormancy", organisation, due, idOfVersioned, (record) => expireDormant(deps, organisation, record)))
  })

