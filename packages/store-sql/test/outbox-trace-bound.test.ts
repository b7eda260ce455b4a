import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { type Event, EventLog, Transactor } from "@paykit/engine"
import { describe, expect, it } from "vitest"
import { SqlStorage } from "../src/sql-storage.ts"
import { CurrentUnitOfWork, flushAppended } from "../src/unit-of-work.ts"
import { DATABASES } from "./support/databases.ts"
import { event, ORG } from "./support/fixtures.ts"
import { rowsReadInTransaction } from "./support/rows-read.ts"

/**
 * A traced unit of work that appends events sets its span on the outbox rows queued for them, and
 * reads those rows only, never the rest of the organisation's waiting in the outbox. Issue 42: with
 * the outbox read by its key alone, each page of a bank report applied (its events appended while
 * the earlier pages' wait for the pump) read every row queued before it.
 *
 * And after a prepared statement's generic plan was made while the outbox was nearly empty: run
 * so, a plan that scans kept scanning as the outbox filled (100,000 entries applied in 93 s, 558 of
 * 700 samples of the database at work in this update; 41 s once found by row).
 *
 * Counted, not timed: the rows the append's statements touched, from `pg_stat_xact_user_tables`,
 * are the same whether 20,000 or 60,000 rows wait (fewer, and a scan of them all is the cheaper plan).
 */

const APPENDED = 200
const EARLIER = 8

/** Appends `APPENDED` events from the `first`th in a traced unit of work: the rows its statements read, once written. */
const tracedAppend = (first: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const log = yield* EventLog
    const events: ReadonlyArray<Event> = Array.from({ length: APPENDED }, (_, i) => event(first + i))
    return yield* (yield* Transactor).transaction(Effect.gen(function*() {
      const unit = yield* CurrentUnitOfWork
      if (unit === undefined) return yield* Effect.die("no unit of work")
      const before = yield* rowsReadInTransaction
      yield* log.append(ORG, events)
      yield* flushAppended(sql, unit)
      return (yield* rowsReadInTransaction) - before
    }).pipe(Effect.withSpan("append")))
  })

/**
 * Rows read by a traced append of `APPENDED` events with `waiting` rows already in the outbox,
 * after appends while it was nearly empty (`EARLIER`: past the runs after which a prepared
 * statement may keep a generic plan, made for that size).
 */
const readFor = (waiting: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    for (let round = 0; round < EARLIER; round++) yield* tracedAppend(1 + round * APPENDED)
    // The outbox keeps no foreign key to the events (migration 0061): rows waiting for the pump.
    yield* sql`INSERT INTO outbox (organisation_id, event_id) SELECT ${ORG}, 'EVWAITING' || n FROM generate_series(1, ${waiting}) AS n`
    const read = yield* tracedAppend(1 + EARLIER * APPENDED)
    const traced = yield* sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM outbox WHERE trace_parent IS NOT NULL`
    expect(traced[0]?.n).toBe((EARLIER + 1) * APPENDED)
    return read
  })

describe.each(DATABASES)("a traced append's outbox rows on $name", (database) => {
  for (const waiting of [20_000, 60_000]) {
    it(`are found by event with ${waiting} waiting`, { timeout: 120_000 }, () =>
      Effect.runPromise(Effect.provide(
        Effect.gen(function*() {
          // Before the outbox was indexed by event: every waiting row (20,000, then 60,000).
          expect(yield* readFor(waiting)).toBeLessThanOrEqual(APPENDED)
        }),
        Layer.merge(SqlStorage, EventLog.layerFromBackend.pipe(Layer.provide(SqlStorage))).pipe(Layer.provideMerge(database.isolated()), Layer.orDie)
      )))
  }
})
