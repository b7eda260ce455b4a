import { Context, Effect, Layer, Schema } from "effect"
import { type Event, events, WebhookOutbox } from "@paykit/engine"
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
  /** At most `limit` waiting entries, oldest first, of `organisation` when given (else of every organisation). */
  readonly drain: <E, R>(
    limit: number,
    deliver: (batch: ReadonlyArray<OutboxEntry>) => Effect.Effect<void, E, R>,
    organisation?: string
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
    drain: <E, R>(limit: number, deliver: (batch: ReadonlyArray<OutboxEntry>) => Effect.Effect<void, E, R>, organisation?: string) =>
      sql.withTransaction(Effect.gen(function*() {
        const only = organisation === undefined ? sql`` : sql`WHERE o.organisation_id = ${organisation}`
        const rows = yield* Effect.orDie(sql`SELECT o.seq, o.organisation_id, e.data
          FROM outbox o JOIN events e ON e.organisation_id = o.organisation_id AND e.id = o.event_id
          ${only} ORDER BY o.seq LIMIT ${limit} FOR UPDATE OF o SKIP LOCKED`)
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

/**
 * The webhooks feature's outbox port on this outbox: one organisation's batch at a time (a
 * delivery's body holds one organisation's events), of the organisation asked for or else of the
 * one whose event has waited longest. Rows another process holds are skipped, so no event is
 * taken twice; an event stays queued until its deliveries commit.
 */
export const webhookOutboxOf = (outbox: Outbox["Service"], sql: SqlClient.SqlClient): WebhookOutbox["Service"] =>
  WebhookOutbox.of({
    take: (organisation, limit, handle) =>
      Effect.gen(function*() {
        // One statement, no transaction, when nothing waits: the pump runs before every due item.
        const target = yield* oldestWaiting(sql, organisation)
        if (target === undefined) return 0
        return yield* outbox.drain(limit, (batch) => handle(batch.map(({ organisation, event }) => ({ organisation, event }))), target)
      })
  })

const OrganisationRow = Schema.Struct({ organisation_id: Schema.String })
const decodeOrganisationRows = Schema.decodeUnknownEffect(Schema.Array(OrganisationRow))

/**
 * The organisation (`organisation`, when given) whose queued event is oldest and not held by
 * another taker. Only rows whose event exists count: `drain` joins the events, so a row without
 * one (the outbox has no foreign key since migration 0061) would be picked and drained empty at
 * every pump, and no other organisation's events would ever go.
 */
const oldestWaiting = (sql: SqlClient.SqlClient, organisation: string | undefined): Effect.Effect<string | undefined> =>
  sql`SELECT o.organisation_id FROM outbox o
    WHERE ${organisation === undefined ? sql`TRUE` : sql`o.organisation_id = ${organisation}`}
      AND EXISTS (SELECT 1 FROM events e WHERE e.organisation_id = o.organisation_id AND e.id = o.event_id)
    ORDER BY o.seq LIMIT 1 FOR UPDATE OF o SKIP LOCKED`.pipe(
    Effect.flatMap(decodeOrganisationRows),
    Effect.map((rows) => rows[0]?.organisation_id),
    Effect.orDie
  )

/** `WebhookOutbox` on the SQL store's outbox. */
export const WebhookOutboxSql: Layer.Layer<WebhookOutbox, never, Outbox | SqlClient.SqlClient> = Layer.effect(
  WebhookOutbox,
  Effect.gen(function*() {
    return webhookOutboxOf(yield* Outbox, yield* SqlClient.SqlClient)
  })
)
