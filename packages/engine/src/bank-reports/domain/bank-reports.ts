import { Schema } from "effect"
import { EntryTargetSchema, REPORT_ENTRY_KINDS, REPORT_FORMATS } from "@paykit/bank-files"
import { ID_PREFIXES } from "@paykit/core"
import { defineResource } from "../../kernel/definition.ts"
import { listFields } from "../../kernel/list-params.ts"
import { CreatedAt, Id, Minor, NullableDate, NullableString } from "../../kernel/fields.ts"

/**
 * A bank report received (`BR...`, paykit's own extension): its bytes as received (sealed at
 * rest, `bank_file_chunks` under its id), its format, and what its entries did. A report is
 * applied as a whole or not at all: one that does not read is refused and never becomes a record.
 * Received again (the same bytes), it is this record, and nothing is applied twice.
 */
export const BankReport = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  /** The bank's name for it (a file name, a message id), or the name it was posted with. */
  name: NullableString,
  format: Schema.Literals(REPORT_FORMATS),
  /** Where it came from: a bank's report the daily run collected, or one posted to the API. */
  source: Schema.Literals(["bank", "posted"]),
  file_size: Minor,
  file_sha256: Schema.String,
  entry_count: Minor,
  /** Entries that named an item of this organisation and were applied (or take effect later). */
  matched_count: Minor,
  /** Entries that named nothing of this organisation: kept, shown, never applied. */
  unmatched_count: Minor,
  /** Entries whose effect an earlier entry (of this report or another) had already had. */
  duplicate_count: Minor,
  /** Entries whose amount differs from the item submitted: flagged, not applied. */
  mismatched_count: Minor,
  /** Entries that named an item but found nothing to do (the payment had ended otherwise). */
  ignored_count: Minor,
  /** How many of its entries, in file order, have been applied; `entry_count` once it is done. */
  applied_through: Minor
})
export type BankReport = typeof BankReport.Type

export const bankReports = defineResource({
  name: "bank_reports",
  idPrefix: ID_PREFIXES.bank_report,
  schema: BankReport,
  filters: {
    created_at: (r: BankReport) => r.created_at,
    format: (r: BankReport) => r.format,
    file_sha256: (r: BankReport) => r.file_sha256,
    // Set while entries are left to apply (an interrupted application), which the daily run finishes.
    applying: (r: BankReport) => r.applied_through < r.entry_count ? "true" : null
  }
})

/**
 * The stored file of a report: named by its bytes' SHA-256, not by the report's id, so a receipt
 * cut off while storing them is completed by the next receipt of the same bytes, not left beside a
 * second copy (a report is made only once its bytes are all stored).
 */
export const reportFileOf = (report: Pick<BankReport, "file_sha256">): string => `received/${report.file_sha256}`

/** `GET /bank_reports` parameters: paykit's own extension. */
export const BankReportListParams = Schema.Struct({
  ...listFields("bank_report"),
  format: Schema.optionalKey(Schema.Literals(REPORT_FORMATS))
})
export type BankReportListParams = typeof BankReportListParams.Type

/**
 * The bank's free text on one entry of a report (engine-internal; its entry's row shows it), kept
 * apart from the report's record, which every page of entries reads and rewrites: a page's cost
 * then follows its entries, not the report's size. Keyed as the entry is; only entries with a note
 * have one.
 */
export const BankReportNote = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  report: Schema.String,
  position: Minor,
  note: Schema.String
})
export type BankReportNote = typeof BankReportNote.Type

export const bankReportNotes = defineResource({
  name: "bank_report_notes",
  idPrefix: null,
  schema: BankReportNote,
  filters: { created_at: (r: BankReportNote) => r.created_at }
})

/** What an entry came to. */
export const ENTRY_OUTCOMES = ["applied", "scheduled", "duplicate", "unmatched", "amount_mismatch", "ignored"] as const
export type EntryOutcome = (typeof ENTRY_OUTCOMES)[number]

/**
 * One entry of a report as it was read and what it did (engine-internal; listed with its report).
 * Keyed `<report>/<position>`, the position zero-padded, so a report's entries read in file order.
 */
export const BankReportEntry = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  report: Schema.String,
  /** 0-based, in file order. */
  position: Minor,
  kind: Schema.Literals(REPORT_ENTRY_KINDS),
  /** The report's format: what its code means (a mandate's standing re-applied after a late entry reads it). */
  format: Schema.Literals(REPORT_FORMATS),
  /** The scheme's own code, as the report gives it. */
  code: Schema.String,
  /** How the report names the item: the reference it gives. */
  target: EntryTargetSchema,
  amount: Schema.NullOr(Minor),
  currency: NullableString,
  effective_date: NullableDate,
  /** Where in the file it is (`line 12`, an element path). */
  location: Schema.String,
  /** The bank's free text on it, if any. */
  note: NullableString,
  outcome: Schema.Literals(ENTRY_OUTCOMES),
  /** Why, when it was not applied (unmatched, mismatched, ignored, duplicate). */
  reason: NullableString,
  /** What the event said: `details.cause`, `description` and `reason_code`; null when nothing moved. */
  cause: NullableString,
  description: NullableString,
  reason_code: NullableString,
  /** The day a scheduled entry takes effect. */
  due_on: NullableDate,
  /** What it moved (or would have): `payment`, `mandate`, `customer_bank_account`. */
  links: Schema.Record(Schema.String, Schema.String),
  /** The effect it had, `<kind>:<subject>:<attempt>` (`:<effective date>` for a mandate's cancellation, reinstatement or new details): an entry with the effect of an earlier one is a duplicate. */
  effect: NullableString
})
export type BankReportEntry = typeof BankReportEntry.Type

export const bankReportEntries = defineResource({
  name: "bank_report_entries",
  idPrefix: null,
  schema: BankReportEntry,
  filters: {
    created_at: (r: BankReportEntry) => r.created_at,
    report: (r: BankReportEntry) => r.report,
    effect: (r: BankReportEntry) => r.effect,
    subject: (r: BankReportEntry) => r.links["payment"] ?? r.links["mandate"] ?? null
  }
})

/** The id of the entry at `position` of `report`. */
export const entryIdOf = (report: string, position: number): string => `${report}/${String(position).padStart(9, "0")}`
