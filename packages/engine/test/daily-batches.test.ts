import { Context, Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { IdGenerator, OrganisationId } from "@paykit/core"
import { captureDailyItems, customers, DAILY_BATCH, EventLog, InMemoryStorage, RepositoryBackend, Transactor } from "@paykit/engine"
import { sampleCustomer } from "@paykit/engine/testing"

/**
 * The daily run's items share a unit of work per batch, and a batch that fails runs
 * again one unit of work per item, so a poison item costs only itself: the units of work opened
 * are counted, and what each item wrote is read back.
 */

const ORG = OrganisationId("OR0000000000CC")

/** The in-memory storage whose transactor counts the outermost units of work it opens into `opened`. */
const countingStorage = (opened: { count: number }) =>
  Layer.effectContext(Effect.gen(function*() {
    const transactor = yield* Transactor
    const counted = Transactor.of({
      transaction: (effect) => Effect.suspend(() => {
        opened.count++
        return transactor.transaction(effect)
      })
    })
    return Context.make(Transactor, counted).pipe(
      Context.add(RepositoryBackend, yield* RepositoryBackend),
      Context.add(EventLog, yield* EventLog)
    )
  })).pipe(Layer.provide(InMemoryStorage))

/** Runs `count` items through `DailyItems`, each storing its customer; item `poison` (if any) stores its customer, then dies. */
const runItems = (count: number, poison: ReadonlySet<number>) =>
  Effect.gen(function*() {
    const opened = { count: 0 }
    return yield* Effect.gen(function*() {
      const eachItem = yield* captureDailyItems
      const repository = (yield* RepositoryBackend).repository(customers)
      const items = Array.from({ length: count }, (_, i) => i + 1)
      yield* eachItem("test", ORG, items, String, (n) =>
        Effect.flatMap(repository.insert(ORG, sampleCustomer(n)), () => poison.has(n) ? Effect.die(`poison ${n}`) : Effect.void))
      const stored = (yield* repository.scan(ORG, undefined)).map((row) => row.resource.id)
      return { stored, opened: opened.count, expected: items.filter((n) => !poison.has(n)).map((n) => sampleCustomer(n).id) }
    }).pipe(Effect.provide(Layer.merge(countingStorage(opened), IdGenerator.layerSeeded(3))))
  })

describe("the daily run's batches", () => {
  it("runs a batch of items in one unit of work", async () => {
    const count = 2 * DAILY_BATCH + 1
    const { stored, opened, expected } = await Effect.runPromise(runItems(count, new Set()))
    expect([...stored].sort()).toEqual([...expected].sort())
    expect(opened).toBe(3)
  })

  it("runs a failed batch again one item at a time: the poison item alone is left out", async () => {
    const count = 2 * DAILY_BATCH + 1
    const poison = DAILY_BATCH + 7
    const { stored, opened, expected } = await Effect.runPromise(Effect.orDie(runItems(count, new Set([poison]))))
    expect([...stored].sort()).toEqual([...expected].sort())
    expect(stored).not.toContain(sampleCustomer(poison).id)
    // The first and last batches once each; the second once as a batch, then once per item.
    expect(opened).toBe(1 + 1 + DAILY_BATCH + 1)
  })
})
