import { Effect, Layer } from "effect"
import { InMemoryStorage, type EngineStorage, testEngine } from "@paykit/engine"
import { describe, expect, it } from "vitest"
import { program } from "../../../examples/engine-program.ts"
import { productionLayer, productionProgram } from "../../../examples/engine-production.ts"
import { SqlStorage } from "../src/sql-storage.ts"
import { DATABASES } from "./support/databases.ts"

/**
 * The embedding guide's programs (docs/embedding-the-engine.md), as a new embedder runs them: the
 * test program on memory and on every database, and the production one on the real clock.
 */

const START = Date.UTC(2026, 10, 23, 9, 0, 0)
const TIMEOUT_MS = 120_000

const storages: ReadonlyArray<{ readonly name: string; readonly storage: () => Layer.Layer<EngineStorage, unknown> }> = [
  { name: "memory", storage: () => InMemoryStorage },
  ...DATABASES.map((db) => ({ name: db.name, storage: () => SqlStorage.pipe(Layer.provide(db.isolated())) }))
]

describe("the embedding guide's program", () => {
  for (const { name, storage } of storages) {
    it(`creates a mandate and a payment and pays it out, on ${name}`, async () => {
      const r = await Effect.runPromise(Effect.scoped(Effect.provide(program, testEngine({ seed: 1, start: START, storage: storage() }))))
      expect(r.payment.status).toBe("paid_out")
      const moves = r.events.filter((e) => e.resource_type === "payments").map((e) => e.action).toReversed()
      expect(moves).toEqual(["created", "submitted", "confirmed", "paid_out"])
      expect(r.events.some((e) => e.resource_type === "payouts" && e.action === "paid")).toBe(true)
    }, TIMEOUT_MS)
  }

  it("runs due work on the real clock in production: an import is validated by the worker seconds after its creation", async () => {
    const [db] = DATABASES
    if (db === undefined) throw new Error("no database")
    const r = await Effect.runPromise(Effect.scoped(Effect.provide(productionProgram, productionLayer(SqlStorage.pipe(Layer.provide(db.isolated()))))))
    expect(r.created.status).toBe("validating")
    expect(r.validated.status).toBe("valid")
  }, TIMEOUT_MS)
})
