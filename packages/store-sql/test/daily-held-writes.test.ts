import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { IdGenerator, OrganisationId } from "@paykit/core"
import { captureDailyItems, customers, DAILY_BATCH, RepositoryBackend } from "@paykit/engine"
import { sampleCustomer } from "@paykit/engine/testing"
import { SqlStorage } from "../src/sql-storage.ts"
import { DATABASES } from "./support/databases.ts"

/**
 * A daily batch's unit of work holds its first updates and inserts until it ends: a row
 * another transaction changed after the day's scan read it, or an id taken meanwhile, is found at
 * the end and fails the whole batch; the batch then runs one unit per item, unheld, and only the
 * item that lost is left out (its typed failure logged), the others commit.
 */
const ORG = OrganisationId("OR0000000000HW")

describe.each(DATABASES)("a daily batch's held writes on $name", (database) => {
  it("a lost race or a taken id found at the batch's end costs only its item", { timeout: 120_000 }, async () => {
    const count = DAILY_BATCH
    const stale = 17
    const taken = 42
    const storage = Layer.orDie(SqlStorage.pipe(Layer.provide(database.isolated())))
    const result = await Effect.runPromise(Effect.gen(function*() {
      const repository = (yield* RepositoryBackend).repository(customers)
      const eachItem = yield* captureDailyItems
      yield* repository.insertAll(ORG, Array.from({ length: count }, (_, i) => sampleCustomer(i + 1)))
      // The day's scan, then a request changing one row before the batch runs.
      const scanned = yield* repository.scan(ORG, undefined)
      const row = scanned.find((r) => r.resource.id === sampleCustomer(stale).id)
      if (row === undefined) return yield* Effect.die("the stale row was not stored")
      yield* Effect.orDie(repository.update(ORG, { ...row.resource, email: "request@example.com" }, row.version))
      // Another process took the id one item inserts.
      yield* repository.insert(ORG, sampleCustomer(1000 + taken))
      yield* eachItem("held writes", ORG, scanned, (r) => r.resource.id, (r) =>
        Effect.gen(function*() {
          const n = scanned.indexOf(r) + 1
          yield* repository.update(ORG, { ...r.resource, email: `charged${n}@example.com` }, r.version)
          if (n === taken) yield* repository.insert(ORG, sampleCustomer(1000 + taken))
        }))
      return (yield* repository.scan(ORG, undefined)).map((r) => [r.resource.id, r.resource.email, r.version] as const)
    }).pipe(Effect.provide(Layer.merge(storage, IdGenerator.layerSeeded(5)))))
    const byId = new Map(result.map(([id, email, version]) => [id, { email, version }]))
    for (let n = 1; n <= count; n++) {
      const stored = byId.get(sampleCustomer(n).id)
      if (n === stale) expect(stored).toEqual({ email: "request@example.com", version: 2 })
      else if (n === taken) expect(stored).toEqual({ email: sampleCustomer(n).email, version: 1 })
      else expect(stored).toEqual({ email: `charged${n}@example.com`, version: 2 })
    }
  })
})
