import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { pageOf } from "@paykit/engine"

const ids = fc.uniqueArray(fc.stringMatching(/^[0-9A-Z]{4}$/), { maxLength: 40 }).map((xs) => [...xs].sort().reverse().map((id) => ({ id })))

describe("pageOf: the reference page semantics", () => {
  it("walking `after` cursors from the first page visits every item once, newest first", () => {
    fc.assert(fc.property(ids, fc.integer({ min: 1, max: 10 }), (items, limit) => {
      const seen: Array<string> = []
      let page = pageOf(items, { limit })
      seen.push(...page.items.map((i) => i.id))
      let guard = 0
      while (page.after !== null && guard++ < 100) {
        page = pageOf(items, { limit, after: page.after })
        seen.push(...page.items.map((i) => i.id))
      }
      expect(seen).toEqual(items.map((i) => i.id))
    }))
  })

  it("`before` of a page returns the page before it", () => {
    fc.assert(fc.property(ids, fc.integer({ min: 1, max: 10 }), (items, limit) => {
      const first = pageOf(items, { limit })
      if (first.after === null) return
      const second = pageOf(items, { limit, after: first.after })
      expect(second.before).not.toBeNull()
      expect(pageOf(items, { limit, before: second.before ?? "" }).items).toEqual(first.items)
    }))
  })

  it("never returns more than `limit` items and cursors are null exactly at the ends", () => {
    fc.assert(fc.property(ids, fc.integer({ min: 1, max: 10 }), (items, limit) => {
      const page = pageOf(items, { limit })
      expect(page.items.length).toBe(Math.min(limit, items.length))
      expect(page.before).toBeNull()
      expect(page.after === null).toBe(items.length <= limit)
    }))
  })
})
