import { Clock, Context, Effect } from "effect"
import { MANDATE_PDF_URL_LIFE_MS, MILLIS_PER_DAY, type StorageError } from "@paykit/core"
import { dueDone, dueRetryAt, type DueWorkDeclarations, DueWorkSchedule } from "../due-work/port.ts"
import { nextDailyRunAfter } from "../due-work/daily-clock.ts"
import { dailyRunKey } from "../due-work/daily-run.ts"

/**
 * Retention: what the store keeps only for a period. Events and webhook records (the attempts and
 * the settled deliveries) are kept for `RetentionPolicy.eventsMillis`, idempotency keys for their
 * lifetime, mandate PDFs (the payer's details a form shows) until their URL expires; older rows are removed by a due-work kind, `retention`, one row per organisation a
 * day, on that organisation's clock. The outbox needs no retention: the webhook pump deletes each
 * event's outbox row in the transaction that turns it into deliveries.
 */

/** How long events and webhook records are kept by default: 90 days (`PAYKIT_EVENT_RETENTION_DAYS` changes it in the server). */
export const DEFAULT_EVENT_RETENTION_DAYS = 90

/** The most rows of one table one unit of work removes: a long backlog is pruned in many bounded transactions. */
export const RETENTION_BATCH = 1_000

export const RETENTION_KIND = "retention"

/** How long each kind of row is kept, milliseconds on its organisation's clock. */
export interface RetentionPolicy {
  readonly eventsMillis: number
  readonly idempotencyKeysMillis: number
}

/** The instants before which rows are removed (epoch milliseconds, the organisation's clock). */
export interface RetentionCutoffs {
  readonly eventsBefore: number
  readonly idempotencyKeysBefore: number
  /** Mandate PDFs asked for before this have an expired URL: nothing serves them any more. */
  readonly mandatePdfsBefore: number
}

/**
 * The storage side of retention (the SQL store's `RetentionSql`). `prune` removes at most `limit`
 * rows of each table of `organisation` older than its cutoff, in the caller's unit of work, and
 * answers the most it removed from one table (`limit`: there may be more). Events still waiting in
 * the outbox, pending deliveries and the attempts of a pending delivery are never removed.
 */
export class RetentionStore extends Context.Service<RetentionStore, {
  readonly prune: (organisation: string, cutoffs: RetentionCutoffs, limit: number) => Effect.Effect<number, StorageError>
}>()("@paykit/engine/RetentionStore") {}

/** The cutoffs of a run at `now` under `policy`. */
export const cutoffsAt = (policy: RetentionPolicy, now: number): RetentionCutoffs => ({
  eventsBefore: now - policy.eventsMillis,
  idempotencyKeysBefore: now - policy.idempotencyKeysMillis,
  mandatePdfsBefore: now - MANDATE_PDF_URL_LIFE_MS
})

/** The policy for a period in days and the idempotency keys' lifetime. */
export const retentionPolicy = (eventRetentionDays: number, idempotencyKeysMillis: number): RetentionPolicy => ({
  eventsMillis: eventRetentionDays * MILLIS_PER_DAY,
  idempotencyKeysMillis
})

/** Schedules the organisation's first retention run after `now` (its clock), at its daily run's instant. */
export const scheduleFirstRetentionRun = (organisation: string, now: number) =>
  Effect.flatMap(DueWorkSchedule, (schedule) => {
    const dueAt = nextDailyRunAfter(now)
    return schedule.schedule({ organisation, kind: RETENTION_KIND, key: dailyRunKey(dueAt), dueAt })
  })

/**
 * The `retention` kind: removes one batch per table past its period; while a batch comes back
 * full the row is due again at once (each batch its own unit of work, so API requests never wait
 * behind a whole backlog), then the next day's row is scheduled.
 */
export const retentionDueWork = (policy: RetentionPolicy): Effect.Effect<DueWorkDeclarations, never, RetentionStore | DueWorkSchedule> =>
  Effect.gen(function*() {
    const store = yield* RetentionStore
    const schedule = yield* DueWorkSchedule
    return {
      pumps: [],
      kinds: [{
        kind: RETENTION_KIND,
        run: (item) =>
          Effect.gen(function*() {
            const now = yield* Clock.currentTimeMillis
            const removed = yield* store.prune(item.organisation, cutoffsAt(policy, now), RETENTION_BATCH)
            if (removed >= RETENTION_BATCH) return dueRetryAt(now)
            const next = nextDailyRunAfter(now)
            yield* schedule.schedule({ organisation: item.organisation, kind: RETENTION_KIND, key: dailyRunKey(next), dueAt: next })
            return dueDone
          })
      }]
    }
  })
