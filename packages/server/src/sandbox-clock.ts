import { Clock, Context, Effect, Layer, Schema, Semaphore } from "effect"
import { SqlClient } from "effect/sql"
import { ClockControl } from "@paykit/engine"
import { DbInteger } from "@paykit/store-sql"

/**
 * The sandbox's clock: real time plus an offset. The engine reads time only through Effect's
 * `Clock`, so the server provides this one; the engine's simulator moves it through
 * `ClockControl`, which only ever increases the offset. The simulator runs a day's jobs at that
 * day's time and moves this clock (writing `sandbox_clock`) only once they all completed, so after
 * a restart (or a crash in the middle of an advance) the clock is where the last completed run left
 * it, never past a run that did not complete: the next advance runs that day again.
 *
 * The offset is read once at start-up and kept in memory (`Clock` is read synchronously): several
 * server processes on one PostgreSQL database would each keep their own copy, so a sandbox should
 * run one process.
 */
export class SandboxClock extends Context.Service<SandboxClock, {
  /** The simulated time, epoch milliseconds. */
  readonly now: Effect.Effect<number>
  /** How far the simulated time runs ahead of the real one. */
  readonly offsetMillis: Effect.Effect<number>
  /** Moves the simulated time to `epochMillis`; a time at or before now leaves it where it is. */
  readonly setTime: (epochMillis: number) => Effect.Effect<void>
  /** Sets the offset; one at or below the current offset leaves it where it is. */
  readonly raiseOffset: (offsetMillis: number) => Effect.Effect<void>
  /** The clock to run the engine under. */
  readonly clock: Clock.Clock
}>()("@paykit/server/SandboxClock") {}

const decodeOffsetRows = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ offset_ms: DbInteger })))

/** A clock `offset()` milliseconds ahead of `real`; sleeping and elapsed time stay real. */
export const offsetClock = (real: Clock.Clock, offset: () => number): Clock.Clock => ({
  currentTimeMillisUnsafe: () => real.currentTimeMillisUnsafe() + offset(),
  currentTimeMillis: Effect.sync(() => real.currentTimeMillisUnsafe() + offset()),
  currentTimeNanosUnsafe: () => real.currentTimeNanosUnsafe() + BigInt(offset()) * 1_000_000n,
  currentTimeNanos: Effect.sync(() => real.currentTimeNanosUnsafe() + BigInt(offset()) * 1_000_000n),
  monotonicTimeNanosUnsafe: () => real.monotonicTimeNanosUnsafe(),
  monotonicTimeNanos: real.monotonicTimeNanos,
  sleep: (duration) => real.sleep(duration)
})

/** The offset stored in SQL (the row is made, at 0, on the first start). */
export const SandboxClockLive: Layer.Layer<SandboxClock, unknown, SqlClient.SqlClient> = Layer.effect(
  SandboxClock,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const real = yield* Clock.Clock
    yield* sql`INSERT INTO sandbox_clock (singleton, offset_ms) VALUES (true, 0) ON CONFLICT (singleton) DO NOTHING`
    const rows = yield* decodeOffsetRows(yield* sql`SELECT offset_ms FROM sandbox_clock`)
    let offset = rows[0]?.offset_ms ?? 0
    const clock = offsetClock(real, () => offset)
    const lock = yield* Semaphore.make(1)
    const raiseOffset = (next: number) =>
      lock.withPermits(1)(Effect.gen(function*() {
        if (next <= offset) return
        yield* Effect.orDie(sql`UPDATE sandbox_clock SET offset_ms = ${next}, updated_at = now()`)
        offset = next
      }))
    const setTime = (epochMillis: number) => Effect.suspend(() => raiseOffset(epochMillis - real.currentTimeMillisUnsafe()))
    return SandboxClock.of({
      now: clock.currentTimeMillis,
      offsetMillis: Effect.sync(() => offset),
      setTime,
      raiseOffset,
      clock
    })
  })
)

/** Runs everything under the sandbox clock and lets the simulator move it. */
export const SandboxTime: Layer.Layer<SandboxClock | ClockControl, unknown, SqlClient.SqlClient> = Layer.effectContext(
  Effect.gen(function*() {
    const sandbox = yield* SandboxClock
    return Context.make(SandboxClock, sandbox).pipe(
      Context.add(ClockControl, ClockControl.of({ setTime: sandbox.setTime })),
      Context.add(Clock.Clock, sandbox.clock)
    )
  })
).pipe(Layer.provide(SandboxClockLive))
