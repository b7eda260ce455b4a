import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The daily run's "what falls due by this day": an engine side record that has a next
 * expected move carries it as the `due_on` filter (a date; left out once acted on, so the row
 * leaves this index), and the daily run asks for `due_on <= today` in its organisation and type.
 * The expression is the one the repository's range filter writes, so the planner can use it; the
 * index is partial, so it holds only the rows that are waiting; its predicate is the expression
 * being not null (not `filters ? 'due_on'`), which the planner can prove from a range on it.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE INDEX resources_due_on ON resources (organisation_id, resource_type, ((filters->>'due_on') COLLATE "C"))
  WHERE ((filters->>'due_on') COLLATE "C") IS NOT NULL`)
})
