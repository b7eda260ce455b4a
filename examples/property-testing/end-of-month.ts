import fc from "fast-check"
import { Result } from "effect"
import { dateParts, lastDayOfMonth, type LocalDate, makeLocalDate } from "@paykit/core"
import { amountArb } from "@paykit/core/testing"
import { planSubscription, scheduleChargeDates } from "@paykit/schedule"
import { contextArb, MANDATE } from "@paykit/schedule/testing"

/** Months since year 0: consecutive months differ by one. */
const monthNumber = (d: LocalDate): number => dateParts(d).year * 12 + dateParts(d).month

// A monthly subscription on day -1 charges on the last business day of each month, one month after
// another, exactly `count` times.
const endOfMonth = fc.record({ context: contextArb, count: fc.integer({ min: 1, max: 24 }), amount: amountArb() })

fc.assert(fc.property(endOfMonth, ({ context, count, amount }) => {
  const request = { amount, currency: "GBP", interval_unit: "monthly", day_of_month: -1, count, links: { mandate: MANDATE } }
  const planned = planSubscription(request, context)
  if (Result.isFailure(planned)) return false
  const dates = [...scheduleChargeDates(planned.success.schedule, context.calendar)]
  return dates.length === count && dates.every((date, i) => {
    const previous = dates[i - 1]
    const nextMonth = previous === undefined || monthNumber(date) === monthNumber(previous) + 1
    return date === context.calendar.rollBackward(lastDayOfMonth(date)) && nextMonth
  })
}))

// Started on the 31st without day_of_month, it charges on the last day of shorter months and on the
// 31st again when the month has one (each rolled forward to a business day, as every other date is).
const monthStart = (index: number): LocalDate => makeLocalDate(Math.floor(index / 12), (index % 12) + 1, 1)
fc.assert(fc.property(contextArb, (context) => {
  let index = monthNumber(context.next_possible_charge_date) - 1
  while (dateParts(lastDayOfMonth(monthStart(index))).day !== 31) index += 1
  const start = lastDayOfMonth(monthStart(index))
  const request = { amount: 1500, currency: "GBP", interval_unit: "monthly", start_date: start, count: 12, links: { mandate: MANDATE } }
  const planned = planSubscription(request, context)
  if (Result.isFailure(planned)) return false
  const dates = [...scheduleChargeDates(planned.success.schedule, context.calendar)]
  return dates.length === 12 && dates.every((date, k) => date === context.calendar.rollForward(lastDayOfMonth(monthStart(index + k))))
}))

console.log("end-of-month properties held")
