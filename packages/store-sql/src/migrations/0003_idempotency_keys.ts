import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Idempotency keys: one row per (organisation, key). The primary key is the unique constraint that
 * makes the second of two concurrent requests with one key wait for, then replay, the first.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE TABLE idempotency_keys (
  organisation_id text COLLATE "C" NOT NULL,
  key text COLLATE "C" NOT NULL,
  fingerprint text NOT NULL,
  response jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  PRIMARY KEY (organisation_id, key),
  CHECK ((response IS NULL) = (completed_at IS NULL))
)`)
  yield* sql.unsafe(`CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at)`)
})
