import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { filterIndexName } from "./0020_filter_indexes.ts"

/**
 * The filter key of billing request templates: `payment_request_scheme`, the real
 * API's one filter of `GET /billing_request_templates`, indexed as every key is since 0020. The
 * other new resources filter on keys that have their index already (`billing_request`) or none.
 */
export const FLOW_FILTER_KEYS_0058: ReadonlyArray<string> = ["payment_request_scheme"]

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  for (const key of FLOW_FILTER_KEYS_0058) {
    yield* sql.unsafe(`CREATE INDEX ${filterIndexName("resources", key)} ON resources
  (organisation_id, resource_type, ((filters->>'${key}') COLLATE "C"), id) WHERE filters ? '${key}'`)
  }
})
