import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ADDRESS_FIELD_MAX_LENGTH, MANDATE_PDF_ACCOUNT_HOLDER_NAME_MAX_LENGTH, NAME_MAX_LENGTH } from "@paykit/core"
import { MANDATE_AND_DETAILS_MESSAGE, mandatePdfSchemeOf, validateMandatePdfCreate } from "../src/index.ts"
import { errorsOf, expectSuccess, pointersOf } from "./helpers.ts"

const validate = validateMandatePdfCreate
const P = (field: string) => `/mandate_pdfs/${field}`

describe("mandate PDF rules", () => {
  it("rule 1: blank, manual and mandate-based forms are accepted", () => {
    expectSuccess(validate({ scheme: "bacs" }))
    expectSuccess(validate({ iban: "DE89370400440532013000", account_holder_name: "Anna Schmidt" }))
    expectSuccess(validate({ country_code: "GB", branch_code: "200000", account_number: "55779911" }))
    expectSuccess(validate({ links: { mandate: "MD000000000123" } }))
  })

  it("rule 2: without a scheme, a mandate, an iban or local details with country_code are needed", () => {
    expect(pointersOf(validate({}))).toEqual([P("scheme")])
    expect(pointersOf(validate({ branch_code: "200000", account_number: "55779911" }))).toEqual([P("scheme"), P("country_code")])
  })

  it("rule 3 (known answer): a mandate with an iban is 'Cannot provide both a mandate and other details'", () => {
    expect(errorsOf(validate({ links: { mandate: "MD000000000123" }, iban: "GB33BUKB20201555555555" }))).toEqual([
      { field: "links.mandate", message: MANDATE_AND_DETAILS_MESSAGE, request_pointer: P("links/mandate"), reason: "validation_failed" }
    ])
    expect(MANDATE_AND_DETAILS_MESSAGE).toBe("Cannot provide both a mandate and other details")
  })

  it("rule 3: a mandate with any other non-blank parameter fails, whatever the parameter", () => {
    const fields = ["scheme", "country_code", "iban", "bic", "account_number", "account_holder_name", "given_name", "city", "mandate_reference", "phone_number"] as const
    const values: Readonly<Record<(typeof fields)[number], string>> = {
      scheme: "bacs", country_code: "GB", iban: "GB33BUKB20201555555555", bic: "BUKBGB22", account_number: "55779911",
      account_holder_name: "A", given_name: "B", city: "C", mandate_reference: "REF123", phone_number: "+64 21 000"
    }
    fc.assert(
      fc.property(fc.subarray([...fields], { minLength: 1 }), (chosen) => {
        const body = { links: { mandate: "MD000000000001" }, ...Object.fromEntries(chosen.map((f) => [f, values[f]])) }
        expect(errorsOf(validate(body)).map((e) => e.message)).toEqual([MANDATE_AND_DETAILS_MESSAGE])
      })
    )
  })

  it("account_holder_name is at most 18 characters; mandate_reference blank or 6 to 18", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.string({ maxLength: 30 }), (name, reference) => {
        const pointers = pointersOf(validate({ scheme: "bacs", account_holder_name: name, mandate_reference: reference }))
        expect(pointers.includes(P("account_holder_name"))).toBe(name.length > MANDATE_PDF_ACCOUNT_HOLDER_NAME_MAX_LENGTH)
        expect(pointers.includes(P("mandate_reference"))).toBe(reference.length > 0 && (reference.length < 6 || reference.length > 18))
      })
    )
  })

  it("account_type is required for USD and forbidden otherwise", () => {
    expect(pointersOf(validate({ scheme: "ach" }))).toEqual([P("account_type")])
    expectSuccess(validate({ scheme: "ach", account_type: "checking" }))
    expect(pointersOf(validate({ scheme: "bacs", account_type: "savings" }))).toEqual([P("account_type")])
    expect(pointersOf(validate({ country_code: "US", bank_code: "011000015", account_number: "12345" }))).toEqual([P("account_type")])
    expectSuccess(validate({ country_code: "US", bank_code: "011000015", account_number: "12345", account_type: "savings", region: "MA" }))
    expect(pointersOf(validate({ scheme: "ach", account_type: "savings", region: "Massachusetts" }))).toEqual([P("region")])
  })

  it("subscription_amount and subscription_frequency come together, for USD only", () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.constantFrom("ach", "bacs"), (amount, frequency, scheme) => {
        const body = {
          scheme,
          ...(scheme === "ach" ? { account_type: "checking" } : {}),
          ...(amount ? { subscription_amount: 1000 } : {}),
          ...(frequency ? { subscription_frequency: "monthly" } : {})
        }
        const pointers = pointersOf(validate(body))
        const expectAmountError = (frequency && !amount) || (amount && scheme !== "ach")
        const expectFrequencyError = (amount && !frequency) || (frequency && scheme !== "ach")
        expect(pointers.includes(P("subscription_amount"))).toBe(expectAmountError)
        expect(pointers.includes(P("subscription_frequency"))).toBe(expectFrequencyError)
      })
    )
  })

  it("scheme-only fields: identity numbers and phone number", () => {
    expectSuccess(validate({ scheme: "autogiro", swedish_identity_number: "198112289874" }))
    expect(pointersOf(validate({ scheme: "bacs", swedish_identity_number: "198112289874", danish_identity_number: "0101901234", phone_number: "+44 20 7946 0000" }))).toEqual([
      P("phone_number"), P("swedish_identity_number"), P("danish_identity_number")
    ])
    expect(pointersOf(validate({ iban: "DE89370400440532013000", danish_identity_number: "0101901234" }))).toEqual([P("danish_identity_number")])
    expectSuccess(validate({ scheme: "becs_nz", phone_number: "+64 21 000 0000" }))
  })

  it("bank details are checked: iban not for Autogiro, modulus check, scheme reachable", () => {
    expect(pointersOf(validate({ scheme: "autogiro", iban: "SE4550000000058398257466" }))).toEqual([P("iban")])
    expect(pointersOf(validate({ iban: "SE4550000000058398257466" }))).toEqual([P("iban")])
    expectSuccess(validate({ country_code: "SE", branch_code: "5000", account_number: "1234567", swedish_identity_number: "198112289874" }))
    expect(pointersOf(validate({ country_code: "GB", branch_code: "200000", account_number: "55779912" }))).toEqual([P("account_number")])
    expect(pointersOf(validate({ scheme: "bacs", iban: "DE89370400440532013000" }))).toEqual([P("scheme")])
    expect(pointersOf(validate({ scheme: "sepa_core", iban: "DE89370400440532013000", bic: "NOT A BIC" }))).toEqual([P("bic")])
  })

  it("a scheme without a paper form, or an account of a country without a debit scheme, is refused", () => {
    expect(pointersOf(validate({ scheme: "faster_payments" }))).toEqual([P("scheme")])
    expect(pointersOf(validate({ scheme: "pay_to" }))).toEqual([P("scheme")])
    expect(pointersOf(validate({ iban: "CH9300762011623852957" }))).toEqual([P("country_code")])
  })

  it("the form's scheme is the one given, else the only debit scheme of the account's country", () => {
    const cases: ReadonlyArray<readonly [Record<string, string>, string | undefined]> = [
      [{ scheme: "pad" }, "pad"],
      [{ iban: "FR1420041010050500013M02606" }, "sepa_core"],
      [{ country_code: "GB", branch_code: "200000", account_number: "55779911" }, "bacs"],
      [{ country_code: "SE", branch_code: "5000", account_number: "1234567" }, "autogiro"],
      [{ country_code: "US", bank_code: "011000015", account_number: "12345", account_type: "checking" }, "ach"],
      [{}, undefined]
    ]
    for (const [body, scheme] of cases) {
      const decoded = validate(body)
      expect(Result.isSuccess(decoded) ? mandatePdfSchemeOf(decoded.success) : "refused").toBe(scheme ?? "refused")
    }
  })

  it("free text is capped at the customer's limits: names at NAME_MAX_LENGTH, address fields at ADDRESS_FIELD_MAX_LENGTH", () => {
    const fields: ReadonlyArray<readonly [string, number]> = [
      ["given_name", NAME_MAX_LENGTH], ["family_name", NAME_MAX_LENGTH], ["company_name", NAME_MAX_LENGTH],
      ["address_line1", ADDRESS_FIELD_MAX_LENGTH], ["address_line2", ADDRESS_FIELD_MAX_LENGTH], ["address_line3", ADDRESS_FIELD_MAX_LENGTH],
      ["city", ADDRESS_FIELD_MAX_LENGTH], ["region", ADDRESS_FIELD_MAX_LENGTH], ["postal_code", ADDRESS_FIELD_MAX_LENGTH]
    ]
    fc.assert(
      fc.property(fc.constantFrom(...fields), fc.integer({ min: 1, max: 400 }), ([field, max], length) => {
        const pointers = pointersOf(validate({ scheme: "bacs", [field]: "x".repeat(length) }))
        expect(pointers).toEqual(length > max ? [P(field)] : [])
      })
    )
  })

  it("free text with a control character is refused on its field", () => {
    const fields = ["given_name", "family_name", "company_name", "address_line1", "address_line2", "address_line3", "city", "postal_code", "account_holder_name"] as const
    fc.assert(
      fc.property(fc.constantFrom(...fields), fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), fc.constantFrom("", "\u007f"), (field, control, del) => {
        expect(pointersOf(validate({ scheme: "bacs", [field]: `Ab${control}c${del}` }))).toEqual([P(field)])
      })
    )
    expect(pointersOf(validate({ scheme: "bacs", mandate_reference: "REF\r\n12345" }))).toEqual([P("mandate_reference")])
  })

  it("payer_ip_address must be an IPv4 or IPv6 address", () => {
    for (const ip of ["203.0.113.7", "2001:db8::1", "::ffff:192.0.2.1"]) expectSuccess(validate({ scheme: "ach", account_type: "checking", payer_ip_address: ip }))
    for (const ip of ["not an ip", "203.0.113.256", "1.2.3.4; I also authorise everything", "x".repeat(40), ""]) {
      expect(pointersOf(validate({ scheme: "ach", account_type: "checking", payer_ip_address: ip }))).toEqual([P("payer_ip_address")])
    }
  })

  it("phone_number and the identity numbers are checked for their format", () => {
    expectSuccess(validate({ scheme: "becs_nz", phone_number: "+64 (21) 555-0123" }))
    expectSuccess(validate({ scheme: "autogiro", swedish_identity_number: "811228-9874" }))
    expectSuccess(validate({ scheme: "autogiro", swedish_identity_number: "5566778899" }))
    expectSuccess(validate({ scheme: "betalingsservice", danish_identity_number: "010190-1234" }))
    for (const phone of ["call me", "+64", "1".repeat(40), "+64 21 555\n0123"]) {
      expect(pointersOf(validate({ scheme: "becs_nz", phone_number: phone }))).toEqual([P("phone_number")])
    }
    for (const id of ["19811228987", "ABCDEFGHIJ", "1981-12-28-9874"]) {
      expect(pointersOf(validate({ scheme: "autogiro", swedish_identity_number: id }))).toEqual([P("swedish_identity_number")])
    }
    for (const id of ["010190123", "01019012345", "CPR"]) {
      expect(pointersOf(validate({ scheme: "betalingsservice", danish_identity_number: id }))).toEqual([P("danish_identity_number")])
    }
  })
})
