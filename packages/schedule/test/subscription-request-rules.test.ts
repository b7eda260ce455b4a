import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Schema } from "effect"
import { INTERVAL_UNITS, MAX_INTERVAL_PER_UNIT, MONTHS, SubscriptionRequest, subscriptionRequestIssues } from "../src/index.ts"

/** The rules of a decoded request with these fields (absent ones left out, as a body leaves them out). */
const recurrenceIssues = (fields: Record<string, unknown>) => {
  const given = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined))
  return subscriptionRequestIssues(Schema.decodeUnknownSync(SubscriptionRequest)({ amount: 1000, currency: "USD", ...given }))
}

const paths = (issues: ReadonlyArray<{ readonly path: ReadonlyArray<PropertyKey> }>) => issues.map((i) => i.path.join("."))

describe("subscription recurrence combinations (spec table)", () => {
  it("known answers from the spec's invalid combinations", () => {
    expect(paths(recurrenceIssues({ interval_unit: "yearly", month: "march" }))).toEqual(["day_of_month"])
    expect(paths(recurrenceIssues({ interval_unit: "yearly", day_of_month: 5 }))).toEqual(["month"])
    expect(paths(recurrenceIssues({ interval_unit: "monthly", month: "march" }))).toEqual(["month"])
    expect(paths(recurrenceIssues({ interval_unit: "weekly", month: "march", day_of_month: 1 }))).toEqual(["month", "day_of_month"])
    expect(recurrenceIssues({ interval_unit: "yearly", month: "march", day_of_month: -1 })).toEqual([])
    expect(recurrenceIssues({ interval_unit: "monthly", day_of_month: 28 })).toEqual([])
  })

  it("a combination is accepted iff the table allows it", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...INTERVAL_UNITS),
        fc.option(fc.constantFrom(...MONTHS), { nil: undefined }),
        fc.option(fc.constantFrom(-1, 1, 15, 28), { nil: undefined }),
        (unit, month, day) => {
          const allowed =
            unit === "yearly" ? (month === undefined) === (day === undefined)
              : unit === "monthly" ? month === undefined
                : month === undefined && day === undefined
          expect(recurrenceIssues({ interval_unit: unit, month, day_of_month: day }).length === 0).toBe(allowed)
        }
      )
    )
  })

  it("an interval is accepted iff it charges at least once a year", () => {
    fc.assert(
      fc.property(fc.constantFrom(...INTERVAL_UNITS), fc.integer({ min: 1, max: 200 }), (unit, interval) => {
        const days = { weekly: 7, monthly: 28, yearly: 365 }[unit] * interval
        const accepted = recurrenceIssues({ interval_unit: unit, interval }).length === 0
        expect(accepted).toBe(interval <= MAX_INTERVAL_PER_UNIT[unit])
        if (accepted) expect(days).toBeLessThanOrEqual(365)
      })
    )
  })
})
