import { Clock, Deferred, Effect, Exit, Fiber, Layer } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import { type DueItem, dueDone, DueWorker, type DueWorkDeclarations, DueWorkStore, InMemoryStorage } from "@paykit/engine"
import type { StorageError } from "@paykit/core"
import { ORG, OTHER_ORG, START } from "./fixtures.ts"

/**
 * The library's advance (`DueWorker.advanceAll`, the engine's `Simulator`) when a row fails: the
 * rows due up to its instant still run, and the failed row is left as it was (its instant, its
 * attempts, its lease free) however the advance ends, failed or interrupted midway. Until
 * 2026-11-24 the failed row was parked at MAX_SAFE_INTEGER with attempt + 1 and put back only
 * after the loop, so an interrupted advance left it parked for ever.
 */

const KIND = "probe"
const MINUTE = 60_000

const failing = (ran: Array<string>, block: Deferred.Deferred<void> | undefined): DueWorkDeclarations => ({
  pumps: [],
  kinds: [{
    kind: KIND,
    run: (item: DueItem) =>
      Effect.suspend(() => {
        ran.push(`${item.organisation}/${item.key}`)
        if (item.key === "broken") return Effect.die(new Error("the row's handler broke"))
        // The advance is interrupted while this row runs.
        if (item.key === "stuck" && block !== undefined) return Effect.andThen(Deferred.succeed(block, undefined), Effect.never)
        return Effect.succeed(dueDone)
      })
  }]
})

const run = <A>(declarations: (block: Deferred.Deferred<void>) => DueWorkDeclarations, program: (block: Deferred.Deferred<void>) => Effect.Effect<A, StorageError, DueWorker | DueWorkStore>) =>
  Effect.runPromise(Effect.gen(function*() {
    const block = yield* Deferred.make<void>()
    const layer = DueWorker.layer([declarations(block)], { owner: "library" }).pipe(Layer.provideMerge(InMemoryStorage), Layer.provideMerge(TestClock.layer()))
    return yield* Effect.provide(Effect.andThen(TestClock.setTime(START), program(block)), layer)
  }))

/** The row `key` of `organisation` as the store holds it, and whether a claim now (at its instant) takes it. */
const rowOf = (organisation: string, key: string) =>
  Effect.gen(function*() {
    const store = yield* DueWorkStore
    const row = (yield* store.pendingOf(organisation, KIND)).find((item) => item.key === key)
    const now = yield* Clock.currentTimeMillis
    const claimed = yield* store.claimNextOf(organisation, row?.dueAt ?? now, { owner: "check", realNow: now, until: now + MINUTE })
    return { dueAt: row?.dueAt, attempt: row?.attempt, claimable: claimed._tag === "Claimed" }
  })

const scheduleRows = Effect.gen(function*() {
  const store = yield* DueWorkStore
  yield* store.schedule({ organisation: ORG, kind: KIND, key: "broken", dueAt: START + MINUTE })
  yield* store.schedule({ organisation: OTHER_ORG, kind: KIND, key: "stuck", dueAt: START + MINUTE })
  yield* store.schedule({ organisation: OTHER_ORG, kind: KIND, key: "later", dueAt: START + 10 * MINUTE })
})

describe("the library's advance over a failing row", () => {
  it("runs the rows at the failed row's instant, stops there, and leaves the failed row as it was", async () => {
    const ran: Array<string> = []
    const r = await run(() => failing(ran, undefined), () =>
      Effect.gen(function*() {
        yield* scheduleRows
        const worker = yield* DueWorker
        const exit = yield* Effect.exit(worker.advanceAll(START + 20 * MINUTE, TestClock.setTime))
        return { exit, now: yield* Clock.currentTimeMillis, broken: yield* rowOf(ORG, "broken") }
      }))
    expect(Exit.isFailure(r.exit)).toBe(true)
    // The other organisation's row at that instant ran; the later one waits for the next advance.
    expect(ran).toEqual([`${ORG}/broken`, `${OTHER_ORG}/stuck`])
    expect(r.now).toBeLessThan(START + 10 * MINUTE)
    // Nothing was tried again: the attempts are those before the advance.
    expect(r.broken).toEqual({ dueAt: START + MINUTE, attempt: 0, claimable: true })
  })

  it("interrupted after a row failed, leaves that row at its instant with its attempts, claimable", async () => {
    const ran: Array<string> = []
    const r = await run((block) => failing(ran, block), (block) =>
      Effect.gen(function*() {
        yield* scheduleRows
        const worker = yield* DueWorker
        const advancing = yield* Effect.forkChild(worker.advanceAll(START + 20 * MINUTE, TestClock.setTime))
        yield* Deferred.await(block)
        yield* Fiber.interrupt(advancing)
        return { broken: yield* rowOf(ORG, "broken"), stuck: yield* rowOf(OTHER_ORG, "stuck") }
      }))
    expect(ran).toEqual([`${ORG}/broken`, `${OTHER_ORG}/stuck`])
    expect(r.broken).toEqual({ dueAt: START + MINUTE, attempt: 0, claimable: true })
    // The row running when the advance was interrupted is freed too (its unit of work rolled back).
    expect(r.stuck).toEqual({ dueAt: START + MINUTE, attempt: 0, claimable: true })
  })
})
