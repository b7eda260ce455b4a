import { Arbitrary, Effect, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { Amount, LocalDate, PositiveAmount } from "@paykit/core"

/**
 * Arbitraries derived from the Schemas (`Arbitrary.schema`) generate valid values without
 * discarding almost every candidate: the Schemas' checks carry the constraints that build them.
 */
const sample = <S extends Schema.Top>(schema: S) => Effect.runPromise(Arbitrary.sampleEffect(Arbitrary.schema(schema), { count: 200 }))

describe("Schema-derived arbitraries of dates and amounts", () => {
  for (const [name, schema] of [["LocalDate", LocalDate], ["Amount", Amount], ["PositiveAmount", PositiveAmount]] as const) {
    it(`${name}: 200 values, each decoding`, async () => {
      const values = await sample(schema)
      expect(values).toHaveLength(200)
      for (const value of values) expect(Schema.is(schema)(value)).toBe(true)
    })
  }
})
