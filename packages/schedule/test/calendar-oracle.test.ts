import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { dayNumberOf, fromDayNumber, isoWeekdayOfDayNumber, toDayNumber, unsafeLocalDate } from "@paykit/core"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { calendarFor } from "../src/index.ts"
import type { CalendarScheme } from "../src/index.ts"

/**
 * Cross-check against GoCardless's own published calendars (gocardless/business-python data,
 * kept in shared/oracle/business-calendars beside the repository). Skips itself when that folder
 * is absent, e.g. in a clone of the package alone.
 */
const ORACLE = fileURLToPath(new URL("../../../../shared/oracle/business-calendars/", import.meta.url))
const present = existsSync(`${ORACLE}calendars.json`) && existsSync(`${ORACLE}business_ops_vectors.json`)

/** The oracle's calendar names and the scheme whose calendar must agree with each. */
const SCHEME_OF: ReadonlyArray<readonly [string, CalendarScheme, number, number]> = [
  ["bacs", "bacs", 2011, 2027],
  ["target", "sepa_core", 2013, 2027],
  ["bankgirot", "autogiro", 2015, 2027],
  ["achus", "ach", 2019, 2023],
  ["betalingsservice", "betalingsservice", 2017, 2022],
  ["becs", "becs", 2017, 2021],
  ["becsnz", "becs_nz", 2017, 2021],
  ["padca", "pad", 2018, 2021]
]
// targetfrance (TARGET plus French public holidays) belongs to no scheme and is not compared.

/**
 * Known defects of the data: the days where the data is wrong and the calendar right. The first
 * group is the README's own list; the last entry was found by this test and checked by hand.
 * `closed` is what the day really is.
 */
const DEFECTS: ReadonlyArray<{ readonly calendar: string; readonly date: string; readonly closed: boolean; readonly why: string }> = [
  { calendar: "bacs", date: "2011-04-22", closed: true, why: "Good Friday 2011 missing" },
  { calendar: "bacs", date: "2011-04-29", closed: true, why: "Royal Wedding missing" },
  { calendar: "bacs", date: "2022-05-30", closed: false, why: "Spring bank holiday 2022 was moved to 2 June" },
  { calendar: "bacs", date: "2022-06-02", closed: true, why: "moved Spring bank holiday missing" },
  { calendar: "bacs", date: "2022-06-03", closed: true, why: "Platinum Jubilee missing" },
  { calendar: "bacs", date: "2022-09-19", closed: true, why: "State Funeral of Elizabeth II missing" },
  { calendar: "bacs", date: "2023-05-08", closed: true, why: "Coronation of Charles III missing" },
  { calendar: "bankgirot", date: "2023-06-21", closed: false, why: "2024's Midsummer Eve written with year 2023" },
  { calendar: "bankgirot", date: "2023-06-22", closed: false, why: "2024's Midsummer Eve written with year 2023" },
  { calendar: "bankgirot", date: "2024-06-21", closed: true, why: "Midsummer Eve 2024 missing (mis-dated 2023)" },
  { calendar: "achus", date: "2022-06-20", closed: true, why: "Juneteenth (observed) missing" },
  { calendar: "achus", date: "2023-06-19", closed: true, why: "Juneteenth missing" },
  { calendar: "becs", date: "2017-01-02", closed: true, why: "New Year substitute: data lists Sunday 01-01 instead" },
  { calendar: "padca", date: "2021-12-27", closed: true, why: "Christmas substitute missing" },
  { calendar: "padca", date: "2021-12-28", closed: true, why: "Boxing Day substitute missing" },
  // Found here: the data was frozen in November 2020, before Bill C-5 (royal assent 3 June 2021)
  // added the National Day for Truth and Reconciliation to the Bills of Exchange Act.
  { calendar: "padca", date: "2021-09-30", closed: true, why: "holiday created after the data was published" }
]

