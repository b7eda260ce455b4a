import { Effect, Layer } from "effect"
import { hostname } from "node:os"
import { randomUUID } from "node:crypto"
import {
  DAILY_RUN_KIND,
  dailyRunDeclarations,
  DueWorker,
  EngineDeadlines,
  type DueWorkDeclarations,
  DueWorkSchedule,
  DueWorkStore,
  JobRegistry,
  RETENTION_KIND,
  scheduleFirstDailyRun,
  scheduleFirstRetentionRun,
  type Transactor
} from "@paykit/engine"
import { MAINTENANCE_ORGANISATION, scheduleMaintenance } from "@paykit/store-sql"
import { Organisations } from "./organisations.ts"

/**
 * Time in the server: every process runs a due-work worker on the real clock (both modes), and
 * each sandbox organisation has a clock of its own, an offset ahead of real time in
 * `organisation_clocks` that only a sandbox advance of that organisation moves. A request runs
 * under its organisation's clock (the offset comes with the access token's lookup), and a due item
 * under its organisation's. The offset is read from the database each time, never kept in a
 * process, so an advance made through one process is seen by the next request to any other.
 */

/** How often an idle worker looks for due rows, and how long its claim holds a row (real time). */
export interface WorkerTiming {
  readonly pollMillis?: number
  readonly leaseMillis?: number
}

/** This process's name in the leases it takes: host, pid and a random part (a restarted pid is a new owner). */
export const workerOwner = (): string => `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`

/** The worker over the daily run and the extra declarations (webhooks' deliveries, deadlines), polling until the server stops. */
export const dueWorkerLayer = (
  extra: ReadonlyArray<DueWorkDeclarations>,
  timing: WorkerTiming
): Layer.Layer<DueWorker, never, DueWorkStore | DueWorkSchedule | Transactor | JobRegistry | Effect.Services<typeof EngineDeadlines>> =>
  Layer.unwrap(Effect.gen(function*() {
    const declared = [yield* dailyRunDeclarations(), ...(yield* EngineDeadlines), ...extra]
    return DueWorker.layer(declared, { owner: workerOwner(), ...(timing.leaseMillis === undefined ? {} : { leaseMillis: timing.leaseMillis }) })
  }))

/** Starts polling once the server's organisations have their daily runs. */
export const pollDueWork = (timing: WorkerTiming) => DueWorker.poll(timing.pollMillis)

/**
 * Gives every organisation without a pending daily run (or retention run) its next one (a new
 * organisation, or a database from before due work or retention): keys are dates, so two
 * processes doing this at once, or a run scheduling its successor meanwhile, make one row per date.
 */
export const ensureDailyRuns = Effect.gen(function*() {
  const organisations = yield* Organisations
  const store = yield* DueWorkStore
  const worker = yield* DueWorker
  for (const organisation of yield* organisations.all) {
    if ((yield* store.pendingOf(organisation.id, DAILY_RUN_KIND)).length === 0) {
      yield* scheduleFirstDailyRun(organisation.id, yield* worker.nowOf(organisation.id))
    }
    if ((yield* store.pendingOf(organisation.id, RETENTION_KIND)).length === 0) {
      yield* scheduleFirstRetentionRun(organisation.id, yield* worker.nowOf(organisation.id))
    }
  }
})

/**
 * Gives the database's upkeep (store-sql's `storageMaintenance`: ANALYZE) its next run; it
 * schedules its successor itself, and a date's row is one however many processes start.
 */
export const ensureStorageMaintenance = Effect.gen(function*() {
  const worker = yield* DueWorker
  yield* scheduleMaintenance(yield* worker.nowOf(MAINTENANCE_ORGANISATION))
})
