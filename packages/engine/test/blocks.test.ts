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

/** Whether creating a bank account with `details` for a fresh customer is refused as blocked. */
const accountOutcome = (details: { readonly iban?: string; readonly account_number?: string; readonly branch_code?: string; readonly country_code?: "GB" }) =>
  Effect.gen(function*() {
    const customers = yield* Customers
    const payer = yield* customers.create(ORG, { given_name: "M", family_name: "J" })
    const r = yield* Effect.result(customers.createBankAccount(ORG, { account_holder_name: "M J", ...details, links: { customer: payer.id } }))
    return r._tag === "Success" ? "accepted" : r.failure._tag === "ValidationFailed" && r.failure.errors.some((e) => e.message.includes("blocked")) ? "blocked" : r.failure.message
  })

/** Blocks the account `details` name, given by a first payer. */
const blockAccount = (details: Parameters<typeof accountOutcome>[0]) =>
  Effect.gen(function*() {
    const customers = yield* Customers
    const owner = yield* customers.create(ORG, { given_name: "Mallory", family_name: "Jones" })
    const account = yield* customers.createBankAccount(ORG, { account_holder_name: "Mallory Jones", ...details, links: { customer: owner.id } })
    return yield* (yield* Blocks).create(ORG, { block_type: "bank_account", resource_reference: account.id, reason_type: "identity_fraud" })
  })

describe("a blocked GB account in the other format", () => {
  // GB33BUKB20201555555555 is sort code 20-20-15, account 55555555.
  it("is refused by sort code and account number when blocked by IBAN", async () => {
    const outcome = await runEngine(Effect.gen(function*() {
      yield* blockAccount({ iban: "GB33BUKB20201555555555" })
      return yield* accountOutcome({ country_code: "GB", branch_code: "20-20-15", account_number: "55555555" })
    }))
    expect(outcome).toBe("blocked")
  })

  it("is refused by IBAN when blocked by sort code and account number", async () => {
    const outcome = await runEngine(Effect.gen(function*() {
      yield* blockAccount({ country_code: "GB", branch_code: "202015", account_number: "55555555" })
      return yield* accountOutcome({ iban: "GB33 BUKB 2020 1555 5555 55" })
    }))
    expect(outcome).toBe("blocked")
  })
})

describe("updating a customer's email", () => {
  it("is refused when the new email or its domain is blocked, and accepted otherwise", async () => {
    const result = await runEngine(Effect.gen(function*() {
      const customers = yield* Customers
      const blocks = yield* Blocks
      yield* blocks.create(ORG, { block_type: "email", resource_reference: "fraud@example.com", reason_type: "identity_fraud" })
      yield* blocks.create(ORG, { block_type: "email_domain", resource_reference: "spam.test", reason_type: "no_intent_to_pay" })
      const customer = yield* customers.create(ORG, { given_name: "Eve", family_name: "Smith", email: "eve@example.com" })
      const update = (email: string) =>
        Effect.map(Effect.result(customers.update(ORG, customer.id, { email })), (r) =>
          r._tag === "Success" ? "accepted" : r.failure._tag === "ValidationFailed" ? r.failure.errors.map((e) => `${e.field} ${e.message}`).join() : r.failure.message)
      return {
        email: yield* update("Fraud@Example.com"),
        domain: yield* update("eve@spam.test"),
        fine: yield* update("eve@example.org"),
        kept: (yield* customers.get(ORG, customer.id)).email
      }
    }))
    expect(result).toEqual({
      email: "email has been blocked from setting up mandates",
      domain: "email has been blocked from setting up mandates",
      fine: "accepted",
      kept: "eve@example.org"
    })
  })
})

