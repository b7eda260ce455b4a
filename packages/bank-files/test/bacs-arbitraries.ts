import fc from "fast-check"
import type { Timestamp } from "@paykit/core"
import { unsafeLocalDate } from "@paykit/core"
import type { BankAccount, Collection, MandateInstruction, SubmissionHeader, SubmissionItem } from "../src/index.ts"
import { collectionArb, mandateInstructionArb, originator } from "./arbitraries.ts"

/**
 * Items Bacs accepts as they are, for the Bacs tests: references and names already in Bacs'
 * character set (upper case, digits, space . & / -), references with six letters or digits that
 * are not all one, and sterling amounts. The rules are restated here from Bacs' published ones,
 * not taken from the code under test.
 */

const BACS_CHAR = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .&/-".split("")
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".split("")

const alnum = fc.constantFrom(...ALNUM)
const bacsChars = (min: number, max: number) => fc.array(fc.constantFrom(...BACS_CHAR), { minLength: min, maxLength: max }).map((cs) => cs.join(""))

/** Bacs text of `width` or fewer characters: no leading, trailing or doubled spaces. */
const bacsTextArb = (width: number): fc.Arbitrary<string> =>
  fc.tuple(alnum, bacsChars(0, width - 2), alnum)
    .map(([a, middle, z]) => `${a}${middle}${z}`.replace(/ {2,}/g, " "))
    .filter((s) => s.length <= width)

export const bacsReferenceArb: fc.Arbitrary<string> = bacsTextArb(18).filter((r) => {
  const letters = r.replace(/[^A-Z0-9]/g, "")
  return letters.length >= 6 && !/^(.)\1*$/.test(letters) && !r.startsWith("DDIC") && r !== "CONTRA"
})

export const bacsNameArb: fc.Arbitrary<string> = bacsTextArb(18)

const bacsDebtorArb: fc.Arbitrary<BankAccount> = fc.record({
  account_holder_name: bacsNameArb,
  sort_code: fc.stringMatching(/^\d{6}$/),
  account_number: fc.stringMatching(/^\d{8}$/)
})

export const bacsCollectionArb: fc.Arbitrary<Collection> = fc.tuple(collectionArb, bacsReferenceArb, bacsDebtorArb, fc.integer({ min: 1, max: 99_999_999_999 }))
  .map(([c, mandate_reference, debtor, amount]) => ({ ...c, mandate_reference, debtor, amount }))

export const bacsMandateArb: fc.Arbitrary<MandateInstruction> = fc.tuple(mandateInstructionArb, bacsReferenceArb, bacsDebtorArb)
  .map(([m, mandate_reference, debtor]) => ({ ...m, mandate_reference, debtor }))

export const bacsItemArb: fc.Arbitrary<SubmissionItem> = fc.oneof(bacsCollectionArb, bacsMandateArb)

export const bacsOriginator = { ...originator, name: "ACME LTD" }

export const bacsHeaderFor = (items: ReadonlyArray<SubmissionItem>, overrides: Partial<SubmissionHeader> = {}): SubmissionHeader => ({
  id: "BS01HX3K9ZQ8W7",
  scheme: "bacs",
  format: "bacs_standard18",
  currency: "GBP",
  processing_date: unsafeLocalDate("2026-12-01"),
  created_at: "2026-11-29T09:00:00.000Z" as Timestamp,
  originator: bacsOriginator,
  item_count: items.length,
  total_amount: items.reduce((sum, item) => sum + (item.kind === "collection" ? item.amount : 0), 0),
  ...overrides
})
