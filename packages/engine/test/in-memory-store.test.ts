import { OrganisationId } from "@paykit/core"
import { Deferred, Effect, Fiber } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { DuplicateId, type Filter, type Page, RepositoryBackend, Transactor, customers, eq, makeInMemoryStore, matchesAll, pageOf } from "@paykit/engine"
import { sampleCustomer } from "@paykit/engine/testing"
import type { Customer } from "@paykit/engine"
import { insertSorted, mergeSorted, pageOfAscending } from "../src/memory/ordered-page.ts"

const ORG = OrganisationId("OR000000000001")

const idList = fc.uniqueArray(fc.stringMatching(/^[0-9A-Z]{3}$/), { maxLength: 40 })
const cursor = fc.option(fc.stringMatching(/^[0-9A-Z]{3}$/), { nil: undefined })

describe("pageOfAscending: pageOf over ascending ids, walking only what the page needs", () => {
  it("gives exactly pageOf's page for any ids, matches, cursors and limit", () => {
    fc.assert(fc.property(idList, fc.func(fc.boolean()), cursor, cursor, fc.integer({ min: 0, max: 12 }), (ids, keep, before, after, limit) => {
      const ascending = [...ids].sort()
      const matches = new Set(ascending.filter((id) => keep(id)))
      const query = { limit, ...(before === undefined ? {} : { before }), ...(after === undefined ? {} : { after }) }
      const expected = pageOf([...matches].sort().reverse().map((id) => ({ id })), query)
      const actual = pageOfAscending(ascending, (id) => (matches.has(id) ? { id } : undefined), query)
      expect(actual).toEqual(expected)
    }))
  })

  it("insertSorted keeps ids ascending whatever the order they arrive in", () => {
    fc.assert(fc.property(idList, (ids) => {
      const sorted: Array<string> = []
      for (const id of ids) insertSorted(sorted, id)
      expect(sorted).toEqual([...ids].sort())
    }))
  })

  it("mergeSorted is the sorted union of two ascending arrays", () => {
    fc.assert(fc.property(idList, idList, (a, b) => {
      expect(mergeSorted([...a].sort(), [...b].sort())).toEqual([...new Set([...a, ...b])].sort())
    }))
  })
})

/** One step of a random workload: a unit of work of inserts and updates that commits or fails. */
type Step = {
  readonly inserts: ReadonlyArray<number>
  readonly updates: ReadonlyArray<number>
  readonly fails: boolean
  readonly inTransaction: boolean
}

const step: fc.Arbitrary<Step> = fc.record({
  inserts: fc.array(fc.integer({ min: 1, max: 60 }), { maxLength: 4 }),
  updates: fc.array(fc.integer({ min: 1, max: 60 }), { maxLength: 3 }),
  fails: fc.boolean(),
  inTransaction: fc.boolean()
})

class Abort {
  readonly _tag = "Abort"
}

