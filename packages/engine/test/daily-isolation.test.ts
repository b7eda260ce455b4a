import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { IdGenerator } from "@paykit/core"
import {
  ClockControl,
  DAILY_ITEM_FAILED,
  dailyIsolationScenario,
  engineOn,
  InMemoryStorage,
  ISOLATION_START,
  SandboxBank,
  withFailureInjection
} from "@paykit/engine"
import { describe, it } from "vitest"
import { expectIsolated } from "./daily-isolation-checks.ts"

// One storage layer, used twice in one build and so built once: the engine's storage and the injection's control.
const storage = withFailureInjection(InMemoryStorage)
const engine = Layer.mergeAll(
  storage,
  engineOn(storage).pipe(Layer.provideMerge(Layer.mergeAll(SandboxBank, IdGenerator.layerSeeded(3), ClockControl.testClock))),
  TestClock.layer()
)

describe("a poisoned item in the daily run (in memory)", () => {
  it("stops neither the other items, nor the other organisation, nor the clock, and is processed once it can be", async () => {
    const r = await Effect.runPromise(Effect.provide(dailyIsolationScenario, engine))
    expectIsolated(r, { start: ISOLATION_START, message: DAILY_ITEM_FAILED })
  })
})
