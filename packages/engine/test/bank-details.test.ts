import { Effect, Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Customers, Mandates, mandateSchemesOfAccount } from "@paykit/engine"
import { lookupBankDetails } from "@paykit/validation"
import { ORG, runEngine, setUpPayer } from "./fixtures.ts"

const fieldsOf = (e: unknown): ReadonlyArray<string> =>
  typeof e === "object" && e !== null && "errors" in e && Array.isArray(e.errors)
    ? e.errors.map((x: { readonly field: string }) => x.field)
    : []

/** A customer of ORG, and the result of creating a bank account for it with `details`. */
const tryAccount = (details: Record<string, unknown>) =>
  Effect.gen(function*() {
    const customers = yield* Customers
    const customer = yield* customers.create(ORG, { given_name: "Ada", family_name: "Lovelace" })
    return yield* Effect.result(customers.createBankAccount(ORG, { account_holder_name: "Ada Lovelace", ...details, links: { customer: customer.id } }))
  })

describe("customer bank accounts are checked by @paykit/validation's bank details rules", () => {
  it("accepts a UK account passing the Vocalink modulus check and refuses one failing it", async () => {
    const [good, bad] = await runEngine(Effect.all([
      tryAccount({ branch_code: "20-00-00", account_number: "55779911", country_code: "GB" }),
      tryAccount({ branch_code: "200000", account_number: "55779912", country_code: "GB" })
    ]))
    expect(Result.isSuccess(good) && [good.success.currency, good.success.account_number_ending]).toEqual(["GBP", "11"])
    expect(Result.isFailure(bad) && fieldsOf(bad.failure)).toEqual(["account_number"])
  })

  it("checks IBANs with ibantools, ABA routing numbers, account_type and the NZD 4-digit ending", async () => {
    const r = await runEngine(Effect.all({
      iban: tryAccount({ iban: "DE89 3704 0044 0532 0130 00" }),
      badIban: tryAccount({ iban: "DE89370400440532013001" }),
      aba: tryAccount({ country_code: "US", bank_code: "026009593", account_number: "123456789", account_type: "checking" }),
      badAba: tryAccount({ country_code: "US", bank_code: "026009594", account_number: "123456789", account_type: "checking" }),
      noType: tryAccount({ country_code: "US", bank_code: "026009593", account_number: "123456789" }),
      typeOnGb: tryAccount({ country_code: "GB", branch_code: "200000", account_number: "55779911", account_type: "savings" }),
      nz: tryAccount({ country_code: "NZ", bank_code: "12", branch_code: "3456", account_number: "0123456", account_number_suffix: "00" }),
      wrongCurrency: tryAccount({ country_code: "GB", branch_code: "200000", account_number: "55779911", currency: "EUR" }),
      sekIban: tryAccount({ iban: "SE4550000000058398257466" }),
      badBsb: tryAccount({ country_code: "AU", branch_code: "12345", account_number: "123456" })
    }))
    expect(Result.isSuccess(r.iban) && [r.iban.success.country_code, r.iban.success.currency, r.iban.success.account_number_ending]).toEqual(["DE", "EUR", "00"])
    expect(Result.isFailure(r.badIban) && fieldsOf(r.badIban.failure)).toContain("iban")
    expect(Result.isSuccess(r.aba) && r.aba.success.account_type).toBe("checking")
    expect(Result.isFailure(r.badAba) && fieldsOf(r.badAba.failure)).toEqual(["bank_code"])
    expect(Result.isFailure(r.noType) && fieldsOf(r.noType.failure)).toEqual(["account_type"])
    expect(Result.isFailure(r.typeOnGb) && fieldsOf(r.typeOnGb.failure)).toEqual(["account_type"])
    expect(Result.isSuccess(r.nz) && [r.nz.success.currency, r.nz.success.account_number_ending]).toEqual(["NZD", "3456"])
    expect(Result.isFailure(r.wrongCurrency) && fieldsOf(r.wrongCurrency.failure)).toEqual(["currency"])
    expect(Result.isFailure(r.sekIban) && fieldsOf(r.sekIban.failure)).toEqual(["iban"])
    expect(Result.isFailure(r.badBsb) && fieldsOf(r.badBsb.failure)).toEqual(["branch_code"])
  })

  it("creates an account exactly when the bank details lookup finds the details valid (one code path)", async () => {
    await fc.assert(fc.asyncProperty(fc.stringMatching(/^\d{8}$/), async (accountNumber) => {
      const details = { country_code: "GB" as const, branch_code: "200000", account_number: accountNumber }
      const created = await runEngine(tryAccount(details))
      const reachable = lookupBankDetails(details).available_debit_schemes.length > 0
      expect(Result.isSuccess(created)).toBe(reachable)
    }), { numRuns: 25, seed: 6 })
  })
})

describe("a mandate's scheme is one its account can use", () => {
  it("defaults to the account's first available debit scheme and refuses another country's scheme on `scheme`", async () => {
    const r = await runEngine(Effect.gen(function*() {
      const { mandate, account } = yield* setUpPayer(ORG)
      const mandates = yield* Mandates
      const sepa = yield* Effect.flip(mandates.create(ORG, { scheme: "sepa_core", links: { customer_bank_account: account.id } }))
      const vrp = yield* mandates.create(ORG, { scheme: "faster_payments", links: { customer_bank_account: account.id } })
      return { scheme: mandate.scheme, sepa: fieldsOf(sepa), message: "errors" in sepa ? sepa.errors[0]?.message : undefined, vrp: vrp.scheme }
    }))
    expect(r).toEqual({ scheme: "bacs", sepa: ["scheme"], message: "is not available for this bank account (available: bacs, faster_payments)", vrp: "faster_payments" })
  })

  it("every scheme available for an account's country is a scheme of that country's bank details lookup, or a non-debit mandate scheme", () => {
    fc.assert(fc.property(fc.constantFrom("GB", "DE", "FR", "SE", "DK", "AU", "NZ", "CA", "US", "CH", "JP"), (country) => {
      const schemes = mandateSchemesOfAccount(country)
      const debit = schemes.filter((s) => s !== "faster_payments" && s !== "pay_to")
      // the default (first) is always a debit scheme when there is any
      if (schemes.length > 0) expect(debit[0]).toBe(schemes[0])
      expect(new Set(schemes).size).toBe(schemes.length)
    }))
  })
})
