import { Effect, Layer } from "effect"
import { customers, EventLog, RepositoryBackend, Transactor } from "@paykit/engine"
import { describe, expect, it } from "vitest"
import { SqlStorage } from "../src/sql-storage.ts"
import { DATABASES } from "./support/databases.ts"
import { rowsReadInTransaction } from "./support/rows-read.ts"
import { customer, event, ORG } from "./support/fixtures.ts"

/**
 * A unit of work's writes read what they change, never the history written before them. Issue 17:
 * on PGlite, each event's outbox row was checked against `events` by a foreign key whose plan the
 * session had cached while the table was empty (statistics from the start-up's ANALYZE, no
 * autovacuum to refresh them): a sequential scan of every event for every event appended, so an
 * import of 3,000 outbound payments executed 5x slower than one of 1,000.
 *
 * Counted, not timed: the rows of this schema's tables that the unit of work's statements (their
 * triggers and constraint checks included) read, from `pg_stat_xact_user_tables` before it ends.
 */

const HISTORY = 2_000
const BATCH = 100
const FIRST = 10


describe.each(DATABASES)("the write path's reads on $name", (database) => {
  it("a unit of work writing a resource and its events reads a bounded number of rows after 2,000 events", { timeout: 120_000 }, () =>
    Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        const tx = yield* Transactor
        const log = yield* EventLog
        const repo = (yield* RepositoryBackend).repository(customers)
        // The history, appended as the engine appends it: a new database's first units of work
        // append an event or two each, to a table its statistics say is empty; then many more.
        for (let n = 1; n <= FIRST; n++) yield* tx.transaction(log.append(ORG, [event(n)]))
        for (let from = FIRST; from < HISTORY; from += BATCH) {
          const batch = Array.from({ length: Math.min(BATCH, HISTORY - from) }, (_, i) => event(from + i + 1))
          yield* tx.transaction(log.append(ORG, batch))
        }
        const read = yield* tx.transaction(Effect.gen(function*() {
          const before = yield* rowsReadInTransaction
          const created = customer(1)
          yield* repo.insert(ORG, created)
          yield* repo.update(ORG, { ...created, email: "moved@example.com" }, 1)
          yield* log.append(ORG, [event(HISTORY + 1, { customer: created.id }), event(HISTORY + 2, { customer: created.id })])
          yield* log.append(ORG, [event(HISTORY + 3, { customer: created.id })])
          return (yield* rowsReadInTransaction) - before
        }))
        // The update reads its row by the primary key; appending three events reads nothing. Before
        // the fix each event's outbox row read every event stored: about 6,000 rows here.
        expect(read).toBeLessThanOrEqual(5)
      }),
      SqlStorage.pipe(Layer.provideMerge(database.isolated()), Layer.orDie)
    )))
})
