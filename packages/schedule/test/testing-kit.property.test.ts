import { Result } from "effect"
import fc from "fast-check"
import { CASES, eventPathArb } from "@paykit/machines/testing"
import { CALENDAR_NAMES, calendarFor, planSubscription } from "@paykit/schedule"
import {
  ALL_CALENDARS, calendarArb, CALENDARS, dateBetween, holidayArb, holidaysBetween, schemeDateArb, subscriptionRequestArb
} from "@paykit/schedule/testing"
import { addDays, isoWeekday, makeLocalDate } from "@paykit/core"
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

describe("bank holidays and calendars of the kit", () => {
  it("holidaysBetween is exactly the range's weekdays that are not business days, in order", () => {
    fc.assert(fc.property(calendarArb, dateBetween("2000-01-01", "2040-12-31"), fc.integer({ min: 0, max: 800 }), (calendar, from, span) => {
      const to = addDays(from, span)
      const expected: Array<string> = []
      for (let d = from; d <= to; d = addDays(d, 1)) if (isoWeekday(d) <= 5 && !calendar.isBusinessDay(d)) expected.push(d)
      expect(holidaysBetween(calendar, from, to)).toEqual(expected)
    }), { numRuns: 100 })
  })

  it("holidayArb draws those holidays and refuses a range without one", () => {
    const bacs = calendarFor("bacs")
    fc.assert(fc.property(holidayArb(bacs, "2026-01-01", "2026-12-31"), (d) => holidaysBetween(bacs, "2026-01-01", "2026-12-31").includes(d)))
    expect(() => holidayArb(calendarFor("sepa_core"), "2021-04-12", "2022-04-11")).toThrow(RangeError)
  })

  it("ALL_CALENDARS holds each scheme's calendar once", () => {
    expect(new Set(ALL_CALENDARS.map((c) => c.name)).size).toBe(ALL_CALENDARS.length)
    for (const scheme of CALENDAR_NAMES) expect(ALL_CALENDARS).toContain(calendarFor(scheme))
  })
})
