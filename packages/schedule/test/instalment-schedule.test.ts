import type { LocalDate } from "@paykit/core"
import { addMonths, addWeeks, addYears, format, parseISO } from "date-fns"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { instalmentChargeDates, INTERVAL_UNITS } from "../src/index.ts"
import { CALENDARS, dateBetween } from "@paykit/schedule/testing"

/**
 * The rule: instalment k falls on the start plus k intervals (counted from the start, so the end
 * of a month clamps without drifting) moved forward to the first business day. The oracle is
 * date-fns, whose month and year arithmetic clamps to the month's end as the real API does.
 */
const nominal = (start: LocalDate, unit: (typeof INTERVAL_UNITS)[number], steps: number): LocalDate => {
  const date = parseISO(start)
  const moved = unit === "weekly" ? addWeeks(date, steps) : unit === "monthly" ? addMonths(date, steps) : addYears(date, steps)
  return format(moved, "yyyy-MM-dd") as LocalDate
}

describe("instalmentChargeDates", () => {
  it("charges instalment k on the first business day on or after start + k intervals", () => {
    fc.assert(fc.property(
      dateBetween("2020-01-01" as LocalDate, "2032-12-31" as LocalDate),
      fc.constantFrom(...INTERVAL_UNITS),
      fc.integer({ min: 1, max: 6 }),
      fc.integer({ min: 1, max: 12 }),
      fc.constantFrom(...CALENDARS),
      (start, unit, interval, count, calendar) => {
        const dates = instalmentChargeDates({ start, interval, interval_unit: unit, count }, calendar)
        expect(dates).toHaveLength(count)
        dates.forEach((date, k) => {
          const due = nominal(start, unit, k * interval)
          expect(date >= due).toBe(true)
          expect(calendar.isBusinessDay(date)).toBe(true)
          // Nothing between the nominal date and the charge date was a business day.
          for (let d = calendar.rollForward(due); d < date; d = calendar.rollForward(d)) expect.fail(`${d} was a business day`)
        })
        expect([...dates].sort()).toEqual(dates)
      }
    ))
  })

  it("keeps the start's day after a short month", () => {
    const dates = instalmentChargeDates({ start: "2027-01-31" as LocalDate, interval: 1, interval_unit: "monthly", count: 3 }, CALENDARS[0] ?? expect.fail())
    // Sunday 31 January rolls to Monday; February clamps to Sunday the 28th, rolled to 1 March;
    // March is the 31st again (a Wednesday), not the 28th.
    expect(dates).toEqual(["2027-02-01", "2027-03-01", "2027-03-31"])
  })
})
