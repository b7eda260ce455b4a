import { FASTER_PAYMENTS_REFERENCE_MAX_LENGTH, isFasterPaymentsReference } from "@paykit/core"
import fc from "fast-check"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import {
  BANK_REFERENCE_PREFIX_MAX_LENGTH,
  BankReferencePrefix,
  PAYOUT_REFERENCE_SEQUENCE_MAX,
  payoutReference,
  payoutReferenceSuffix
} from "../src/index.ts"

const prefix = fc.stringMatching(/^[A-Z0-9]{1,12}$/).map((s) => Schema.decodeUnknownSync(BankReferencePrefix)(s))
const sequence = fc.integer({ min: 0, max: PAYOUT_REFERENCE_SEQUENCE_MAX })

describe("payout references", () => {
  it("prefixes are 1 to 12 upper-case letters and digits", () => {
    expect(BANK_REFERENCE_PREFIX_MAX_LENGTH).toBe(12)
    for (const ok of ["A", "ACME", "ACME2026LTD1"]) expect(Schema.decodeUnknownResult(BankReferencePrefix)(ok)._tag).toBe("Success")
    for (const bad of ["", "acme", "ACME-CO", "ACME CO", "ACME2026LTD12"]) {
      expect(Schema.decodeUnknownResult(BankReferencePrefix)(bad)._tag).toBe("Failure")
    }
  })

  it("are <PREFIX>-<5 characters> and always a valid bank reference", () => {
    fc.assert(fc.property(prefix, sequence, (p, n) => {
      const ref = payoutReference(p, n)
      expect(ref.startsWith(`${p}-`)).toBe(true)
      expect(ref.length).toBeLessThanOrEqual(FASTER_PAYMENTS_REFERENCE_MAX_LENGTH)
      expect(isFasterPaymentsReference(ref)).toBe(true)
      expect(payoutReferenceSuffix(n)).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}$/)
      expect(payoutReference(p, n)).toBe(ref)
    }))
  })

  it("never repeat a suffix for different sequence numbers", () => {
    fc.assert(fc.property(sequence, sequence, (a, b) => {
      if (a !== b) expect(payoutReferenceSuffix(a)).not.toBe(payoutReferenceSuffix(b))
    }), { numRuns: 2000 })
    const seen = new Set<string>()
    for (let n = 0; n < 1 << 16; n++) seen.add(payoutReferenceSuffix(n))
    expect(seen.size).toBe(1 << 16)
  })

  it("known answers, computed independently from the documented scramble (docs/money.md)", () => {
    expect(payoutReferenceSuffix(0)).toBe("00000")
    expect(payoutReferenceSuffix(1)).toBe("EA4PK")
    expect(payoutReferenceSuffix(2)).toBe("6D8VC")
    expect(payoutReference(Schema.decodeUnknownSync(BankReferencePrefix)("ACME"), 7)).toBe("ACME-PFVHP")
    expect(payoutReferenceSuffix(PAYOUT_REFERENCE_SEQUENCE_MAX)).toBe("WQY1Z")
  })
})
