import fc from "fast-check"
import { composeIBAN } from "ibantools"
import { describe, expect, it } from "vitest"
import {
  abaCheckDigit,
  abaRoutingIssues,
  accountNumberEnding,
  accountTypeIssues,
  bsbParts,
  checkBic,
  checkIban,
  CURRENCY_OF_MANDATE_SCHEME,
  currencyOfCountry,
  debitSchemesOfCountry,
  EURO_COUNTRIES,
  hasAbaPrefix,
  ibanFromLocalDetails,
  isAbaRoutingNumber,
  lookupBankDetails,
  passesModulusCheck,
  resolveBankDetails,
  validateBankDetailsLookup,
  VOCALINK_MODULUS_TABLE_VERSION
} from "../src/index.ts"
import { CURRENCIES } from "@paykit/core"
import { errorsOf, expectSuccess, pointersOf } from "./helpers.ts"

const digitString = (min: number, max: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max }).map((ds) => ds.join(""))

const changeOneDigit = (s: string, index: number, delta: number): string =>
  s.slice(0, index) + String((Number(s[index]) + delta) % 10) + s.slice(index + 1)

describe("UK sort code and account number (Vocalink modulus checks)", () => {
  it("known answers", () => {
    expect(VOCALINK_MODULUS_TABLE_VERSION).toBe("v8-50")
    expect(passesModulusCheck("200000", "55779911")).toBe(true)
    expect(passesModulusCheck("200000", "55779912")).toBe(false)
    expect(passesModulusCheck("180002", "00000190")).toBe(true)
    expect(passesModulusCheck("938063", "15763217")).toBe(false)
    expectSuccess(validateBankDetailsLookup({ country_code: "GB", branch_code: "20-00-00", account_number: "55779911" }))
    expect(errorsOf(validateBankDetailsLookup({ country_code: "GB", branch_code: "200000", account_number: "55779912" }))).toEqual([
      {
        field: "account_number",
        message: "fails the modulus check for this sort code",
        request_pointer: "/bank_details_lookups/account_number",
        reason: "validation_failed"
      }
    ])
    expect(pointersOf(validateBankDetailsLookup({ country_code: "GB", branch_code: "2000", account_number: "5577991" }))).toEqual([
      "/bank_details_lookups/branch_code"
    ])
  })

  it("the check does not depend on how the sort code is written or on the account's leading zeros", () => {
    fc.assert(
      fc.property(digitString(6, 6), digitString(6, 8), (sortCode, account) => {
        const plain = resolveBankDetails({ country_code: "GB", branch_code: sortCode, account_number: account.padStart(8, "0") }).valid
        const written = `${sortCode.slice(0, 2)}-${sortCode.slice(2, 4)}-${sortCode.slice(4)}`
        expect(resolveBankDetails({ country_code: "GB", branch_code: written, account_number: account }).valid).toBe(plain)
        expect(plain).toBe(passesModulusCheck(sortCode, account.padStart(8, "0")))
      })
    )
  })
})

describe("IBAN and BIC", () => {
  it("known answers", () => {
    for (const iban of ["GB33BUKB20201555555555", "DE89370400440532013000", "NL91ABNA0417164300", "FR1420041010050500013M02606", "gb33 bukb 2020 1555 5555 55"]) {
      expect(checkIban(iban).valid).toBe(true)
    }
    expect(checkIban("GB34BUKB20201555555555")).toEqual({ valid: false, messages: ["has wrong check digits"] })
    expect(checkIban("XX00123").valid).toBe(false)
    expect(pointersOf(validateBankDetailsLookup({ iban: "DE89370400440532013001" }))).toEqual(["/bank_details_lookups/iban"])
    expect(checkBic("deut de ff").valid).toBe(true)
    expect(checkBic("ABN4NL2A").valid).toBe(false)
  })

  const germanIban = digitString(18, 18).map((bban) => composeIBAN({ countryCode: "DE", bban }) ?? "")

  it("every composed IBAN is valid, in any case and spacing", () => {
    fc.assert(
      fc.property(germanIban, (iban) => {
        expect(checkIban(iban).valid).toBe(true)
        expect(checkIban(iban.toLowerCase().replace(/(.{4})/g, "$1 ")).valid).toBe(true)
      })
    )
  })

  it("every IBAN with a corrupted check digit is rejected", () => {
    fc.assert(
      fc.property(germanIban, fc.integer({ min: 2, max: 3 }), fc.integer({ min: 1, max: 9 }), (iban, index, delta) => {
        expect(checkIban(changeOneDigit(iban, index, delta)).valid).toBe(false)
      })
    )
  })

  it("every single-digit change of the account part is rejected", () => {
    fc.assert(
      fc.property(germanIban, fc.integer({ min: 4, max: 21 }), fc.integer({ min: 1, max: 9 }), (iban, index, delta) => {
        expect(checkIban(changeOneDigit(iban, index, delta)).valid).toBe(false)
      })
    )
  })
})

