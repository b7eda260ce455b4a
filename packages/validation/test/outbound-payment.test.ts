import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { addDays, FASTER_PAYMENTS_REFERENCE_MAX_LENGTH, OUTBOUND_PAYMENT_IMPORT_MAX_ENTRIES, unsafeLocalDate } from "@paykit/core"
import { validateOutboundPaymentCreate, validateOutboundPaymentImportCreate, validateOutboundPaymentWithdrawal } from "../src/index.ts"
import { errorsOf, expectSuccess, pointersOf } from "./helpers.ts"

const today = unsafeLocalDate("2026-11-21")
const payment = { amount: 1000, scheme: "faster_payments", links: { recipient_bank_account: "BA000000000123" } }
const P = (field: string) => `/outbound_payments/${field}`

describe("outbound payment create", () => {
  it("known answers", () => {
    expectSuccess(validateOutboundPaymentCreate({ ...payment, reference: "INV-2026/11 & co.", execution_date: "2026-11-21", metadata: { a: "b" } }, today))
    expect(pointersOf(validateOutboundPaymentCreate({ amount: 0, scheme: "bacs", links: {} }, today))).toEqual([
      P("amount"), P("scheme"), P("links/recipient_bank_account")
    ])
    expect(errorsOf(validateOutboundPaymentCreate({ ...payment, execution_date: "2026-11-20" }, today))[0]?.message).toBe(
      "must not be in the past (today is 2026-11-21)"
    )
    expect(pointersOf(validateOutboundPaymentWithdrawal({ amount: 5, scheme: "faster_payments", execution_date: "2026-11-01" }, today))).toEqual([
      P("execution_date")
    ])
  })

  it("an amount is accepted iff it is an integer greater than 0", () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -1000, max: 10 ** 12 }), fc.double({ noNaN: false })), (amount) => {
        const accepted = pointersOf(validateOutboundPaymentCreate({ ...payment, amount }, today)).length === 0
        expect(accepted).toBe(Number.isSafeInteger(amount) && amount > 0)
      })
    )
  })

  it("an execution date is accepted iff it is not before today", () => {
    fc.assert(
      fc.property(fc.integer({ min: -800, max: 800 }), (offset) => {
        const r = validateOutboundPaymentCreate({ ...payment, execution_date: addDays(today, offset) }, today)
        expect(pointersOf(r).length === 0).toBe(offset >= 0)
      })
    )
  })

  it("a reference is accepted iff it has at most 18 characters from the Faster Payments set", () => {
    const charset = "ABCXYZabcxyz0189 &-./"
    fc.assert(
      fc.property(fc.string({ maxLength: 25, unit: fc.constantFrom(...charset, "_", "é", "#") }), (reference) => {
        const accepted = pointersOf(validateOutboundPaymentCreate({ ...payment, reference }, today)).length === 0
        expect(accepted).toBe(reference.length <= FASTER_PAYMENTS_REFERENCE_MAX_LENGTH && [...reference].every((c) => charset.includes(c)))
      })
    )
  })

  it("every metadata over 3 keys fails at /outbound_payments/metadata", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 4, maxLength: 7 }), (keys) => {
        const metadata = Object.fromEntries(keys.map((k) => [k, "v"]))
        expect(pointersOf(validateOutboundPaymentCreate({ ...payment, metadata }, today))).toContain(P("metadata"))
      })
    )
  })
})

describe("outbound payment import entries", () => {
  const entry = { scheme: "faster_payments", amount: 100, recipient_bank_account_id: "BA000000000001" }

  it("known answers", () => {
    expectSuccess(validateOutboundPaymentImportCreate({ entry_items: [entry, { ...entry, reference: "REF", metadata: null }], links: { creditor: "CR000000000001" } }))
    expect(pointersOf(validateOutboundPaymentImportCreate({ entry_items: [] }))).toEqual(["/outbound_payment_imports/entry_items"])
    expect(pointersOf(validateOutboundPaymentImportCreate({}))).toEqual(["/outbound_payment_imports/entry_items"])
  })

  it(`at most ${OUTBOUND_PAYMENT_IMPORT_MAX_ENTRIES} entries (GoCardless's cap): the cap is accepted, one more refused`, () => {
    expectSuccess(validateOutboundPaymentImportCreate({ entry_items: Array.from({ length: OUTBOUND_PAYMENT_IMPORT_MAX_ENTRIES }, () => entry) }))
    const over = validateOutboundPaymentImportCreate({ entry_items: Array.from({ length: OUTBOUND_PAYMENT_IMPORT_MAX_ENTRIES + 1 }, () => entry) })
    expect(pointersOf(over)).toEqual(["/outbound_payment_imports/entry_items"])
    expect(JSON.stringify(errorsOf(over))).toContain(`at most ${OUTBOUND_PAYMENT_IMPORT_MAX_ENTRIES} entries`)
  })

  it("every bad entry is reported at its own index, all at once", () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), (bad) => {
        const items = bad.map((b) => (b ? { ...entry, amount: -5, reference: "x".repeat(19) } : entry))
        const pointers = pointersOf(validateOutboundPaymentImportCreate({ entry_items: items }))
        const expected = bad.flatMap((b, i) =>
          b ? [`/outbound_payment_imports/entry_items/${i}/amount`, `/outbound_payment_imports/entry_items/${i}/reference`] : []
        )
        expect(pointers).toEqual(expected)
      })
    )
  })
})
