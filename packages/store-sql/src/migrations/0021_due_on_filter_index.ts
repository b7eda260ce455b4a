import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { filterIndexName } from "./0020_filter_indexes.ts"

/**
 * The `due_on` key of the daily run's side records (migration 0008) gets the index every filter
 * key has since migration 0020, `(organisation_id, resource_type, value, id) WHERE filters ?
 * 'due_on'`, in place of 0008's own shape: the two were written side by side, and one shape for
 * every key keeps one rule (`filter-indexes.test.ts`). The repository's range clause names the key
 * (`filters ? 'due_on' AND value <= today`), so the planner can prove the partial predicate, and
 * the trailing `id` serves the daily run's chunks in id order.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE INDEX ${filterIndexName("resources", "due_on")} ON resources
  (organisation_id, resource_type, ((filters->>'due_on') COLLATE "C"), id) WHERE filters ? 'due_on'`)
  yield* sql.unsafe(`DROP INDEX resources_due_on`)
})
