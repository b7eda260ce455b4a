import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { customers, eq } from "@paykit/engine"
import { migrate } from "../src/migrations/index.ts"
import { makeSqlRepository } from "../src/sql-repository.ts"
import { DATABASES } from "./support/databases.ts"
import { ORG } from "./support/fixtures.ts"

/**
 * Migration 0060: every list of customers filters on `removed = false` (a removed customer is never
 * listed), so a customer stored before the key existed must get it, or it would vanish from lists.
 */
describe.each(DATABASES)("customers stored before migration 0060 on $name", (database) => {
  it("are still listed after it, and a removed one is not", { timeout: 60_000 }, async () => {
    const listed = await Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* migrate(59)
        const data = {
          id: "CU0000000000A1", created_at: "2026-11-01T10:00:00.000Z", email: "ada@example.com", given_name: "Ada", family_name: "Lovelace",
          company_name: null, address_line1: null, address_line2: null, address_line3: null, city: null, region: null, postal_code: null,
          country_code: null, language: "en", phone_number: null, swedish_identity_number: null, danish_identity_number: null, metadata: {}
        }
        // The row as the repository wrote it before 0060: the filter values of that day's definition.
        yield* sql`INSERT INTO resources (organisation_id, resource_type, id, version, created_at, filters, data)
          VALUES (${ORG}, 'customers', ${data.id}, 1, ${data.created_at},
            ${JSON.stringify({ created_at: data.created_at, email: data.email })}::jsonb, ${JSON.stringify(data)}::json)`
        yield* migrate()
        const repository = makeSqlRepository(sql, customers, { table: "resources", typed: true })
        const before = yield* repository.list(ORG, { limit: 10, filters: { removed: eq("false") } })
        const stored = yield* Effect.orDie(repository.get(ORG, data.id))
        yield* Effect.orDie(repository.update(ORG, { ...stored.resource, removed_at: "2026-11-02T10:00:00.000Z" as typeof stored.resource.created_at }, stored.version))
        const after = yield* repository.list(ORG, { limit: 10, filters: { removed: eq("false") } })
        return { before: before.items.map((c) => c.id), after: after.items.map((c) => c.id) }
      }),
      database.isolated()
    ))
    expect(listed).toEqual({ before: ["CU0000000000A1"], after: [] })
  })
})
