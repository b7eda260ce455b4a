import { Effect, Layer } from "effect"
import { eq } from "../kernel/ports/list-query.ts"
import { ReportedReversals } from "../payments/side-records.ts"
import { BankReportEntryRepository } from "./repositories.ts"

/**
 * The payments' `ReportedReversals` from the entries kept: a payment's latest entry that was
 * scheduled (a return or claim taking effect after it was received), as its record held it.
 */
export const ReportedReversalsLive = Layer.effect(
  ReportedReversals,
  Effect.map(BankReportEntryRepository, (entries) =>
    ReportedReversals.of({
      pendingOf: (organisation, payment) =>
        Effect.map(entries.scan(organisation, { subject: eq(payment) }), (rows) => {
          const latest = rows.map((row) => row.resource).filter((e) => e.outcome === "scheduled").at(-1)
          if (latest === undefined || latest.due_on === null || latest.cause === null || latest.reason_code === null || latest.description === null) return undefined
          return {
            reversal: { outcome: latest.kind === "collection_charged_back" ? "charged_back" : "late_failure", cause: latest.cause, reason_code: latest.reason_code, description: latest.description },
            due_on: latest.due_on
          }
        })
    })))
