import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  COUNTRY_CODES,
  CountryCode,
  FASTER_PAYMENTS_REFERENCE_MAX_LENGTH,
  FasterPaymentsReference,
  METADATA_MAX_KEY_LENGTH,
  METADATA_MAX_KEYS,
  METADATA_MAX_VALUE_LENGTH,
  Metadata,
  decodeInput
} from "@paykit/core"

const decode = decodeInput(Schema.Struct({ metadata: Metadata }), "subscriptions")
const errorsOf = (metadata: unknown) => {
  const r = decode({ metadata })
  return Result.isFailure(r) ? r.failure.errors : []
}

const key = fc.string({ minLength: 1, maxLength: METADATA_MAX_KEY_LENGTH })
const value = fc.string({ maxLength: METADATA_MAX_VALUE_LENGTH })

describe("Metadata", () => {
  it("decodes every object within the limits", () => {
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: METADATA_MAX_KEYS }), (m) => {
        expect(errorsOf(m)).toEqual([])
      })
    )
  })

  it("rejects more than 3 keys at /subscriptions/metadata", () => {
    fc.assert(
      fc.property(fc.uniqueArray(key, { minLength: METADATA_MAX_KEYS + 1, maxLength: 10 }), (keys) => {
        const errors = errorsOf(Object.fromEntries(keys.map((k) => [k, "v"])))
        expect(errors.some((e) => e.field === "metadata" && e.request_pointer === "/subscriptions/metadata")).toBe(true)
      })
    )
  })

  it("rejects a key over 50 or a value over 500 characters at that key", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: METADATA_MAX_KEY_LENGTH + 1, maxLength: 80 }).filter((k) => !k.includes("/") && !k.includes("~") && !k.includes(".")),
        (longKey) => {
          const errors = errorsOf({ [longKey]: "v" })
          expect(errors).toHaveLength(1)
          expect(errors[0]?.request_pointer).toBe(`/subscriptions/metadata/${longKey}`)
        }
      )
    )
    fc.assert(
      fc.property(key.filter((k) => /^[a-z_]+$/.test(k)), fc.string({ minLength: METADATA_MAX_VALUE_LENGTH + 1, maxLength: 700 }), (k, v) => {
        const errors = errorsOf({ [k]: v })
        expect(errors).toHaveLength(1)
        expect(errors[0]?.field).toBe(`metadata.${k}`)
        expect(errors[0]?.request_pointer).toBe(`/subscriptions/metadata/${k}`)
      })
    )
  })

  it("rejects non-string values and non-objects", () => {
    for (const bad of [{ a: 1 }, { a: null }, { a: { b: "c" } }, "x", 3, ["a"]]) {
      expect(errorsOf(bad).length, JSON.stringify(bad)).toBeGreaterThan(0)
    }
  })
})

describe("FasterPaymentsReference", () => {
  const allowed = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 &-./"
  const ok = (s: string) => Result.isSuccess(Schema.decodeUnknownResult(FasterPaymentsReference)(s))

  it("accepts every string of at most 18 allowed characters", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...allowed), maxLength: FASTER_PAYMENTS_REFERENCE_MAX_LENGTH }), (s) => {
        expect(ok(s)).toBe(true)
      })
    )
  })

  it("rejects any other character, and anything longer than 18", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...allowed), maxLength: 10 }),
        fc.string({ minLength: 1, maxLength: 1 }).filter((c) => !allowed.includes(c)),
        (s, c) => {
          expect(ok(s + c)).toBe(false)
        }
      )
    )
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...allowed), minLength: FASTER_PAYMENTS_REFERENCE_MAX_LENGTH + 1, maxLength: 40 }), (s) => {
        expect(ok(s)).toBe(false)
      })
    )
  })
})

describe("CountryCode", () => {
  it("is the full ISO 3166-1 alpha-2 list, not a pattern", () => {
    expect(COUNTRY_CODES).toHaveLength(249)
    const decode = (s: string) => Result.isSuccess(Schema.decodeUnknownResult(CountryCode)(s))
    for (const c of ["GB", "FR", "DE", "US", "SE", "DK", "AU", "NZ", "CA", "IE", "AX", "SS", "CW"]) expect(decode(c), c).toBe(true)
    for (const c of ["UK", "XX", "EU", "gb", "GBR", "ZZ", "XK", ""]) expect(decode(c), c).toBe(false)
  })
})
