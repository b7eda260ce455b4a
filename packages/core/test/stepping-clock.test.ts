import { Clock, Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { makeSteppingClock } from "@paykit/core"

describe("makeSteppingClock", () => {
  it("moves one millisecond forward at every reading, whichever way it is read", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (start) => {
      const clock = makeSteppingClock(start)
      const readings = Effect.runSync(Effect.gen(function*() {
        const a = clock.currentTimeMillisUnsafe()
        const b = yield* clock.currentTimeMillis
        const c = Number(clock.currentTimeNanosUnsafe() / 1_000_000n)
        const d = Number((yield* Clock.currentTimeNanos) / 1_000_000n)
        return [a, b, c, d]
      }).pipe(Effect.provideService(Clock.Clock, clock)))
      expect(readings).toEqual([start, start + 1, start + 2, start + 3])
    }))
  })
})
