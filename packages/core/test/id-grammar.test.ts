import { Effect, Exit, Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  CROCKFORD_ALPHABET,
  ID_BODY_LENGTH,
  ID_PREFIXES,
  type IdResource,
  IdOf,
  idResourceOfCollection,
  makeIdFactory,
  pathIdOf,
  seededRandom
} from "@paykit/core"

const resources = Object.keys(ID_PREFIXES) as ReadonlyArray<IdResource>
const crockford = fc.string({ unit: fc.constantFrom(...CROCKFORD_ALPHABET), minLength: ID_BODY_LENGTH, maxLength: ID_BODY_LENGTH })

/** Near misses: a good id with one character changed, dropped or added, and any text at all. */
const nearMiss = (id: string) =>
  fc.oneof(
    fc.tuple(fc.nat({ max: id.length - 1 }), fc.constantFrom("\u0000", "\uD800", "i", "-", " ", "a")).map(([i, c]) => id.slice(0, i) + c + id.slice(i + 1)),
    fc.nat({ max: id.length - 1 }).map((i) => id.slice(0, i) + id.slice(i + 1)),
    fc.constantFrom("0", "Z", "\u0000").map((c) => id + c),
    fc.string()
  )

describe("the id grammar at the edge", () => {
  it("accepts exactly a resource's prefix followed by 12 Crockford characters: every id the factory makes, nothing else", () => {
    fc.assert(fc.property(fc.constantFrom(...resources), crockford, fc.integer({ min: 0, max: 2 ** 44 }), fc.integer(), (resource, body, ms, seed) => {
      const prefix = ID_PREFIXES[resource]
      const decode = Schema.decodeUnknownResult(IdOf(resource))
      expect(Result.isSuccess(decode(`${prefix}${body}`))).toBe(true)
      expect(Result.isSuccess(decode(makeIdFactory(seededRandom(seed))(prefix, ms)))).toBe(true)
      fc.assert(fc.property(nearMiss(`${prefix}${body}`), (s) => {
        const wellFormed = s.startsWith(prefix) && new RegExp(`^[${CROCKFORD_ALPHABET}]{${ID_BODY_LENGTH}}$`).test(s.slice(prefix.length))
        expect(Result.isSuccess(decode(s))).toBe(wellFormed)
      }), { numRuns: 20 })
    }), { numRuns: 100 })
  })

  it("refuses a path id of another collection's kind, or malformed, as not found", () => {
    fc.assert(fc.property(fc.constantFrom(...resources), fc.constantFrom(...resources), crockford, (collectionOf, idOf, body) => {
      const collection = `${collectionOf}s`
      const id = `${ID_PREFIXES[idOf]}${body}`
      const exit = Effect.runSyncExit(pathIdOf(collection, id))
      expect(Exit.isSuccess(exit)).toBe(ID_PREFIXES[idOf] === ID_PREFIXES[collectionOf])
      expect(Exit.isSuccess(Effect.runSyncExit(pathIdOf(collection, `${id}\u0000`)))).toBe(false)
    }))
    // Collections whose ids are not made here (tax rates: `GB_VAT_1`) are left to their lookup.
    expect(idResourceOfCollection("tax_rates")).toBeUndefined()
    expect(Exit.isSuccess(Effect.runSyncExit(pathIdOf("tax_rates", "GB_VAT_1")))).toBe(true)
  })
})
