import { describe, expect, it } from "vitest"
import { calendarFor } from "../src/index.ts"
import type { CalendarScheme } from "../src/index.ts"
import { unsafeLocalDate } from "@paykit/core"

/**
 * The closing days that fall on weekdays, 2020-2030, written out by hand from the published lists
 * (gov.uk bank holidays, ECB TARGET closing days, Federal Reserve holiday schedule, Swedish
 * helgdagar and bank days, Danish bankhelligdage, Australian national public holidays,
 * employment.govt.nz public holiday dates, Payments Canada holiday schedule); later years of
 * those lists follow the same published rules, counted on a calendar.
 */
const EXPECTED: ReadonlyArray<readonly [CalendarScheme, Readonly<Record<number, string>>]> = [
  ["bacs", {
    2020: "01-01 04-10 04-13 05-08 05-25 08-31 12-25 12-28",
    2021: "01-01 04-02 04-05 05-03 05-31 08-30 12-27 12-28",
    2022: "01-03 04-15 04-18 05-02 06-02 06-03 08-29 09-19 12-26 12-27",
    2023: "01-02 04-07 04-10 05-01 05-08 05-29 08-28 12-25 12-26",
    2024: "01-01 03-29 04-01 05-06 05-27 08-26 12-25 12-26",
    2025: "01-01 04-18 04-21 05-05 05-26 08-25 12-25 12-26",
    2026: "01-01 04-03 04-06 05-04 05-25 08-31 12-25 12-28",
    2027: "01-01 03-26 03-29 05-03 05-31 08-30 12-27 12-28",
    2028: "01-03 04-14 04-17 05-01 05-29 08-28 12-25 12-26",
    2029: "01-01 03-30 04-02 05-07 05-28 08-27 12-25 12-26",
    2030: "01-01 04-19 04-22 05-06 05-27 08-26 12-25 12-26"
  }],
  ["sepa_core", {
    2020: "01-01 04-10 04-13 05-01 12-25",
    2021: "01-01 04-02 04-05",
    2022: "04-15 04-18 12-26",
    2023: "04-07 04-10 05-01 12-25 12-26",
    2024: "01-01 03-29 04-01 05-01 12-25 12-26",
    2025: "01-01 04-18 04-21 05-01 12-25 12-26",
    2026: "01-01 04-03 04-06 05-01 12-25",
    2027: "01-01 03-26 03-29",
    2028: "04-14 04-17 05-01 12-25 12-26",
    2029: "01-01 03-30 04-02 05-01 12-25 12-26",
    2030: "01-01 04-19 04-22 05-01 12-25 12-26"
  }],
  ["ach", {
    2020: "01-01 01-20 02-17 05-25 09-07 10-12 11-11 11-26 12-25",
    2021: "01-01 01-18 02-15 05-31 07-05 09-06 10-11 11-11 11-25",
    2022: "01-17 02-21 05-30 06-20 07-04 09-05 10-10 11-11 11-24 12-26",
    2023: "01-02 01-16 02-20 05-29 06-19 07-04 09-04 10-09 11-23 12-25",
    2024: "01-01 01-15 02-19 05-27 06-19 07-04 09-02 10-14 11-11 11-28 12-25",
    2025: "01-01 01-20 02-17 05-26 06-19 07-04 09-01 10-13 11-11 11-27 12-25",
    2026: "01-01 01-19 02-16 05-25 06-19 09-07 10-12 11-11 11-26 12-25",
    2027: "01-01 01-18 02-15 05-31 07-05 09-06 10-11 11-11 11-25",
    2028: "01-17 02-21 05-29 06-19 07-04 09-04 10-09 11-23 12-25",
    2029: "01-01 01-15 02-19 05-28 06-19 07-04 09-03 10-08 11-12 11-22 12-25",
    2030: "01-01 01-21 02-18 05-27 06-19 07-04 09-02 10-14 11-11 11-28 12-25"
  }],
  ["autogiro", {
    2020: "01-01 01-06 04-10 04-13 05-01 05-21 06-19 12-24 12-25 12-31",
    2021: "01-01 01-06 04-02 04-05 05-13 06-25 12-24 12-31",
    2022: "01-06 04-15 04-18 05-26 06-06 06-24 12-26",
    2023: "01-06 04-07 04-10 05-01 05-18 06-06 06-23 12-25 12-26",
    2024: "01-01 03-29 04-01 05-01 05-09 06-06 06-21 12-24 12-25 12-26 12-31",
    2025: "01-01 01-06 04-18 04-21 05-01 05-29 06-06 06-20 12-24 12-25 12-26 12-31",
    2026: "01-01 01-06 04-03 04-06 05-01 05-14 06-19 12-24 12-25 12-31",
    2027: "01-01 01-06 03-26 03-29 05-06 06-25 12-24 12-31",
    2028: "01-06 04-14 04-17 05-01 05-25 06-06 06-23 12-25 12-26",
    2029: "01-01 03-30 04-02 05-01 05-10 06-06 06-22 12-24 12-25 12-26 12-31",
    2030: "01-01 04-19 04-22 05-01 05-30 06-06 06-21 12-24 12-25 12-26 12-31"
  }],
  ["betalingsservice", {
    2020: "01-01 04-09 04-10 04-13 05-08 05-21 05-22 06-01 06-05 12-24 12-25 12-31",
    2021: "01-01 04-01 04-02 04-05 04-30 05-13 05-14 05-24 12-24 12-31",
    2022: "04-14 04-15 04-18 05-13 05-26 05-27 06-06 12-26",
    2023: "04-06 04-07 04-10 05-05 05-18 05-19 05-29 06-05 12-25 12-26",
    2024: "01-01 03-28 03-29 04-01 05-09 05-10 05-20 06-05 12-24 12-25 12-26 12-31",
    2025: "01-01 04-17 04-18 04-21 05-29 05-30 06-05 06-09 12-24 12-25 12-26 12-31",
    2026: "01-01 04-02 04-03 04-06 05-14 05-15 05-25 06-05 12-24 12-25 12-31",
    2027: "01-01 03-25 03-26 03-29 05-06 05-07 05-17 12-24 12-31",
    2028: "04-13 04-14 04-17 05-25 05-26 06-05 12-25 12-26",
    2029: "01-01 03-29 03-30 04-02 05-10 05-11 05-21 06-05 12-24 12-25 12-26 12-31",
    2030: "01-01 04-18 04-19 04-22 05-30 05-31 06-05 06-10 12-24 12-25 12-26 12-31"
  }],
  ["becs", {
    2020: "01-01 01-27 04-10 04-13 12-25 12-28",
    2021: "01-01 01-26 04-02 04-05 04-26 12-27 12-28",
    2022: "01-03 01-26 04-15 04-18 04-25 09-22 12-26 12-27",
    2023: "01-02 01-26 04-07 04-10 04-25 12-25 12-26",
    2024: "01-01 01-26 03-29 04-01 04-25 12-25 12-26",
    2025: "01-01 01-27 04-18 04-21 04-25 12-25 12-26",
    2026: "01-01 01-26 04-03 04-06 12-25 12-28",
    2027: "01-01 01-26 03-26 03-29 04-26 12-27 12-28",
    2028: "01-03 01-26 04-14 04-17 04-25 12-25 12-26",
    2029: "01-01 01-26 03-30 04-02 04-25 12-25 12-26",
    2030: "01-01 01-28 04-19 04-22 04-25 12-25 12-26"
  }],
  ["becs_nz", {
    2020: "01-01 01-02 02-06 04-10 04-13 04-27 06-01 10-26 12-25 12-28",
    2021: "01-01 01-04 02-08 04-02 04-05 04-26 06-07 10-25 12-27 12-28",
    2022: "01-03 01-04 02-07 04-15 04-18 04-25 06-06 06-24 09-26 10-24 12-26 12-27",
    2023: "01-02 01-03 02-06 04-07 04-10 04-25 06-05 07-14 10-23 12-25 12-26",
    2024: "01-01 01-02 02-06 03-29 04-01 04-25 06-03 06-28 10-28 12-25 12-26",
    2025: "01-01 01-02 02-06 04-18 04-21 04-25 06-02 06-20 10-27 12-25 12-26",
    2026: "01-01 01-02 02-06 04-03 04-06 04-27 06-01 07-10 10-26 12-25 12-28",
    2027: "01-01 01-04 02-08 03-26 03-29 04-26 06-07 06-25 10-25 12-27 12-28",
    2028: "01-03 01-04 02-07 04-14 04-17 04-25 06-05 07-14 10-23 12-25 12-26",
    2029: "01-01 01-02 02-06 03-30 04-02 04-25 06-04 07-06 10-22 12-25 12-26",
    2030: "01-01 01-02 02-06 04-19 04-22 04-25 06-03 06-21 10-28 12-25 12-26"
  }],
  ["pad", {
    2020: "01-01 04-10 05-18 07-01 09-07 10-12 11-11 12-25 12-28",
    2021: "01-01 04-02 05-24 07-01 09-06 09-30 10-11 11-11 12-27 12-28",
    2022: "01-03 04-15 05-23 07-01 09-05 09-30 10-10 11-11 12-26 12-27",
    2023: "01-02 04-07 05-22 07-03 09-04 10-02 10-09 11-13 12-25 12-26",
    2024: "01-01 03-29 05-20 07-01 09-02 09-30 10-14 11-11 12-25 12-26",
    2025: "01-01 04-18 05-19 07-01 09-01 09-30 10-13 11-11 12-25 12-26",
    2026: "01-01 04-03 05-18 07-01 09-07 09-30 10-12 11-11 12-25 12-28",
    2027: "01-01 03-26 05-24 07-01 09-06 09-30 10-11 11-11 12-27 12-28",
    2028: "01-03 04-14 05-22 07-03 09-04 10-02 10-09 11-13 12-25 12-26",
    2029: "01-01 03-30 05-21 07-02 09-03 10-01 10-08 11-12 12-25 12-26",
    2030: "01-01 04-19 05-20 07-01 09-02 09-30 10-14 11-11 12-25 12-26"
  }]
]

