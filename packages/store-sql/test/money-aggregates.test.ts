import { Effect, Layer } from "effect"
import { outboundPayments, payments, payouts } from "@paykit/engine"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { makeSqlRepository } from "../src/sql-repository.ts"
import { SqlStorage } from "../src/sql-storage.ts"
import { DATABASES } from "./support/databases.ts"
import { ORG } from "./support/fixtures.ts"

/**
 * `GET /outbound_payments/stats` and `GET /balances` read totals, not rows: their aggregates are
 * folded in the database (the plan's top node groups the rows), so only one row per group leaves it.
 */

describe.each(DATABASES)("the money reads' aggregates on $name", (database) => {
  it("are grouped and summed in the database: the statements' plans end in an aggregate", { timeout: 60_000 }, () =>
    Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const at = { table: "resources", typed: true }
        const plan = (statement: { compile: () => readonly [string, ReadonlyArray<unknown>] }) => {
          const [text, params] = statement.compile()
          return Effect.map(sql.unsafe<{ "QUERY PLAN": string }>(`EXPLAIN ${text}`, params), (rows) => rows.map((r) => r["QUERY PLAN"]))
        }
        const statements = [
          makeSqlRepository(sql, outboundPayments, at).statements.aggregate(ORG, {}, "status", "amount"),
          makeSqlRepository(sql, payments, at).statements.aggregate(ORG, { creditor: { op: "eq", value: "CR1" }, status: { op: "eq", value: "submitted" } }, "currency", "amount"),
          makeSqlRepository(sql, payouts, at).statements.aggregate(ORG, { creditor: { op: "eq", value: "CR1" }, status: { op: "eq", value: "pending" } }, "currency", "amount")
        ]
        for (const statement of statements) {
          const [top = ""] = yield* plan(statement)
          expect(top).toMatch(/Aggregate/)
        }
      }),
      SqlStorage.pipe(Layer.provideMerge(database.isolated()), Layer.orDie)
    )))
})