describe("ABA routing numbers", () => {
  const validRouting = fc
    .tuple(fc.constantFrom(...[...Array(12).keys()].map((i) => i + 1), ...[...Array(12).keys()].map((i) => i + 21), ...[...Array(12).keys()].map((i) => i + 61)), digitString(6, 6))
    .map(([prefix, rest]) => {
      const eight = String(prefix).padStart(2, "0") + rest
      return eight + String(abaCheckDigit(eight))
    })

  it("known answers", () => {
    expect(isAbaRoutingNumber("011000015")).toBe(true) // Federal Reserve Bank of Boston
    expect(isAbaRoutingNumber("021000021")).toBe(true) // JPMorgan Chase, New York
    expect(abaRoutingIssues("011000016")).toEqual(["has a wrong check digit"])
    expect(abaRoutingIssues("800000006")).toEqual(["must begin with 01-12, 21-32 or 61-72"])
    expect(abaRoutingIssues("12345")).toEqual(["must be a 9-digit ABA routing number"])
  })

  it("every valid ABA number passes and every single-digit change fails", () => {
    fc.assert(
      fc.property(validRouting, fc.integer({ min: 0, max: 8 }), fc.integer({ min: 1, max: 9 }), (routing, index, delta) => {
        expect(isAbaRoutingNumber(routing)).toBe(true)
        expect(isAbaRoutingNumber(changeOneDigit(routing, index, delta))).toBe(false)
      })
    )
  })

  it("a number with a good check digit passes iff its prefix is in a debit range", () => {
    fc.assert(
      fc.property(digitString(8, 8), (eight) => {
        const routing = eight + String(abaCheckDigit(eight))
        const prefix = Number(eight.slice(0, 2))
        const inRange = (prefix >= 1 && prefix <= 12) || (prefix >= 21 && prefix <= 32) || (prefix >= 61 && prefix <= 72)
        expect(hasAbaPrefix(routing)).toBe(inRange)
        expect(isAbaRoutingNumber(routing)).toBe(inRange)
      })
    )
  })

  it("US details are checked with the routing number in bank_code and need account_type", () => {
    expect(resolveBankDetails({ country_code: "US", bank_code: "011000015", account_number: "123456789" }).valid).toBe(true)
    const bad = resolveBankDetails({ country_code: "US", bank_code: "011000016", account_number: "123456789", account_type: null }, { checkCurrencyAndAccountType: true })
    expect(bad.valid ? [] : bad.issues.map((i) => i.path.join("."))).toEqual(["bank_code", "account_type"])
  })
})

