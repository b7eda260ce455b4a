import { type Clock, Effect } from "effect"

/**
 * A clock for tests that moves one millisecond forward at every reading, starting at `startMillis`.
 * Under it, two values stamped from one reading of the clock are equal and two from two readings
 * are not: it shows whether a piece of code reads the clock once or more (an id and its
 * `created_at`, the events of one append).
 */
export const makeSteppingClock = (startMillis: number): Clock.Clock => {
  let reading = startMillis
  const millis = () => reading++
  const nanos = () => BigInt(millis()) * 1_000_000n
  return {
    currentTimeMillisUnsafe: millis,
    currentTimeMillis: Effect.sync(millis),
    currentTimeNanosUnsafe: nanos,
    currentTimeNanos: Effect.sync(nanos),
    monotonicTimeNanosUnsafe: nanos,
    monotonicTimeNanos: Effect.sync(nanos),
    sleep: () => Effect.void
  }
}
