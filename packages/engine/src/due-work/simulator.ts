import { Clock, Context, Effect, Layer } from "effect"
import { type StorageFailure, typedStorageFailures } from "@paykit/core"
import { type DailyJob, JobRegistry } from "./jobs.ts"
import { DueKinds, DueWorkSchedule, DueWorkStore } from "./port.ts"
import { RepositoryBackend, type Transactor } from "../kernel/ports/repository.ts"
import { ClockControl } from "./daily-clock.ts"
import { DAILY_RUN_KIND, dailyRunDeclarations, scheduleFirstDailyRun } from "./daily-run.ts"
import { makeDueWorker } from "./worker.ts"

/**
 * Time travel for the library face and the engine's tests: the same due rows a server's worker
 * runs (the daily run of each organisation at 06:00 UTC, the deadlines and import validation at
 * their instants; docs/architecture.md, "Due work"), run by the same `DueWorker` in due order up to
 * the target, each at its instant, on the one clock the engine runs under (`ClockControl` moves
 * it: Effect's `TestClock` in tests). Until 2026-11-24 it ran the registry's jobs itself, at each
 * 06:00 crossed and its deadlines again at the target, so an embedder never saw an import
 * validated seconds after its creation, as a server's users do.
 *
 * A daily run does what the `JobRegistry` says, in its documented order (docs/engine.md), each item
 * of a job isolated (`captureDailyItems`: a batch per unit of work, each item alone when its batch
 * fails): one that fails is rolled back, logged and tried again by the next run. A job that fails as a whole makes the run incomplete
 * (`DailyRunIncomplete`): the advance stops there, the clock before it, and the next advance runs
 * that day again (docs/engine.md, "Isolation").
 */
export class Simulator extends Context.Service<Simulator, {
  /**
   * Fails with the storage's failures (`StorageError`, or a `DuplicateId` a rule met), typed
   * wherever the advance met them: in a claim, or in an item's unit of work.
   */
  readonly advanceTo: (epochMillis: number) => Effect.Effect<void, StorageFailure>
  readonly advanceBy: (millis: number) => Effect.Effect<void, StorageFailure>
  /** Runs the rows due now, every organisation's, without moving the clock. */
  readonly runDue: Effect.Effect<void, StorageFailure>
  /** The daily run's jobs, in order (the registry's, then the extra ones). */
  readonly jobs: ReadonlyArray<DailyJob>
}>()("@paykit/engine/Simulator") {
  static readonly layerWith = (
    extraJobs: ReadonlyArray<DailyJob>
  ): Layer.Layer<Simulator, never, RepositoryBackend | ClockControl | JobRegistry | DueKinds | DueWorkStore | DueWorkSchedule | Transactor> =>
    Layer.effect(
      Simulator,
      Effect.gen(function*() {
        const backend = yield* RepositoryBackend
        const control = yield* ClockControl
        const store = yield* DueWorkStore
        const schedule = yield* DueWorkSchedule
        const registry = yield* JobRegistry
        const daily = yield* dailyRunDeclarations(extraJobs)
        const declarations = [daily, ...(yield* DueKinds).declarations]
        // Built for each advance, under the caller's clock (the `TestClock` a test provides to its
        // program, not to the layers): a worker takes the clock it is built under for real time.
        const storage = yield* Effect.context<DueWorkStore | Transactor>()
        const worker = Effect.provideContext(makeDueWorker(declarations, { owner: "simulator" }), storage)
        /**
         * Every organisation has its daily run pending, as a server gives each at start: the
         * library has no list of organisations but its data, so an advance looks.
         */
        const ensureDailyRuns = Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          for (const organisation of yield* backend.organisations) {
            if ((yield* store.pendingOf(organisation, DAILY_RUN_KIND)).length === 0) {
              yield* Effect.provideService(scheduleFirstDailyRun(organisation, now), DueWorkSchedule, schedule)
            }
          }
        })
        const advanceTo = (target: number) =>
          typedStorageFailures(Effect.andThen(ensureDailyRuns, Effect.flatMap(worker, (w) => w.advanceAll(target, control.setTime))))
        return Simulator.of({
          advanceTo,
          advanceBy: (millis) => Effect.flatMap(Clock.currentTimeMillis, (t) => advanceTo(t + millis)),
          runDue: Effect.flatMap(Clock.currentTimeMillis, advanceTo),
          jobs: [...registry.jobs, ...extraJobs]
        })
      })
    )

  static readonly layer = Simulator.layerWith([])
}
