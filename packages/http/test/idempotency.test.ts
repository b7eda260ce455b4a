import { Clock, Effect, Exit } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { makeSteppingClock } from "@paykit/core"
import { IDEMPOTENCY_KEY_LIFETIME_MS, IdempotencyStore, type KeyedCreation } from "../src/idempotency.ts"

/** The in-memory idempotency store, against the rule it keeps (GoCardless's): stated as a model. */

const HOUR_MS = 60 * 60 * 1000
const LIFETIME_HOURS = IDEMPOTENCY_KEY_LIFETIME_MS / HOUR_MS

class Refused {
  readonly _tag = "Refused"
}

type Attempt = { readonly organisation: string; readonly key: string; readonly result: "creates" | "fails" | "names-nothing"; readonly laterHours: number }

const attempt: fc.Arbitrary<Attempt> = fc.record({
  organisation: fc.constantFrom("OR0000000000A2", "OR0000000000B2"),
  key: fc.constantFrom("k1", "k2", "k3"),
  result: fc.constantFrom("creates", "fails", "names-nothing"),
  laterHours: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 2 * LIFETIME_HOURS }))
})

const memoryStore = () => Effect.runSync(Effect.provide(Effect.service(IdempotencyStore), IdempotencyStore.layerMemory))

describe("in-memory idempotency store", () => {
  it("the first creation with a key in an organisation runs; any use within the key's lifetime conflicts naming its resource", () => {
    fc.assert(fc.property(fc.array(attempt, { maxLength: 40 }), (attempts) => {
      const fresh = memoryStore()
      const kept = new Map<string, { readonly resourceId: string; readonly atHours: number }>()
      let hours = 0
      attempts.forEach((a, n) => {
        hours += a.laterHours
        const slot = `${a.organisation} ${a.key}`
        const known = kept.get(slot)
        const expected: KeyedCreation<string> | "Refused" = known !== undefined && hours - known.atHours < LIFETIME_HOURS
          ? { _tag: "Conflict", resourceId: known.resourceId }
          : a.result === "fails" ? "Refused" : { _tag: "Created", value: `R${n}` }
        const create = a.result === "fails" ? Effect.fail(new Refused()) : Effect.succeed(`R${n}`)
        const exit = Effect.runSyncExit(Effect.provideService(
          fresh.once(a.organisation, a.key, create, (id) => a.result === "creates" ? id : undefined),
          Clock.Clock,
          makeSteppingClock(hours * HOUR_MS)
        ))
        expect(Exit.isSuccess(exit) ? exit.value : "Refused").toEqual(expected)
        if (typeof expected !== "string" && expected._tag === "Created") {
          if (a.result === "creates") kept.set(slot, { resourceId: `R${n}`, atHours: hours })
          else kept.delete(slot)
        } else if (expected === "Refused") kept.delete(slot)
      })
    }))
  })

  it("of concurrent requests with one key one runs; the others wait for it, then conflict, or run in turn when it failed", async () => {
    const store = memoryStore()
    const slow = <A, E>(effect: Effect.Effect<A, E>) => Effect.andThen(Effect.sleep("10 millis"), effect)
    const outcomes = await Effect.runPromise(Effect.all(
      [
        Effect.exit(store.once("OR0000000000C2", "k", slow(Effect.fail(new Refused())), (id: string) => id)),
        ...Array.from({ length: 4 }, (_, n) => store.once("OR0000000000C2", "k", slow(Effect.succeed(`R${n}`)), (id: string) => id))
      ],
      { concurrency: "unbounded" }
    ))
    const [first, ...rest] = outcomes
    expect(first !== undefined && Exit.isExit(first) && Exit.isFailure(first)).toBe(true)
    const created = rest.flatMap((o) => "_tag" in o && o._tag === "Created" ? [o.value] : [])
    expect(created).toHaveLength(1)
    expect(rest.filter((o) => "_tag" in o && o._tag === "Conflict")).toEqual(Array.from({ length: 3 }, () => ({ _tag: "Conflict", resourceId: created[0] })))
  })
})
