import { makeCalendar } from "./make-calendar.ts"

/** Monday to Friday with no holidays: the fallback of gocardless/business's "weekdays" calendar. */
export const weekdays = (name: string) => makeCalendar(name, () => [])
