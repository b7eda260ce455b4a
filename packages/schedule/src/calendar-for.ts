import type { BusinessCalendar, CalendarScheme } from "./calendar.ts"
import { australia } from "./calendars/australia.ts"
import { canada } from "./calendars/canada.ts"
import { denmark } from "./calendars/denmark.ts"
import { englandAndWales } from "./calendars/england-and-wales.ts"
import { federalReserve } from "./calendars/federal-reserve.ts"
import { newZealand } from "./calendars/new-zealand.ts"
import { sweden } from "./calendars/sweden.ts"
import { target as targetCalendar } from "./calendars/target.ts"

/**
 * The calendar each scheme settles on. Calendars are built once per module and shared: their
 * per-year tables fill lazily and never change, so sharing is safe.
 */
const bacs = englandAndWales("bacs")
const target = targetCalendar("sepa_core")
const fedwire = federalReserve("ach")
const bankgirot = sweden("autogiro")
const danish = denmark("betalingsservice")
const australian = australia("becs")
const newZealandCalendar = newZealand("becs_nz")
const paymentsCanada = canada("pad")

const BY_SCHEME: Readonly<Record<CalendarScheme, BusinessCalendar>> = {
  bacs,
  faster_payments: bacs,
  sepa_core: target,
  sepa: target,
  sepa_credit_transfer: target,
  sepa_instant_credit_transfer: target,
  ach: fedwire,
  autogiro: bankgirot,
  betalingsservice: danish,
  becs: australian,
  pay_to: australian,
  becs_nz: newZealandCalendar,
  pad: paymentsCanada
}

/** Every scheme that has a calendar, i.e. every scheme of the API. */
export const CALENDAR_NAMES: ReadonlyArray<CalendarScheme> = Object.keys(BY_SCHEME) as Array<CalendarScheme>

export const calendarFor = (scheme: CalendarScheme): BusinessCalendar => BY_SCHEME[scheme]
