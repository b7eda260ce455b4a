import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { CURRENCIES, NAME_MAX_LENGTH } from "@paykit/core"
import { validateCollectBankAccount } from "../src/index.ts"
import { expectSuccess, pointersOf } from "./helpers.ts"

const P = (field: string) => `/billing_requests/${field}`

describe("collect_bank_account", () => {
  it("known answers", () => {
    expectSuccess(validateCollectBankAccount({ account_holder_name: "Jo Bloggs", country_code: "GB", branch_code: "200000", account_number: "55779911", currency: "GBP" }))
    expectSuccess(validateCollectBankAccount({ account_holder_name: "Jo", iban: "DE89 3704 0044 0532 0130 00" }))
    expectSuccess(validateCollectBankAccount({ account_holder_name: "Jo", country_code: "US", bank_code: "011000015", account_number: "123", account_type: "checking" }))
    expectSuccess(validateCollectBankAccount({ account_holder_name: "Jo", pay_id: "jo@example.com", country_code: "AU" }))
    expect(pointersOf(validateCollectBankAccount({ iban: "SE4550000000058398257466" }))).toEqual([P("account_holder_name"), P("iban")])
    expect(pointersOf(validateCollectBankAccount({ account_holder_name: "Jo", pay_id: "jo@example.com" }))).toEqual([P("country_code")])
    expect(pointersOf(validateCollectBankAccount({ account_holder_name: "Jo", country_code: "US", bank_code: "011000015", account_number: "123" }))).toEqual([P("account_type")])
  })

  it("a currency is accepted iff it is the account country's", () => {
    fc.assert(
      fc.property(fc.constantFrom(...CURRENCIES), (currency) => {
        const r = validateCollectBankAccount({ account_holder_name: "Jo", iban: "NL91ABNA0417164300", currency })
        expect(pointersOf(r)).toEqual(currency === "EUR" ? [] : [P("currency")])
      })
    )
  })

  it("an account holder name is refused past NAME_MAX_LENGTH, as a customer bank account's is", () => {
    const account = { country_code: "GB", branch_code: "200000", account_number: "55779911" }
    expectSuccess(validateCollectBankAccount({ ...account, account_holder_name: "J".repeat(NAME_MAX_LENGTH) }))
    expect(pointersOf(validateCollectBankAccount({ ...account, account_holder_name: "J".repeat(NAME_MAX_LENGTH + 1) }))).toEqual([P("account_holder_name")])
  })
})