const Calendars = Schema.Record(Schema.String, Schema.Struct({ holidays: Schema.Array(Schema.String) }))
const Row = Schema.Tuple([
  Schema.String, Schema.Number, Schema.String, Schema.String, Schema.String, Schema.String, Schema.String,
  Schema.String, Schema.String, Schema.Number, Schema.Number
])
const Vectors = Schema.Struct({ calendars: Schema.Record(Schema.String, Schema.Struct({ rows: Schema.Array(Row) })) })

const readJson = (file: string): unknown => JSON.parse(readFileSync(`${ORACLE}${file}`, "utf8"))

describe.skipIf(!present)("against GoCardless's published calendars", () => {
  const calendars = present ? Schema.decodeUnknownSync(Calendars)(readJson("calendars.json")) : {}
  const vectors = present ? Schema.decodeUnknownSync(Vectors)(readJson("business_ops_vectors.json")).calendars : {}

  describe.each(SCHEME_OF)("%s as %s", (oracleName, scheme, firstYear, lastYear) => {
    const cal = calendarFor(scheme)
    const defects = DEFECTS.filter((d) => d.calendar === oracleName)
    const defectDays = new Set(defects.map((d) => toDayNumber(unsafeLocalDate(d.date))))
    const listed = new Set((calendars[oracleName]?.holidays ?? []).map((d) => toDayNumber(unsafeLocalDate(d))))
    const first = dayNumberOf(firstYear, 1, 1)
    const end = dayNumberOf(lastYear + 1, 1, 1)

    it("opens and closes on every day of the covered years as the data does, less its known defects", () => {
      const mismatches: Array<string> = []
      for (let n = first; n < end; n++) {
        const defect = defects.find((d) => d.date === fromDayNumber(n))
        const closedByData = isoWeekdayOfDayNumber(n) >= 6 || listed.has(n)
        const expectedOpen = defect === undefined ? !closedByData : !defect.closed
        if (cal.isBusinessDayNumber(n) !== expectedOpen) mismatches.push(fromDayNumber(n))
      }
      expect(mismatches).toEqual([])
    })

    it("lists each known defect of the data as a real disagreement, so none is excused for nothing", () => {
      for (const d of defects) {
        const n = toDayNumber(unsafeLocalDate(d.date))
        expect(listed.has(n)).toBe(!d.closed)
        expect(cal.isBusinessDayNumber(n)).toBe(!d.closed)
      }
    })

    it("gives the data's answers for every operation vector that stays clear of a defect", () => {
      const rows = vectors[oracleName]?.rows ?? []
      expect(rows.length).toBeGreaterThan(300)
      const inside = (n: number) => n >= first && n < end
      const mismatches: Array<string> = []
      let compared = 0
      for (const row of rows) {
        const [date, open, fwd, back, add1, add2, add5, sub1, sub3, week, month] = row
        const n = toDayNumber(unsafeLocalDate(date))
        const results = [fwd, back, add1, add2, add5, sub1, sub3].map((s) => toDayNumber(unsafeLocalDate(s)))
        const low = Math.min(n, ...results)
        const high = Math.max(n + 31, ...results)
        // Outside the covered years the data knows only weekends, so such rows say nothing.
        if (!inside(low) || !inside(high)) continue
        let nearDefect = false
        for (const d of defectDays) if (d >= low && d <= high) nearDefect = true
        if (nearDefect) continue
        compared += 1
        const ours = [
          cal.rollForwardDay(n), cal.rollBackwardDay(n), cal.addBusinessDaysToDay(n, 1), cal.addBusinessDaysToDay(n, 2),
          cal.addBusinessDaysToDay(n, 5), cal.subtractBusinessDaysFromDay(n, 1), cal.subtractBusinessDaysFromDay(n, 3)
        ]
        const same = (cal.isBusinessDayNumber(n) ? 1 : 0) === open &&
          ours.every((r, i) => r === results[i]) &&
          cal.businessDaysBetweenDays(n, n + 7) === week &&
          cal.businessDaysBetweenDays(n, n + 31) === month
        if (!same) mismatches.push(date)
      }
      expect(mismatches).toEqual([])
      expect(compared).toBeGreaterThan(rows.length / 2)
    })
  })
})
