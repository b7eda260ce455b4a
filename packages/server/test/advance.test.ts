import fc from "fast-check"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { advanceTarget, formatIsoDuration, parseIsoDuration, SANDBOX_ADVANCE_MAX_DAYS, SANDBOX_ADVANCE_MAX_MS } from "../src/index.ts"

const DAY = 86_400_000
const NOW = Date.parse("2026-11-21T12:00:00.000Z")

describe("ISO 8601 durations", () => {
  it("known answers", () => {
    expect(parseIsoDuration("P1D")).toBe(DAY)
    expect(parseIsoDuration("PT36H")).toBe(36 * 3_600_000)
    expect(parseIsoDuration("P1W2DT3H4M5S")).toBe(9 * DAY + 3 * 3_600_000 + 4 * 60_000 + 5000)
    expect(parseIsoDuration("PT0S")).toBe(0)
    for (const bad of ["P", "PT", "P1M", "P1Y", "1D", "P1DT", "P-1D", "P1.5D", "p1d", " P1D"]) expect(parseIsoDuration(bad), bad).toBeUndefined()
    expect(formatIsoDuration(0)).toBe("PT0S")
    expect(formatIsoDuration(DAY + 3_600_000 + 5000)).toBe("P1DT1H5S")
    expect(formatIsoDuration(2 * DAY + 999)).toBe("P2D")
  })

  it("formatting then parsing gives the duration back, cut to whole seconds", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000 * DAY }), (ms) => {
      expect(parseIsoDuration(formatIsoDuration(ms))).toBe(ms - (ms % 1000))
    }))
  })

  it("a duration is the sum of its parts", () => {
    fc.assert(fc.property(
      fc.record({ w: fc.nat(100), d: fc.nat(1000), h: fc.nat(1000), m: fc.nat(10_000), s: fc.nat(1_000_000) }),
      ({ w, d, h, m, s }) => {
        const text = `P${w}W${d}DT${h}H${m}M${s}S`
        expect(parseIsoDuration(text)).toBe(w * 7 * DAY + d * DAY + h * 3_600_000 + m * 60_000 + s * 1000)
      }
    ))
  })
})

describe("the advance target", () => {
  it("by seconds moves exactly that far, within the bound; beyond it or not forward is refused", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: SANDBOX_ADVANCE_MAX_MS / 1000 + 10 * 86_400 }), (seconds) => {
      const result = advanceTarget({ by: seconds }, NOW)
      if (seconds * 1000 <= SANDBOX_ADVANCE_MAX_MS) expect(result).toEqual(Result.succeed(NOW + seconds * 1000))
      else expect(Result.isFailure(result)).toBe(true)
    }))
  })

  it("to: any instant after now and within the bound is the target, in any offset notation", () => {
    fc.assert(fc.property(fc.integer({ min: -5 * DAY, max: SANDBOX_ADVANCE_MAX_MS + 5 * DAY }), (delta) => {
      const target = NOW + delta - (delta % 1000)
      const result = advanceTarget({ to: new Date(target).toISOString() }, NOW)
      const ok = target > NOW && target - NOW <= SANDBOX_ADVANCE_MAX_MS
      expect(Result.isSuccess(result)).toBe(ok)
      if (ok) expect(result).toEqual(Result.succeed(target))
    }))
    expect(advanceTarget({ to: "2026-11-22T01:00:00+01:00" }, NOW)).toEqual(Result.succeed(Date.parse("2026-11-22T00:00:00.000Z")))
    expect(advanceTarget({ to: "2026-11-23" }, NOW)).toEqual(Result.succeed(Date.parse("2026-11-23T00:00:00.000Z")))
  })

  it("refusals name the field and its pointer", () => {
    const failure = (body: unknown) => {
      const result = advanceTarget(body, NOW)
      if (Result.isSuccess(result)) throw new Error(`accepted ${JSON.stringify(body)}`)
      return result.failure.errors.map((e) => [e.field, e.request_pointer])
    }
    expect(failure({ by: "P1M" })).toEqual([["by", "/simulator/by"]])
    expect(failure({ to: "yesterday" })).toEqual([["to", "/simulator/to"]])
    expect(failure({ to: "2026-11-22T00:00:00Z", by: "P1D" })).toEqual([["by", "/simulator/by"]])
    expect(failure({ by: `P${SANDBOX_ADVANCE_MAX_DAYS + 1}D` })).toEqual([["by", "/simulator/by"]])
    expect(failure([])).not.toHaveLength(0)
  })
})
