import fc from "fast-check"
import { toDayNumber } from "@paykit/core"
import { nextPossibleChargeDateOn } from "@paykit/schedule"
import { calendarArb, dateBetween } from "@paykit/schedule/testing"

// The next possible charge date is `notice` business days on from today, rolled forward first.
fc.assert(fc.property(calendarArb, dateBetween("2020-01-01", "2030-12-31"), fc.integer({ min: 0, max: 10 }), (calendar, today, notice) => {
  const date = nextPossibleChargeDateOn(calendar, today, notice)
  return calendar.isBusinessDay(date) && calendar.businessDaysBetween(calendar.rollForward(today), date) === notice
}))

// The day-number verbs (hot loops) agree with the string ones: toDayNumber is the bridge.
fc.assert(fc.property(calendarArb, dateBetween("1970-01-01", "2100-12-31"), (calendar, d) =>
  calendar.rollForwardDay(toDayNumber(d)) === toDayNumber(calendar.rollForward(d)) &&
  calendar.isBusinessDayNumber(toDayNumber(d)) === calendar.isBusinessDay(d)))

console.log("calendar properties held")
