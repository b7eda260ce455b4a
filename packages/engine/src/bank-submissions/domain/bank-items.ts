import { Schema } from "effect"
import { LocalDate, MANDATE_SCHEMES } from "@paykit/core"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, Minor, NullableDate, NullableString } from "../../kernel/fields.ts"

/**
 * An item handed to the bank (engine-internal): a mandate's instruction or a payment's collection,
 * queued when the daily run submits it, in the batch of its creditor, scheme and day. Keyed by the
 * mandate's or payment's id, so a report's entry finds its item with one read; a later submission
 * of the same mandate or payment (a retry, a resubmission) replaces it with the next `attempt`.
 *
 * `sealed` is the item as the file states it (`SubmissionItem`, the payer's full bank details
 * included), sealed at rest like the customer bank account's details: the file is written from
 * these snapshots alone, so the details a payer changes later never alter a file already made.
 * `render` orders a batch's file: its value is the batch and the item's group (its `itemSortKey`
 * less the id), and within a group the items are read in id order, which completes the key.
 */
export const BankItem = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  /** The batch it travels in (`BankBatch.id`). */
  batch: Schema.String,
  /** Its `itemSortKey` up to the id: the part of the file's order that is not the id. */
  group: Schema.String,
  kind: Schema.Literals(["mandate", "collection"]),
  mandate: Schema.String,
  /** The collection's amount; 0 for a mandate instruction. */
  amount: Minor,
  charge_date: NullableDate,
  /** 0 for the first submission of the mandate or payment, 1 for the next, ... */
  attempt: Minor,
  /** The `SubmissionItem` as JSON, sealed (base64). */
  sealed: Schema.String
})
export type BankItem = typeof BankItem.Type

export const bankItems = defineResource({
  name: "bank_items",
  idPrefix: null,
  schema: BankItem,
  filters: {
    created_at: (r: BankItem) => r.created_at,
    render: (r: BankItem) => `${r.batch}|${r.group}`
  }
})

/**
 * A batch (engine-internal): the items of one creditor and scheme queued for one day's
 * submission, keyed `<day>/<creditor>/<scheme>`. It counts its items as they are queued, and once
 * the daily run closes it into a submission it names that submission; an item queued after that
 * goes into the next day's batch. A batch whose format carries none of its items (SEPA mandate
 * instructions alone: a SEPA mandate travels with its first collection) closes into none.
 */
export const BankBatch = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  day: LocalDate,
  creditor: Schema.String,
  scheme: Schema.Literals(MANDATE_SCHEMES),
  mandate_count: Minor,
  collection_count: Minor,
  /** The sum of its collections, in minor units. */
  total_amount: Minor,
  /** The groups of its items (`BankItem.group`), each once. */
  groups: Schema.Array(Schema.String),
  /** Set once the daily run has closed it, into a submission or (nothing the format carries) none. */
  closed: Schema.Boolean,
  /** The submission it was closed into. */
  submission: NullableString
})
export type BankBatch = typeof BankBatch.Type

export const bankBatches = defineResource({
  name: "bank_batches",
  idPrefix: null,
  schema: BankBatch,
  filters: {
    created_at: (r: BankBatch) => r.created_at,
    // Null once closed: a closed batch leaves the index the daily run reads open ones from.
    open_on: (r: BankBatch) => r.closed ? null : r.day
  }
})

/** The id of the batch of `creditor` and `scheme` on `day`. */
export const batchIdOf = (day: LocalDate, creditor: string, scheme: string): string => `${day}/${creditor}/${scheme}`

/**
 * A chunk of a stored bank file (engine-internal): a submission's file or a report as received,
 * `BANK_FILE_CHUNK_BYTES` at most, sealed at rest (the files carry payers' full bank details).
 * Keyed `<file>/<sequence>`, the sequence zero-padded so the chunks' id order is the file's.
 */
export const BankFileChunk = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  file: Schema.String,
  /** The chunk's bytes, sealed, in base64. */
  sealed: Schema.String
})
export type BankFileChunk = typeof BankFileChunk.Type

export const bankFileChunks = defineResource({
  name: "bank_file_chunks",
  idPrefix: null,
  schema: BankFileChunk,
  filters: {
    created_at: (r: BankFileChunk) => r.created_at,
    file: (r: BankFileChunk) => r.file
  }
})
