import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Due work: one row per thing that falls due, unique per (organisation, kind, key), due
 * at `due_at` (epoch milliseconds on the organisation's clock), leased by a worker until
 * `lease_until` (real epoch milliseconds). `due_work_due` serves the workers' "what is due" claim
 * and `due_work_organisation` a sandbox advance's "this organisation's next row".
 *
 * `organisation_clocks`: each sandbox organisation's clock, as milliseconds ahead of real time. An
 * organisation without a row runs on real time (every live organisation).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE TABLE due_work (
  organisation_id text COLLATE "C" NOT NULL,
  kind text COLLATE "C" NOT NULL,
  key text COLLATE "C" NOT NULL,
  due_at bigint NOT NULL,
  attempt integer NOT NULL DEFAULT 0 CHECK (attempt >= 0),
  lease_owner text,
  lease_until bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organisation_id, kind, key),
  CHECK ((lease_owner IS NULL) = (lease_until IS NULL))
)`)
  yield* sql.unsafe(`CREATE INDEX due_work_due ON due_work (due_at)`)
  yield* sql.unsafe(`CREATE INDEX due_work_organisation ON due_work (organisation_id, due_at)`)
  yield* sql.unsafe(`CREATE TABLE organisation_clocks (
  organisation_id text COLLATE "C" PRIMARY KEY,
  offset_ms bigint NOT NULL CHECK (offset_ms >= 0),
  updated_at timestamptz NOT NULL DEFAULT now()
)`)
})
