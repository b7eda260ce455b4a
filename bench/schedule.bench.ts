/**
 * Subscription charge dates: paykit (rolled on the Bacs calendar) against rrule 2.8.1 (no rolling).
 *
 *   npx tsx bench/schedule.bench.ts [--full]     (or `npm run bench schedule`)
 *   SCHEDULE_BENCH_N=3000 npx tsx bench/schedule.bench.ts   (a quick smoke run)
 *
 * 100,000 subscriptions of each recurrence, started on days spread over 2015-2026; each query
 * asks for the next 10 charge dates on or after today (2026-11-21). Both sides build their rule
 * objects before the clock starts and are timed on the queries alone. paykit returns `YYYY-MM-DD`
 * strings rolled to business days; rrule returns unrolled `Date` objects, which is less work.
 * An "age" pair runs the same monthly rule for subscriptions all started in January 2015 and
 * all started in November 2026: paykit jumps to the first date by arithmetic, so age costs it
 * nothing, while rrule walks every occurrence from the start.
 */
import { ensureSourceCondition } from "./support/source-condition.ts"
import { performance } from "node:perf_hooks"
import rrulePackage from "rrule"
import type { RRule as RRuleType } from "rrule"
import type { LocalDate } from "@paykit/core"
import type { BusinessCalendar, SubscriptionSchedule } from "@paykit/schedule"

ensureSourceCondition()

// rrule ships CommonJS to Node, whose named exports Node cannot see: take them off the default.
const { RRule, datetime } = rrulePackage
type RRule = RRuleType

const core = await import("@paykit/core")
const schedule = await import("@paykit/schedule")

const TODAY = "2026-11-21" as LocalDate
const N = Number(process.env["SCHEDULE_BENCH_N"] ?? 100_000)
const NEXT = 10
const ROUNDS = 3
// rrule needs about a millisecond a query for old subscriptions: by default it is timed on the
// first 10,000 subscriptions of each row (a rate per query either way); `--full` times all of them.
const RRULE_SAMPLE = process.argv.includes("--full") ? N : 10_000

type Kind = "monthly, day 1" | "monthly, day -1" | "weekly" | "yearly, 15 March"

interface Case {
  readonly paykit: SubscriptionSchedule
  readonly rrule: RRule
}

const bacs: BusinessCalendar = schedule.calendarFor("bacs")
const random = core.seededRandom(20261121)
const dayOf = (d: string) => core.toDayNumber(d as LocalDate)

/** A subscription of `kind` whose first charge is on `start`, planned through the public API. */
const makeCase = (kind: Kind, start: LocalDate): Case => {
  const ctx = { calendar: bacs, today: start, next_possible_charge_date: start }
  const p = core.dateParts(start)
  const body: Record<string, unknown> = { amount: 1000, currency: "GBP", links: { mandate: "MD0000000000AB" }, start_date: start }
  let rule: RRule
  const dtstart = datetime(p.year, p.month, p.day)
  switch (kind) {
    case "monthly, day 1":
      Object.assign(body, { interval_unit: "monthly", day_of_month: 1 })
      rule = new RRule({ freq: RRule.MONTHLY, bymonthday: 1, dtstart }, true)
      break
    case "monthly, day -1":
      Object.assign(body, { interval_unit: "monthly", day_of_month: -1 })
      rule = new RRule({ freq: RRule.MONTHLY, bymonthday: -1, dtstart }, true)
      break
    case "weekly":
      Object.assign(body, { interval_unit: "weekly" })
      rule = new RRule({ freq: RRule.WEEKLY, dtstart }, true)
      break
    case "yearly, 15 March":
      Object.assign(body, { interval_unit: "yearly", month: "march", day_of_month: 15 })
      rule = new RRule({ freq: RRule.YEARLY, bymonth: 3, bymonthday: 15, dtstart }, true)
      break
  }
  const planned = schedule.planSubscription(body, ctx)
  if (planned._tag === "Failure") throw new Error(`plan failed: ${JSON.stringify(planned.failure.errors)}`)
  return { paykit: planned.success.schedule, rrule: rule }
}

