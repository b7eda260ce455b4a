import { Clock, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  CROCKFORD_ALPHABET,
  ID_BODY_LENGTH,
  ID_PREFIXES,
  IdGenerator,
  idTimestampMillis,
  isIdOf,
  lowestIdAt,
  makeIdFactory,
  makeSteppingClock,
  newId,
  seededRandom,
  withNewId,
  withNewIds
} from "@paykit/core"

const prefixes = Object.values(ID_PREFIXES)
const bodyPattern = new RegExp(`^[${CROCKFORD_ALPHABET}]{${ID_BODY_LENGTH}}$`)

describe("ids", () => {
  it("is the prefix and 12 upper-case Crockford base32 characters", () => {
    fc.assert(
      fc.property(fc.constantFrom(...prefixes), fc.integer({ min: 0, max: 2 ** 44 }), fc.integer(), (prefix, ms, seed) => {
        const id = makeIdFactory(seededRandom(seed))(prefix, ms)
        expect(id.startsWith(prefix)).toBe(true)
        expect(id.slice(prefix.length)).toMatch(bodyPattern)
        expect(isIdOf(prefix, id)).toBe(true)
        expect(idTimestampMillis(id, prefix)).toBe(ms)
      })
    )
  })

  it("is strictly increasing for many generations within one millisecond", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 44 }), fc.integer({ min: 1, max: 70_000 }), fc.integer(), (ms, count, seed) => {
        const make = makeIdFactory(seededRandom(seed))
        let previous = make("PM", ms)
        for (let i = 1; i < count; i++) {
          const next = make("PM", ms)
          if (!(next > previous)) throw new Error(`${next} <= ${previous} after ${i}`)
          previous = next
        }
      }),
      { numRuns: 20 }
    )
  })

  it("is strictly increasing whatever the clock does, and sorts by creation time", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2 ** 44 }), { minLength: 2, maxLength: 300 }), fc.integer(), (times, seed) => {
        const make = makeIdFactory(seededRandom(seed))
        const ids = times.map((t) => make("CR", t))
        for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true)
      })
    )
  })

  it("orders ids of later milliseconds after earlier ones, across factories", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 44 - 1 }), fc.integer({ min: 1, max: 10_000 }), fc.integer(), fc.integer(), (ms, gap, s1, s2) => {
        const a = makeIdFactory(seededRandom(s1))("SB", ms)
        const b = makeIdFactory(seededRandom(s2))("SB", ms + gap)
        expect(a < b).toBe(true)
        expect(lowestIdAt("SB", ms) <= a).toBe(true)
        expect(lowestIdAt("SB", ms + gap) <= b).toBe(true)
        expect(lowestIdAt("SB", ms + gap) > a).toBe(true)
      })
    )
  })

  it("is unique across 100,000 concurrent generations through the service", async () => {
    const program = Effect.gen(function*() {
      const ids = yield* Effect.all(Array.from({ length: 100_000 }, () => newId("payment")), { concurrency: "unbounded" })
      return ids
    })
    const ids = await Effect.runPromise(Effect.provide(program, IdGenerator.layer))
    expect(new Set(ids).size).toBe(ids.length)
    expect([...ids].sort()).toEqual(ids)
  })

  it("the seeded layer gives the same ids for the same seed and clock", async () => {
    const program = Effect.gen(function*() {
      const a = yield* newId("creditor")
      yield* TestClock.adjust("1 second")
      const b = yield* newId("subscription")
      return [a, b]
    })
    const run = (seed: number) =>
      Effect.runPromise(Effect.provide(program, Layer.merge(IdGenerator.layerSeeded(seed), TestClock.layer())))
    const first = await run(42)
    expect(await run(42)).toEqual(first)
    expect(await run(43)).not.toEqual(first)
    expect(first[0]?.startsWith("CR")).toBe(true)
    expect(first[1]?.startsWith("SB")).toBe(true)
    expect(idTimestampMillis(first[1] ?? "", "SB")).toBe(1000)
  })

  it("withNewId gives a new id of the resource and the instant it was made, for any clock reading", async () => {
    const resources = Object.keys(ID_PREFIXES) as Array<keyof typeof ID_PREFIXES>
    await fc.assert(fc.asyncProperty(fc.constantFrom(...resources), fc.integer({ min: 0, max: 4_102_444_800_000 }), async (resource, ms) => {
      const program = Effect.gen(function*() {
        yield* TestClock.setTime(ms)
        const first = yield* withNewId(resource, (id, createdAt) => Effect.succeed({ id, createdAt }))
        const second = yield* newId(resource)
        return { ...first, second }
      })
      const { id, createdAt, second } = await Effect.runPromise(Effect.provide(program, Layer.merge(IdGenerator.layerSeeded(7), TestClock.layer())))
      const prefix = ID_PREFIXES[resource]
      expect(isIdOf(prefix, id)).toBe(true)
      expect(idTimestampMillis(id, prefix)).toBe(ms)
      expect(createdAt).toBe(new Date(ms).toISOString())
      // It draws from the same generator as newId: later ids still sort after it.
      expect(second > id).toBe(true)
    }), { numRuns: 50 })
  })

  it("withNewId reads the clock once: on a clock that moves at every reading, the id's time is created_at", async () => {
    await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: 4_102_444_800_000 }), async (start) => {
      const ticking = makeSteppingClock(start)
      const made = await Effect.runPromise(withNewId("payment", (id, createdAt) => Effect.succeed({ id, createdAt })).pipe(
        Effect.provide(IdGenerator.layerSeeded(3)),
        Effect.provideService(Clock.Clock, ticking)
      ))
      expect(new Date(idTimestampMillis(made.id, "PM")).toISOString()).toBe(made.createdAt)
    }), { numRuns: 50 })
  })

  it("withNewIds gives count ascending ids of the resource at one reading of the clock", async () => {
    await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 4_102_444_800_000 }), async (count, start) => {
      const made = await Effect.runPromise(withNewIds("event", count, (ids, createdAt) => Effect.succeed({ ids, createdAt })).pipe(
        Effect.provide(IdGenerator.layerSeeded(9)),
        Effect.provideService(Clock.Clock, makeSteppingClock(start))
      ))
      expect(made.ids).toHaveLength(count)
      expect([...made.ids].sort()).toEqual(made.ids)
      expect(new Set(made.ids).size).toBe(count)
      expect(made.createdAt).toBe(new Date(start).toISOString())
      for (const id of made.ids) expect(isIdOf("EV", id) && idTimestampMillis(id, "EV") === start).toBe(true)
    }), { numRuns: 50 })
  })

  it("has one prefix per resource and a documented one for outbound payments", () => {
    expect(ID_PREFIXES.outbound_payment).toBe("OUT")
    expect(ID_PREFIXES.billing_request).toBe("BRQ")
    expect(ID_PREFIXES.negative_balance_limit).toBe("NBL")
  })
})
