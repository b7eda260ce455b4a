import { Result, Schema } from "effect"
import { decodeInput, invalidField, parseTimestamp, type ValidationFailed } from "@paykit/core"

/**
 * The body of `POST /sandbox/simulator/advance`: `{"to": <timestamp>}` or `{"by": <duration>}`,
 * where a duration is an ISO 8601 duration of weeks, days, hours, minutes and seconds (`P1D`,
 * `PT36H`, `P1W2DT3H`) or a number of seconds. Months and years are refused: their length depends
 * on the date they start from, and "advance by a month" is better said with `to`.
 */

const SECOND = 1000
const UNIT_MS = { W: 7 * 86_400_000, D: 86_400_000, H: 3_600_000, M: 60_000, S: SECOND } as const

/**
 * One advance runs every daily run it crosses, for every organisation, inside one request: a
 * bound keeps a request from running for minutes. Call the endpoint again to go further.
 */
export const SANDBOX_ADVANCE_MAX_DAYS = 366
export const SANDBOX_ADVANCE_MAX_MS = SANDBOX_ADVANCE_MAX_DAYS * UNIT_MS.D

const DURATION_PATTERN = /^P(?:(\d{1,6})W)?(?:(\d{1,6})D)?(?:T(?:(\d{1,8})H)?(?:(\d{1,10})M)?(?:(\d{1,12})S)?)?$/

/** The milliseconds of an ISO 8601 duration without months or years; undefined if it is not one. */
export const parseIsoDuration = (text: string): number | undefined => {
  const match = DURATION_PATTERN.exec(text)
  if (match === null || text === "P" || text.endsWith("T")) return undefined
  const [, w, d, h, m, s] = match
  const parts: ReadonlyArray<readonly [string | undefined, number]> = [[w, UNIT_MS.W], [d, UNIT_MS.D], [h, UNIT_MS.H], [m, UNIT_MS.M], [s, UNIT_MS.S]]
  return parts.reduce((sum, [value, unit]) => sum + (value === undefined ? 0 : Number(value) * unit), 0)
}

/** Renders milliseconds as an ISO 8601 duration in days, hours, minutes and whole seconds (`P2DT3H0M5S` style, zeros left out). */
export const formatIsoDuration = (millis: number): string => {
  let rest = Math.floor(millis / SECOND) * SECOND
  const take = (unit: number) => {
    const count = Math.floor(rest / unit)
    rest -= count * unit
    return count
  }
  const [d, h, m, s] = [take(UNIT_MS.D), take(UNIT_MS.H), take(UNIT_MS.M), take(UNIT_MS.S)]
  const time = `${h > 0 ? `${h}H` : ""}${m > 0 ? `${m}M` : ""}${s > 0 ? `${s}S` : ""}`
  if (d === 0 && time === "") return "PT0S"
  return `P${d > 0 ? `${d}D` : ""}${time === "" ? "" : `T${time}`}`
}

const ROOT = "simulator"

const AdvanceBody = Schema.Union([
  Schema.Struct({ to: Schema.String }),
  Schema.Struct({ by: Schema.Union([Schema.String, Schema.Int.check(Schema.isGreaterThan(0))]) })
])
const decodeBody = decodeInput(AdvanceBody, ROOT)

/**
 * The instant to advance to, from the body and the current simulated time; refused when it is
 * not after now or more than `SANDBOX_ADVANCE_MAX_DAYS` ahead.
 */
export const advanceTarget = (body: unknown, nowMillis: number): Result.Result<number, ValidationFailed> => {
  const hasBoth = typeof body === "object" && body !== null && "to" in body && "by" in body
  if (hasBoth) return Result.fail(invalidField(ROOT, ["by"], "give either to or by, not both"))
  return Result.flatMap(decodeBody(body), (decoded): Result.Result<number, ValidationFailed> => {
    if ("to" in decoded) {
      const to = parseTimestamp(decoded.to)
      if (to === undefined) return Result.fail(invalidField(ROOT, ["to"], "must be an ISO 8601 timestamp with a time zone, or a date"))
      return checked(Date.parse(to), nowMillis, "to")
    }
    const by = typeof decoded.by === "number" ? decoded.by * SECOND : parseIsoDuration(decoded.by)
    if (by === undefined) return Result.fail(invalidField(ROOT, ["by"], "must be a number of seconds or an ISO 8601 duration such as P1D or PT12H (no months or years)"))
    return checked(nowMillis + by, nowMillis, "by")
  })
}

const checked = (target: number, nowMillis: number, field: "to" | "by"): Result.Result<number, ValidationFailed> => {
  if (target <= nowMillis) return Result.fail(invalidField(ROOT, [field], "the simulated clock only moves forward: the target must be after now"))
  if (target - nowMillis > SANDBOX_ADVANCE_MAX_MS) {
    return Result.fail(invalidField(ROOT, [field], `one advance may move the clock at most ${SANDBOX_ADVANCE_MAX_DAYS} days; advance again to go further`))
  }
  return Result.succeed(target)
}
