import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { filterIndexName } from "./0020_filter_indexes.ts"

/**
 * Customers gain the `removed` filter key (a removed customer is never listed), in the
 * shape every filter key has since migration 0020. Every list of customers filters on it, so the
 * customers stored before it get the key's value (`false`: none could have been removed yet), or
 * they would match no list at all.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`UPDATE resources SET filters = filters || '{"removed": "false"}'::jsonb
  WHERE resource_type = 'customers' AND NOT (filters ? 'removed')`)
  yield* sql.unsafe(`CREATE INDEX ${filterIndexName("resources", "removed")} ON resources
  (organisation_id, resource_type, ((filters->>'removed') COLLATE "C"), id) WHERE filters ? 'removed'`)
})
