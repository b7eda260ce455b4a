import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { DbInteger } from "../src/db-integer.ts"
import { removeStatement } from "../src/outbox.ts"
import { SqlStorage } from "../src/sql-storage.ts"
import { DATABASES } from "./support/databases.ts"
import { executeLiteral } from "./support/execute-literal.ts"
import { rowsReadInTransaction } from "./support/rows-read.ts"

/**
 * Removing a delivered batch reads the batch, not the organisation's whole queue. The outbox is a
 * queue, so its statistics mostly say it is empty; under them the plan PostgreSQL settles on after
 * a few runs of the prepared removal (the generic plan) read every row the organisation had
 * waiting by its key's first column and compared each with the batch's 250 values one by one: on a
 * day of 6,000 charges 3.5 ms a removal against 0.2 ms, and 64 ms with 20,000 waiting, so a
 * backlog drained in a time that grew with its square.
 *
 * Counted, not timed: the rows the removal read, from `pg_stat_xact_user_tables`, with 3,000 and
 * with 20,000 waiting (a queue of a few pages is read whole, which is cheaper).
 */

const ORGANISATION = "OR0000000000RB"
const BATCH = 250

const SeqRow = Schema.Struct({ seq: DbInteger })
const decodeSeqs = Schema.decodeUnknownEffect(Schema.Array(SeqRow))

/** Rows read by the removal of the oldest `BATCH` of `waiting` queued rows, run by its generic plan. */
const rowsReadByRemoval = (waiting: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // The statistics of an empty queue, as a queue's mostly are when they are taken.
    yield* sql`ANALYZE outbox`
    yield* sql`INSERT INTO outbox (organisation_id, event_id)
      SELECT ${ORGANISATION}, 'EV' || lpad(i::text, 12, '0') FROM generate_series(1, ${waiting}) AS i`
    const seqs = (yield* decodeSeqs(yield* sql`SELECT seq FROM outbox ORDER BY seq LIMIT ${BATCH}`)).map((row) => row.seq)
    const [text, params] = removeStatement(sql, ORGANISATION, seqs).compile()
    return yield* sql.withTransaction(Effect.gen(function*() {
      yield* sql.unsafe(`SET LOCAL plan_cache_mode = force_generic_plan`)
      yield* sql.unsafe(`PREPARE removal AS ${text}`)
      const before = yield* rowsReadInTransaction
      yield* sql.unsafe(`EXECUTE removal(${params.map(executeLiteral).join(", ")})`)
      const read = (yield* rowsReadInTransaction) - before
      yield* sql.unsafe(`DEALLOCATE removal`)
      const left = yield* sql`SELECT count(*)::int AS n FROM outbox`
      return { read, left }
    }))
  })

describe.each(DATABASES)("a delivered batch's removal on $name", (database) => {
  for (const waiting of [3_000, 20_000]) {
    it(`reads the batch alone with ${waiting} waiting`, { timeout: 60_000 }, async () => {
      const { read, left } = await Effect.runPromise(Effect.scoped(Effect.provide(rowsReadByRemoval(waiting), SqlStorage.pipe(Layer.provideMerge(database.isolated()), Layer.orDie))))
      expect(left).toEqual([{ n: waiting - BATCH }])
      // Before the fix: every waiting row (3,000, then 20,000).
      expect(read).toBeLessThanOrEqual(BATCH)
    })
  }
})