describe("in-memory store: transactions over a write log", () => {
  it("agrees with a model map after any sequence of committed and failed units of work", async () => {
    await fc.assert(fc.asyncProperty(fc.array(step, { maxLength: 25 }), fc.integer({ min: 1, max: 8 }), (steps, limit) =>
      Effect.runPromise(Effect.gen(function*() {
        const store = yield* makeInMemoryStore()
        const repository = store.backend.repository(customers)
        const model = new Map<string, { customer: Customer; version: number }>()
        for (const s of steps) {
          // Within a unit of work the model is changed on a copy, published only when it commits.
          const working = new Map(model)
          const work = Effect.gen(function*() {
            for (const n of s.inserts) {
              const customer = sampleCustomer(n)
              const inserted = yield* Effect.result(repository.insert(ORG, customer))
              if (working.has(customer.id)) {
                expect(inserted._tag).toBe("Failure")
              } else {
                expect(inserted._tag).toBe("Success")
                working.set(customer.id, { customer, version: 1 })
              }
            }
            for (const n of s.updates) {
              const id = sampleCustomer(n).id
              const current = working.get(id)
              if (current === undefined) continue
              const next = { ...current.customer, email: `changed${current.version}@example.com` }
              const saved = yield* Effect.orDie(repository.update(ORG, next, current.version))
              expect(saved.version).toBe(current.version + 1)
              working.set(id, { customer: next, version: saved.version })
            }
            // Reads inside the unit of work see its own writes.
            const inside = yield* repository.scan(ORG, undefined)
            expect(inside.map((r) => r.resource.id)).toEqual([...working.keys()].sort())
            if (s.fails) return yield* Effect.fail(new Abort())
          })
          const result = yield* Effect.result(s.inTransaction ? store.transactor.transaction(work) : work)
          // Outside a transaction each write commits on its own, so a failure keeps what came before it.
          if (result._tag === "Success" || !s.inTransaction) for (const [id, row] of working) model.set(id, row)
        }
        const scanned = yield* repository.scan(ORG, undefined)
        expect(scanned.map((r) => [r.resource.id, r.resource.email, r.version])).toEqual(
          [...model.values()].sort((a, b) => (a.customer.id < b.customer.id ? -1 : 1)).map((r) => [r.customer.id, r.customer.email, r.version])
        )
        const newestFirst = [...model.values()].map((r) => r.customer).sort((a, b) => (a.id < b.id ? 1 : -1))
        let page: Page<Customer> = yield* repository.list(ORG, { limit })
        expect(page).toEqual(pageOf(newestFirst, { limit }))
        while (page.after !== null) {
          const after: string = page.after
          page = yield* repository.list(ORG, { limit, after })
          expect(page).toEqual(pageOf(newestFirst, { limit, after }))
        }
        const filters: { readonly email: Filter } = { email: eq("payer3@example.com") }
        const filtered = yield* repository.list(ORG, { limit, filters })
        expect(filtered).toEqual(pageOf(newestFirst.filter((c) => matchesAll(customers, c, filters)), { limit }))
      }))
    ), { numRuns: 60 })
  })

  it("a reader outside a running transaction never sees its uncommitted writes", async () => {
    const program = Effect.gen(function*() {
      const backend = yield* RepositoryBackend
      const transactor = yield* Transactor
      const repository = backend.repository(customers)
      const written = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      const writer = yield* Effect.forkChild(transactor.transaction(Effect.gen(function*() {
        yield* repository.insert(ORG, sampleCustomer(1))
        yield* Deferred.succeed(written, undefined)
        yield* Deferred.await(release)
      })))
      yield* Deferred.await(written)
      const during = yield* Effect.result(repository.get(ORG, sampleCustomer(1).id))
      const listedDuring = yield* repository.list(ORG, { limit: 10 })
      const organisationsDuring = yield* backend.organisations
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(writer)
      const after = yield* repository.get(ORG, sampleCustomer(1).id)
      return { during: during._tag, listedDuring: listedDuring.items.length, organisationsDuring, after: after.version }
    })
    const store = await Effect.runPromise(makeInMemoryStore())
    const result = await Effect.runPromise(program.pipe(
      Effect.provideService(RepositoryBackend, store.backend),
      Effect.provideService(Transactor, store.transactor)
    ))
    expect(result).toEqual({ during: "Failure", listedDuring: 0, organisationsDuring: [], after: 1 })
  })

  it("a duplicate id inside a transaction is refused against committed rows and the transaction's own", async () => {
    const store = await Effect.runPromise(makeInMemoryStore())
    const repository = store.backend.repository(customers)
    await Effect.runPromise(repository.insert(ORG, sampleCustomer(1)))
    const outcome = await Effect.runPromise(store.transactor.transaction(Effect.gen(function*() {
      const again = yield* Effect.result(repository.insert(ORG, sampleCustomer(1)))
      yield* repository.insert(ORG, sampleCustomer(2))
      const twice = yield* Effect.result(repository.insert(ORG, sampleCustomer(2)))
      return [again, twice].map((r) => (r._tag === "Failure" && r.failure instanceof DuplicateId ? "duplicate" : r._tag))
    })))
    expect(outcome).toEqual(["duplicate", "duplicate"])
  })
})
