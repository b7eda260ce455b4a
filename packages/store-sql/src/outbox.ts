import { Context, Effect, Schema } from "effect"
import { type Event, events } from "@paykit/engine"
import { SqlClient } from "effect/sql"
import { DbInteger } from "./db-integer.ts"

/** One queued event: its queue position, organisation and the event itself. */
export interface OutboxEntry {
  readonly seq: number
  readonly organisation: string
  readonly event: Event
}

/**
 * The transactional outbox. Every event appended to the event log is queued by a trigger in the
 * same transaction (migration 0002), so an event is queued if and only if it was committed.
 * `drain` hands a batch to `deliver` and removes it only if delivery succeeds, all in one
 * transaction; `FOR UPDATE SKIP LOCKED` lets several senders (processes) drain side by side, each
 * taking batches the others are not holding. Delivery is at least once.
 */
export class Outbox extends Context.Service<Outbox, {
  readonly drain: <E, R>(
    limit: number,
    deliver: (batch: ReadonlyArray<OutboxEntry>) => Effect.Effect<void, E, R>
  ) => Effect.Effect<number, E, R>
  readonly pending: Effect.Effect<number>
}>()("@paykit/store-sql/Outbox") {}

const EntryRow = Schema.Struct({ seq: DbInteger, organisation_id: Schema.String, data: Schema.Unknown })
const decodeEntryRow = Schema.decodeUnknownEffect(EntryRow)
const decodeEvent = Schema.decodeUnknownEffect(events.schema)
const CountRow = Schema.Struct({ n: DbInteger })
const decodeCountRow = Schema.decodeUnknownEffect(CountRow)

/** Keeps a failure of `deliver` apart from the database's own while inside the transaction. */
class DeliveryFailed<E> {
  constructor(readonly error: E) {}
}

export const makeOutbox = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const toEntry = (row: unknown) =>
    Effect.orDie(Effect.gen(function*() {
      const decoded = yield* decodeEntryRow(row)
      const event = yield* decodeEvent(decoded.data)
      return { seq: decoded.seq, organisation: decoded.organisation_id, event } satisfies OutboxEntry
    }))
  return Outbox.of({
    drain: <E, R>(limit: number, deliver: (batch: ReadonlyArray<OutboxEntry>) => Effect.Effect<void, E, R>) =>
      sql.withTransaction(Effect.gen(function*() {
        const rows = yield* Effect.orDie(sql`SELECT o.seq, o.organisation_id, e.data
          FROM outbox o JOIN events e ON e.organisation_id = o.organisation_id AND e.id = o.event_id
          ORDER BY o.seq LIMIT ${limit} FOR UPDATE OF o SKIP LOCKED`)
        const batch = yield* Effect.forEach(rows, toEntry)
        if (batch.length === 0) return 0
        yield* Effect.mapError(deliver(batch), (error) => new DeliveryFailed(error))
        yield* Effect.orDie(sql`DELETE FROM outbox WHERE seq IN ${sql.in(batch.map((entry) => entry.seq))}`)
        return batch.length
      })).pipe(
        Effect.catch((error): Effect.Effect<never, E> =>
          error instanceof DeliveryFailed ? Effect.fail(error.error as E) : Effect.die(error)
        )
      ),
    pending: sql`SELECT count(*) AS n FROM outbox`.pipe(
      Effect.orDie,
      Effect.flatMap((rows) => Effect.orDie(decodeCountRow(rows[0]))),
      Effect.map((row) => row.n)
    )
  })
})
