import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { filterIndexName } from "./0020_filter_indexes.ts"

/**
 * The filter keys of the instalment, block and mandate import resources that no earlier resource had: blocks are listed
 * by `block_type` and `reason_type` and screened by `match`; mandate import entries are listed by
 * `mandate_import`. Each gets the index every filter key has since migration 0020.
 */
export const OPS_FILTER_KEYS_0057: ReadonlyArray<string> = ["block_type", "reason_type", "match", "mandate_import"]

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  for (const key of OPS_FILTER_KEYS_0057) {
    yield* sql.unsafe(`CREATE INDEX ${filterIndexName("resources", key)} ON resources
  (organisation_id, resource_type, ((filters->>'${key}') COLLATE "C"), id) WHERE filters ? '${key}'`)
  }
})
