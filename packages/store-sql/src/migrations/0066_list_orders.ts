import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { filterIndexName } from "./0020_filter_indexes.ts"

/**
 * The list parameters of the official client that paykit did not serve (`sort_field`,
 * `sort_direction`, `currency` and the like): the filter keys they read, each with the index every
 * filter key has since migration 0020, and their values for the rows stored before them, written
 * as the definitions' extractors write them (`sortFolded`, `customerSortName`,
 * `paymentSortAmount`, `currencyCustomer` in the engine):
 *
 * - customers' `sort_name` (a person's given and family names, else the company's) and
 *   `sort_company_name`, ASCII letters in lower case (`translate`, not `lower`, which would follow
 *   the database's locale where the engine's folding does not);
 * - payments' `sort_amount`, the amount as 16 digits;
 * - customer bank accounts' `currency_customer`, the currency, a space, the customer's id (the
 *   customers of a currency, in their order);
 * - mandates' `mandate_type` (null on every mandate paykit makes: nothing to write);
 * - events' `export` link (paykit makes no exports: none to write).
 *
 * And one index of two keys: a mandate's payments in charge-date order (`/payments?customer=` or
 * `?mandate=` with `sort_field=charge_date`, and a `charge_date` range), so such a page reads its
 * rows in order and stops, as a page of one key does (docs/storage.md, "Ordered lists").
 */
export const RESOURCE_FILTER_KEYS_0066: ReadonlyArray<string> = ["sort_name", "sort_company_name", "sort_amount", "currency_customer", "mandate_type"]
export const EVENT_FILTER_KEYS_0066: ReadonlyArray<string> = ["export"]

/** The index of a mandate's payments by charge date (`resources_o_mandate_charge_date`). */
export const MANDATE_CHARGE_DATE_INDEX = "resources_o_mandate_charge_date"

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
const folded = (text: string) => `translate(${text}, '${UPPER}', '${UPPER.toLowerCase()}')`

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`UPDATE resources SET filters = filters || jsonb_build_object(
    'sort_name', ${folded(`COALESCE(NULLIF(concat_ws(' ', NULLIF(data->>'given_name', ''), NULLIF(data->>'family_name', '')), ''), data->>'company_name', '')`)},
    'sort_company_name', ${folded(`COALESCE(data->>'company_name', '')`)})
  WHERE resource_type = 'customers' AND NOT (filters ? 'sort_name')`)
  yield* sql.unsafe(`UPDATE resources SET filters = filters || jsonb_build_object('sort_amount', lpad(data->>'amount', 16, '0'))
  WHERE resource_type = 'payments' AND NOT (filters ? 'sort_amount')`)
  yield* sql.unsafe(`UPDATE resources SET filters = filters || jsonb_build_object('currency_customer', (data->>'currency') || ' ' || (data->'links'->>'customer'))
  WHERE resource_type = 'customer_bank_accounts' AND data->>'currency' IS NOT NULL AND NOT (filters ? 'currency_customer')`)
  for (const key of RESOURCE_FILTER_KEYS_0066) {
    yield* sql.unsafe(`CREATE INDEX ${filterIndexName("resources", key)} ON resources
  (organisation_id, resource_type, ((filters->>'${key}') COLLATE "C"), id) WHERE filters ? '${key}'`)
  }
  for (const key of EVENT_FILTER_KEYS_0066) {
    yield* sql.unsafe(`CREATE INDEX ${filterIndexName("events", key)} ON events
  (organisation_id, ((filters->>'${key}') COLLATE "C"), id) WHERE filters ? '${key}'`)
  }
  yield* sql.unsafe(`CREATE INDEX ${MANDATE_CHARGE_DATE_INDEX} ON resources
  (organisation_id, resource_type, ((filters->>'mandate') COLLATE "C"), ((filters->>'charge_date') COLLATE "C"), id)
  WHERE filters ? 'mandate' AND filters ? 'charge_date'`)
})
