import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The one table shape resources are stored in (see docs/storage.md):
 *
 * - `organisation_id`, (`resource_type`,) `id`: the key; ids are time-ordered, so `id` is also the
 *   list order. They are `COLLATE "C"` so that PostgreSQL compares them byte by byte, as the
 *   engine's cursors do.
 * - `version`: optimistic concurrency, 1 on insert and +1 per update.
 * - `filters`: the values of the definition's filter extractors (nulls left out), GIN-indexed for
 *   containment so that every equality and membership filter is served by one index (migration
 *   0020 replaced that index by one btree per filter key, scoped by organisation and type).
 * - `data`: the resource encoded by its Schema, as `json` (not `jsonb`) so the stored text, key
 *   order included, comes back exactly as written.
 *
 * A migration calls this with literal names; the shape here is part of every migration that used
 * it, so a change of shape is a new migration that alters the tables, not an edit here.
 */
export const createResourceTable = (table: string, options: { readonly typed: boolean }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const type = options.typed ? `resource_type text COLLATE "C" NOT NULL,\n  ` : ""
    const key = options.typed ? "organisation_id, resource_type, id" : "organisation_id, id"
    const scope = options.typed ? "organisation_id, resource_type" : "organisation_id"
    yield* sql.unsafe(`CREATE TABLE ${table} (
  organisation_id text COLLATE "C" NOT NULL,
  ${type}id text COLLATE "C" NOT NULL,
  version integer NOT NULL CHECK (version >= 1),
  created_at timestamptz NOT NULL,
  filters jsonb NOT NULL,
  data json NOT NULL,
  PRIMARY KEY (${key})
)`)
    yield* sql.unsafe(`CREATE INDEX ${table}_filters ON ${table} USING gin (filters jsonb_path_ops)`)
    // Range filters compare the extracted text, like the engine's reference semantics.
    yield* sql.unsafe(`CREATE INDEX ${table}_created_at ON ${table} (${scope}, ((filters->>'created_at') COLLATE "C"))`)
  })

/**
 * Makes `table` append-only: the database itself refuses to change or delete a row. Like
 * `createResourceTable`, what it creates is part of every migration that called it.
 */
export const makeAppendOnly = (table: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(`CREATE FUNCTION ${table}_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '${table} are append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END
$$`)
    yield* sql.unsafe(`CREATE TRIGGER ${table}_append_only BEFORE UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION ${table}_append_only()`)
  })
