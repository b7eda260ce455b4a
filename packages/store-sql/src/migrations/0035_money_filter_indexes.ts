import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { filterIndexName } from "./0020_filter_indexes.ts"

/**
 * The filter keys issue 18's money part added, each with the index every filter key has since
 * migration 0020: payment account transactions are listed by their account (`payment_account`),
 * a value-date range (`value_date`, ISO dates compare as text) and `direction`.
 */
export const RESOURCE_FILTER_KEYS_0035: ReadonlyArray<string> = ["payment_account", "value_date", "direction"]

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  for (const key of RESOURCE_FILTER_KEYS_0035) {
    yield* sql.unsafe(`CREATE INDEX ${filterIndexName("resources", key)} ON resources
  (organisation_id, resource_type, ((filters->>'${key}') COLLATE "C"), id) WHERE filters ? '${key}'`)
  }
})
