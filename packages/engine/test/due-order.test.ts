import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { compareDueOrder } from "@paykit/engine"

/**
 * Due order is the SQL store's `ORDER BY due_at, organisation_id, kind, key` under `COLLATE "C"`:
 * UTF-8 bytes compared in order, which is what `Buffer.compare` does, independently of the
 * code-point walk under test (JavaScript's own `<` compares UTF-16 code units, which differ past U+FFFF).
 */

const text = fc.string({ unit: "binary", maxLength: 4 })
const Row = fc.record({ organisation: text, kind: text, key: text, dueAt: fc.integer({ min: 0, max: 3 }) })

const bytes = (a: string, b: string) => Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"))
const sign = (n: number) => Math.sign(n) + 0

describe("due order", () => {
  it("is due_at, then organisation, kind and key in UTF-8 byte order (PostgreSQL's COLLATE \"C\")", () => {
    fc.assert(fc.property(Row, Row, (a, b) => {
      const expected = Math.sign(a.dueAt - b.dueAt) || bytes(a.organisation, b.organisation) || bytes(a.kind, b.kind) || bytes(a.key, b.key)
      expect(sign(compareDueOrder(a, b))).toBe(expected)
    }), { numRuns: 2_000 })
  })

  it("puts a character past U+FFFF after one in U+E000–U+FFFF, as UTF-8 does and UTF-16 code units do not", () => {
    const row = (organisation: string) => ({ organisation, kind: "k", key: "k", dueAt: 0 })
    expect(compareDueOrder(row("\u{1F600}"), row("\uFFFD"))).toBeGreaterThan(0)
  })
})
