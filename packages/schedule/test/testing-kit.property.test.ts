import { Result } from "effect"
import fc from "fast-check"
import { CASES, eventPathArb } from "@paykit/machines/testing"
import { planSubscription } from "@paykit/schedule"
import { CALENDARS, schemeDateArb, subscriptionRequestArb } from "@paykit/schedule/testing"
import { makeLocalDate } from "@paykit/core"
import { describe, expect, it } from "vitest"

/** The testing kit as an embedder imports it, from the packages' `/testing` subpaths. */
describe("the exported arbitraries", () => {
  it("subscription requests are valid by construction: planSubscription accepts every one", () => {
    fc.assert(fc.property(subscriptionRequestArb, ({ context, request }) => {
      expect(Result.isSuccess(planSubscription(request, context))).toBe(true)
    }), { numRuns: 200 })
  })

  it("scheme dates are business days of their calendar", () => {
    for (const calendar of CALENDARS) {
      fc.assert(fc.property(schemeDateArb(calendar, makeLocalDate(2020, 1, 1), makeLocalDate(2030, 12, 31)), (d) => calendar.isBusinessDay(d)), { numRuns: 200 })
    }
  })

  it("machine event paths chain: each move starts where the previous one ended, in a state of the table", () => {
    for (const machineCase of CASES) {
      fc.assert(fc.property(eventPathArb(machineCase), ({ initial, entries }) => {
        entries.forEach((entry, i) => {
          expect(entry.from).toBe(i === 0 ? initial : entries[i - 1]?.to)
          expect(machineCase.machine.states).toContain(entry.to)
        })
      }), { numRuns: 50 })
    }
  })
})
