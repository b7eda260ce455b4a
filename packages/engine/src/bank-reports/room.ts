import { Effect } from "effect"
import { defineRoom, store } from "../registry/room.ts"
import { bankReportEntries, bankReportNotes, bankReports } from "./domain/bank-reports.ts"
import { BankReports } from "./bank-reports.ts"
import { ReportedReversalsLive } from "./reported-reversals.ts"
import { BankReportEntryRepository, BankReportNoteRepository, BankReportRepository } from "./repositories.ts"

/**
 * The bank reports' room: reports received and their entries applied through the machines of the
 * rooms below (mandates, payments, the customers' vault). Implements the payments'
 * `ReportedReversals`.
 */
export const bankReportsRoom = defineRoom({
  stores: [store(BankReportRepository, bankReports), store(BankReportEntryRepository, bankReportEntries), store(BankReportNoteRepository, bankReportNotes)],
  /** After creditor reviews (10), before mandates (20) and payments (40) settle what no report failed. */
  dueWork: Effect.map(BankReports, (reports) => [{ name: "bank reports", order: 12, deadline: false, run: reports.processDay }]),
  services: BankReports.layer,
  ports: ReportedReversalsLive
})
