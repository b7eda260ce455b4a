import { Cause, Effect } from "effect"
import type { IdGenerator } from "@paykit/core"
import type { EventLog } from "./ports/event-log.ts"
import type { Transactor, Versioned } from "./ports/repository.ts"
import { captureUnitOfWork, type EngineContext } from "./support.ts"

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
