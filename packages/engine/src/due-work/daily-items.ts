import { Cause, Effect } from "effect"
import type { IdGenerator } from "@paykit/core"
import type { EventLog } from "../kernel/ports/event-log.ts"
import type { ListQuery } from "../kernel/ports/list-query.ts"
import type { Repository, Transactor, Versioned } from "../kernel/ports/repository.ts"
import { captureUnitOfWork, type EngineContext } from "../kernel/support.ts"

/**
 * The items of a daily job, each in its own unit of work. One item that cannot be processed (a
 * refusal, a lost race, a defect of the store or of a rule) must not stop the others, nor the
 * other organisations, nor the clock: its unit of work is rolled back, so it stays as it was and
 * the next run tries it again, and the failure is logged with the job, the organisation and the
 * item's id. Interruption is not a failure of the item and still stops the job.
 */
export type DailyItems = <T>(
  job: string,
  organisation: string,
  items: ReadonlyArray<T>,
  idOf: (item: T) => string,
  work: (item: T) => Effect.Effect<unknown, unknown, EngineContext>
) => Effect.Effect<void>

/** The id of a stored item, for `DailyItems`. */
export const idOfVersioned = (item: Versioned<{ readonly id: string }>): string => item.resource.id

/** The message a daily item's failure is logged with (tests look for it). */
export const DAILY_ITEM_FAILED = "daily run: item failed and was left as it was for the next run"

/** Builds `DailyItems` on the unit of work of the service being built. */
export const captureDailyItems: Effect.Effect<DailyItems, never, IdGenerator | EventLog | Transactor> = Effect.map(
  captureUnitOfWork,
  (run) => (job, organisation, items, idOf, work) =>
    Effect.forEach(items, (item) =>
      Effect.catchCause(Effect.asVoid(run(work(item))), (cause) =>
        Cause.hasInterruptsOnly(cause)
          ? Effect.interrupt
          : Effect.logError(DAILY_ITEM_FAILED, Cause.pretty(cause)).pipe(
            Effect.annotateLogs({ job, organisation, item: idOf(item) })
          )), { discard: true })
)

/**
 * How many due items a daily job reads at a time. Each item is a unit of work of its own already;
 * reading the due ones a chunk at a time also bounds the one read (and the memory) whatever is
 * due, so on PGlite (one connection) a request waits behind one chunk's read at most.
 */
export const DAILY_CHUNK = 500

/**
 * Runs `work` on every resource matching `filters`, a chunk of `DAILY_CHUNK` at a time, oldest
 * first. The next chunk starts after the last id of the one before, so items the work moved out
 * of the filter, or left in it (a failed item), are not read twice.
 */
export const eachInChunks = <A extends { readonly id: string; readonly created_at: string }, K extends string>(
  repository: Repository<A, K>,
  organisation: string,
  filters: ListQuery<K>["filters"],
  work: (chunk: ReadonlyArray<Versioned<A>>) => Effect.Effect<void>
): Effect.Effect<void> =>
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
