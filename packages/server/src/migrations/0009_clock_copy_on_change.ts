import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The copy of an organisation's clock offset on its access tokens (migration 0008) is written only
 * when the offset changes: 0008's trigger ran on every write of the clock row, taking the
 * organisation's row lock each time, even for a write that left the offset as it was. The
 * insert's trigger stays as it is (a new clock is a change).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`DROP TRIGGER organisation_clock_to_tokens ON organisation_clocks`)
  yield* sql.unsafe(`CREATE TRIGGER organisation_clock_to_tokens AFTER INSERT ON organisation_clocks
  FOR EACH ROW EXECUTE FUNCTION organisation_clock_to_tokens()`)
  yield* sql.unsafe(`CREATE TRIGGER organisation_clock_change_to_tokens AFTER UPDATE OF offset_ms ON organisation_clocks
  FOR EACH ROW WHEN (OLD.offset_ms IS DISTINCT FROM NEW.offset_ms) EXECUTE FUNCTION organisation_clock_to_tokens()`)
})
