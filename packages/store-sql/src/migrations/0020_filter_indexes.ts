import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Every equality and membership filter a list serves, as of this migration: per stored resource
 * type, the filter keys of its definition other than `created_at` (which has its own index since
 * migration 0001). Written out, not read from the definitions, because a migration is history: a
 * filter added later is a new migration, and `filter-indexes.test.ts` fails until it exists.
 */
export const FILTER_KEYS_0020: Readonly<Record<string, ReadonlyArray<string>>> = {
  creditor_bank_accounts: ["creditor", "enabled"],
  verification_details: ["creditor"],
  customers: ["email"],
  customer_bank_accounts: ["customer", "enabled"],
  mandates: ["status", "creditor", "customer", "customer_bank_account", "scheme", "reference"],
  payments: ["status", "charge_date", "creditor", "mandate", "subscription", "payout", "currency", "scheme"],
  refunds: ["status", "payment", "mandate", "creditor"],
  negative_balance_limits: ["currency", "creditor"],
  settlement_entries: ["creditor", "currency", "payout", "kind", "payment"],
  outbound_payments: ["status", "creditor", "outbound_payment_import"],
  outbound_payment_imports: ["status", "creditor"],
  outbound_payment_import_entries: ["outbound_payment_import"],
  payment_accounts: ["creditor", "currency"],
  billing_requests: ["status", "customer", "creditor"],
  customer_billing_details: ["customer"],
  bank_authorisations: ["status", "billing_request", "expires_at"],
  payer_authorisations: ["status"],
  subscriptions: ["status", "mandate"],
  payouts: ["creditor", "creditor_bank_account", "currency", "status", "reference", "payout_type"],
  app_fee_entries: ["creditor", "currency", "payout", "payment"],
  payer_themes: ["creditor"],
  webhook_endpoints: ["url", "enabled"],
  webhook_deliveries: ["webhook_endpoint", "status"],
  webhooks: ["successful", "is_test", "delivery"]
}

/** The filter keys of the tables of their own (the event log, the history), as of this migration. */
export const OWN_TABLE_FILTER_KEYS_0020: Readonly<Record<string, ReadonlyArray<string>>> = {
  events: [
    "resource_type", "action", "bank_authorisation", "billing_request", "billing_request_flow", "creditor", "customer",
    "customer_bank_account", "instalment_schedule", "mandate", "mandate_request", "mandate_request_mandate",
    "new_customer_bank_account", "new_mandate", "organisation", "outbound_payment", "parent_event", "payer_authorisation",
    "payment", "payment_account_transaction", "payment_request_payment", "payout", "previous_customer_bank_account",
    "refund", "scheme_identifier", "subscription", "outbound_payment_import", "negative_balance_limit"
  ],
  transitions: ["resource_type", "resource_id"]
}

/**
 * One btree per (resource type, filter key) in place of the unscoped GIN index: keyed
 * `(organisation_id, value, id)`, so a filtered list reads one organisation's matching rows of one
 * type already in id order and stops at the page's end, whatever the table holds. Each index is
 * partial (its type, rows that have the key): a row is written only into its own type's indexes.
 * The names are `rf_<type>__<key>` (resources) and `<table>_f_<key>` (own tables); the
 * repository writes its clauses in the indexes' very expressions (`sql-repository.ts`).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  for (const [type, keys] of Object.entries(FILTER_KEYS_0020)) {
    for (const key of keys) {
      yield* sql.unsafe(`CREATE INDEX ${filterIndexName("resources", type, key)} ON resources
  (organisation_id, ((filters->>'${key}') COLLATE "C"), id) WHERE resource_type = '${type}' AND filters ? '${key}'`)
    }
  }
  for (const [table, keys] of Object.entries(OWN_TABLE_FILTER_KEYS_0020)) {
    for (const key of keys) {
      yield* sql.unsafe(`CREATE INDEX ${filterIndexName(table, null, key)} ON ${table}
  (organisation_id, ((filters->>'${key}') COLLATE "C"), id) WHERE filters ? '${key}'`)
    }
    yield* sql.unsafe(`DROP INDEX ${table}_filters`)
  }
  yield* sql.unsafe(`DROP INDEX resources_filters`)
})

/** PostgreSQL would truncate a name past 63 bytes, and two truncated names could collide. */
const filterIndexName = (table: string, type: string | null, key: string): string => {
  const name = type === null ? `${table}_f_${key}` : `rf_${type}__${key}`
  if (name.length > 63) throw new Error(`index name ${name} is longer than PostgreSQL keeps`)
  return name
}