describe.each(EXPECTED)("%s holidays 2020-2030", (scheme, years) => {
  it.each(Object.entries(years))("%s", (year, days) => {
    const expected = days.split(" ").map((md) => `${year}-${md}`)
    expect(calendarFor(scheme).holidays(Number(year))).toEqual(expected)
  })
})

/** Days that the rules' history and one-off proclamations decide: [date, open?]. */
const HISTORY: ReadonlyArray<readonly [CalendarScheme, string, boolean, string]> = [
  ["bacs", "1973-01-01", true, "New Year's Day a bank holiday only from 1974"],
  ["bacs", "1974-01-01", false, "first New Year's Day bank holiday"],
  ["bacs", "1977-05-30", true, "1977 spring holiday moved to 6 June"],
  ["bacs", "1977-06-06", false, "moved spring holiday"],
  ["bacs", "1977-06-07", false, "Silver Jubilee"],
  ["bacs", "1977-05-02", true, "no early May holiday before 1978"],
  ["bacs", "1978-05-01", false, "first early May bank holiday"],
  ["bacs", "1981-07-29", false, "Royal Wedding"],
  ["bacs", "1995-05-01", true, "VE Day anniversary moved the holiday"],
  ["bacs", "1995-05-08", false, "VE Day 50th anniversary"],
  ["bacs", "1999-12-31", false, "Millennium"],
  ["bacs", "2000-01-03", false, "New Year's Day substitute"],
  ["bacs", "2002-06-03", false, "Golden Jubilee"],
  ["bacs", "2002-06-04", false, "moved spring holiday"],
  ["bacs", "2002-05-27", true, "spring holiday moved"],
  ["bacs", "2011-04-29", false, "Royal Wedding"],
  ["bacs", "2012-06-04", false, "moved spring holiday"],
  ["bacs", "2012-06-05", false, "Diamond Jubilee"],
  ["bacs", "2012-05-28", true, "spring holiday moved"],
  ["bacs", "2020-05-04", true, "VE Day 75th anniversary moved the holiday"],
  ["faster_payments", "2022-09-19", false, "State Funeral"],
  ["sepa_core", "1999-04-02", true, "TARGET open on Good Friday 1999"],
  ["sepa_core", "1999-12-31", false, "Y2K closing"],
  ["sepa_core", "2001-12-31", false, "euro cash changeover"],
  ["sepa_core", "2002-12-31", true, "31 December otherwise open"],
  ["sepa", "2000-04-21", false, "Good Friday from 2000"],
  ["ach", "1985-01-21", true, "no MLK Day before 1986"],
  ["ach", "1986-01-20", false, "first MLK Day"],
  ["ach", "2021-06-18", true, "Juneteenth not kept by the Fed in 2021"],
  ["ach", "2021-12-24", true, "Saturday Christmas not moved to Friday"],
  ["ach", "1970-02-16", true, "Washington's Birthday on 22 February before 1971, not the third Monday"],
  ["ach", "1970-02-23", false, "22 February 1970 a Sunday, kept on the Monday"],
  ["ach", "1975-10-27", false, "Veterans Day on the fourth Monday of October 1971-1977"],
  ["ach", "1975-11-11", true, "Veterans Day moved in 1975"],
  ["autogiro", "2004-05-31", false, "Whit Monday until 2004"],
  ["autogiro", "2005-05-16", true, "Whit Monday abolished from 2005"],
  ["autogiro", "2005-06-06", false, "National Day from 2005"],
  ["autogiro", "2004-06-07", true, "no National Day holiday before 2005"],
  ["betalingsservice", "2023-05-05", false, "Great Prayer Day, last kept 2023"],
  ["betalingsservice", "2024-04-26", true, "Great Prayer Day abolished from 2024"],
  ["betalingsservice", "2019-12-24", true, "Christmas Eve a bank day until 2019"],
  ["becs", "2020-04-27", true, "Anzac Day on Saturday not replaced"],
  ["pay_to", "2022-09-22", false, "National Day of Mourning"],
  ["becs", "1993-01-26", true, "Australia Day kept on the Monday before 1994"],
  ["becs", "1993-02-01", false, "Australia Day holiday 1993"],
  ["becs_nz", "2013-02-08", true, "Waitangi Day not Mondayised before 2014"],
  ["becs_nz", "2015-04-27", false, "Anzac Day Mondayised from 2014"],
  ["becs_nz", "1973-02-06", true, "Waitangi Day national only from 1974"],
  ["becs_nz", "2021-06-25", true, "no Matariki before 2022"],
  ["becs_nz", "2052-06-21", false, "last Matariki the Act dates"],
  ["pad", "2020-09-30", true, "no Truth and Reconciliation Day before 2021"],
  ["pad", "2022-09-19", true, "Payments Canada open on the federal day of mourning"]
]