describe("AU, NZ and CA formats", () => {
  it("known answers", () => {
    expect(bsbParts("084293")).toEqual({ institution: "08", stateDigit: "4", state: "QLD", branch: "293" })
    expect(bsbParts("656528")?.state).toBe("WA") // the digit says WA although the branch is in Bundaberg, QLD: read, not enforced
    expect(resolveBankDetails({ country_code: "AU", branch_code: "084-293", account_number: "123456" }).valid).toBe(true)
    expect(resolveBankDetails({ country_code: "NZ", bank_code: "12", branch_code: "3140", account_number: "0171323", account_number_suffix: "00" }).valid).toBe(true)
    expect(resolveBankDetails({ country_code: "CA", bank_code: "001", branch_code: "00011", account_number: "1234567" }).valid).toBe(true)
  })

  it("every well-formed set of local details is accepted and every wrong length of a field is rejected at it", () => {
    const cases = [
      { country: "AU", fields: { branch_code: [6, 6], account_number: [5, 9] } },
      { country: "NZ", fields: { bank_code: [2, 2], branch_code: [4, 4], account_number: [7, 7], account_number_suffix: [2, 3] } },
      { country: "CA", fields: { bank_code: [3, 3], branch_code: [5, 5], account_number: [7, 12] } },
      { country: "DK", fields: { bank_code: [4, 4], account_number: [1, 10] } },
      { country: "SE", fields: { branch_code: [4, 5], account_number: [1, 10] } }
    ] as const
    fc.assert(
      fc.property(fc.constantFrom(...cases), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 20 }), fc.integer(), (c, which, badLength, seed) => {
        const entries = Object.entries(c.fields) as ReadonlyArray<readonly [string, readonly [number, number]]>
        const details: Record<string, string> = { country_code: c.country }
        entries.forEach(([field, [min, max]], i) => {
          details[field] = String(Math.abs(seed) + i).padStart(max, "7").slice(0, min + ((Math.abs(seed) + i) % (max - min + 1)))
        })
        expect(resolveBankDetails(details).valid).toBe(true)
        const target = entries[which % entries.length]
        if (target === undefined) return
        const [field, [min, max]] = target
        fc.pre(badLength < min || badLength > max)
        fc.pre(!(c.country === "NZ" && field === "account_number" && badLength === 8))
        fc.pre(!(field === "account_number_suffix" && badLength === 0))
        const r = resolveBankDetails({ ...details, [field]: "1".repeat(badLength) })
        expect(r.valid ? [] : r.issues.map((i) => i.path.join("."))).toContain(field)
      })
    )
  })
})

