import { Context, Effect, Layer, Schema } from "effect"
import { StorageError } from "@paykit/core"
import { type Event, events, forOrganisation, WebhookOutbox } from "@paykit/engine"
import { SqlClient } from "effect/sql"
import { readingReachableShards, type Topology, topologyOf } from "./citus.ts"
import { DbInteger } from "./db-integer.ts"
import { orStorageError, storageErrorOf } from "./storage-error.ts"
import { timedStatement } from "./statement-metrics.ts"

/** One queued event: its queue position, organisation, the event itself and the span that appended it (migration 0072). */
export interface OutboxEntry {
  readonly seq: number
  readonly organisation: string
  readonly event: Event
  readonly traceparent: string | null
}

/**
 * The transactional outbox. Every event appended to the event log is queued by a trigger in the
 * same transaction (migration 0002), so an event is queued if and only if it was committed.
 * `drain` hands a batch to `deliver` and removes it only if delivery succeeds, all in one
 * transaction; `FOR UPDATE SKIP LOCKED` lets several senders (processes) drain side by side, each
 * taking batches the others are not holding. Delivery is at least once. Waiting entries are taken
 * oldest first: by `seq` within an organisation, by the time they were queued across organisations.
 *
 * On Citus (tables distributed by organisation) a batch holds one organisation's entries: rows are
 * locked only by a statement that names its organisation, which runs on that organisation's worker,
 * since Citus locks no rows across shards. Without an organisation, `drain` takes the organisation
 * of the oldest waiting entry (read without a lock), then that organisation's batch.
 */
export class Outbox extends Context.Service<Outbox, {
  /**
   * At most `limit` waiting entries, oldest first, of `organisation` when given (else of every
   * organisation; on Citus of the organisation whose entry waited longest).
   */
  readonly drain: <E, R>(
    limit: number,
    deliver: (batch: ReadonlyArray<OutboxEntry>) => Effect.Effect<void, E, R>,
    organisation?: string
  ) => Effect.Effect<number, E | StorageError, R>
  readonly pending: Effect.Effect<number, StorageError>
}>()("@paykit/store-sql/Outbox") {}

const EntryRow = Schema.Struct({ seq: DbInteger, organisation_id: Schema.String, data: Schema.Unknown, trace_parent: Schema.NullOr(Schema.String) })
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
  const topology = yield* topologyOf
  const toEntry = (row: unknown) =>
    orStorageError("outbox")(Effect.gen(function*() {
      const decoded = yield* decodeEntryRow(row)
      const event = yield* decodeEvent(decoded.data)
      return { seq: decoded.seq, organisation: decoded.organisation_id, event, traceparent: decoded.trace_parent } satisfies OutboxEntry
    }))
  const drainOf = <E, R>(limit: number, deliver: (batch: ReadonlyArray<OutboxEntry>) => Effect.Effect<void, E, R>, organisation: string | undefined) =>
    sql.withTransaction(Effect.gen(function*() {
      const rows = yield* orStorageError("outbox")(timedStatement("outbox.take", batchStatement(sql, limit, organisation)))
      const batch = yield* Effect.forEach(rows, toEntry)
      if (batch.length === 0) return 0
      yield* Effect.mapError(deliver(batch), (error) => new DeliveryFailed(error))
      yield* orStorageError("outbox")(removeTaken(sql, batch))
      return batch.length
    })).pipe(
      Effect.catch((error): Effect.Effect<never, E | StorageError> =>
        error instanceof DeliveryFailed
          ? Effect.fail(error.error as E)
          : Effect.fail(error instanceof StorageError ? error : storageErrorOf("outbox", error))
      ),
      // One organisation's batch is its work (on Citus, run on its node).
      (drain) => organisation === undefined ? drain : forOrganisation(organisation)(drain)
    )
  return Outbox.of({
    drain: <E, R>(limit: number, deliver: (batch: ReadonlyArray<OutboxEntry>) => Effect.Effect<void, E, R>, organisation?: string) =>
      organisation !== undefined || topology._tag === "Local"
        ? drainOf(limit, deliver, organisation)
        : firstTaken(sql, waitingOrganisations(sql), (candidate) => drainOf(limit, deliver, candidate)),
    pending: sql`SELECT count(*) AS n FROM outbox`.pipe(
      orStorageError("outbox"),
      Effect.flatMap((rows) => orStorageError("outbox")(decodeCountRow(rows[0]))),
      Effect.map((row) => row.n)
    )
  })
})

/**
 * The waiting entries a drain takes, locked, oldest first: of `organisation` (on Citus a router
 * statement, on its worker), or of every organisation (one node only). Exported so a test can
 * read its plan.
 */
