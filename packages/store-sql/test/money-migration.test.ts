import { Effect } from "effect"
import { type Creditor, creditors, NO_PAYOUT_ACCOUNTS, type SchemeIdentifier, schemeIdentifierLocations } from "@paykit/engine"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { migrate } from "../src/migrations/index.ts"
import { makeSqlRepository } from "../src/sql-repository.ts"
import { DATABASES } from "./support/databases.ts"
import { ORG, OTHER } from "./support/fixtures.ts"

/**
 * Migration 0059 gives the scheme identifiers of creditors stored before it their location
 * records, as the engine writes them for new ones: found by id, listed by creditor, per organisation.
 */

const CREATED = "2026-01-02T03:04:05.678Z" as Creditor["created_at"]

const identifier = (id: string, scheme: SchemeIdentifier["scheme"]): SchemeIdentifier => ({
  id, created_at: CREATED, name: "Acme", scheme, reference: null, status: "active", minimum_advance_notice: 3,
  address_line1: null, address_line2: null, address_line3: null, city: null, region: null, postal_code: null, country_code: "GB",
  email: null, phone_number: null, currency: "GBP", can_specify_mandate_reference: false
})

const creditor = (id: string, identifiers: ReadonlyArray<SchemeIdentifier>): Creditor => ({
  id, created_at: CREATED, name: "Acme", address_line1: null, address_line2: null, address_line3: null, city: null, region: null,
  postal_code: null, country_code: "GB", creditor_type: "company", bank_reference_prefix: "ACME", can_create_refunds: true,
  logo_url: null, verification_status: "action_required", fx_payout_currency: null, mandate_imports_enabled: false,
  custom_payment_pages_enabled: false, merchant_responsible_for_notifications: false, links: NO_PAYOUT_ACCOUNTS,
  scheme_identifiers: identifiers
})

const LOCATION = { table: "resources", typed: true } as const

describe.each(DATABASES)("migration 0059 on $name", (database) => {
  it("locates the scheme identifiers of creditors stored before it", { timeout: 60_000 }, () =>
    Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* migrate(30)
        const stored = makeSqlRepository(sql, creditors, LOCATION)
        yield* Effect.orDie(stored.insert(ORG, creditor("CR000000000001", [identifier("SU000000000001", "bacs"), identifier("SU000000000002", "faster_payments")])))
        yield* Effect.orDie(stored.insert(OTHER, creditor("CR000000000009", [identifier("SU000000000009", "bacs")])))
        yield* migrate()
        const locations = makeSqlRepository(sql, schemeIdentifierLocations, LOCATION)
        expect((yield* locations.get(ORG, "SU000000000002")).resource).toEqual({ id: "SU000000000002", created_at: CREATED, creditor: "CR000000000001" })
        const listed = yield* locations.list(ORG, { limit: 10, filters: { creditor: { op: "eq", value: "CR000000000001" } } })
        expect(listed.items.map((l) => l.id)).toEqual(["SU000000000002", "SU000000000001"])
        expect((yield* locations.scan(OTHER, {})).map((l) => l.resource.creditor)).toEqual(["CR000000000009"])
      }),
      database.isolated()
    )))
})
