import { Schema } from "effect"
import { bacsSerialOf, OriginatorSchema, SUBMISSION_FILE_FORMATS } from "@paykit/bank-files"
import { CURRENCIES, ID_PREFIXES, IdOf, LocalDate, MANDATE_SCHEMES } from "@paykit/core"
import { defineResource } from "../../kernel/definition.ts"
import { listFields } from "../../kernel/list-params.ts"
import { CreatedAt, Id, Minor, NullableString, NullableTimestamp } from "../../kernel/fields.ts"

/**
 * A submission (`BS...`, paykit's own extension): one day's mandate instructions and collections
 * of a scheme and creditor, written as one file in the scheme's format and handed to the bank.
 * The file is written once, in chunks sealed at rest (`bank_file_chunks`); its size and SHA-256
 * are set when it is complete, and the bank's acknowledgement when the bank has taken it.
 */
export const BankSubmission = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  scheme: Schema.Literals(MANDATE_SCHEMES),
  file_format: Schema.Literals(SUBMISSION_FILE_FORMATS),
  /** The day its collections are charged: the scheme's next working day after the day it was made. */
  processing_date: LocalDate,
  /** The day it was made (the daily run that closed it). */
  made_on: LocalDate,
  /** The items its file carries (mandate instructions included where the format has them). */
  item_count: Minor,
  /** The sum of its collections, in minor units. */
  total_amount: Minor,
  currency: Schema.Literals(CURRENCIES),
  /** The file's size in bytes and SHA-256 (hex) once it is written; null while it is being written. */
  file_size: Schema.NullOr(Minor),
  file_sha256: NullableString,
  /** The bank's own reference for it, once the bank acknowledged it (null: not taken yet, or the bank gives none). */
  bank_reference: NullableString,
  /** When the bank acknowledged it; null until then. */
  acknowledged_at: NullableTimestamp,
  /** Who the file collects as: the creditor's own scheme identifier, else the bank's collector for the scheme. */
  originator: OriginatorSchema,
  /** The batch it was closed from (engine-internal). */
  batch: Schema.String,
  links: Schema.Struct({ creditor: Schema.String })
})
export type BankSubmission = typeof BankSubmission.Type

/** What a submission still waits for: its file, then the bank; none once acknowledged. */
export const awaitingOf = (s: BankSubmission): "file" | "bank" | null =>
  s.file_sha256 === null ? "file" : s.acknowledged_at === null ? "bank" : null

export const bankSubmissions = defineResource({
  name: "bank_submissions",
  idPrefix: ID_PREFIXES.bank_submission,
  schema: BankSubmission,
  filters: {
    created_at: (r: BankSubmission) => r.created_at,
    scheme: (r: BankSubmission) => r.scheme,
    creditor: (r: BankSubmission) => r.links.creditor,
    made_on: (r: BankSubmission) => r.made_on,
    processing_date: (r: BankSubmission) => r.processing_date,
    awaiting: awaitingOf,
    // What a Bacs volume names it by (its VOL1 serial): an AUDDIS file rejection names no other.
    serial: (r: BankSubmission) => r.scheme === "bacs" ? bacsSerialOf(r.id) : null
  }
})

/** `GET /bank_submissions` parameters: paykit's own extension, filtered by scheme, creditor and `created_at`. */
export const BankSubmissionListParams = Schema.Struct({
  ...listFields("bank_submission"),
  scheme: Schema.optionalKey(Schema.String),
  creditor: Schema.optionalKey(IdOf("creditor"))
})
export type BankSubmissionListParams = typeof BankSubmissionListParams.Type
