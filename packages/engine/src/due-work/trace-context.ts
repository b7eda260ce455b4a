import { Context, Effect, Option, References, Tracer } from "effect"

/**
 * A span's context carried across processes and time as a W3C `traceparent`
 * (`00-<trace id>-<span id>-<flags>`): a due row keeps the span that scheduled it, so the item's
 * span, run later by another fiber or process, belongs to the same trace (docs/operations.md,
 * "Traces").
 */

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/

/** The span `traceparent` names, as a parent or a link; undefined for none or one malformed (or all zeros, which W3C forbids). */
export const spanOfTraceparent = (traceparent: string | null | undefined): Tracer.ExternalSpan | undefined => {
  if (traceparent === null || traceparent === undefined) return undefined
  const parts = TRACEPARENT.exec(traceparent.trim().toLowerCase())
  if (parts === null) return undefined
  const [, traceId = "", spanId = "", flags = "00"] = parts
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined
  return Tracer.externalSpan({ traceId, spanId, sampled: (parseInt(flags, 16) & 1) === 1 })
}

/** The `traceparent` of a span. */
export const traceparentOf = (span: Tracer.AnySpan): string =>
  `00-${span.traceId.padStart(32, "0")}-${span.spanId}-${span.sampled ? "01" : "00"}`

/**
 * Whether work scheduled now keeps the caller's span. The due-work worker turns it off while it
 * runs an item or a pump: a daily run schedules the next day's, and keeping its span would make
 * one trace of every day that follows.
 */
export const KeepsCallerTrace = Context.Reference<boolean>("@paykit/engine/KeepsCallerTrace", { defaultValue: () => true })

/** The span the caller runs in, if any. A span made while tracing is off for a part of the program is a no-op one, with no ids: none. */
export const openSpan: Effect.Effect<Option.Option<Tracer.AnySpan>> = Effect.map(
  Effect.option(Effect.currentParentSpan),
  Option.filter((span) => span.spanId !== "noop")
)

/** The caller's span as a `traceparent`, when tracing is on, a span is open and `KeepsCallerTrace` allows it; else null. */
export const callerTraceparent: Effect.Effect<string | null> = Effect.gen(function*() {
  if (!(yield* References.TracerEnabled) || !(yield* KeepsCallerTrace)) return null
  return Option.getOrNull(Option.map(yield* openSpan, traceparentOf))
})
