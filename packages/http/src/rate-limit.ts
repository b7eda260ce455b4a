import { Context, Effect, Layer } from "effect"
import { OUTBOUND_PAYMENT_OTHER_RATE_LIMIT_PER_MINUTE, OUTBOUND_PAYMENT_WRITE_RATE_LIMIT_PER_MINUTE } from "@paykit/core"

/**
 * Rate limits: fixed one-minute windows per organisation and endpoint group. The spec names two
 * groups (outbound payment POSTs, other outbound payment endpoints); other endpoints have no
 * limit in the spec and get none here. An endpoint's group is an annotation on its declaration
 * (`RateLimit`, endpoints.ts), set on the outbound payment routes (routes/outbound-payments.ts).
 */

export const RATE_LIMIT_WINDOW_MS = 60_000

export interface RateLimitGroup {
  readonly name: string
  readonly limitPerMinute: number
}

export const OUTBOUND_PAYMENT_WRITES: RateLimitGroup = {
  name: "outbound_payment_writes",
  limitPerMinute: OUTBOUND_PAYMENT_WRITE_RATE_LIMIT_PER_MINUTE
}
export const OUTBOUND_PAYMENT_OTHER: RateLimitGroup = {
  name: "outbound_payment_other",
  limitPerMinute: OUTBOUND_PAYMENT_OTHER_RATE_LIMIT_PER_MINUTE
}

export interface Window {
  readonly start: number
  readonly count: number
}

export interface Decision {
  readonly allowed: boolean
  readonly limit: number
  readonly remaining: number
  readonly resetAtMillis: number
  readonly window: Window
}

/** The start of the fixed window `now` (real time, epoch ms) falls in. */
export const windowStartOf = (now: number): number => now - (now % RATE_LIMIT_WINDOW_MS)

/** The decision for a request that brought its window's count to `count` (allowed), or found it at the limit. */
export const decisionOf = (start: number, count: number, allowed: boolean, limit: number): Decision => ({
  allowed,
  limit,
  remaining: limit - count,
  resetAtMillis: start + RATE_LIMIT_WINDOW_MS,
  window: { start, count }
})

/** The pure rule: one request at `now` against the current window. */
export const consume = (window: Window | undefined, now: number, limit: number): Decision => {
  const start = windowStartOf(now)
  const current = window !== undefined && window.start === start ? window : { start, count: 0 }
  const allowed = current.count < limit
  return decisionOf(start, allowed ? current.count + 1 : current.count, allowed, limit)
}

/**
 * The port. `nowMillis` is real time: windows must not move with a sandbox's clock (an advance
 * would reset them). The server's is on SQL, shared by every process on one database.
 */
export class RateLimiter extends Context.Service<RateLimiter, {
  readonly hit: (organisation: string, group: RateLimitGroup, nowMillis: number) => Effect.Effect<Decision>
}>()("@paykit/http/RateLimiter") {
  /** Windows held in this process: correct for one server process, not shared between several. */
  static readonly layerMemory: Layer.Layer<RateLimiter> = Layer.sync(RateLimiter, () => {
    const windows = new Map<string, Window>()
    return RateLimiter.of({
      hit: (organisation, group, nowMillis) =>
        Effect.sync(() => {
          const key = `${organisation}\u0000${group.name}`
          const decision = consume(windows.get(key), nowMillis, group.limitPerMinute)
          windows.set(key, decision.window)
          return decision
        })
    })
  })
}
