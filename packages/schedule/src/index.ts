export type { BusinessCalendar, CalendarScheme } from "./calendar.ts"
