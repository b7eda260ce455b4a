import fc from "fast-check"
import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { decodeInput, INPUT_MAX_DEPTH, isStorableText, Metadata, STRING_MAX_LENGTH, unstorableText } from "@paykit/core"

const HIGH = "\uD800"
const LOW = "\uDC00"
/** Strings with at least one character the store cannot hold, placed anywhere. */
const unstorable = fc.tuple(fc.string(), fc.constantFrom("\u0000", HIGH, LOW, `${LOW}${HIGH}`), fc.string()).map(([a, bad, b]) => a + bad + b)

describe("text the store cannot hold", () => {
  it("is NUL or an unpaired surrogate: text without them is storable, text with one is not", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme" }), (s) => {
      expect(isStorableText(s)).toBe(!s.includes("\u0000"))
    }))
    fc.assert(fc.property(unstorable, (s) => {
      expect(isStorableText(s)).toBe(false)
    }))
    expect(isStorableText("😀")).toBe(true)
  })

  it("is refused wherever it is in the input, keys included, naming the field", () => {
    fc.assert(fc.property(fc.array(fc.string({ minLength: 1, maxLength: 8 }).filter(isStorableText), { minLength: 1, maxLength: 5 }), unstorable, (path, bad) => {
      // A document with the bad string at `path`.
      const doc = path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), bad)
      const errors = unstorableText("things", doc)
      expect(errors.map((e) => e.field)).toEqual([path.join(".")])
      // The same string as a key: reported at the object holding it.
      const keyed = path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), { [bad]: "x" })
      expect(unstorableText("things", keyed).map((e) => e.field)).toEqual([path.join(".")])
    }))
  })

  it("refuses NUL in free text before the Schema runs, even in a field the Schema reads as any string", () => {
    const decode = decodeInput(Schema.Struct({ name: Schema.String, metadata: Metadata }), "creditors")
    const r = decode({ name: "Acme\u0000", metadata: { "k\u0000": "v" } })
    expect(Result.isFailure(r)).toBe(true)
    if (Result.isFailure(r)) expect(r.failure.errors.map((e) => e.request_pointer).sort()).toEqual(["/creditors/metadata", "/creditors/name"])
  })

  it("refuses any string longer than STRING_MAX_LENGTH, and accepts one at it", () => {
    expect(unstorableText("r", { a: "x".repeat(STRING_MAX_LENGTH) })).toEqual([])
    expect(unstorableText("r", { a: "x".repeat(STRING_MAX_LENGTH + 1) }).map((e) => e.message)).toEqual([`must be at most ${STRING_MAX_LENGTH} characters`])
    expect(unstorableText("r", { a: "x".repeat(5 * 1024 * 1024) })).toHaveLength(1)
  })

  it("refuses nesting deeper than INPUT_MAX_DEPTH without exhausting the stack", () => {
    const nest = (depth: number): unknown => {
      let v: unknown = "x"
      for (let i = 0; i < depth; i++) v = [v]
      return v
    }
    expect(unstorableText("r", nest(INPUT_MAX_DEPTH))).toEqual([])
    expect(unstorableText("r", nest(INPUT_MAX_DEPTH + 1))).toHaveLength(1)
    expect(unstorableText("r", nest(1_000_000))).toHaveLength(1)
  })
})
