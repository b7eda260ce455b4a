import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { Blocks, Customers } from "@paykit/engine"
import { ORG, runEngine } from "./fixtures.ts"

describe("blocked bank accounts", () => {
  it("match the same account however its details are written, and no other", async () => {
    const result = await runEngine(Effect.gen(function*() {
      const customers = yield* Customers
      const owner = yield* customers.create(ORG, { given_name: "Mallory", family_name: "Jones" })
      const blocked = yield* customers.createBankAccount(ORG, {
        account_holder_name: "Mallory Jones", iban: "GB33BUKB20201555555555", links: { customer: owner.id }
      })
      yield* (yield* Blocks).create(ORG, { block_type: "bank_account", resource_reference: blocked.id, reason_type: "unfair_chargeback" })
      const next = yield* customers.create(ORG, { given_name: "M", family_name: "J" })
      const attempt = (details: { readonly iban?: string; readonly account_number?: string; readonly branch_code?: string }) =>
        Effect.map(Effect.result(customers.createBankAccount(ORG, { account_holder_name: "M J", country_code: "GB", ...details, links: { customer: next.id } })), (r) =>
          r._tag === "Success" ? "accepted" : r.failure._tag === "ValidationFailed" && r.failure.errors.some((e) => e.message.includes("blocked")) ? "blocked" : r.failure.message)
      return {
        spaced: yield* attempt({ iban: "GB33 BUKB 2020 1555 5555 55" }),
        lowerCase: yield* attempt({ iban: "gb33bukb20201555555555" }),
        other: yield* attempt({ account_number: "55779911", branch_code: "200000" })
      }
    }))
    expect(result).toEqual({ spaced: "blocked", lowerCase: "blocked", other: "accepted" })
  })
})
