import { Schema } from "effect"
import { ID_PREFIXES, IdOf } from "@paykit/core"
import { OUTBOUND_PAYMENT_IMPORT_STATUSES } from "@paykit/machines"
import { NonBlankString, OutboundPaymentImportCreate } from "@paykit/validation"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, Minor, NullableString, NullableTimestamp, StoredMetadata } from "../../kernel/fields.ts"
import { listFields, pageFields } from "../../kernel/list-params.ts"
import { CONFIRMATION_OF_PAYEE_RESULTS } from "./outbound-payments.ts"

export const EntryCounts = Schema.Struct({
  total: Minor,
  valid: Minor,
  invalid: Minor,
  verified: Minor,
  verified_with_full_match: Minor,
  verified_with_partial_match: Minor,
  verified_with_no_match: Minor,
  verified_with_unable_to_match: Minor,
  processed: Minor,
  failed_to_process: Minor
})
export type EntryCounts = typeof EntryCounts.Type

export const OutboundPaymentImport = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  amount_sum: Minor,
  authorisation_url: Schema.String,
  currency: Schema.Literals(["GBP"]),
  entry_counts: EntryCounts,
  status: Schema.Literals(OUTBOUND_PAYMENT_IMPORT_STATUSES),
  links: Schema.Struct({ creditor: Schema.String })
})
export type OutboundPaymentImport = typeof OutboundPaymentImport.Type

export const outboundPaymentImports = defineResource({
  name: "outbound_payment_imports",
  idPrefix: ID_PREFIXES.outbound_payment_import,
  schema: OutboundPaymentImport,
  filters: {
    created_at: (r: OutboundPaymentImport) => r.created_at,
    status: (r: OutboundPaymentImport) => r.status,
    creditor: (r: OutboundPaymentImport) => r.links.creditor
  }
})

/** The real API's `validation_errors.outbound_payment`: messages per field of the entry. */
export const EntryValidationErrors = Schema.Struct({
  outbound_payment: Schema.Struct({
    amount: Schema.optionalKey(Schema.Array(Schema.String)),
    recipient_bank_account: Schema.optionalKey(Schema.Array(Schema.String)),
    reference: Schema.optionalKey(Schema.Array(Schema.String)),
    scheme: Schema.optionalKey(Schema.Literals(["faster_payments"]))
  })
})
export type EntryValidationErrors = typeof EntryValidationErrors.Type

/** One entry of an import, listed by `GET /outbound_payment_import_entries?outbound_payment_import=IM...`. */
export const OutboundPaymentImportEntry = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  amount: Minor,
  reference: NullableString,
  scheme: Schema.Literals(["faster_payments"]),
  metadata: StoredMetadata,
  /** Set when the entry became an outbound payment (or failed to). */
  processed_at: NullableTimestamp,
  validation_errors: Schema.NullOr(EntryValidationErrors),
  verification_result: Schema.NullOr(Schema.Literals(CONFIRMATION_OF_PAYEE_RESULTS)),
  links: Schema.Struct({
    outbound_payment_import: Schema.String,
    recipient_bank_account: Schema.String,
    outbound_payment: NullableString
  })
})
export type OutboundPaymentImportEntry = typeof OutboundPaymentImportEntry.Type

export const outboundPaymentImportEntries = defineResource({
  name: "outbound_payment_import_entries",
  idPrefix: ID_PREFIXES.outbound_payment_import_entry,
  schema: OutboundPaymentImportEntry,
  filters: {
    created_at: (r: OutboundPaymentImportEntry) => r.created_at,
    outbound_payment_import: (r: OutboundPaymentImportEntry) => r.links.outbound_payment_import
  }
})

/** `POST /outbound_payment_imports`: at least one entry, each a payment to a customer bank account. */
export const OutboundPaymentImportCreateRequest = OutboundPaymentImportCreate
export type OutboundPaymentImportCreateRequest = typeof OutboundPaymentImportCreateRequest.Type

export const OutboundPaymentImportListParams = Schema.Struct({
  ...listFields("outbound_payment_import"),
  status: Schema.optionalKey(Schema.Literals(OUTBOUND_PAYMENT_IMPORT_STATUSES))
})
export type OutboundPaymentImportListParams = typeof OutboundPaymentImportListParams.Type

export const OutboundPaymentImportEntryListParams = Schema.Struct({
  ...pageFields("outbound_payment_import_entry"),
  outbound_payment_import: IdOf("outbound_payment_import")
})
export type OutboundPaymentImportEntryListParams = typeof OutboundPaymentImportEntryListParams.Type

/** The dashboard user who authorises an import, named in the event's description. */
export const AuthorisingUser = NonBlankString
