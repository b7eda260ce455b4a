import { Clock, Effect, Exit, Layer } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { IdGenerator, idTimestampMillis, makeSteppingClock, timestampFromMillis, OrganisationId } from "@paykit/core"
import { type Event, EventLog, InMemoryStorage, Transactor } from "@paykit/engine"
import { emitAll } from "../src/kernel/support.ts"

const ORG = OrganisationId("OR000000000001")

const eventNumbered = (n: number): Event => ({
  id: `EV${String(n).padStart(12, "0")}`,
  created_at: timestampFromMillis(Date.UTC(2026, 10, 22, 6)),
  resource_type: "payments",
  action: "created",
  links: { payment: `PM${String(n).padStart(12, "0")}` },
  details: { origin: "api", cause: "payment_created", description: "Payment created via the API." },
  metadata: {},
  resource_metadata: {}
})

const run = <A, E>(effect: Effect.Effect<A, E, EventLog | Transactor>) =>
  Effect.runPromiseExit(Effect.provide(effect, InMemoryStorage))

/** Batch sizes; the events are numbered in order across the batches, so ids only grow. */
const batchSizes = fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 8 })

describe("EventLog.append", () => {
  it("keeps every event of every batch, in the order appended", async () => {
    await fc.assert(fc.asyncProperty(batchSizes, async (sizes) => {
      let next = 1
      const batches = sizes.map((size) => Array.from({ length: size }, () => eventNumbered(next++)))
      const exit = await run(Effect.gen(function*() {
        const log = yield* EventLog
        for (const batch of batches) yield* log.append(ORG, batch)
        return yield* log.scan(ORG, {})
      }))
      expect(exit).toEqual(Exit.succeed(batches.flat()))
    }), { numRuns: 60 })
  })

  it("a batch holding an id already logged is a defect, and its unit of work leaves nothing of it", async () => {
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 5 }), fc.nat(), async (size, at) => {
      const batch = Array.from({ length: size }, (_, i) => eventNumbered(i + 2))
      // The duplicate takes any place in the batch: the events before it were written to the
      // unit of work when it dies.
      batch.splice(at % (size + 1), 0, eventNumbered(1))
      const exit = await run(Effect.gen(function*() {
        const log = yield* EventLog
        const transactor = yield* Transactor
        yield* log.append(ORG, [eventNumbered(1)])
        const failed = yield* Effect.exit(transactor.transaction(log.append(ORG, batch)))
        return { failed, kept: yield* log.scan(ORG, {}) }
      }))
      if (!Exit.isSuccess(exit)) throw new Error("the program itself failed")
      expect(Exit.isFailure(exit.value.failed) && Exit.hasDies(exit.value.failed)).toBe(true)
      expect(exit.value.kept).toEqual([eventNumbered(1)])
    }), { numRuns: 40 })
  })
})

describe("emitAll", () => {
  it("appends the drafts in order, at one reading of the clock, with ids that keep their order", async () => {
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 4_102_444_800_000 }), async (count, start) => {
      const ticking = makeSteppingClock(start)
      const drafts = Array.from({ length: count }, (_, i) => ({
        resource_type: "payments" as const,
        action: `step_${i}`,
        links: { payment: "PM000000000001" },
        cause: { origin: "api" as const, cause: "test", description: "A test event." }
      }))
      const exit = await Effect.runPromiseExit(Effect.gen(function*() {
        const emitted = yield* emitAll(ORG, drafts)
        return { emitted, logged: yield* (yield* EventLog).scan(ORG, {}) }
      }).pipe(
        Effect.provide(Layer.merge(InMemoryStorage, IdGenerator.layerSeeded(5))),
        Effect.provideService(Clock.Clock, ticking)
      ))
      if (!Exit.isSuccess(exit)) throw new Error("emitAll failed")
      const { emitted, logged } = exit.value
      expect(logged).toEqual(emitted)
      expect(emitted.map((e) => e.action)).toEqual(drafts.map((d) => d.action))
      expect(new Set(emitted.map((e) => e.created_at)).size).toBe(1)
      expect(emitted.map((e) => e.id)).toEqual([...emitted.map((e) => e.id)].sort())
      for (const e of emitted) expect(new Date(idTimestampMillis(e.id, "EV")).toISOString()).toBe(e.created_at)
    }), { numRuns: 40 })
  })
})
