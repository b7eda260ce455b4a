import { MILLIS_PER_DAY, OrganisationId } from "@paykit/core"
import { Effect } from "effect"
import { type DailyJob, JobRegistry } from "./jobs.ts"
import { dueDone, type DueWorkDeclarations, DueWorkSchedule } from "./port.ts"
import { DailyRunIncomplete, nextDailyRunAfter, runJobsOf } from "./daily-clock.ts"

/**
 * The daily run as due work: per organisation one row of kind `daily_run`, keyed by its date, due
 * at 06:00 UTC of that date on the organisation's clock. Its handler runs the `JobRegistry`'s jobs
 * for that organisation (the items of a job isolated in units of work it opens itself, a batch to
 * a unit and each item alone when its batch fails) and schedules the next day's row. A job failing as a whole fails the handler with
 * `DailyRunIncomplete`: the day is not passed, its row is claimed again after its lease, and a
 * sandbox advance stops there.
 */

export const DAILY_RUN_KIND = "daily_run"

/** The key of the daily run due at `instant`: its date. */
export const dailyRunKey = (instant: number): string => new Date(instant).toISOString().slice(0, 10)

/** Schedules the organisation's first daily run after `now` (its clock): what a new organisation gets. */
export const scheduleFirstDailyRun = (organisation: string, now: number) =>
  Effect.flatMap(DueWorkSchedule, (schedule) => {
    const dueAt = nextDailyRunAfter(now)
    return schedule.schedule({ organisation, kind: DAILY_RUN_KIND, key: dailyRunKey(dueAt), dueAt })
  })

/** The daily run's kind, running the registry's jobs and then `extraJobs` (tests, embedders). */
export const dailyRunDeclarations = (extraJobs: ReadonlyArray<DailyJob> = []): Effect.Effect<DueWorkDeclarations, never, JobRegistry | DueWorkSchedule> =>
  Effect.gen(function*() {
    const registry = yield* JobRegistry
    const schedule = yield* DueWorkSchedule
    const jobs: ReadonlyArray<DailyJob> = [...registry.jobs, ...extraJobs]
    return {
      pumps: [],
      kinds: [{
        kind: DAILY_RUN_KIND,
        ownUnitsOfWork: true,
        run: (item) =>
          Effect.gen(function*() {
            const failed = yield* runJobsOf(jobs, OrganisationId(item.organisation))
            if (failed.length > 0) return yield* Effect.die(new DailyRunIncomplete({ at: new Date(item.dueAt).toISOString(), failed }))
            const next = item.dueAt + MILLIS_PER_DAY
            yield* schedule.schedule({ organisation: item.organisation, kind: DAILY_RUN_KIND, key: dailyRunKey(next), dueAt: next })
            return dueDone
          })
      }]
    }
  })
