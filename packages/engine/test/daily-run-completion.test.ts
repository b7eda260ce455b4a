import { Cause, Clock, Effect, Exit, Layer } from "effect"
import { TestClock } from "effect/testing"
import { IdGenerator, today } from "@paykit/core"
import { ClockControl, DailyRunIncomplete, engineServicesOn, InMemoryStorage, Mandates, SandboxBank, sandboxWebhooks, Simulator } from "@paykit/engine"
import { describe, expect, it } from "vitest"
import { ORG, OTHER_ORG, START, setUpPayer } from "./fixtures.ts"

const DAY = 86_400_000

/**
 * A job that fails as a whole for one organisation (not one item, which the services isolate): the
 * run is incomplete, so the clock does not move past it and the next advance runs that day again;
 * the other organisations and jobs of the run are still processed.
 */
describe("a daily run with a failed job", () => {
  it("runs the other jobs and organisations, keeps the clock before the run, and runs that day again next time", async () => {
    let broken = true
    const ranOn: Array<string> = []
    const job = {
      name: "flaky job",
      run: (organisation: string) =>
        Effect.flatMap(today(), (day) =>
          organisation === ORG && broken ? Effect.die(new Error("job broke")) : Effect.sync(() => void ranOn.push(`${organisation} ${day}`)))
    }
    const engine = Layer.mergeAll(
      Simulator.layerWith([job]).pipe(
        Layer.provideMerge(engineServicesOn(InMemoryStorage)),
        Layer.provideMerge(Layer.mergeAll(SandboxBank, IdGenerator.layerSeeded(5), ClockControl.testClock, sandboxWebhooks))
      ),
      TestClock.layer()
    )
    const r = await Effect.runPromise(Effect.provide(Effect.gen(function*() {
      yield* TestClock.setTime(START)
      const ours = yield* setUpPayer(ORG)
      const theirs = yield* setUpPayer(OTHER_ORG)
      const simulator = yield* Simulator
      const failed = yield* Effect.exit(simulator.advanceTo(START + 3 * DAY))
      const clockAfterFailure = yield* Clock.currentTimeMillis
      const mandates = yield* Mandates
      const statusesAfterFailure = [(yield* mandates.get(ORG, ours.mandate.id)).status, (yield* mandates.get(OTHER_ORG, theirs.mandate.id)).status]
      broken = false
      yield* simulator.advanceTo(START + 3 * DAY)
      return { failed, clockAfterFailure, statusesAfterFailure, clockAfter: yield* Clock.currentTimeMillis }
    }), engine))
    expect(Exit.isFailure(r.failed)).toBe(true)
    const defect = Exit.isFailure(r.failed) ? Cause.squash(r.failed.cause) : undefined
    expect(defect).toBeInstanceOf(DailyRunIncomplete)
    expect(defect instanceof DailyRunIncomplete ? defect.failed : []).toEqual([`flaky job (${ORG})`])
    // The first run (Tuesday 06:00) did not complete: the clock stays where the advance began.
    expect(r.clockAfterFailure).toBe(START)
    // Its other jobs ran, for both organisations: both mandates were submitted.
    expect(r.statusesAfterFailure).toEqual(["submitted", "submitted"])
    // The next advance runs the failed organisation's Tuesday again, then the days after. Each
    // organisation's daily run is a row of its own (as in a server): the other's completed Tuesday
    // is not run twice (until 2026-11-24 the simulator ran every organisation's day again).
    expect(r.clockAfter).toBe(START + 3 * DAY)
    expect(ranOn).toEqual([`${OTHER_ORG} 2026-11-24`, `${ORG} 2026-11-24`, `${ORG} 2026-11-25`, `${OTHER_ORG} 2026-11-25`, `${ORG} 2026-11-26`, `${OTHER_ORG} 2026-11-26`])
  })
})
