import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { addDays, fromDayNumber, type LocalDate } from "@paykit/core"
import { firstDayReaching } from "../src/subscriptions/subscription-due.ts"

/**
 * The day a subscription's next notice starts: the first day after today on which the mandate's
 * next possible charge date reaches the occurrence, or the occurrence's day when none before it
 * does. The rule, stated as a walk one day at a time (the model), must give the search's answer
 * for every monotonic predicate: false up to some day, true from it on.
 */
const walk = (day: LocalDate, due: LocalDate, reaches: (d: LocalDate) => boolean): LocalDate => {
  let next = addDays(day, 1)
  while (next < due && !reaches(next)) next = addDays(next, 1)
  return next
}

describe("the day a subscription's notice starts", () => {
  it("is the first day after today that reaches the occurrence, as a walk day by day finds it", () => {
    fc.assert(fc.property(
      fc.integer({ min: 18_000, max: 30_000 }),
      fc.integer({ min: -5, max: 400 }),
      fc.integer({ min: -10, max: 420 }),
      (today, dueIn, threshold) => {
        const day = fromDayNumber(today)
        const due = addDays(day, dueIn)
        // Monotonic: false before the threshold day, true from it on.
        const reaches = (d: LocalDate) => d >= addDays(day, threshold)
        expect(firstDayReaching(day, due, reaches)).toBe(walk(day, due, reaches))
      }
    ), { numRuns: 2_000 })
  })
})
