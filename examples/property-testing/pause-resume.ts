import fc from "fast-check"
import { Result } from "effect"
import { MILLIS_PER_DAY, timestampFromMillis, toDayNumber } from "@paykit/core"
import { pauseSubscription, planSubscription, resumeSubscription, scheduleChargeDates } from "@paykit/schedule"
import { contextArb, MANDATE } from "@paykit/schedule/testing"

const countSubscription = fc.record({
  context: contextArb,
  interval_unit: fc.constantFrom("weekly", "monthly"),
  count: fc.integer({ min: 1, max: 24 }),
  cycles: fc.integer({ min: 1, max: 6 })
})

// Pausing a count subscription for n cycles skips n cycles and keeps every payment: as many charge
// dates as before, each one later. A pause too short for the scheme's notice is refused by name.
// Paused until resumed, it charges nothing; resumed, it takes every payment it had left.
fc.assert(fc.property(countSubscription, ({ context, interval_unit, count, cycles }) => {
  const planned = planSubscription({ amount: 1500, currency: "GBP", interval_unit, count, links: { mandate: MANDATE } }, context)
  if (Result.isFailure(planned)) return false
  const { calendar, next_possible_charge_date } = context
  const pause = { calendar, next_possible_charge_date, at: timestampFromMillis(toDayNumber(context.today) * MILLIS_PER_DAY) }
  const subscription = { status: "active" as const, schedule: planned.success.schedule }
  const before = [...scheduleChargeDates(subscription.schedule, calendar)]

  const forCycles = pauseSubscription(subscription, { pause_cycles: cycles }, pause)
  if (Result.isFailure(forCycles)) {
    if (forCycles.failure._tag !== "InvalidState" || forCycles.failure.reason !== "pause_cycles_must_be_greater_than_or_equal_to") return false
  } else {
    const after = [...scheduleChargeDates(forCycles.success.schedule, calendar)]
    if (after.length !== before.length || !after.every((date, i) => date > (before[i] ?? date))) return false
  }

  const indefinitely = pauseSubscription(subscription, {}, pause)
  if (Result.isFailure(indefinitely) || [...scheduleChargeDates(indefinitely.success.schedule, calendar)].length !== 0) return false
  const resumed = resumeSubscription(indefinitely.success, {}, pause)
  if (Result.isFailure(resumed)) return false
  const again = [...scheduleChargeDates(resumed.success.schedule, calendar)]
  return resumed.success.status === "active" && again.length === count && (again[0] ?? "") >= next_possible_charge_date
}))

console.log("pause and resume properties held")
