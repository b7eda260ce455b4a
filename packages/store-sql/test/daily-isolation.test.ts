import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { sandboxEngineOn } from "@paykit/engine"
import { dailyIsolationScenario, isolationViolations, withFailureInjection } from "@paykit/engine/testing"
import { describe, expect, it } from "vitest"
import { SqlStorage } from "../src/sql-storage.ts"
import { DATABASES } from "./support/databases.ts"

/**
 * The engine's poisoned-item scenario on SQL storage: each item's unit of work is a transaction of
 * its own, so the failing one is rolled back and the others commit.
 */
describe.each(DATABASES)("a poisoned item in the daily run on $name", (database) => {
  it("stops neither the other items, nor the other organisation, nor the clock, and is processed once it can be", { timeout: 120_000 }, async () => {
    // One storage layer, used twice in one build and so built once: the engine's storage and the injection's control.
    const storage = withFailureInjection(Layer.orDie(SqlStorage.pipe(Layer.provide(database.isolated()))))
    const engine = Layer.mergeAll(
      storage,
      sandboxEngineOn(storage, { seed: 3 }),
      TestClock.layer()
    )
    const r = await Effect.runPromise(Effect.provide(dailyIsolationScenario, engine))
    expect(isolationViolations(r)).toEqual([])
  })
})
