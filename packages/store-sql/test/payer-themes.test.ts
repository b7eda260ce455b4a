import { Effect, Exit, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { IdGenerator, OrganisationId } from "@paykit/core"
import { Creditors, engineServicesOn, PayerThemeRepository, PayerThemes, SandboxBank, sandboxWebhooks } from "@paykit/engine"
import { describe, expect, it } from "vitest"
import { migrate } from "../src/migrations/index.ts"
import { SqlStorage } from "../src/sql-storage.ts"
import { DATABASES } from "./support/databases.ts"
import { expectOneWinnerRestConflicts } from "./support/fixtures.ts"

/**
 * One payer theme per creditor, held by the database: concurrent first upserts make one theme
 * (the losers answer 409 `conflict`), and migrating a store that already holds several keeps one.
 */

const ORG = OrganisationId("OR0000000000PT")

describe.each(DATABASES)("payer themes on $name", (database) => {
  it("concurrent first upserts of a creditor's theme leave one theme; a request that lost the race is a 409 conflict", { timeout: 60_000 }, () =>
    Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        const creditor = yield* (yield* Creditors).create(ORG, { name: "Acme", country_code: "GB", creditor_type: "company" })
        const themes = yield* PayerThemes
        const colours = ["#111111", "#222222", "#333333", "#444444", "#555555", "#666666", "#777777", "#888888"]
        const outcomes = yield* Effect.all(
          colours.map((colour) => Effect.exit(themes.upsert(ORG, { link_text_colour: colour, links: { creditor: creditor.id } }))),
          { concurrency: "unbounded" }
        )
        expectOneWinnerRestConflicts(outcomes)
        const stored = yield* (yield* PayerThemeRepository).scan(ORG, {})
        expect(stored).toHaveLength(1)
        expect((yield* themes.forCreditor(ORG, creditor.id))?.id).toBe(stored[0]?.resource.id)
      }),
      engineServicesOn(Layer.orDie(SqlStorage.pipe(Layer.provide(database.isolated())))).pipe(
        Layer.provideMerge(Layer.mergeAll(SandboxBank, IdGenerator.layer, sandboxWebhooks))
      )
    )))

  it("migrating a store with several themes of one creditor keeps the most changed one", { timeout: 60_000 }, () =>
    Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* migrate(3)
        const theme = (id: string, version: number, creditor: string) =>
          sql`INSERT INTO resources (organisation_id, resource_type, id, version, created_at, filters, data)
            VALUES (${ORG}, 'payer_themes', ${id}, ${version}, now(), ${JSON.stringify({ creditor })}::jsonb, ${JSON.stringify({ id })}::json)`
        yield* theme("PTH000000000001", 3, "CR000000000001")
        yield* theme("PTH000000000002", 1, "CR000000000001")
        yield* theme("PTH000000000003", 1, "CR000000000002")
        yield* migrate()
        const rows = yield* sql<{ id: string }>`SELECT id FROM resources WHERE resource_type = 'payer_themes' ORDER BY id`
        expect(rows.map((r) => r.id)).toEqual(["PTH000000000001", "PTH000000000003"])
        const again = yield* Effect.exit(theme("PTH000000000004", 1, "CR000000000002"))
        expect(Exit.isFailure(again)).toBe(true)
      }),
      database.isolated()
    )))
})