describe("a block on details already blocked by a disabled block", () => {
  it("enables that block again, so the details are refused", async () => {
    const result = await runEngine(Effect.gen(function*() {
      const blocks = yield* Blocks
      const customers = yield* Customers
      const first = yield* blocks.create(ORG, { block_type: "email", resource_reference: "fraud@example.com", reason_type: "identity_fraud" })
      yield* blocks.disable(ORG, first.id)
      const again = yield* blocks.create(ORG, { block_type: "email", resource_reference: "FRAUD@example.com", reason_type: "identity_fraud" })
      const refused = yield* Effect.result(customers.create(ORG, { given_name: "E", family_name: "S", email: "fraud@example.com" }))
      return { sameBlock: again.id === first.id, active: again.active, stored: (yield* blocks.get(ORG, first.id)).active, refused: refused._tag }
    }))
    expect(result).toEqual({ sameBlock: true, active: true, stored: true, refused: "Failure" })
  })

  it("by reference enables the disabled blocks on the customer's details", async () => {
    const result = await runEngine(Effect.gen(function*() {
      const blocks = yield* Blocks
      const customers = yield* Customers
      const customer = yield* customers.create(ORG, { given_name: "E", family_name: "S", email: "eve@example.com" })
      const first = yield* blocks.create(ORG, { block_type: "email", resource_reference: "eve@example.com", reason_type: "identity_fraud" })
      yield* blocks.disable(ORG, first.id)
      const byRef = yield* blocks.blockByRef(ORG, { reference_type: "customer", reference_value: customer.id, reason_type: "identity_fraud" })
      const refused = yield* Effect.result(customers.create(ORG, { given_name: "E", family_name: "S", email: "eve@example.com" }))
      return { blocks: byRef.blocks.map((b) => [b.id === first.id, b.active]), refused: refused._tag }
    }))
    expect(result).toEqual({ blocks: [[true, true]], refused: "Failure" })
  })
})

describe("a bank_name block", () => {
  it("is made from an account whose bank is known, and refuses another account at that bank, however written", async () => {
    const result = await runEngine(Effect.gen(function*() {
      const customers = yield* Customers
      const owner = yield* customers.create(ORG, { given_name: "Mallory", family_name: "Jones" })
      // Commerzbank (Bankleitzahl 37040044).
      const account = yield* customers.createBankAccount(ORG, { account_holder_name: "Mallory Jones", iban: "DE89370400440532013000", links: { customer: owner.id } })
      const block = yield* (yield* Blocks).create(ORG, { block_type: "bank_name", resource_reference: account.id, reason_type: "other", reason_description: "Bank of the fraud ring" })
      const payer = yield* customers.create(ORG, { given_name: "M", family_name: "J" })
      const attempt = (details: { readonly iban?: string; readonly account_number?: string; readonly bank_code?: string; readonly country_code?: "DE" }) =>
        Effect.map(Effect.result(customers.createBankAccount(ORG, { account_holder_name: "M J", ...details, links: { customer: payer.id } })), (r) =>
          r._tag === "Success" ? "accepted" : r.failure._tag === "ValidationFailed" && r.failure.errors.some((e) => e.message.includes("blocked")) ? "blocked" : r.failure.message)
      return {
        bankName: account.bank_name,
        blockType: block.block_type,
        sameBankLocal: yield* attempt({ country_code: "DE", bank_code: "37040044", account_number: "1234567890" }),
        otherBank: yield* attempt({ iban: "DE02120300000000202051" })
      }
    }))
    expect(result).toEqual({ bankName: "Commerzbank", blockType: "bank_name", sameBankLocal: "blocked", otherBank: "accepted" })
  })

  it("is refused on an account whose bank cannot be identified", async () => {
    const failure = await runEngine(Effect.gen(function*() {
      const customers = yield* Customers
      const owner = yield* customers.create(ORG, { given_name: "Mallory", family_name: "Jones" })
      const account = yield* customers.createBankAccount(ORG, { account_holder_name: "Mallory Jones", iban: "GB33BUKB20201555555555", links: { customer: owner.id } })
      return yield* Effect.flip((yield* Blocks).create(ORG, { block_type: "bank_name", resource_reference: account.id, reason_type: "identity_fraud" }))
    }))
    expect(failure._tag === "ValidationFailed" ? failure.errors.map((e) => e.field) : failure._tag).toEqual(["resource_reference"])
  })
})
