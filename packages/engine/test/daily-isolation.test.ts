import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import {
  InMemoryStorage,
  sandboxEngineOn
} from "@paykit/engine"
import { dailyIsolationScenario, isolationViolations, withFailureInjection } from "@paykit/engine/testing"
import { describe, expect, it } from "vitest"

// One storage layer, used twice in one build and so built once: the engine's storage and the injection's control.
const storage = withFailureInjection(InMemoryStorage)
const engine = Layer.mergeAll(
  storage,
  sandboxEngineOn(storage, { seed: 3 }),
  TestClock.layer()
)

describe("a poisoned item in the daily run (in memory)", () => {
  it("stops neither the other items, nor the other organisation, nor the clock, and is processed once it can be", async () => {
    const r = await Effect.runPromise(Effect.provide(dailyIsolationScenario, engine))
    expect(isolationViolations(r)).toEqual([])
    // The checks can fail: a run that had charged the poisoned subscription is reported.
    const wrong = { ...r, during: { ...r.during, charged: { ...r.during.charged, poisoned: 1 } } }
    expect(isolationViolations(wrong)).toEqual([expect.stringContaining("the poisoned one did not")])
  })
})
