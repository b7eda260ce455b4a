import { Context, Effect } from "effect"
import type { LocalDate, StorageError } from "@paykit/core"
import { eachInChunks, idOfVersioned } from "../due-work/daily-items.ts"
import { oneOf } from "../kernel/ports/list-query.ts"
import { DORMANCY_SCHEMES } from "../mandates/mandate-dormancy.ts"
import { watchFromLastUse } from "./mandate-last-use.ts"
import { keepReversal, type PaymentDueDeps, type Reversal, REVERSIBLE_PAYMENT_STATUSES } from "./payment-due.ts"

/**
 * The reversals banks reported of collected payments that take effect later (a return effective
 * after settlement, an indemnity claim debited later): the port the payments declare and the bank
 * reports' room implements from the entries it kept, so a payment's missing reversal record is
 * made again from what its bank reported.
 */
export class ReportedReversals extends Context.Service<ReportedReversals, {
  /** The reversal reported of `payment` and not yet in effect by the report's word, with the day it takes effect; undefined when none. */
  readonly pendingOf: (organisation: string, payment: string) => Effect.Effect<{ readonly reversal: Reversal; readonly due_on: LocalDate } | undefined, StorageError>
}>()("@paykit/engine/ReportedReversals") {}

/**
 * The daily run reads only what is due through side records kept as resources move:
 * a lapsing mandate's last use, a collected payment's reported reversal that takes effect later,
 * a subscription schedule's `due_on`. A database made before they were kept has resources without them, which the daily run
 * would never read again. The `side_records` kind makes the missing ones, once per organisation:
 * store-sql's migration 0056 schedules a row for each organisation it finds, so a new database
 * (no organisation yet) has none, and a run reads every mandate of a lapsing scheme, every
 * collected payment and every schedule once. Each item is its own unit of work and each record is
 * made only where none exists, so a run cut off by a crash runs again from the start harmlessly.
 */
export const SIDE_RECORDS_KIND = "side_records"

/** The mandates' and payments' side records of one organisation that are missing. */
export const keepMissingPaymentRecords = (deps: PaymentDueDeps, reported: ReportedReversals["Service"], organisation: string) =>
  Effect.gen(function*() {
    yield* eachInChunks(deps.mandates, organisation, { scheme: oneOf(DORMANCY_SCHEMES) }, (chunk) =>
      deps.eachItem("side records: mandate dormancy", organisation, chunk, idOfVersioned, (mandate) => watchFromLastUse(deps, organisation, mandate.resource)))
    yield* eachInChunks(deps.payments, organisation, { status: oneOf(REVERSIBLE_PAYMENT_STATUSES) }, (chunk) =>
      deps.eachItem("side records: payment reversals", organisation, chunk, idOfVersioned, (payment) =>
        Effect.gen(function*() {
          if ((yield* Effect.option(deps.reversals.get(organisation, payment.resource.id)))._tag === "Some") return
          const pending = yield* reported.pendingOf(organisation, payment.resource.id)
          if (pending !== undefined) yield* keepReversal(deps, organisation, payment.resource.id, pending.reversal, pending.due_on)
        })))
  })
