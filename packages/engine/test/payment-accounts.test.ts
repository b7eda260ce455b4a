import fc from "fast-check"
import { Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { PAYMENT_ACCOUNT_HOLDER_NAME_MAX_LENGTH } from "@paykit/core"
import {
  PaymentAccounts,
  accountNumberEndingOf,
  paymentAccountHolderName
} from "@paykit/engine"
import { ORG, fundAccount, runOutbound, setUpCreditor } from "./outbound-fixtures.ts"

const FASTER_PAYMENTS_CHARS = /^[A-Z0-9 &\-./]*$/

describe("payment account holder names", () => {
  it("are transliterated, upcased and cut to 18 characters (known answers)", () => {
    expect(paymentAccountHolderName("Café Zoë Ltd")).toBe("CAFE ZOE LTD")
    expect(paymentAccountHolderName("Straße Gesellschaft mbH")).toBe("STRASSE GESELLSCHA")
    expect(paymentAccountHolderName("Søren Łukasz Æbeltoft")).toBe("SOREN LUKASZ AEBEL")
    expect(paymentAccountHolderName("  Acme   Payroll  ")).toBe("ACME PAYROLL")
  })

  it("always fit Faster Payments: at most 18 characters from its upper-case set, no outer spaces", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme", maxLength: 60 }), (name) => {
      const out = paymentAccountHolderName(name)
      expect(out.length).toBeLessThanOrEqual(PAYMENT_ACCOUNT_HOLDER_NAME_MAX_LENGTH)
      expect(out).toMatch(FASTER_PAYMENTS_CHARS)
      expect(out).toBe(out.trim())
    }))
  })

  it("leave an already transliterated name unchanged (idempotent)", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme", maxLength: 60 }), (name) => {
      const once = paymentAccountHolderName(name)
      expect(paymentAccountHolderName(once)).toBe(once)
    }))
  })

  it("keep a plain upper-case name of at most 18 characters as it is", () => {
    const word = fc.stringMatching(/^[A-Z0-9&\-./]{1,6}$/)
    const plainName = fc.array(word, { minLength: 1, maxLength: 4 }).map((words) => words.join(" "))
    fc.assert(fc.property(plainName, (name) => {
      fc.pre(name.length <= PAYMENT_ACCOUNT_HOLDER_NAME_MAX_LENGTH)
      expect(paymentAccountHolderName(name)).toBe(name)
    }))
  })

  it("give every account a two-digit number ending", () => {
    fc.assert(fc.property(fc.string(), (id) => {
      expect(accountNumberEndingOf(id)).toMatch(/^\d{2}$/)
    }))
  })
})

describe("payment accounts", () => {
  it("open on first funding, accumulate funding, and are listed per creditor", async () => {
    const r = await runOutbound(Effect.gen(function*() {
      const accounts = yield* PaymentAccounts
      const creditor = yield* setUpCreditor(ORG, { verified: false, name: "Société Générale Paiements" })
      const first = yield* fundAccount(ORG, { amount: 1_000, links: { creditor: creditor.id } })
      const second = yield* fundAccount(ORG, { amount: "250", links: { creditor: creditor.id } })
      const zero = yield* Effect.exit(fundAccount(ORG, { amount: 0, links: { creditor: creditor.id } }))
      const stranger = yield* Effect.exit(fundAccount(ORG, { amount: 10, links: { creditor: "CR000000000000" } }))
      return { creditor, first, second, zero, stranger, list: yield* accounts.list(ORG, {}), got: yield* accounts.get(ORG, first.id) }
    }))
    expect(r.first.id).toMatch(/^BA/)
    expect(r.first).toMatchObject({
      account_balance: 1_000,
      account_holder_name: "SOCIETE GENERALE P",
      currency: "GBP",
      links: { creditor: r.creditor.id }
    })
    expect(r.first.account_number_ending).toMatch(/^\d{2}$/)
    expect(r.second.id).toBe(r.first.id)
    expect(r.second.account_balance).toBe(1_250)
    expect(r.got).toEqual(r.second)
    expect(r.list.items).toEqual([r.second])
    expect(Exit.isFailure(r.zero) && JSON.stringify(r.zero.cause)).toContain("/payment_accounts/amount")
    expect(Exit.isFailure(r.stranger) && JSON.stringify(r.stranger.cause)).toContain("/payment_accounts/links/creditor")
  })
})