export const batchStatement = (sql: SqlClient.SqlClient, limit: number, organisation: string | undefined) =>
  sql`SELECT o.seq, o.organisation_id, e.data, COALESCE(e.trace_parent, o.trace_parent) AS trace_parent
    FROM outbox o JOIN events e ON e.organisation_id = o.organisation_id AND e.id = o.event_id
    ${organisation === undefined ? sql`` : sql`WHERE o.organisation_id = ${organisation}`}
    ORDER BY ${organisation === undefined ? sql`o.enqueued_at, o.seq` : sql`o.seq`} LIMIT ${limit} FOR UPDATE OF o SKIP LOCKED`

/** Removes a delivered batch, one organisation's rows by their key (on Citus, one statement per worker). */
const removeTaken = (sql: SqlClient.SqlClient, batch: ReadonlyArray<OutboxEntry>) =>
  Effect.forEach(
    [...new Set(batch.map((entry) => entry.organisation))],
    (organisation) => timedStatement("outbox.remove", removeStatement(sql, organisation,
      batch.filter((entry) => entry.organisation === organisation).map((entry) => entry.seq))),
    { discard: true }
  )

/**
 * Removes `organisation`'s delivered rows `seqs` (at least one), read by a range of the key: the
 * batch is the oldest waiting, so the range holds it and little else. The seqs themselves are a
 * filter on that range, not a condition of the index read: costed on a queue's statistics (mostly
 * taken empty), a list of them in the index read looked dearer than reading every waiting row of
 * the organisation by its first column and comparing each with the list, the plan PostgreSQL
 * settled on for the prepared statement; a backlog then drained in a time that grew with its
 * square. They go as one array, so the statement's text is the same for any batch. Exported so a
 * test can count the rows it reads.
 */
export const removeStatement = (sql: SqlClient.SqlClient, organisation: string, seqs: ReadonlyArray<number>) =>
  sql`DELETE FROM outbox WHERE organisation_id = ${organisation}
    AND seq BETWEEN ${Math.min(...seqs)} AND ${Math.max(...seqs)} AND ARRAY[seq] <@ ${seqs}::bigint[]`

/**
 * The webhooks feature's outbox port on this outbox: one organisation's batch at a time (a
 * delivery's body holds one organisation's events), of the organisation asked for or else of the
 * one whose event has waited longest. Rows another process holds are skipped, so no event is
 * taken twice; an event stays queued until its deliveries commit.
 */
export const webhookOutboxOf = (outbox: Outbox["Service"], sql: SqlClient.SqlClient, topology: Topology): WebhookOutbox["Service"] =>
  WebhookOutbox.of({
    take: (organisation, limit, handle) => {
      const drain = (target: string) => outbox.drain(limit, (batch) => handle(batch.map(({ organisation, event, traceparent }) => ({ organisation, event, traceparent }))), target)
      if (organisation === undefined && topology._tag === "Distributed") return firstTaken(sql, waitingOrganisations(sql), drain)
      return Effect.gen(function*() {
        // One statement, no transaction, when nothing waits: the pump runs before every due item.
        const target = yield* oldestWaiting(sql, organisation)
        return target === undefined ? 0 : yield* drain(target)
      })
    }
  })

/**
 * On Citus, the first of the oldest waiting entries' organisations whose drain takes something
 * (each in turn; none: 0). The candidates are read without the events (`waitingStatement`), so an
 * organisation may be there for rows whose event is gone (the outbox has no foreign key since
 * migration 0061): when its drain takes nothing, those rows are removed (one router statement, on
 * its worker), so that they cannot fill the candidates at every poll and starve the others. A
 * drain also takes nothing when another taker holds the rows; the removal then finds none.
 */
const firstTaken = <E, R>(
  sql: SqlClient.SqlClient,
  candidates: Effect.Effect<ReadonlyArray<string>, StorageError>,
  drain: (organisation: string) => Effect.Effect<number, E, R>
) =>
  Effect.gen(function*() {
    // Read again after a removal: the rows removed may have been every candidate.
    while (true) {
      let removed = 0
      for (const organisation of yield* candidates) {
        const taken = yield* drain(organisation)
        if (taken > 0) return taken
        removed += (yield* orStorageError("outbox")(orphansStatement(sql, organisation))).length
      }
      if (removed === 0) return 0
    }
  })

