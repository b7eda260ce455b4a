import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { filterIndexName } from "./0020_filter_indexes.ts"

/**
 * The money reads: payout items, balances and exchange rates.
 *
 * The filter keys it added, each with the index every filter key has since migration 0020:
 * payment account transactions are listed by their account (`payment_account`), a value-date
 * range (`value_date`, ISO dates compare as text) and `direction`.
 *
 * And the location record of every scheme identifier a creditor already holds (the engine writes
 * one with each identifier from now on), so `GET /scheme_identifiers/{id}` and the list by
 * creditor find the identifiers of creditors made before it. The rows are written as the SQL
 * repository writes a `scheme_identifier_locations` resource: `data` in its Schema's key order,
 * `filters` its extractors' values.
 */
export const RESOURCE_FILTER_KEYS_0059: ReadonlyArray<string> = ["payment_account", "value_date", "direction"]

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  for (const key of RESOURCE_FILTER_KEYS_0059) {
    yield* sql.unsafe(`CREATE INDEX ${filterIndexName("resources", key)} ON resources
  (organisation_id, resource_type, ((filters->>'${key}') COLLATE "C"), id) WHERE filters ? '${key}'`)
  }
  yield* sql.unsafe(`INSERT INTO resources (organisation_id, resource_type, id, version, created_at, filters, data)
  SELECT c.organisation_id, 'scheme_identifier_locations', s->>'id', 1, (s->>'created_at')::timestamptz,
    jsonb_build_object('created_at', s->>'created_at', 'creditor', c.id),
    json_build_object('id', s->>'id', 'created_at', s->>'created_at', 'creditor', c.id)
  FROM resources c CROSS JOIN LATERAL jsonb_array_elements(c.data::jsonb->'scheme_identifiers') AS s
  WHERE c.resource_type = 'creditors'
  ON CONFLICT DO NOTHING`)
})
