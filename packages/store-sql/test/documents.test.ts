import { Effect, Exit, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { IdGenerator, OrganisationId } from "@paykit/core"
import { BankDetailsVault, Creditors, Customers, engineServicesOn, LogoRepository, Logos, PublicKeys, SandboxBank, sandboxWebhooks } from "@paykit/engine"
import { generateKeyPairSync } from "node:crypto"
import { describe, expect, it } from "vitest"
import { SqlStorage } from "../src/sql-storage.ts"
import { DATABASES } from "./support/databases.ts"
import { expectOneWinnerRestConflicts } from "./support/fixtures.ts"

/**
 * Issue 21's records on SQL: one logo per creditor held by the database (migration 0062), public
 * keys stored per organisation, and a customer bank account's full details sealed at rest (the
 * number is in no row as text) yet opened again by the vault.
 */

const ORG = OrganisationId("OR0000000000DS")
/** A 1x1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

const engineOn = (database: (typeof DATABASES)[number]) =>
  // The SQL client stays in the context, for the test to read the rows as stored.
  engineServicesOn(Layer.orDie(SqlStorage)).pipe(
    Layer.provideMerge(Layer.mergeAll(SandboxBank, IdGenerator.layer, sandboxWebhooks, Layer.orDie(database.isolated())))
  )

describe.each(DATABASES)("documents and secrets on $name", (database) => {
  it("concurrent first uploads of a creditor's logo leave one logo; a request that lost the race is a 409 conflict", { timeout: 60_000 }, () =>
    Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        const creditor = yield* (yield* Creditors).create(ORG, { name: "Acme", country_code: "GB", creditor_type: "company" })
        const logos = yield* Logos
        const outcomes = yield* Effect.all(
          Array.from({ length: 6 }, () => Effect.exit(logos.upload(ORG, { image: PNG, links: { creditor: creditor.id } }))),
          { concurrency: "unbounded" }
        )
        expectOneWinnerRestConflicts(outcomes)
        const stored = yield* (yield* LogoRepository).scan(ORG, {})
        expect(stored).toHaveLength(1)
        expect((yield* logos.forCreditor(ORG, creditor.id))?.id).toBe(stored[0]?.resource.id)
      }),
      engineOn(database)
    )))

  it("keeps public keys per organisation and the full bank details sealed, opened only by the vault", { timeout: 60_000 }, () =>
    Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const pem = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({ type: "spki", format: "pem" }).toString()
        const keys = yield* PublicKeys
        const key = yield* keys.create(ORG, { public_key: pem })
        expect((yield* keys.get(ORG, key.id)).public_key).toBe(pem)
        expect(Exit.isFailure(yield* Effect.exit(keys.get(OrganisationId("OR0000000000XX"), key.id)))).toBe(true)

        const customers = yield* Customers
        const customer = yield* customers.create(ORG, { given_name: "Ada", family_name: "Lovelace", country_code: "GB" })
        const account = yield* customers.createBankAccount(ORG, {
          account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB", links: { customer: customer.id }
        })
        const rows = yield* sql<{ resource_type: string; data: unknown }>`SELECT resource_type, data FROM resources WHERE organisation_id = ${ORG}`
        expect(rows.some((r) => r.resource_type === "sealed_bank_details")).toBe(true)
        for (const row of rows) expect(JSON.stringify(row.data)).not.toContain("55779911")
        expect(yield* (yield* BankDetailsVault).open(ORG, account.id)).toMatchObject({ account_number: "55779911", branch_code: "200000" })
        // Another organisation's vault does not open this account's box.
        expect(yield* (yield* BankDetailsVault).open("OR0000000000XX", account.id)).toBeUndefined()
      }),
      engineOn(database)
    )))
})
