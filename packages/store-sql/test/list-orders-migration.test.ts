import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { customerBankAccounts, customers, payments } from "@paykit/engine"
import { migrate } from "../src/migrations/index.ts"
import { DATABASES } from "./support/databases.ts"
import { ORG } from "./support/fixtures.ts"

/**
 * Migration 0066 gives the rows stored before it the values of the keys lists are now ordered and
 * filtered by (`sort_name`, `sort_company_name`, `sort_amount`, `currency_customer`), written in
 * SQL: each must be what the engine's extractor gives the same resource, byte for byte, or a list
 * would order old rows apart from new ones.
 */

const customer = (id: string, names: { readonly given_name: string | null; readonly family_name: string | null; readonly company_name: string | null }) => ({
  id, created_at: "2026-11-01T10:00:00.000Z", email: null, ...names,
  address_line1: null, address_line2: null, address_line3: null, city: null, region: null, postal_code: null,
  country_code: "GB", language: "en", phone_number: null, swedish_identity_number: null, danish_identity_number: null, metadata: {}
})

const CUSTOMERS = [
  customer("CU0000000000A1", { given_name: "Ada", family_name: "Lovelace", company_name: null }),
  customer("CU0000000000A2", { given_name: null, family_name: null, company_name: "ACME Ltd" }),
  customer("CU0000000000A3", { given_name: "Émile", family_name: "ZOLA", company_name: "Éditions" }),
  customer("CU0000000000A4", { given_name: "", family_name: "Hopper", company_name: "" })
]

const PAYMENTS = [7, 1_500, 9_007_199_254_740_991].map((amount, i) => ({
  id: `PM000000000A${i}`, created_at: "2026-11-01T10:00:00.000Z", amount, amount_refunded: 0, app_fee: null, charge_date: "2026-12-01",
  currency: "GBP", description: null, faster_ach: null, reference: null, retry_if_possible: false, scheme: "bacs", status: "pending_submission",
  fx: { estimated_exchange_rate: null, exchange_rate: null, fx_amount: null, fx_currency: null }, metadata: {}, links: { creditor: "CR0000000000A1", mandate: "MD0000000000A1" }
}))

const ACCOUNTS = (["GBP", null] as const).map((currency, i) => ({
  id: `BA000000000A${i}`, created_at: "2026-11-01T10:00:00.000Z", account_holder_name: "Ada Lovelace", account_number_ending: "11", account_type: null,
  bank_name: "BARCLAYS", country_code: "GB", currency, enabled: true, metadata: {}, payer_name_verification_result: null, links: { customer: "CU0000000000A1" }
}))

describe.each(DATABASES)("rows stored before migration 0066 on $name", (database) => {
  it("get the values the engine's extractors give them", { timeout: 60_000 }, async () => {
    const stored = await Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* migrate(65)
        const rows: ReadonlyArray<readonly [string, { readonly id: string; readonly created_at: string }]> = [
          ...CUSTOMERS.map((c) => ["customers", c] as const),
          ...PAYMENTS.map((p) => ["payments", p] as const),
          ...ACCOUNTS.map((a) => ["customer_bank_accounts", a] as const)
        ]
        for (const [type, data] of rows) {
          yield* sql`INSERT INTO resources (organisation_id, resource_type, id, version, created_at, filters, data)
            VALUES (${ORG}, ${type}, ${data.id}, 1, ${data.created_at}, ${JSON.stringify({ created_at: data.created_at })}::jsonb, ${JSON.stringify(data)}::json)`
        }
        yield* migrate()
        return yield* sql<{ id: string; filters: unknown }>`SELECT id, filters FROM resources WHERE organisation_id = ${ORG} ORDER BY id`
      }),
      database.isolated()
    ))
    const filtersOf = (id: string): Record<string, unknown> => {
      const row = stored.find((r) => r.id === id)
      return (typeof row?.filters === "string" ? JSON.parse(row.filters) : row?.filters) as Record<string, unknown>
    }
    for (const c of CUSTOMERS) {
      const resource = c as unknown as Parameters<typeof customers.filters.sort_name>[0]
      expect(filtersOf(c.id), c.id).toMatchObject({ sort_name: customers.filters.sort_name(resource), sort_company_name: customers.filters.sort_company_name(resource) })
    }
    expect(customers.filters.sort_name(CUSTOMERS[2] as never)).toBe("Émile zola")
    for (const p of PAYMENTS) expect(filtersOf(p.id)["sort_amount"]).toBe(payments.filters.sort_amount(p as never))
    expect(filtersOf("BA000000000A0")["currency_customer"]).toBe(customerBankAccounts.filters.currency_customer(ACCOUNTS[0] as never))
    expect(filtersOf("BA000000000A1")).not.toHaveProperty("currency_customer")
  })
})
