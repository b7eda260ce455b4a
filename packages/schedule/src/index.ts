export type { BusinessCalendar, CalendarScheme } from "./calendar.ts"
export { calendarFor, CALENDAR_NAMES } from "./calendar-for.ts"
