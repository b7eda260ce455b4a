import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Every equality and membership filter key of the resources in `resources`, as of this migration:
 * the filter keys of their definitions other than `created_at` (which has its own index since
 * migration 0001), each once however many types share it. Written out, not read from the
 * definitions, because a migration is history: a key added later is a new migration, and
 * `filter-indexes.test.ts` fails until it exists.
 */
export const RESOURCE_FILTER_KEYS_0020: ReadonlyArray<string> = [
  "creditor", "enabled", "email", "customer", "status", "customer_bank_account", "scheme", "reference", "charge_date",
  "mandate", "subscription", "payout", "currency", "payment", "kind", "outbound_payment_import", "billing_request",
  "expires_at", "creditor_bank_account", "payout_type", "url", "webhook_endpoint", "successful", "is_test", "delivery"
]

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
 * One btree per filter key in place of the unscoped GIN index: keyed `(organisation_id[,
 * resource_type], value, id)`, so a filtered list reads one organisation's matching rows of one
 * type already in id order and stops at the page's end, whatever the table holds. Each index is
 * partial (rows that have the key), so a row is written only into the indexes of its own keys.
 * One index per key, not per (type, key): the planner weighs every index of a table on every
 * statement, and 60 of them cost PGlite (which plans every statement) 0.3 ms a plan where 25
 * cost about half that. The names are `<table>_f_<key>`; the repository writes its clauses in
 * the indexes' very expressions (`sql-repository.ts`).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const tables: ReadonlyArray<readonly [string, string, ReadonlyArray<string>]> = [
    ["resources", "organisation_id, resource_type", RESOURCE_FILTER_KEYS_0020],
    ...Object.entries(OWN_TABLE_FILTER_KEYS_0020).map(([table, keys]) => [table, "organisation_id", keys] as const)
  ]
  for (const [table, scope, keys] of tables) {
    for (const key of keys) {
      yield* sql.unsafe(`CREATE INDEX ${filterIndexName(table, key)} ON ${table}
  (${scope}, ((filters->>'${key}') COLLATE "C"), id) WHERE filters ? '${key}'`)
    }
    yield* sql.unsafe(`DROP INDEX ${table}_filters`)
  }
})

/** PostgreSQL would truncate a name past 63 bytes, and two truncated names could collide. */
export const filterIndexName = (table: string, key: string): string => {
  const name = `${table}_f_${key}`
  if (name.length > 63) throw new Error(`index name ${name} is longer than PostgreSQL keeps`)
  return name
}
