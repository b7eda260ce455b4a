import { Effect } from "effect"
import { type Cause, isEndedMandateStatus } from "@paykit/machines"
import { today } from "@paykit/core"
import { eq } from "../kernel/ports/list-query.ts"
import type { Versioned } from "../kernel/ports/repository.ts"
import { type DailyItems, eachInChunks, idOfVersioned } from "../due-work/daily-items.ts"
import type { Mandate } from "./domain/mandates.ts"
import { BACS_DORMANCY_MONTHS } from "./mandate-dormancy.ts"
import type { MandateDormancy } from "./domain/mandate-dormancy.ts"
import { save } from "../kernel/support.ts"
import { CUSTOMER_APPROVAL, moveMandate } from "./mandate-rules.ts"
import type { CustomerBankAccountRepository } from "../customers/repositories.ts"
import { type MandateFacts, queueMandateSetup, type QueueDeps, queueReadAhead } from "../bank-submissions/queue.ts"
import type { MandateDormancyRepository, MandateRepository } from "./repositories.ts"

export interface MandateDueDeps {
  readonly mandates: MandateRepository["Service"]
  readonly accounts: CustomerBankAccountRepository["Service"]
  readonly dormancy: MandateDormancyRepository["Service"]
  /** Where a submitted mandate's instruction is queued for the bank. */
  readonly queue: QueueDeps
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

/** A mandate as its instruction names it (the bank submissions' room knows no mandate resource). */
export const mandateFactsOf = (m: Mandate): MandateFacts => ({
  id: m.id,
  reference: m.reference,
  scheme: m.scheme,
  created_at: m.created_at,
  authorisation_source: m.authorisation_source,
  creditor: m.links.creditor,
  customer_bank_account: m.links.customer_bank_account
})

/** A pending mandate submitted to the banks, its setup instruction queued for the day's submission. */
const submitMandate = (deps: MandateDueDeps, organisation: string, current: Versioned<Mandate>) =>
  Effect.andThen(
    moveMandate(deps.mandates, organisation, current, "submit", MANDATE_SUBMITTED),
    queueMandateSetup(deps.queue, organisation, mandateFactsOf(current.resource))
  )

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
 * approval since an earlier day are approved (the sandbox payer approves by the next day);
 * submitted mandates become active, since no rejection came by their scheme's deadline (the
 * day after their submission: the day's bank reports, applied before this job, failed those the
 * bank rejected); pending ones are submitted, their instructions queued for the bank; last,
 * dormant Bacs mandates (no payment for `BACS_DORMANCY_MONTHS`) expire, found by the day their
 * dormancy falls due (kept as their payments move, `mandate-last-use.ts`). Each step scans after
 * the previous one has run, and each mandate is its own unit of work.
 */
export const processMandatesDay = (deps: MandateDueDeps, organisation: string) =>
  Effect.gen(function*() {
    const day = yield* today()
    const startOfDay = `${day}T00:00:00.000Z`
    yield* deps.eachItem("mandates: customer approval", organisation, yield* deps.mandates.scan(organisation, { status: eq("pending_customer_approval"), created_at: { op: "range", lt: startOfDay } }), idOfVersioned, (current) =>
      moveMandate(deps.mandates, organisation, current, "customer_approval_granted", CUSTOMER_APPROVAL))
    // Submitted on an earlier day (submission comes next): their scheme's deadline for a rejection has passed.
    yield* deps.eachItem("mandates: settlement", organisation, yield* deps.mandates.scan(organisation, { status: eq("submitted") }), idOfVersioned, (current) =>
      moveMandate(deps.mandates, organisation, current, "activate", MANDATE_ACTIVATED))
    yield* deps.eachItem("mandates: submission", organisation, yield* deps.mandates.scan(organisation, { status: eq("pending_submission") }), idOfVersioned, (current) =>
      submitMandate(deps, organisation, current), (batch) =>
      queueReadAhead(deps.queue, organisation, batch.map(idOfVersioned), batch.map((m) => m.resource.links.customer_bank_account)))
    yield* eachInChunks(deps.dormancy, organisation, { due_on: { op: "range", lte: day } }, (due) =>
      deps.eachItem("mandates: dormancy", organisation, due, idOfVersioned, (record) => expireDormant(deps, organisation, record)))
  })

