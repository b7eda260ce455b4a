import { Effect } from "effect"
import type { Cause } from "@paykit/machines"
import { type LocalDate, today, unsafeLocalDate } from "@paykit/core"
import type { BankGateway } from "../kernel/ports/bank-gateway.ts"
import { eq, oneOf } from "../kernel/ports/list-query.ts"
import type { Versioned } from "../kernel/ports/repository.ts"
import { type DailyItems, idOfVersioned } from "../kernel/daily-items.ts"
import type { Mandate } from "./domain/mandates.ts"
import { BACS_DORMANCY_MONTHS, DORMANCY_SCHEMES, isDormant } from "./mandate-dormancy.ts"
import { CUSTOMER_APPROVAL, moveMandate } from "./mandate-rules.ts"
import type { CustomerBankAccountRepository, MandateRepository, PaymentRepository } from "./repositories.ts"

export interface MandateDueDeps {
  readonly mandates: MandateRepository["Service"]
  readonly accounts: CustomerBankAccountRepository["Service"]
  readonly payments: PaymentRepository["Service"]
  readonly bank: BankGateway["Service"]
  readonly eachItem: DailyItems
}

/** The last day the mandate was used: its latest payment's charge date, else its creation. */
const lastUseOf = (deps: MandateDueDeps, organisation: string, mandate: Mandate) =>
  Effect.map(deps.payments.scan(organisation, { mandate: eq(mandate.id) }), (rows) =>
    rows.reduce<LocalDate>(
      (latest, row) => row.resource.status !== "cancelled" && row.resource.charge_date !== null && row.resource.charge_date > latest ? row.resource.charge_date : latest,
      unsafeLocalDate(mandate.created_at.slice(0, 10))
    ))

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

const expireIfDormant = (deps: MandateDueDeps, organisation: string, current: Versioned<Mandate>, day: LocalDate) =>
  Effect.gen(function*() {
    if (!isDormant(current.resource.scheme, yield* lastUseOf(deps, organisation, current.resource), day)) return
    yield* moveMandate(deps.mandates, organisation, current, "expire", MANDATE_EXPIRED)
  })

/**
 * The bank's day for mandates (the simulator's `mandates` job): mandates awaiting the payer's
 * approval since an earlier day are approved (the sandbox payer approves by the next day),
 * submitted mandates become active or failed as the bank answers, then pending ones are
 * submitted; last, dormant Bacs mandates (no payment for `BACS_DORMANCY_MONTHS`) expire. Each
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
    yield* deps.eachItem("mandates: dormancy", organisation, yield* deps.mandates.scan(organisation, { status: eq("active"), scheme: oneOf(DORMANCY_SCHEMES) }), idOfVersioned, (current) =>
      expireIfDormant(deps, organisation, current, day))
  })

