import { MILLIS_PER_DAY, type OrganisationId, type StorageError } from "@paykit/core"
import { Cause, Clock, Context, Effect, Layer, Schema } from "effect"
import { TestClock } from "effect/testing"
import type { DailyJob } from "./jobs.ts"

/** The port that lets the simulator move time. Tests move Effect's `TestClock`. */
export class ClockControl extends Context.Service<ClockControl, {
  readonly setTime: (epochMillis: number) => Effect.Effect<void, StorageError>
}>()("@paykit/engine/ClockControl") {
  /** Moves the `TestClock` the program runs under (provide `TestClock.layer()` too). */
  static readonly testClock: Layer.Layer<ClockControl> = Layer.succeed(ClockControl, ClockControl.of({ setTime: TestClock.setTime }))
}

const DAY_MS = MILLIS_PER_DAY
/** The bank's daily run starts at 06:00 UTC: everything that falls due on a day happens then. */
export const DAILY_RUN_OFFSET_MS = 6 * 3_600_000

/** The first daily run strictly after `instant` (epoch milliseconds): what the simulator runs next. */
export const nextDailyRunAfter = (instant: number): number =>
  Math.floor((instant - DAILY_RUN_OFFSET_MS) / DAY_MS) * DAY_MS + DAILY_RUN_OFFSET_MS + DAY_MS

/** The message a failed job of a daily run is logged with (one organisation's, as a whole). */
export const DAILY_JOB_FAILED = "daily run: job failed for an organisation"

/**
 * A daily run in which a job failed as a whole for some organisation (not one item: items are
 * isolated inside the jobs), so the clock was not moved past it.
 */
export class DailyRunIncomplete extends Schema.TaggedError<DailyRunIncomplete>()("DailyRunIncomplete", {
  at: Schema.String,
  failed: Schema.Array(Schema.String)
}) {
  override get message(): string {
    return `the daily run at ${this.at} did not complete (${this.failed.join(", ")}); the clock stays before it`
  }
}

/**
 * Runs `jobs` for one organisation, each on its own: one that fails as a whole is logged and the
 * others still run. Answers the failed ones as `job (organisation)`.
 */
export const runJobsOf = (jobs: ReadonlyArray<DailyJob>, organisation: OrganisationId): Effect.Effect<ReadonlyArray<string>, StorageError> =>
  Effect.gen(function*() {
    const failed: Array<string> = []
    for (const job of jobs) {
      yield* Effect.catchCause(job.run(organisation), (cause) =>
        Cause.hasInterruptsOnly(cause)
          ? Effect.interrupt
          : Effect.logError(DAILY_JOB_FAILED, Cause.pretty(cause)).pipe(
            Effect.annotateLogs({ job: job.name, organisation }),
            Effect.andThen(Effect.sync(() => failed.push(`${job.name} (${organisation})`)))
          ))
    }
    return failed
  })

/**
 * Runs `effect` under the clock of the moment given, moving as the clock outside moves (real time
 * in a server, not at all under a `TestClock`), without moving the clock outside: the run's work
 * sees its own time, and the clock the API reads moves only once the run completed. Answers the
 * value and the run's time when it ended.
 */
export const atInstant = <A, E, R>(
  instant: number,
  effect: Effect.Effect<A, E, R>,
  /** The clock the run's moves follow; by default the one the caller runs under. */
  base?: Clock.Clock
): Effect.Effect<{ readonly value: A; readonly endedAt: number }, E, R> =>
  Effect.withFiber((fiber) => {
    const outer = base ?? fiber.getRef(Clock.Clock)
    const shift = instant - outer.currentTimeMillisUnsafe()
    const shifted = offsetClock(outer, shift)
    return Effect.map(Effect.provideService(effect, Clock.Clock, shifted), (value) => ({ value, endedAt: shifted.currentTimeMillisUnsafe() }))
  })

/**
 * A clock `offsetMillis` ahead of `real` (an organisation's sandbox clock, or a run's own time);
 * sleeping and elapsed time stay real.
 */
export const offsetClock = (real: Clock.Clock, offsetMillis: number): Clock.Clock => ({
  currentTimeMillisUnsafe: () => real.currentTimeMillisUnsafe() + offsetMillis,
  currentTimeMillis: Effect.sync(() => real.currentTimeMillisUnsafe() + offsetMillis),
  currentTimeNanosUnsafe: () => real.currentTimeNanosUnsafe() + BigInt(offsetMillis) * 1_000_000n,
  currentTimeNanos: Effect.sync(() => real.currentTimeNanosUnsafe() + BigInt(offsetMillis) * 1_000_000n),
  monotonicTimeNanosUnsafe: () => real.monotonicTimeNanosUnsafe(),
  monotonicTimeNanos: real.monotonicTimeNanos,
  sleep: (duration) => real.sleep(duration)
})

/** Runs `effect` under a clock `offsetMillis` ahead of the one outside (none when 0). */
export const withClockOffset = <A, E, R>(offsetMillis: number, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  offsetMillis === 0 ? effect : Effect.withFiber((fiber) => Effect.provideService(effect, Clock.Clock, offsetClock(fiber.getRef(Clock.Clock), offsetMillis)))
