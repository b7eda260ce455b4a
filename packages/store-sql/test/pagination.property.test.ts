import fc from "fast-check"
import { Effect, Layer, ManagedRuntime } from "effect"
import { customers, type Filter, type ListQuery, matchesAll, pageOf, RepositoryBackend } from "@paykit/engine"
import { sampleCustomer } from "@paykit/engine/testing"
import { afterAll, describe, expect, it } from "vitest"
import { SqlStorage } from "../src/sql-storage.ts"
import { DATABASES } from "./support/databases.ts"

/**
 * The SQL list is the engine's reference page: for any set of customers, any filters (equality,
 * membership, created_at ranges) and any cursor and limit, `list` returns exactly what `pageOf`
 * computes over the matching customers, and `scan` every match oldest first. Each run writes into
 * an organisation of its own, so runs share one schema and never see each other's rows.
 */

const EMAILS = ["a@example.com", "b@example.com", "c@example.com", null] as const

const fixture = fc.uniqueArray(fc.record({ n: fc.integer({ min: 1, max: 40 }), email: fc.constantFrom(...EMAILS) }), {
  selector: (c) => c.n,
  maxLength: 15
})

const bound = fc.integer({ min: 0, max: 41 }).map((n) => sampleCustomer(n).created_at)
const rangeFilter: fc.Arbitrary<Filter> = fc.record(
  { gt: bound, gte: bound, lt: bound, lte: bound },
  { requiredKeys: [] }
).map((r) => ({ op: "range", ...r }))
const emailFilter: fc.Arbitrary<Filter> = fc.oneof(
  fc.constantFrom(...EMAILS.filter((e) => e !== null)).map((value): Filter => ({ op: "eq", value })),
  fc.subarray(["a@example.com", "b@example.com", "c@example.com", "z@example.com"]).map((values): Filter => ({ op: "in", values }))
)
const cursor = fc.option(fc.integer({ min: 0, max: 41 }).map((n) => sampleCustomer(n).id), { nil: undefined })

const query = fc.record({
  limit: fc.integer({ min: 1, max: 8 }),
  after: cursor,
  before: cursor,
  email: fc.option(emailFilter, { nil: undefined }),
  created_at: fc.option(rangeFilter, { nil: undefined })
}).map(({ after, before, created_at, email, limit }): ListQuery<"email" | "created_at"> => {
  const filters = { ...(email === undefined ? {} : { email }), ...(created_at === undefined ? {} : { created_at }) }
  return { limit, ...(after === undefined ? {} : { after }), ...(before === undefined ? {} : { before }), filters }
})

describe.each(DATABASES)("pagination on $name", (database) => {
  const runtime = ManagedRuntime.make(Layer.orDie(SqlStorage.pipe(Layer.provide(database.isolated()))))
  afterAll(() => runtime.dispose())
  let organisations = 0

  it("list equals the reference page and scan every match, for any data, filters and cursors", { timeout: 180_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fixture, fc.array(query, { minLength: 1, maxLength: 4 }), async (rows, queries) => {
        const organisation = `OR${String(++organisations).padStart(12, "0")}`
        const all = rows.map(({ email, n }) => sampleCustomer(n, { email }))
        const newestFirst = [...all].sort((a, b) => (a.id < b.id ? 1 : -1))
        await runtime.runPromise(Effect.gen(function*() {
          const repo = (yield* RepositoryBackend).repository(customers)
          for (const c of all) yield* repo.insert(organisation, c)
          for (const q of queries) {
            const matching = newestFirst.filter((c) => matchesAll(customers, c, q.filters))
            expect(yield* repo.list(organisation, q)).toEqual(pageOf(matching, q))
            const scanned = yield* repo.scan(organisation, q.filters)
            expect(scanned.map((v) => v.resource)).toEqual([...matching].reverse())
          }
        }))
      }),
      { numRuns: 40 }
    )
  })
})
