import { Effect, Layer } from "effect"
import { type PaymentReversal, paymentReversals } from "@paykit/engine"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { makeSqlRepository } from "../src/sql-repository.ts"
import { SqlStorage } from "../src/sql-storage.ts"
import { DATABASES } from "./support/databases.ts"
import { ORG, OTHER } from "./support/fixtures.ts"

/**
 * The daily run's "due by today" read of a side record (migration 0008): with thousands of
 * records of which a few are waiting, the repository's own scan statement reads the partial
 * `resources_f_due_on` index, not the organisation's rows of the type.
 */

const reversal = (n: number, done: boolean): PaymentReversal => ({
  id: `PM${String(n).padStart(12, "0")}`,
  created_at: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString() as PaymentReversal["created_at"],
  outcome: "charged_back",
  cause: "authorisation_disputed",
  reason_code: "1",
  description: "The customer disputed the payment.",
  due_on: `2026-${String(1 + (n % 12)).padStart(2, "0")}-15` as PaymentReversal["due_on"],
  done
})

describe.each(DATABASES)("the due-by-day read on $name", (database) => {
  it("reads the due_on index, and answers only the records due and waiting", { timeout: 120_000 }, () =>
    Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const repo = makeSqlRepository(sql, paymentReversals, { table: "resources", typed: true })
        // 4,000 records per organisation; one in a hundred is still waiting.
        for (const organisation of [ORG, OTHER]) {
          for (let chunk = 0; chunk < 4; chunk++) {
            yield* repo.insertAll(organisation, Array.from({ length: 1000 }, (_, i) => reversal(chunk * 1000 + i, (chunk * 1000 + i) % 100 !== 0)))
          }
        }
        yield* sql`ANALYZE`
        const filters = { due_on: { op: "range", lte: "2026-03-31" } } as const
        const plan = (statement: { compile: () => readonly [string, ReadonlyArray<unknown>] }) => {
          const [text, params] = statement.compile()
          return Effect.map(sql.unsafe<{ "QUERY PLAN": string }>(`EXPLAIN ${text}`, params), (rows) => rows.map((r) => r["QUERY PLAN"]).join("\n"))
        }
        expect(yield* plan(repo.statements.scan(ORG, filters))).toContain("resources_f_due_on")
        // A daily job's chunk (`eachInChunks`) reads the same index, not the key in id order.
        expect(yield* plan(repo.statements.scan(ORG, filters, { after: reversal(100, false).id, limit: 500 }))).toContain("resources_f_due_on")
        const due = yield* repo.scan(ORG, filters)
        expect(due.every((row) => !row.resource.done && row.resource.due_on <= "2026-03-31")).toBe(true)
        // n % 100 === 0 and n % 12 in {0, 1, 2}: 0, 100, 200, 1200, 1300, ... up to 4,000.
        expect(due.map((row) => row.resource.id)).toEqual(
          Array.from({ length: 40 }, (_, k) => k * 100).filter((n) => n % 12 <= 2).map((n) => reversal(n, false).id)
        )
      }),
      SqlStorage.pipe(Layer.provideMerge(database.isolated()), Layer.orDie)
    )))
})
