import type { BusinessCalendar, CalendarScheme } from "./calendar.ts"
import { englandAndWales } from "./calendars/england-and-wales.ts"
import { weekdays } from "./calendars/weekdays.ts"

/**
 * The calendar each scheme settles on. Calendars are built once per module and shared: their
 * per-year tables fill lazily and never change, so sharing is safe.
 */
const bacs = englandAndWales("bacs")
const target = weekdays("target")
const fedwire = weekdays("ach")
const bankgirot = weekdays("autogiro")
const denmark = weekdays("betalingsservice")
const australia = weekdays("becs")
const newZealand = weekdays("becs_nz")
const canada = weekdays("pad")

const BY_SCHEME: Readonly<Record<CalendarScheme, BusinessCalendar>> = {
  bacs,
  faster_payments: bacs,
  sepa_core: target,
  sepa: target,
  sepa_credit_transfer: target,
  sepa_instant_credit_transfer: target,
  ach: fedwire,
  autogiro: bankgirot,
  betalingsservice: denmark,
  becs: australia,
  pay_to: australia,
  becs_nz: newZealand,
  pad: canada
}

/** Every scheme that has a calendar, i.e. every scheme of the API. */
export const CALENDAR_NAMES: ReadonlyArray<CalendarScheme> = Object.keys(BY_SCHEME) as Array<CalendarScheme>

export const calendarFor = (scheme: CalendarScheme): BusinessCalendar => BY_SCHEME[scheme]
