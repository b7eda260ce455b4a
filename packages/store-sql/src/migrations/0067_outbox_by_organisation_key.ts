import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The outbox is keyed by organisation, `(organisation_id, seq)`, as every other table of the
 * engine is: a table distributed by organisation on Citus must have the distribution column in
 * its primary key, and `seq` alone cannot be (docs/storage.md, "Citus"). The key takes the place
 * of migration 0007's index on the same columns, which served the pump's per-organisation read.
 *
 * The read of the oldest waiting event of any organisation orders by `(enqueued_at, seq)`, with an
 * index of its own in place of the old key's on `seq`: on a cluster each worker draws `seq` from a
 * range of its own, so across workers only the time compares (within a transaction, and on one
 * node, `seq` still breaks ties in insertion order). The outbox keeps two indexes, as before.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`ALTER TABLE outbox DROP CONSTRAINT outbox_pkey`)
  yield* sql.unsafe(`ALTER TABLE outbox ADD CONSTRAINT outbox_pkey PRIMARY KEY (organisation_id, seq)`)
  yield* sql.unsafe(`DROP INDEX outbox_organisation_seq`)
  yield* sql.unsafe(`CREATE INDEX outbox_enqueued ON outbox (enqueued_at, seq)`)
})