/** Removes `organisation`'s queued rows whose event is gone. Exported so a test can read its plan. */
export const orphansStatement = (sql: SqlClient.SqlClient, organisation: string) =>
  sql`DELETE FROM outbox o WHERE o.organisation_id = ${organisation}
    AND NOT EXISTS (SELECT 1 FROM events e WHERE e.organisation_id = o.organisation_id AND e.id = o.event_id)
    RETURNING o.seq`

const OrganisationRow = Schema.Struct({ organisation_id: Schema.String })
const decodeOrganisationRows = Schema.decodeUnknownEffect(Schema.Array(OrganisationRow))
const WaitingRow = Schema.Struct({ organisation_id: Schema.String, since: Schema.optionalKey(Schema.Number) })
const decodeWaitingRows = Schema.decodeUnknownEffect(Schema.Array(WaitingRow))

/**
 * The organisation (`organisation`, when given) whose queued event is oldest and not held by
 * another taker, on one node. Only rows whose event exists count: `drain` joins the events, so a
 * row without one (the outbox has no foreign key since migration 0061) would be picked and drained
 * empty at every pump, and no other organisation's events would ever go. Exported so a test can
 * read its plan.
 */
export const oldestWaitingStatement = (sql: SqlClient.SqlClient, organisation: string | undefined) =>
  sql`SELECT o.organisation_id FROM outbox o
    WHERE ${organisation === undefined ? sql`TRUE` : sql`o.organisation_id = ${organisation}`}
      AND EXISTS (SELECT 1 FROM events e WHERE e.organisation_id = o.organisation_id AND e.id = o.event_id)
    ORDER BY ${organisation === undefined ? sql`o.enqueued_at, o.seq` : sql`o.seq`} LIMIT 1
    FOR UPDATE OF o SKIP LOCKED`

const oldestWaiting = (sql: SqlClient.SqlClient, organisation: string | undefined): Effect.Effect<string | undefined, StorageError> =>
  oldestWaitingStatement(sql, organisation).pipe(
    Effect.flatMap(decodeOrganisationRows),
    Effect.map((rows) => rows[0]?.organisation_id),
    orStorageError("outbox")
  )

/**
 * How many of the oldest waiting entries a pick on Citus reads: their organisations, in order, are
 * the candidates a taker tries until one gives it a batch.
 */
export const WAITING_CANDIDATES = 16

/**
 * On Citus, the oldest waiting entries of every organisation, read without a lock (Citus locks no
 * rows across shards): each shard's oldest, merged by the time they were queued. The outbox alone,
 * not joined with the events as on one node (`oldestWaitingStatement`): each poll of every process
 * runs this on every shard, and planning the join with the events' indexes on each shard made it
 * five times dearer (12.4 ms of the nodes' CPU against 2.5 ms a read of 32 empty shards, pgbench on
 * this machine, docs/scaling.md). A row whose event is gone is dealt with where its organisation
 * is tried (`firstTaken`). Exported so a test can read its plan.
 */
export const waitingStatement = (sql: SqlClient.SqlClient) =>
  sql`SELECT o.organisation_id FROM outbox o ORDER BY o.enqueued_at, o.seq LIMIT ${WAITING_CANDIDATES}`

/**
 * On Citus, the organisations of the oldest waiting entries, oldest first, on the workers that
 * answer (`readingReachableShards`: a worker down stops its organisations' webhooks, not the
 * others'). Two takers may pick one organisation: the second takes the rows the first is not
 * holding, or none and tries the next.
 */
const waitingOrganisations = (sql: SqlClient.SqlClient): Effect.Effect<ReadonlyArray<string>, StorageError> =>
  readingReachableShards(
    sql,
    "outbox",
    waitingStatement(sql),
    `SELECT o.organisation_id, extract(epoch FROM o.enqueued_at)::float8 AS since FROM %s o
      ORDER BY o.enqueued_at, o.seq LIMIT ${WAITING_CANDIDATES}`
  ).pipe(
    Effect.flatMap(decodeWaitingRows),
    // Each shard's oldest when read shard by shard (a multi-shard read is merged in order already, without `since`).
    Effect.map((rows) => [...new Set([...rows].sort((a, b) => (a.since ?? 0) - (b.since ?? 0)).map((row) => row.organisation_id))]),
    orStorageError("outbox")
  )

/** `WebhookOutbox` on the SQL store's outbox. */
export const WebhookOutboxSql: Layer.Layer<WebhookOutbox, never, Outbox | SqlClient.SqlClient> = Layer.effect(
  WebhookOutbox,
  Effect.gen(function*() {
    return webhookOutboxOf(yield* Outbox, yield* SqlClient.SqlClient, yield* topologyOf)
  })
)
