import assert from "node:assert/strict"
import fc from "fast-check"
import { calendarFor } from "@paykit/schedule"
import { dateBetween } from "@paykit/schedule/testing"

// A property that is false: "every date of 2026 is a Bacs business day". fast-check finds a
// counterexample, then shrinks it: a date shrinks towards the start of its range, so the report
// names the first closing day of 2026 (New Year's Day), not whichever date failed first.
const bacs = calendarFor("bacs")
const result = fc.check(fc.property(dateBetween("2026-01-01", "2026-12-31"), (d) => bacs.isBusinessDay(d)), { seed: 42 })
assert.ok(result.failed)
assert.deepEqual(result.counterexample, ["2026-01-01"])

// The seed and path replay exactly that failure, for a debugger or a regression test.
const replay = fc.check(fc.property(dateBetween("2026-01-01", "2026-12-31"), (d) => bacs.isBusinessDay(d)), {
  seed: result.seed, path: result.counterexamplePath ?? "", endOnFailure: true
})
assert.deepEqual(replay.counterexample, ["2026-01-01"])

console.log(`shrunk to ${String(result.counterexample?.[0])} after ${result.numShrinks} shrinks (seed ${result.seed})`)
