import { Schema } from "effect"
import { ID_PREFIXES, IdOf, MandateScheme, Metadata, Timestamp } from "@paykit/core"
import { MANDATE_IMPORT_STATUSES } from "@paykit/machines"
import { AUTHORISATION_SOURCES } from "@paykit/validation"
import { BankDetails } from "../../customers/domain/customer-bank-accounts.ts"
import { CustomerCreateRequest } from "../../customers/domain/customers.ts"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, NullableString } from "../../kernel/fields.ts"
import { idFilter, pageFields } from "../../kernel/list-params.ts"

/** The API resource keys of mandate imports and their entries: the roots of their requests' field errors. */
export const MANDATE_IMPORTS_ROOT = "mandate_imports"
export const MANDATE_IMPORT_ENTRIES_ROOT = "mandate_import_entries"

export const MandateImport = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  scheme: MandateScheme,
  status: Schema.Literals(MANDATE_IMPORT_STATUSES),
  links: Schema.Struct({ creditor: Schema.String })
})
export type MandateImport = typeof MandateImport.Type

export const mandateImports = defineResource({
  name: "mandate_imports",
  idPrefix: ID_PREFIXES.mandate_import,
  schema: MandateImport,
  filters: {
    created_at: (r: MandateImport) => r.created_at,
    status: (r: MandateImport) => r.status
  }
})

/** How an entry's processing ended, as the real API's entry list filter names it (`MandateImportEntryStatus`). */
export const MANDATE_IMPORT_ENTRY_STATUSES = ["successfully_processed", "unsuccessfully_processed"] as const

/** What processing an entry refused, by field (the real API's `processing_errors`). */
export const ProcessingErrors = Schema.Record(Schema.String, Schema.Array(Schema.String))
export type ProcessingErrors = typeof ProcessingErrors.Type

/**
 * One entry of an import (`MandateImportEntry`). The real API gives entries no id; paykit's
 * (`MIE...`) is its storage key and its list cursor.
 */
export const MandateImportEntry = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  record_identifier: NullableString,
  processing_errors: Schema.NullOr(ProcessingErrors),
  links: Schema.Struct({
    mandate_import: Schema.String,
    customer: Schema.optionalKey(Schema.String),
    customer_bank_account: Schema.optionalKey(Schema.String),
    mandate: Schema.optionalKey(Schema.String)
  })
})
export type MandateImportEntry = typeof MandateImportEntry.Type

/** The status an entry is listed under: none until its import is processed. */
export const entryStatusOf = (e: MandateImportEntry): (typeof MANDATE_IMPORT_ENTRY_STATUSES)[number] | null =>
  e.processing_errors !== null ? "unsuccessfully_processed" : e.links.mandate !== undefined ? "successfully_processed" : null

export const mandateImportEntries = defineResource({
  name: "mandate_import_entries",
  idPrefix: ID_PREFIXES.mandate_import_entry,
  schema: MandateImportEntry,
  filters: {
    created_at: (r: MandateImportEntry) => r.created_at,
    mandate_import: (r: MandateImportEntry) => r.links.mandate_import,
    status: entryStatusOf
  }
})

/** `POST /mandate_imports`. */
export const MandateImportCreateRequest = Schema.Struct({
  scheme: MandateScheme,
  links: Schema.optionalKey(Schema.Struct({ creditor: idFilter("creditor") }))
})
export type MandateImportCreateRequest = typeof MandateImportCreateRequest.Type

/** The mandate an entry sets up (`MandateImportEntryMandate`). */
export const MandateImportEntryMandate = Schema.Struct({
  authorisation_source: Schema.optionalKey(Schema.Literals(AUTHORISATION_SOURCES)),
  metadata: Schema.optionalKey(Metadata),
  reference: Schema.optionalKey(Schema.NullOr(Schema.String))
})

/** A mandate moved from another provider (`MandateImportEntryAmendment`). */
export const MandateImportEntryAmendment = Schema.Struct({
  original_creditor_id: Schema.String,
  original_creditor_name: Schema.String,
  original_mandate_reference: Schema.String
})

/** `POST /mandate_import_entries`: a customer, their bank account and the mandate to set up on it. */
export const MandateImportEntryCreateRequest = Schema.Struct({
  customer: CustomerCreateRequest,
  bank_account: BankDetails,
  mandate: Schema.optionalKey(MandateImportEntryMandate),
  amendment: Schema.optionalKey(MandateImportEntryAmendment),
  record_identifier: Schema.optionalKey(Schema.String),
  links: Schema.Struct({ mandate_import: IdOf("mandate_import") })
})
export type MandateImportEntryCreateRequest = typeof MandateImportEntryCreateRequest.Type

/**
 * What an entry asks for, kept until its import is processed: the bank details are not part of
 * the entry the API shows. Keyed by the entry's id.
 */
export const PendingEntryRequest = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  customer: CustomerCreateRequest,
  bank_account: BankDetails,
  mandate: Schema.NullOr(MandateImportEntryMandate)
})
export type PendingEntryRequest = typeof PendingEntryRequest.Type

/**
 * The same record once its entry is processed or its import cancelled: the payer's details and
 * bank details are deleted (the record's port has no delete, so what stays is the id and when).
 */
export const ErasedEntryRequest = Schema.Struct({ id: Id, created_at: CreatedAt, erased_at: Timestamp })
export type ErasedEntryRequest = typeof ErasedEntryRequest.Type

export const MandateImportEntryRequest = Schema.Union([PendingEntryRequest, ErasedEntryRequest])
export type MandateImportEntryRequest = typeof MandateImportEntryRequest.Type

/** The request with its details deleted. */
export const erasedEntryRequest = (request: MandateImportEntryRequest, at: Timestamp): ErasedEntryRequest =>
  ({ id: request.id, created_at: request.created_at, erased_at: at })

export const mandateImportEntryRequests = defineResource({
  name: "mandate_import_entry_requests",
  idPrefix: null,
  schema: MandateImportEntryRequest,
  filters: { created_at: (r: MandateImportEntryRequest) => r.created_at }
})

export const MandateImportEntryListParams = Schema.Struct({
  ...pageFields("mandate_import_entry"),
  mandate_import: IdOf("mandate_import"),
  status: Schema.optionalKey(Schema.Literals(MANDATE_IMPORT_ENTRY_STATUSES))
})
export type MandateImportEntryListParams = typeof MandateImportEntryListParams.Type
