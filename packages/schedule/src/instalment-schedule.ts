import { type LocalDate, toDayNumber } from "@paykit/core"
import { type DayCalendar, dayOfMonthOfDayNumber, monthIndexOfDayNumber } from "./charge-dates.ts"
import type { IntervalUnit } from "./subscription-request.ts"
import { type Recurrence, writeChargeDates } from "./subscription-recurrence.ts"

/** What `POST /instalment_schedules/create_with_schedule` says of its dates (`instalments`). */
export interface InstalmentRecurrence {
  /** The first instalment's nominal date. */
  readonly start: LocalDate
  readonly interval: number
  readonly interval_unit: IntervalUnit
  /** How many instalments (one per amount). */
  readonly count: number
}

/**
 * The charge dates of a schedule's instalments: instalment k is `start` plus k intervals, each
 * computed from `start` (a schedule started on the 31st charges on the last day of shorter months
 * and on the 31st again after them), rolled forward to a business day of the scheme's calendar.
 * The subscription's recurrence does the arithmetic, so both kinds of schedule agree on a date.
 */
export const instalmentChargeDates = (recurrence: InstalmentRecurrence, calendar: DayCalendar): ReadonlyArray<LocalDate> => {
  const start = toDayNumber(recurrence.start)
  const r: Recurrence = recurrence.interval_unit === "weekly"
    ? { unit: "weekly", anchor: start, stepDays: 7 * recurrence.interval }
    : {
      unit: recurrence.interval_unit,
      anchor: monthIndexOfDayNumber(start),
      stepMonths: recurrence.interval_unit === "yearly" ? 12 * recurrence.interval : recurrence.interval,
      day: dayOfMonthOfDayNumber(start)
    }
  const out: Array<LocalDate> = []
  writeChargeDates(r, calendar, 0, { endIndex: recurrence.count, endDay: null }, recurrence.count, out)
  return out
}
