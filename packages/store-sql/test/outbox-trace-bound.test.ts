import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { type Event, EventLog, Transactor } from "@paykit/engine"
import { describe, expect, it } from "vitest"
import { SqlStorage } from "../src/sql-storage.ts"
import { batchStatement } from "../src/outbox.ts"
import { CurrentUnitOfWork, flushAppended } from "../src/unit-of-work.ts"
import { DATABASES } from "./support/databases.ts"
import { event, ORG } from "./support/fixtures.ts"
import { rowsReadInTransaction } from "./support/rows-read.ts"

/**
 * A traced unit of work that appends events writes its span with them (migration 0075), and reads
 * nothing of the outbox for it, however many rows wait there; the pump reads the span with each
 * event. Issue 42: the span was set on the outbox rows by an update after the append, which first
 * read every row of the organisation waiting (found by the outbox's key alone), then, found by
 * event, still grew dearer on PGlite as the outbox filled (its prepared plan made while the outbox
 * was nearly empty: 17 ms a page of a bank report at 10,000 entries applied, 61 ms at 40,000).
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
    const traced = yield* sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM events WHERE trace_parent LIKE '00-%'`
    expect(traced[0]?.n).toBe((EARLIER + 1) * APPENDED)
    // The pump's batch reads the span with each event.
    const batch = yield* batchStatement(sql, 5, ORG)
    expect(batch.map((row) => row["trace_parent"])).toEqual(Array.from({ length: 5 }, () => expect.stringMatching(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/)))
    return read
  })

describe.each(DATABASES)("a traced append on $name", (database) => {
  for (const waiting of [20_000, 60_000]) {
    it(`writes its span with its events and reads no outbox row, with ${waiting} waiting`, { timeout: 120_000 }, () =>
      Effect.runPromise(Effect.provide(
        Effect.gen(function*() {
          // Before the outbox was indexed by event: every waiting row (20,000, then 60,000).
          expect(yield* readFor(waiting)).toBe(0)
        }),
        Layer.merge(SqlStorage, EventLog.layerFromBackend.pipe(Layer.provide(SqlStorage))).pipe(Layer.provideMerge(database.isolated()), Layer.orDie)
      )))
  }
})
