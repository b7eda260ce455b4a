import fc from "fast-check"
import { composeIBAN } from "ibantools"
import { unsafeLocalDate } from "@paykit/core"
import { ABA_PREFIX_RANGES, abaCheckDigit } from "@paykit/validation"
import type { BankAccount, Collection, MandateInstruction, Originator, SubmissionItem } from "../src/index.ts"

/** Shared by the format tests: a creditor, debtors, items, and a file cut into chunks anywhere. */

export const originator: Originator = {
  creditor: "CR000000000001",
  name: "Acme Ltd",
  scheme_identifier: "123456",
  account: { account_holder_name: "Acme Ltd", sort_code: "200000", account_number: "55779911" }
}

export const debtorArb: fc.Arbitrary<BankAccount> = fc.record({
  account_holder_name: fc.stringMatching(/^[A-Za-z][A-Za-z '.-]{0,17}$/),
  sort_code: fc.stringMatching(/^\d{6}$/),
  account_number: fc.stringMatching(/^\d{8}$/)
})

export const idArb = (prefix: string) => fc.stringMatching(/^[0-9A-HJKMNP-TV-Z]{12}$/).map((s) => `${prefix}${s}`)
const dateArb = fc.integer({ min: 1, max: 28 }).map((d) => unsafeLocalDate(`2026-12-${String(d).padStart(2, "0")}`))
const sourceArb = fc.constantFrom("web" as const, "telephone" as const, "paper" as const)

/** Collections in `currency` from payers drawn from `debtors`. */
export const collectionOf = (currency: string, debtors: fc.Arbitrary<BankAccount>): fc.Arbitrary<Collection> => fc.record({
  kind: fc.constant("collection" as const),
  payment: idArb("PM"),
  amount: fc.integer({ min: 1, max: 99_999_999 }),
  currency: fc.constant(currency),
  charge_date: dateArb,
  sequence: fc.constantFrom("first" as const, "recurring" as const, "final" as const, "one_off" as const, "represented" as const),
  mandate: idArb("MD"),
  mandate_reference: fc.stringMatching(/^[A-Z0-9]{6,18}$/),
  mandate_signed_on: dateArb,
  authorisation_source: sourceArb,
  debtor: debtors,
  remittance: fc.option(fc.stringMatching(/^[A-Za-z0-9 ]{1,18}$/), { nil: null })
})

export const collectionArb: fc.Arbitrary<Collection> = collectionOf("GBP", debtorArb)

export const mandateInstructionArb: fc.Arbitrary<MandateInstruction> = fc.record({
  kind: fc.constant("mandate" as const),
  action: fc.constantFrom("setup" as const, "cancel" as const, "convert" as const),
  mandate: idArb("MD"),
  mandate_reference: fc.stringMatching(/^[A-Z0-9]{6,18}$/),
  signed_on: dateArb,
  debtor: debtorArb,
  authorisation_source: sourceArb
})

// ---------------------------------------------------------------------------------------------
// ACH: US debtors with valid ABA routing numbers, in USD

/** A valid ABA routing number: a prefix of an issued range, six digits, and its check digit. */
export const routingNumberArb: fc.Arbitrary<string> = fc.tuple(
  fc.constantFrom(...ABA_PREFIX_RANGES).chain(([low, high]) => fc.integer({ min: low, max: high })),
  fc.stringMatching(/^\d{6}$/)
).map(([prefix, rest]) => {
  const eight = `${String(prefix).padStart(2, "0")}${rest}`
  return `${eight}${abaCheckDigit(eight)}`
})

export const usDebtorArb: fc.Arbitrary<BankAccount> = fc.record({
  account_holder_name: fc.stringMatching(/^[A-Za-z][A-Za-z '.-]{0,21}$/).map((name) => name.trimEnd()),
  routing_number: routingNumberArb,
  account_number: fc.stringMatching(/^[0-9]{4,17}$/),
  account_type: fc.constantFrom("checking" as const, "savings" as const)
})

/** A creditor collecting over ACH: its company identification and its ODFI account. */
export const achOriginator: Originator = {
  creditor: "CR000000000002",
  name: "Acme Payments Inc",
  scheme_identifier: "1234567890",
  account: { account_holder_name: "Acme Payments Inc", routing_number: "121000358", account_number: "000123456789", account_type: "checking" }
}

export const achCollectionArb: fc.Arbitrary<Collection> = fc.tuple(collectionArb, usDebtorArb).map(([collection, debtor]) => ({ ...collection, currency: "USD", debtor }))

/** ACH carries mandate setups only (as prenotes). */
export const achMandateArb: fc.Arbitrary<MandateInstruction> = fc.tuple(mandateInstructionArb, usDebtorArb).map(([mandate, debtor]) => ({ ...mandate, action: "setup", debtor }))

export const achItemArb: fc.Arbitrary<SubmissionItem> = fc.oneof(achCollectionArb, achMandateArb)

// ---------------------------------------------------------------------------------------------
// SEPA

/** Countries whose IBANs ibantools composes from any BBAN of the format (no national check digit). */
const BBANS: ReadonlyArray<readonly [string, RegExp]> = [
  ["DE", /^\d{18}$/],
  ["AT", /^\d{16}$/],
  ["NL", /^[A-Z]{4}\d{10}$/],
  ["IE", /^[A-Z]{4}\d{14}$/]
]

/** Valid IBANs (check digits computed by ibantools, which the project did not write). */
export const ibanArb: fc.Arbitrary<string> = fc.constantFrom(...BBANS)
  .chain(([countryCode, bban]) => fc.stringMatching(bban).map((b) => composeIBAN({ countryCode, bban: b })))
  .filter((iban): iban is string => typeof iban === "string")

export const bicArb: fc.Arbitrary<string> = fc.stringMatching(/^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$/)

/** SEPA payers: a name in SEPA's character set, an IBAN, and a BIC or not (IBAN-only). */
export const sepaDebtorArb: fc.Arbitrary<BankAccount> = fc.record(
  { account_holder_name: fc.stringMatching(/^[A-Za-z][A-Za-z '.-]{0,17}$/), iban: ibanArb, bic: bicArb },
  { requiredKeys: ["account_holder_name", "iban"] }
)

export const sepaOriginator: Originator = {
  creditor: "CR000000000001",
  name: "Acme GmbH",
  scheme_identifier: "DE98ZZZ09999999999",
  account: { account_holder_name: "Acme GmbH", iban: "DE89370400440532013000", bic: "COBADEFFXXX" }
}

export const sepaCollectionArb: fc.Arbitrary<Collection> = collectionOf("EUR", sepaDebtorArb)

/** `bytes` cut at the given offsets (taken modulo its length), in order. */
export const inChunks = (bytes: Uint8Array, cuts: ReadonlyArray<number>): ReadonlyArray<Uint8Array> => {
  const at = [...new Set(cuts.map((c) => (bytes.length === 0 ? 0 : c % bytes.length)))].sort((a, b) => a - b)
  const chunks: Array<Uint8Array> = []
  let from = 0
  for (const to of [...at, bytes.length]) {
    chunks.push(bytes.subarray(from, to))
    from = to
  }
  return chunks
}
