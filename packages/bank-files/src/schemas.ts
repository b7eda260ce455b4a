import { Schema } from "effect"
import { LocalDate } from "@paykit/core"

/**
 * The model's shapes as Schemas (`model.ts` declares them as types): what a format that writes
 * them as JSON decodes them with (paykit's own files), and what a store that keeps them decodes
 * them with (the engine's item snapshots, its submissions' originators, its report entries' targets).
 */

/** `BankAccount`. */
export const BankAccountSchema = Schema.Struct({
  account_holder_name: Schema.String,
  iban: Schema.optionalKey(Schema.String),
  bic: Schema.optionalKey(Schema.String),
  sort_code: Schema.optionalKey(Schema.String),
  routing_number: Schema.optionalKey(Schema.String),
  account_number: Schema.optionalKey(Schema.String),
  account_type: Schema.optionalKey(Schema.Literals(["checking", "savings"])),
  bank_code: Schema.optionalKey(Schema.String),
  branch_code: Schema.optionalKey(Schema.String)
})

/** `EntryTarget`. */
export const EntryTargetSchema = Schema.Union([
  Schema.Struct({ by: Schema.Literal("end_to_end"), id: Schema.String }),
  Schema.Struct({
    by: Schema.Literal("mandate_reference"),
    reference: Schema.String,
    amount: Schema.optionalKey(Schema.Int),
    original_date: Schema.optionalKey(LocalDate)
  }),
  Schema.Struct({ by: Schema.Literal("submission"), id: Schema.String, batch: Schema.optionalKey(Schema.String) })
])

/** `Originator`. */
export const OriginatorSchema = Schema.Struct({
  creditor: Schema.String,
  name: Schema.String,
  scheme_identifier: Schema.String,
  account: BankAccountSchema
})

const Source = Schema.Literals(["web", "telephone", "paper"])

/** `SubmissionItem`: a mandate instruction or a collection. */
export const SubmissionItemSchema = Schema.Union([
  Schema.Struct({
    kind: Schema.Literal("mandate"),
    action: Schema.Literals(["setup", "cancel", "convert"]),
    mandate: Schema.String,
    mandate_reference: Schema.String,
    signed_on: LocalDate,
    debtor: BankAccountSchema,
    authorisation_source: Source
  }),
  Schema.Struct({
    kind: Schema.Literal("collection"),
    payment: Schema.String,
    amount: Schema.Int,
    currency: Schema.String,
    charge_date: LocalDate,
    sequence: Schema.Literals(["first", "recurring", "final", "one_off", "represented"]),
    mandate: Schema.String,
    mandate_reference: Schema.String,
    mandate_signed_on: LocalDate,
    authorisation_source: Source,
    debtor: BankAccountSchema,
    remittance: Schema.NullOr(Schema.String)
  })
])