describe("what a set of bank details can be used for", () => {
  it("known answers: available_debit_schemes as in the bank details lookup", () => {
    const schemesOf = (r: Parameters<typeof lookupBankDetails>[0]) => lookupBankDetails(r).available_debit_schemes
    expect(schemesOf({ country_code: "GB", branch_code: "200000", account_number: "55779911" })).toEqual(["bacs"])
    expect(schemesOf({ iban: "GB33BUKB20201555555555" })).toEqual(["bacs"])
    expect(schemesOf({ iban: "DE89370400440532013000" })).toEqual(["sepa_core"])
    expect(schemesOf({ iban: "SE4550000000058398257466" })).toEqual(["autogiro"])
    expect(schemesOf({ iban: "DK5000400440116243" })).toEqual(["betalingsservice"])
    expect(schemesOf({ country_code: "AU", branch_code: "084293", account_number: "123456" })).toEqual(["becs"])
    expect(schemesOf({ country_code: "NZ", bank_code: "12", branch_code: "3140", account_number: "0171323" })).toEqual(["becs_nz"])
    expect(schemesOf({ country_code: "CA", bank_code: "001", branch_code: "00011", account_number: "1234567" })).toEqual(["pad"])
    expect(schemesOf({ country_code: "US", bank_code: "011000015", account_number: "1234" })).toEqual(["ach"])
    expect(schemesOf({ iban: "CH9300762011623852957" })).toEqual([])
  })

  it("a lookup names a German account's bank and BIC from the Bundesbank's directory, however the account is written; no other country's", () => {
    const commerzbank = { bank_name: "Commerzbank", bic: "COBADEFFXXX", available_debit_schemes: ["sepa_core"] }
    expect(lookupBankDetails({ iban: "DE89370400440532013000" })).toEqual(commerzbank)
    expect(lookupBankDetails({ country_code: "DE", bank_code: "37040044", account_number: "532013000" })).toEqual(commerzbank)
    expect(lookupBankDetails({ iban: "GB33BUKB20201555555555" })).toMatchObject({ bank_name: null, bic: null })
    expect(lookupBankDetails({ iban: "FR1420041010050500013M02606" })).toMatchObject({ bank_name: null, bic: null })
  })

  it("every euro-area country reaches SEPA Core, and each scheme's accounts hold that scheme's currency", () => {
    for (const c of EURO_COUNTRIES) expect(debitSchemesOfCountry(c)).toEqual(["sepa_core"])
    fc.assert(
      fc.property(fc.constantFrom(...EURO_COUNTRIES, "GB", "SE", "DK", "AU", "NZ", "CA", "US"), (country) => {
        for (const scheme of debitSchemesOfCountry(country)) {
          expect(CURRENCY_OF_MANDATE_SCHEME[scheme]).toBe(currencyOfCountry(country))
        }
      })
    )
  })

  it("the account number ending is 4 characters for NZD and 2 otherwise", () => {
    fc.assert(
      fc.property(digitString(4, 20), fc.constantFrom(...CURRENCIES), (account, currency) => {
        const ending = accountNumberEnding(account, currency)
        expect(ending).toBe(account.slice(account.length - (currency === "NZD" ? 4 : 2)))
      })
    )
  })

  it("account_type is required for USD accounts and refused for every other currency", () => {
    fc.assert(
      fc.property(fc.constantFrom(...CURRENCIES), fc.option(fc.constantFrom("savings", "checking"), { nil: undefined }), (currency, type) => {
        const failed = accountTypeIssues(type, currency).length > 0
        expect(failed).toBe(currency === "USD" ? type === undefined : type !== undefined)
      })
    )
  })

  it("a currency that is not the account country's is refused; country_code must match the iban", () => {
    const r = resolveBankDetails({ iban: "DE89370400440532013000", country_code: "FR", currency: "GBP" }, { checkCurrencyAndAccountType: true })
    expect(r.valid ? [] : r.issues.map((i) => i.path.join("."))).toEqual(["country_code", "currency"])
    const sek = resolveBankDetails({ iban: "SE4550000000058398257466" }, { rejectSekIban: true })
    expect(sek.valid ? [] : sek.issues.map((i) => i.path.join("."))).toEqual(["iban"])
    expect(pointersOf(validateBankDetailsLookup({ account_number: "12345678", branch_code: "200000" }))).toEqual(["/bank_details_lookups/country_code"])
    expect(pointersOf(validateBankDetailsLookup({}))).toEqual(["/bank_details_lookups/iban"])
  })
})

describe("IBANs from local details", () => {
  it("known answers", () => {
    expect(ibanFromLocalDetails("DE", { bank_code: "37040044", account_number: "532013000" })).toEqual({ kind: "iban", iban: "DE89370400440532013000" })
    expect(ibanFromLocalDetails("NL", { bank_code: "ABNA", account_number: "417164300" })).toEqual({ kind: "iban", iban: "NL91ABNA0417164300" })
    expect(ibanFromLocalDetails("FR", { bank_code: "20041", branch_code: "01005", account_number: "0500013M026 06" })).toEqual({ kind: "iban", iban: "FR1420041010050500013M02606" })
    expect(ibanFromLocalDetails("FR", { bank_code: "20041", branch_code: "01005", account_number: "0500013M02607" }).kind).toBe("invalid")
    expect(ibanFromLocalDetails("GB", { branch_code: "200000", account_number: "55779911" })).toEqual({ kind: "unsupported" })
    const r = resolveBankDetails({ country_code: "DE", bank_code: "37040044", account_number: "0532013000" })
    expect(r.valid && r.account.iban).toBe("DE89370400440532013000")
    expect(r.valid && r.account.available_debit_schemes).toEqual(["sepa_core"])
  })

  it("every German bank code and account number makes a valid IBAN that holds them", () => {
    fc.assert(
      fc.property(digitString(8, 8), digitString(1, 10), (bank, account) => {
        const r = ibanFromLocalDetails("DE", { bank_code: bank, account_number: account })
        expect(r.kind).toBe("iban")
        if (r.kind === "iban") {
          expect(checkIban(r.iban).valid).toBe(true)
          expect(r.iban.slice(4)).toBe(bank + account.padStart(10, "0"))
        }
      })
    )
  })
})
