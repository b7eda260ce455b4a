import { Cause, Effect } from "effect"
import type { IdGenerator, StorageError } from "@paykit/core"
import type { EventLog } from "../kernel/ports/event-log.ts"
import type { ListQuery } from "../kernel/ports/list-query.ts"
import { HoldWrites, type Repository, type Transactor, type Versioned } from "../kernel/ports/repository.ts"
import { captureUnitOfWork, type EngineContext } from "../kernel/support.ts"

/**
 * The items of a daily job, each isolated. One item that cannot be processed (a refusal, a lost
 * race, a defect of the store or of a rule) must not stop the others, nor the other organisations,
 * nor the clock: its writes are rolled back, so it stays as it was and the next run tries it
 * again, and the failure is logged with the job, the organisation and the item's id. Interruption
 * is not a failure of the item and still stops the job. `readAhead`, run in a batch's unit of work
 * before its items, reads what they will read in a statement or so (`Repository.getMany`), so the
 * items' own reads cost none; the items run alone read as they go.
 */
export type DailyItems = <T>(
  job: string,
  organisation: string,
  items: ReadonlyArray<T>,
  idOf: (item: T) => string,
  work: (item: T) => Effect.Effect<unknown, unknown, EngineContext>,
  readAhead?: (batch: ReadonlyArray<T>) => Effect.Effect<unknown, unknown, EngineContext>
) => Effect.Effect<void, StorageError>

/** The id of a stored item, for `DailyItems`. */
export const idOfVersioned = (item: Versioned<{ readonly id: string }>): string => item.resource.id

/** The message a daily item's failure is logged with (tests look for it). */
export const DAILY_ITEM_FAILED = "daily run: item failed and was left as it was for the next run"

/**
 * How many items of a daily job share one unit of work. A unit of work per item paid a
 * transaction (BEGIN, COMMIT, and on PostgreSQL a flush of the log to disk) on every charge, most
 * of a charge's cost; a batch pays it once. A batch holds its rows' locks, and on PGlite the one
 * connection, until it commits: 100 items keep that wait short (docs/engine.md, "Batches").
 */
export const DAILY_BATCH = 100

/** `items` cut into runs of `size`, in order. */
const batchesOf = <T>(items: ReadonlyArray<T>, size: number): ReadonlyArray<ReadonlyArray<T>> =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, b) => items.slice(b * size, (b + 1) * size))

/**
 * Builds `DailyItems` on the unit of work of the service being built. The items run a batch
 * (`DAILY_BATCH`) per unit of work; when a batch fails, its writes are rolled back and that batch
 * alone runs again one unit of work per item, so a poison item costs only itself: the others
 * commit, it is logged and left as it was. Since a failed batch falls back so, its unit may hold
 * its writes until it ends (`HoldWrites`); the items run alone do not.
 */
export const captureDailyItems: Effect.Effect<DailyItems, never, IdGenerator | EventLog | Transactor> = Effect.map(
  captureUnitOfWork,
  (run) => (job, organisation, items, idOf, work, readAhead) => {
    const alone = (item: (typeof items)[number]) =>
      Effect.catchCause(Effect.asVoid(run(work(item))), (cause) =>
        Cause.hasInterruptsOnly(cause)
          ? Effect.interrupt
          : Effect.logError(DAILY_ITEM_FAILED, Cause.pretty(cause)).pipe(
            Effect.annotateLogs({ job, organisation, item: idOf(item) })
          ))
    return Effect.forEach(batchesOf(items, DAILY_BATCH), (batch) =>
      batch.length === 1
        ? Effect.forEach(batch, alone, { discard: true })
        : Effect.catchCause(Effect.provideService(run(Effect.andThen(readAhead?.(batch) ?? Effect.void, Effect.forEach(batch, work, { discard: true }))), HoldWrites, true), (cause) =>
          Cause.hasInterruptsOnly(cause) ? Effect.interrupt : Effect.forEach(batch, alone, { discard: true })), { discard: true })
  }
)

/**
 * How many due items a daily job reads at a time. Its items are units of work of a batch already;
 * reading the due ones a chunk at a time also bounds the one read (and the memory) whatever is
 * due, so on PGlite (one connection) a request waits behind one chunk's read at most.
 */
export const DAILY_CHUNK = 500

/**
 * Runs `work` on every resource matching `filters`, a chunk of `DAILY_CHUNK` at a time, oldest
 * first. The next chunk starts after the last id of the one before, so items the work moved out
 * of the filter, or left in it (a failed item), are not read twice.
 */
export const eachInChunks = <A extends { readonly id: string; readonly created_at: string }, K extends string, E = never>(
  repository: Repository<A, K>,
  organisation: string,
  filters: ListQuery<K>["filters"],
  work: (chunk: ReadonlyArray<Versioned<A>>) => Effect.Effect<void, E>
): Effect.Effect<void, E | StorageError> =>
  Effect.gen(function*() {
    let after: string | undefined
    while (true) {
      const page = after === undefined ? { limit: DAILY_CHUNK } : { after, limit: DAILY_CHUNK }
      const rows = yield* repository.scan(organisation, filters, page)
      // A repository wrapped without passing the page on answers everything: keep to the chunk.
      const chunk = rows.filter((row) => after === undefined || row.resource.id > after).slice(0, DAILY_CHUNK)
      const last = chunk[chunk.length - 1]
      if (last === undefined) return
      yield* work(chunk)
      if (chunk.length < DAILY_CHUNK) return
      after = last.resource.id
    }
  })
