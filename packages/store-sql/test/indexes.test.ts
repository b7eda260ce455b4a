import { Effect, Layer } from "effect"
import { customers, events, RepositoryBackend } from "@paykit/engine"
import { sampleCustomer } from "@paykit/engine/testing"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { makeSqlRepository } from "../src/sql-repository.ts"
import { SqlStorage } from "../src/sql-storage.ts"
import { DATABASES } from "./support/databases.ts"
import { event, ORG, OTHER } from "./support/fixtures.ts"
import { executeLiteral } from "./support/execute-literal.ts"

/**
 * The filters are pushed into SQL and served by indexes: the plans of the repositories' own
 * statements show the index each one can use.
 */
describe.each(DATABASES)("query plans on $name", (database) => {
  it("point reads use the primary key; equality and membership filters their key's index; created_at ranges their index", { timeout: 120_000 }, () =>
    Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const backend = yield* RepositoryBackend
        const repo = backend.repository(customers)
        const log = backend.repository(events)
        yield* sql.withTransaction(Effect.forEach(Array.from({ length: 400 }, (_, i) => i + 1), (n) =>
          Effect.flatMap(
            repo.insert(n % 2 === 0 ? ORG : OTHER, sampleCustomer(n, { email: n === 7 ? "rare@example.com" : `payer${n % 5}@example.com` })),
            () => log.insert(n % 2 === 0 ? ORG : OTHER, event(n, { customer: `CU${n}` }))
          ), { discard: true }))
        yield* sql`ANALYZE`
        const statements = makeSqlRepository(sql, customers, { table: "resources", typed: true }).statements
        const eventStatements = makeSqlRepository(sql, events, { table: "events", typed: false }).statements
        const plan = (statement: { compile: () => readonly [string, ReadonlyArray<unknown>] }) => {
          const [text, params] = statement.compile()
          // A few hundred rows fit in a handful of pages, where reading them all is cheapest; with
          // sequential scans priced out the plan shows which index the statement can use.
          return sql.withTransaction(Effect.gen(function*() {
            yield* sql`SET LOCAL enable_seqscan = off`
            const rows = yield* sql.unsafe<{ "QUERY PLAN": string }>(`EXPLAIN ${text}`, params)
            return rows.map((r) => r["QUERY PLAN"]).join("\n")
          }))
        }
        const third = sampleCustomer(300).created_at
        expect(yield* plan(statements.get(ORG, sampleCustomer(8).id))).toContain("resources_pkey")
        expect(yield* plan(statements.page(OTHER, { limit: 50, filters: { email: { op: "eq", value: "rare@example.com" } } }))).toContain("resources_f_email")
        expect(yield* plan(statements.page(OTHER, { limit: 50, filters: { email: { op: "in", values: ["rare@example.com", "none@example.com"] } } }))).toContain("resources_f_email")
        expect(yield* plan(eventStatements.page(OTHER, { limit: 50, filters: { customer: { op: "eq", value: "CU7" } } }))).toContain("events_f_customer")
        expect(yield* plan(statements.page(ORG, { limit: 50, filters: { created_at: { op: "range", gte: third, lt: sampleCustomer(304).created_at } } }))).toContain("resources_created_at")
      }),
      SqlStorage.pipe(Layer.provideMerge(database.isolated()), Layer.orDie)
    )))

  /**
   * A prepared statement's generic plan is made without the parameters' values, and on a table the
   * planner has no statistics for (a new database: ANALYZE after the migrations saw it empty) every
   * index scan of one organisation's type costs the same one row. The created_at index, keyed by the
   * same organisation and type, then won the point reads, and each read walked every row of its type:
   * an import of 4,000 outbound payments took 10x the time of 1,000 on PostgreSQL. The created_at
   * index is partial so that only a statement bounding created_at can use it (migration 0055).
   */
  it("a point read's generic plan uses the primary key on a table without statistics", { timeout: 120_000 }, () =>
    Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const repo = (yield* RepositoryBackend).repository(customers)
        yield* sql.withTransaction(Effect.forEach(Array.from({ length: 600 }, (_, i) => i + 1), (n) => repo.insert(ORG, sampleCustomer(n)), { discard: true }))
        const statements = makeSqlRepository(sql, customers, { table: "resources", typed: true }).statements
        const [text, params] = statements.get(ORG, sampleCustomer(8).id).compile()
        const plan = yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`SET LOCAL plan_cache_mode = force_generic_plan`
          yield* sql.unsafe(`PREPARE point_read(${params.map(() => "text").join(", ")}) AS ${text}`)
          const literals = params.map(executeLiteral).join(", ")
          const rows = yield* sql.unsafe<{ "QUERY PLAN": string }>(`EXPLAIN EXECUTE point_read(${literals})`)
          yield* sql`DEALLOCATE point_read`
          return rows.map((r) => r["QUERY PLAN"]).join("\n")
        }))
        expect(plan).toContain("resources_pkey")
      }),
      SqlStorage.pipe(Layer.provideMerge(database.isolated()), Layer.orDie)
    )))
})
