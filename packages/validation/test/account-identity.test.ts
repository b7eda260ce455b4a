import * as fc from "fast-check"
import { composeIBAN } from "ibantools"
import { describe, expect, it } from "vitest"
import { accountIdentityOf, type BankDetailsInput, passesModulusCheck, resolveBankDetails } from "../src/index.ts"

const identity = (input: BankDetailsInput): string | null => {
  const r = resolveBankDetails(input)
  return r.valid ? accountIdentityOf(r.account) : null
}

const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^\\d{${min},${max}}$`))

describe("an account's identity", () => {
  it("is the same for a GB IBAN and the sort code and account number inside it, and differs from any other account", () => {
    fc.assert(fc.property(fc.stringMatching(/^[A-Z]{4}$/), digits(6, 6), digits(8, 8), digits(8, 8), (bank, sortCode, account, other) => {
      fc.pre(passesModulusCheck(sortCode, account))
      const iban = composeIBAN({ countryCode: "GB", bban: `${bank}${sortCode}${account}` })
      if (iban === null) throw new Error("a GB BBAN of the registry's layout composes")
      const local = identity({ country_code: "GB", branch_code: sortCode, account_number: account })
      expect(local).not.toBeNull()
      expect(identity({ iban })).toBe(local)
      if (other !== account && passesModulusCheck(sortCode, other)) {
        expect(identity({ country_code: "GB", branch_code: sortCode, account_number: other })).not.toBe(local)
      }
    }))
  })

  it("is the same for a DK IBAN and the registration and (unpadded) account number inside it", () => {
    fc.assert(fc.property(digits(4, 4), digits(1, 10), (registration, account) => {
      const iban = composeIBAN({ countryCode: "DK", bban: `${registration}${account.padStart(10, "0")}` })
      if (iban === null) throw new Error("a DK BBAN of the registry's layout composes")
      const local = identity({ country_code: "DK", bank_code: registration, account_number: account })
      expect(local).not.toBeNull()
      expect(identity({ iban })).toBe(local)
    }))
  })

  it("of eurozone local details is their IBAN's", () => {
    expect(identity({ country_code: "DE", bank_code: "37040044", account_number: "0532013000" })).toBe(identity({ iban: "DE89370400440532013000" }))
  })
})
