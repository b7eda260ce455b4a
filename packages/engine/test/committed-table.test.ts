import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { SEGMENT_ROWS, commitRow, committedRow, newCommittedTable } from "../src/memory/committed-table.ts"

/**
 * Ids as the store sees them: mostly ascending (ids are time-ordered), with some out of order and
 * some written again. Short ids, so that out-of-order ones land between and before segments.
 */
const writes = fc.array(
  fc.oneof(
    { weight: 6, arbitrary: fc.constant("next" as const) },
    { weight: 1, arbitrary: fc.stringMatching(/^[0-9A-Z]{1,4}$/) }
  ),
  { maxLength: 3 * SEGMENT_ROWS, size: "max" }
)

describe("committed table: rows by id in segments, ids ascending", () => {
  it("answers every id as a Map would, and keeps every id once, ascending, whatever order ids come in", () => {
    fc.assert(fc.property(writes, fc.stringMatching(/^[0-9A-Z]{1,4}$/), (steps, probe) => {
      const table = newCommittedTable<number>()
      const model = new Map<string, number>()
      let counter = 0
      steps.forEach((step, version) => {
        // "next" is a new greatest id, as a time-ordered generator makes them.
        const id = step === "next" ? `Z${String(counter++).padStart(6, "0")}` : step
        commitRow(table, id, version)
        model.set(id, version)
      })
      expect(table.ids).toEqual([...model.keys()].sort())
      for (const [id, version] of model) expect(committedRow(table, id)).toBe(version)
      expect(committedRow(table, probe)).toBe(model.get(probe))
      // No segment outgrows its bound through appends, and the segments partition the ids.
      expect(table.segments.reduce((n, s) => n + s.size, 0)).toBe(model.size)
      expect(table.firsts).toEqual([...table.firsts].sort())
    }), { numRuns: 40 })
  })

  it("starts a new segment every SEGMENT_ROWS appended ids", () => {
    const table = newCommittedTable<number>()
    for (let i = 0; i < 2 * SEGMENT_ROWS + 1; i++) commitRow(table, `ID${String(i).padStart(8, "0")}`, i)
    expect(table.segments.map((s) => s.size)).toEqual([SEGMENT_ROWS, SEGMENT_ROWS, 1])
    expect(committedRow(table, `ID${String(SEGMENT_ROWS).padStart(8, "0")}`)).toBe(SEGMENT_ROWS)
    expect(committedRow(undefined, "ID")).toBeUndefined()
  })
})
