import fc from "fast-check"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { AVAILABLE_REFUND_AMOUNT_INSUFFICIENT, checkRefundAgainstNegativeBalanceLimit } from "../src/index.ts"

const check = (balance: number, amount: number, balance_limit?: number) =>
  checkRefundAgainstNegativeBalanceLimit({ currency: "GBP", balance, amount, ...(balance_limit === undefined ? {} : { balance_limit }) })

describe("negative balance limits", () => {
  it("default limit 0: a refund may take the balance to zero, not below", () => {
    const ok = check(500, 500)
    expect(Result.isSuccess(ok) && ok.success.balance_after).toBe(0)
    const no = check(500, 501)
    expect(Result.isFailure(no) && no.failure._tag === "InvalidState" && no.failure.reason).toBe(AVAILABLE_REFUND_AMOUNT_INSUFFICIENT)
    expect(Result.isFailure(check(0, 1))).toBe(true)
    expect(Result.isFailure(check(-10, 0))).toBe(false)
  })

  it("a limit of 10000 lets the balance go down to -100.00", () => {
    const ok = check(-5000, 5000, 10_000)
    expect(Result.isSuccess(ok) && ok.success.balance_after).toBe(-10_000)
    const no = check(-5000, 5001, 10_000)
    expect(Result.isFailure(no) && no.failure.message).toContain("50.00 GBP available")
  })

  // A balance already below -limit leaves nothing available, and a refund of nothing still fits in it
  // (the unit test above: -10 with the default limit permits 0).
  it("permits a refund exactly when it fits in what is available: the balance above -limit, never below 0", () => {
    const money = fc.integer({ min: -(2 ** 50), max: 2 ** 50 })
    fc.assert(fc.property(money, fc.nat({ max: 2 ** 50 }), fc.nat({ max: 2 ** 50 }), (balance, amount, limit) => {
      const r = check(balance, amount, limit)
      expect(Result.isSuccess(r)).toBe(amount <= Math.max(0, balance + limit))
      if (amount > 0) expect(Result.isSuccess(r)).toBe(balance - amount >= -limit)
      if (Result.isSuccess(r)) expect(r.success.balance_after).toBe(balance - amount)
    }), { examples: [[-1, 0, 0]] })
  })

  it("decodes its input: a negative limit or refund is a validation error", () => {
    const r = check(100, -1)
    expect(Result.isFailure(r) && r.failure._tag).toBe("ValidationFailed")
    const l = check(100, 1, -5)
    expect(Result.isFailure(l) && l.failure._tag === "ValidationFailed" && l.failure.errors[0]?.field).toBe("balance_limit")
  })
})
