import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { filterIndexName } from "./0020_filter_indexes.ts"

/**
 * The filter keys of the bank's records that no earlier resource had, each with the
 * index every filter key has since migration 0020: submissions by the day they were made, their
 * processing date, what they wait for and the serial a Bacs volume names them by; a batch's
 * items in file order (`render`); open batches by day; a stored file's chunks; reports by format,
 * by digest (the same bytes received twice) and while their application is unfinished; a
 * report's entries, by effect (duplicates) and by what they moved.
 */
export const BANK_FILTER_KEYS_0068: ReadonlyArray<string> = [
  "made_on", "processing_date", "awaiting", "serial", "render", "open_on", "file", "format", "file_sha256", "applying", "report", "effect", "subject"
]

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  for (const key of BANK_FILTER_KEYS_0068) {
    yield* sql.unsafe(`CREATE INDEX ${filterIndexName("resources", key)} ON resources
  (organisation_id, resource_type, ((filters->>'${key}') COLLATE "C"), id) WHERE filters ? '${key}'`)
  }
})
