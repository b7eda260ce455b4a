import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Each access token carries its organisation's clock offset, kept by the database, so the token
 * lookup on every request reads one row of one table. Joining `organisation_clocks` there (issue
 * 16) cost about a third of the lookup on PGlite (docs/server.md, "The request path").
 *
 * The copy cannot go stale: moving a clock (insert or update in `organisation_clocks`) updates its
 * organisation's tokens in the same transaction, and a new token takes the offset when inserted.
 * The two are ordered by the organisation's row: a clock's move locks it FOR UPDATE first, a new
 * token's insert FOR KEY SHARE before it reads the offset, so on PostgreSQL one waits for the
 * other's commit and neither misses the other.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`ALTER TABLE access_tokens ADD COLUMN clock_offset_ms bigint NOT NULL DEFAULT 0`)
  yield* sql.unsafe(`UPDATE access_tokens t SET clock_offset_ms = c.offset_ms FROM organisation_clocks c WHERE c.organisation_id = t.organisation_id`)
  yield* sql.unsafe(`CREATE FUNCTION organisation_clock_to_tokens() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM organisations WHERE id = NEW.organisation_id FOR UPDATE;
  UPDATE access_tokens SET clock_offset_ms = NEW.offset_ms
    WHERE organisation_id = NEW.organisation_id AND clock_offset_ms IS DISTINCT FROM NEW.offset_ms;
  RETURN NEW;
END
$$`)
  yield* sql.unsafe(`CREATE TRIGGER organisation_clock_to_tokens AFTER INSERT OR UPDATE OF offset_ms ON organisation_clocks
  FOR EACH ROW EXECUTE FUNCTION organisation_clock_to_tokens()`)
  yield* sql.unsafe(`CREATE FUNCTION access_token_takes_clock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM organisations WHERE id = NEW.organisation_id FOR KEY SHARE;
  NEW.clock_offset_ms := COALESCE((SELECT offset_ms FROM organisation_clocks WHERE organisation_id = NEW.organisation_id), 0);
  RETURN NEW;
END
$$`)
  yield* sql.unsafe(`CREATE TRIGGER access_token_takes_clock BEFORE INSERT ON access_tokens
  FOR EACH ROW EXECUTE FUNCTION access_token_takes_clock()`)
})
