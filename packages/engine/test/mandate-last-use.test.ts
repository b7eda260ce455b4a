import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { addDays, type LocalDate, unsafeLocalDate } from "@paykit/core"
import { MandateDormancyRepository, Payments } from "@paykit/engine"
import { edge, ORG, runEngine, setUpPayer } from "./fixtures.ts"

/**
 * A Bacs mandate's last use is kept as its payments are made and cancelled, never searched for
 * by the daily run: whatever the payments, the kept day is what a search of them answers (the
 * latest charge date of a payment not cancelled, else the mandate's creation).
 */

const Step = fc.oneof(
  fc.record({ op: fc.constant("create" as const), days: fc.integer({ min: 10, max: 400 }) }),
  fc.record({ op: fc.constant("cancel" as const), which: fc.nat() })
)

describe("a mandate's kept last use", () => {
  it("equals the search of its payments after any payments made and cancelled (property)", { timeout: 120_000 }, () =>
    fc.assert(fc.asyncProperty(fc.array(Step, { minLength: 1, maxLength: 12 }), (steps) =>
      runEngine(Effect.gen(function*() {
        const { mandate } = yield* setUpPayer(ORG)
        const payments = yield* Payments
        const created = unsafeLocalDate(mandate.created_at.slice(0, 10))
        const made: Array<string> = []
        for (const step of steps) {
          if (step.op === "create") {
            const command = yield* edge.payment({ amount: 1000, currency: "GBP", charge_date: addDays(created, step.days), links: { mandate: mandate.id } })
            made.push((yield* payments.create(ORG, command)).id)
            continue
          }
          const id = made[step.which % Math.max(1, made.length)]
          if (id !== undefined) yield* Effect.ignore(payments.cancel(ORG, id))
        }
        const all = yield* Effect.forEach(made, (id) => payments.get(ORG, id))
        const searched = all.reduce<LocalDate>(
          (latest, p) => p.status !== "cancelled" && p.charge_date !== null && p.charge_date > latest ? p.charge_date : latest,
          created
        )
        const kept = yield* (yield* MandateDormancyRepository).get(ORG, mandate.id)
        expect(kept.resource.last_use).toBe(searched)
      }))
    ), { numRuns: 25 }))
})
