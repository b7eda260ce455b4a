import { Schema } from "effect"
import { ID_PREFIXES } from "@paykit/core"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, NullableString } from "../../kernel/fields.ts"
import { pageFields } from "../../kernel/list-params.ts"

/** The API's key of exports. */
export const EXPORTS = "exports"

/** The export types of the client's `ExportExportType`. */
export const EXPORT_TYPES = [
  "payments_index", "events_index", "refunds_index", "payouts_index", "customers_index", "subscriptions_index",
  "payment_events", "subscription_events", "payout_events", "refund_events", "mandate_events", "payout_events_breakdown",
  "payout_events_reconciliation", "payout_transactions_breakdown", "payout_transactions_reconciliation",
  "authorisation_requests", "customer_bank_accounts", "users", "organisation_authorisations",
  "app_connected_organisations", "gc_invalid_authorisation_requests", "partner_fees", "payments_import_template",
  "payment_account_statement", "outbound_payments_index", "payment_account_transactions"
] as const

/**
 * A file of the organisation's data made in the dashboard (the client's `Export`): the API only
 * reads them. `download_url` is null until the file is ready, `error_message` set if it failed.
 */
export const Export = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  currency: Schema.String,
  download_url: NullableString,
  error_message: NullableString,
  export_type: Schema.Literals(EXPORT_TYPES)
})
export type Export = typeof Export.Type

export const dataExports = defineResource({
  name: EXPORTS,
  idPrefix: ID_PREFIXES.export,
  schema: Export,
  filters: { created_at: (r: Export) => r.created_at }
})

/** `GET /exports` parameters: pagination only (the client's `ExportListRequest`). */
export const ExportListParams = Schema.Struct(pageFields("export"))
export type ExportListParams = typeof ExportListParams.Type