describe("history of the rules and one-off days", () => {
  it.each(HISTORY)("%s %s open=%s (%s)", (scheme, date, open) => {
    expect(calendarFor(scheme).isBusinessDay(unsafeLocalDate(date))).toBe(open)
  })
})

describe("verbs on a known stretch: Bacs around Christmas 2020", () => {
  const bacs = calendarFor("bacs")
  const d = unsafeLocalDate
  it("rolls, steps and counts", () => {
    expect(bacs.rollForward(d("2020-12-25"))).toBe("2020-12-29")
    expect(bacs.rollBackward(d("2020-12-28"))).toBe("2020-12-24")
    expect(bacs.nextBusinessDay(d("2020-12-24"))).toBe("2020-12-29")
    expect(bacs.previousBusinessDay(d("2020-12-29"))).toBe("2020-12-24")
    expect(bacs.nextBusinessDay(d("2020-12-29"))).toBe("2020-12-30")
    expect(bacs.addBusinessDays(d("2020-12-24"), 2)).toBe("2020-12-30")
    expect(bacs.addBusinessDays(d("2020-12-26"), 0)).toBe("2020-12-29")
    expect(bacs.subtractBusinessDays(d("2020-12-27"), 1)).toBe("2020-12-23")
    expect(bacs.subtractBusinessDays(d("2021-01-04"), 3)).toBe("2020-12-29")
    expect(bacs.businessDaysBetween(d("2020-12-24"), d("2021-01-04"))).toBe(4)
    expect(bacs.businessDaysBetween(d("2021-01-04"), d("2020-12-24"))).toBe(-4)
    expect(bacs.businessDaysBetween(d("2020-01-01"), d("2021-01-01"))).toBe(262 - 8)
  })
})
