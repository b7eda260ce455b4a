import { OrganisationId } from "@paykit/core"
import { PGlite } from "@electric-sql/pglite"
import { Cause, Effect, Exit, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { type Customer, customers, RepositoryBackend, Transactor } from "@paykit/engine"
import { sampleCustomer } from "@paykit/engine/testing"
import * as PgliteClient from "../src/pglite-client.ts"
import { SqlStorage } from "../src/sql-storage.ts"

/**
 * A row that does not fit its definition's schema is a defect that names the definition and what
 * went wrong, whether it is read (a stored row that does not decode, one at a time or in a batch)
 * or written (a resource that does not encode, inserted, updated or held by a unit of work); and
 * nothing of a unit that met one is written.
 */

const ORG = OrganisationId("OR0000000000SS")

const onPglite = <A, E>(effect: (db: PGlite) => Effect.Effect<A, E, Transactor | RepositoryBackend>) =>
  Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const db = yield* Effect.acquireRelease(Effect.promise(() => PGlite.create()), (opened) => Effect.promise(() => opened.close()))
    const storage = SqlStorage.pipe(Layer.provide(PgliteClient.layer({ instance: db })), Layer.orDie)
    return yield* Effect.provide(effect(db), storage)
  })))

/** The defect's message, or a note that there was none. */
const defectOf = (exit: Exit.Exit<unknown, unknown>): string => {
  if (Exit.isSuccess(exit)) return "succeeded"
  const defect = exit.cause.reasons.find(Cause.isDieReason)
  return defect === undefined ? `failed: ${Cause.pretty(exit.cause)}` : String(defect.defect)
}

/** A customer whose email is a number: what no customer's schema accepts. */
const misshapen = (n: number): Customer => ({ ...sampleCustomer(n), email: 42 as unknown as string })

describe("rows that do not fit their schema", () => {
  it("reads a stored row that does not decode as a defect naming the definition, alone and in a batch", async () => {
    const [alone, many, scanned] = await onPglite((db) => Effect.gen(function*() {
      const repository = (yield* RepositoryBackend).repository(customers)
      yield* repository.insertAll(ORG, [sampleCustomer(1), sampleCustomer(2)])
      yield* Effect.promise(() => db.query(`UPDATE resources SET data = jsonb_set(data::jsonb, '{email}', '42')::json WHERE id = $1`, [sampleCustomer(2).id]))
      return [
        yield* Effect.exit(repository.get(ORG, sampleCustomer(2).id)),
        yield* Effect.exit(repository.getMany(ORG, [sampleCustomer(1).id, sampleCustomer(2).id])),
        yield* Effect.exit(repository.scan(ORG, undefined))
      ]
    }))
    for (const exit of [alone, many, scanned]) expect(defectOf(exit)).toMatch(/^Error: customers: stored row does not decode: .*email/s)
  })

  it("writes no resource that does not encode: inserted, updated, or held by a unit", async () => {
    const [inserted, updated, held, stored] = await onPglite(() => Effect.gen(function*() {
      const repository = (yield* RepositoryBackend).repository(customers)
      const transactor = yield* Transactor
      const first = yield* repository.insert(ORG, sampleCustomer(1))
      return [
        yield* Effect.exit(repository.insert(ORG, misshapen(2))),
        yield* Effect.exit(repository.update(ORG, { ...first.resource, email: 42 as unknown as string }, first.version)),
        // A unit whose first write is good and whose second is not writes neither.
        yield* Effect.exit(transactor.transaction(Effect.andThen(repository.insert(ORG, sampleCustomer(3)), repository.insertAll(ORG, [misshapen(4)])))),
        (yield* repository.scan(ORG, undefined)).map((row) => row.resource.id)
      ]
    }))
    for (const exit of [inserted, updated, held]) expect(defectOf(exit)).toMatch(/^Error: customers: resource CU\w+ does not encode: .*email/s)
    expect(stored).toEqual([sampleCustomer(1).id])
  })
})