const startsBetween = (from: string, to: string): Array<LocalDate> => {
  const a = dayOf(from)
  const span = dayOf(to) - a
  return Array.from({ length: N }, () => core.fromDayNumber(a + Math.floor(random() * span)))
}

const FROM = new Date(`${TODAY}T00:00:00.000Z`)
const UNTIL = new Date("2100-01-01T00:00:00.000Z")

let sink = 0
const timePaykit = (cases: ReadonlyArray<Case>): number => {
  const t0 = performance.now()
  for (const c of cases) sink += schedule.chargeDatesFrom(c.paykit, bacs, TODAY, NEXT).length
  return performance.now() - t0
}
const timeRrule = (cases: ReadonlyArray<Case>): number => {
  const t0 = performance.now()
  for (const c of cases) sink += c.rrule.between(FROM, UNTIL, true, (_d, i) => i < NEXT).length
  return performance.now() - t0
}
const best = (f: () => number): number => {
  let b = Number.POSITIVE_INFINITY
  for (let i = 0; i < ROUNDS; i++) b = Math.min(b, f())
  return b
}

/** The same recurrence: paykit's dates are rrule's rolled on the calendar, for a sample. */
const check = (cases: ReadonlyArray<Case>, kind: Kind): void => {
  const backward = kind === "monthly, day -1"
  for (const c of cases.slice(0, 2000)) {
    const ours = schedule.chargeDatesFrom(c.paykit, bacs, TODAY, NEXT)
    const theirs = c.rrule.between(new Date(FROM.getTime() - 7 * 86_400_000), UNTIL, true, (_d, i) => i < NEXT + 1)
      .map((d) => dayOf(d.toISOString().slice(0, 10)))
      .map((n) => core.fromDayNumber(backward ? bacs.rollBackwardDay(n) : bacs.rollForwardDay(n)))
      .filter((d) => d >= TODAY)
      .slice(0, NEXT)
    if (ours.join() !== theirs.join()) throw new Error(`${kind}: paykit ${ours.join()} but rrule rolled ${theirs.join()}`)
  }
}

const rows: Array<[string, number, number]> = []
const run = (label: string, cases: ReadonlyArray<Case>) => {
  process.stderr.write(`${label}...\n`)
  timePaykit(cases) // warm up both
  timeRrule(cases.slice(0, 2000))
  const ours = best(() => timePaykit(cases))
  // rrule takes seconds per row: one round is long enough to be steady.
  const theirs = timeRrule(cases.slice(0, RRULE_SAMPLE))
  rows.push([label, (cases.length / ours) * 1000, (Math.min(cases.length, RRULE_SAMPLE) / theirs) * 1000])
}

const spread = startsBetween("2015-01-01", TODAY)
for (const kind of ["monthly, day 1", "monthly, day -1", "weekly", "yearly, 15 March"] as const) {
  const cases = spread.map((s) => makeCase(kind, s))
  check(cases, kind)
  run(`${kind} (started 2015-2026)`, cases)
}
run("age: monthly day 1, started Jan 2015", startsBetween("2015-01-01", "2015-01-31").map((s) => makeCase("monthly, day 1", s)))
run("age: monthly day 1, started Nov 2026", startsBetween("2026-11-01", TODAY).map((s) => makeCase("monthly, day 1", s)))

const fmt = (n: number) => Math.round(n).toLocaleString("en-GB")
console.log(`Next ${NEXT} charge dates on or after ${TODAY}, ${N.toLocaleString("en-GB")} subscriptions per row, paykit best of ${ROUNDS} rounds, rrule one round on ${RRULE_SAMPLE.toLocaleString("en-GB")} of them; Node ${process.version}.\n`)
console.log("| recurrence | paykit, rolled on bacs (queries/s) | rrule 2.8.1, unrolled (queries/s) | ratio |")
console.log("|---|---:|---:|---:|")
for (const [label, ours, theirs] of rows) console.log(`| ${label} | ${fmt(ours)} | ${fmt(theirs)} | ${(ours / theirs).toFixed(1)}x |`)
if (sink === 0) console.log("(nothing computed)")
