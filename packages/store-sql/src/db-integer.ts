import { Schema, SchemaTransformation } from "effect"

const safe = Schema.makeFilter((n: number) => Number.isSafeInteger(n) || "a safe integer")

/**
 * An integer column as the drivers return it: `@effect/sql-pg` reads `bigint` (int8) columns as
 * JavaScript bigints and PGlite reads them as numbers. Both decode to a safe number; a value beyond
 * 2^53 fails instead of losing digits.
 */
export const DbInteger = Schema.Union([
  Schema.Int.check(safe),
  Schema.BigInt.pipe(Schema.decodeTo(
    Schema.Int.check(safe),
    SchemaTransformation.transform({ decode: (b: bigint) => Number(b), encode: (n: number) => BigInt(n) })
  ))
])
