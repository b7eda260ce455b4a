import { Result } from "effect"
import { renderError, unsafeLocalDate } from "@paykit/core"
import { calendarFor, nextPossibleChargeDate, planSubscription } from "@paykit/schedule"

const bacs = calendarFor("bacs")
const today = unsafeLocalDate("2026-12-23")
console.log(bacs.isBusinessDay(unsafeLocalDate("2026-12-25"))) // false: Christmas Day
console.log(bacs.addBusinessDays(today, 3)) // "2026-12-30": skips Christmas and Boxing Day

// A mandate's first possible charge date, then a monthly subscription on the last day of the month.
const next_possible_charge_date = nextPossibleChargeDate({ scheme: "bacs", today, minimumAdvanceNotice: 3 })
const plan = planSubscription(
  { amount: "2500", currency: "GBP", interval_unit: "monthly", day_of_month: -1, count: 12, links: { mandate: "MD01KJ2Q8T0M3X" } },
  { calendar: bacs, today, next_possible_charge_date }
)
if (Result.isSuccess(plan)) {
  console.log(plan.success.upcoming_payments.slice(0, 3))
  // [{ charge_date: "2026-12-31", amount: 2500 }, { charge_date: "2027-01-29", amount: 2500 }, ...]
  // (31 January 2027 is a Sunday: day -1 rolls back to Friday 29th)
}

// Invalid combinations are validation errors naming the field, as the API renders them.
const weekly = planSubscription({ amount: 100, currency: "GBP", interval_unit: "weekly", month: "june", links: { mandate: "MD01KJ2Q8T0M3X" } }, { calendar: bacs, today, next_possible_charge_date })
if (Result.isFailure(weekly)) console.log(renderError(weekly.failure, { requestId: "req_1" }).error.errors)
