import { Effect, Layer, Option, References, Tracer } from "effect"
import { otlpTracerLayer, samplerSetting, tracesSettings } from "./otlp-settings.ts"
import { paykitTracer, type Sampler } from "./paykit-tracer.ts"

/** How a server traces (`ServerOptions.tracing`, `tracer`; docs/operations.md, "Traces"). */
export interface TracingOptions {
  /** True: spans go to the tracer the embedder provides around the server's layer. */
  readonly tracing?: boolean | undefined
  /** A tracer layer of the embedder's own (`OtlpTracer.layer(...)`, or any that sets Effect's `Tracer`). */
  readonly tracer?: Layer.Layer<never> | undefined
}

/**
 * No spans at all: `effect/sql` opens one per statement, and on PGlite that was about a tenth of a
 * point read's time; with nothing to export them to, none is registered.
 */
const noSpans = Layer.succeed(References.TracerEnabled, false)

/** The tracer in the context, timed on real time and sampled (`paykitTracer`). */
const paykitTracing = (sampler: Sampler) =>
  Layer.effect(Tracer.Tracer, Effect.map(Effect.tracer, (inner) => paykitTracer(inner, sampler))).pipe(
    Layer.provideMerge(Layer.succeed(References.TracerEnabled, true))
  )

/**
 * What the server's layer is provided with: the embedder's tracer (`tracer`), else OTLP when the
 * environment names an endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`, ...), else the tracer around the
 * server when `tracing` is true, else no spans. A tracer that is used is wrapped by
 * `paykitTracer` (real time, `OTEL_TRACES_SAMPLER`).
 */
export const tracingLayer = (options: TracingOptions): Layer.Layer<never, unknown> =>
  Layer.unwrap(Effect.gen(function*() {
    const sampler = yield* samplerSetting
    if (options.tracer !== undefined) return paykitTracing(sampler).pipe(Layer.provide(options.tracer))
    const settings = yield* tracesSettings
    if (Option.isSome(settings)) return paykitTracing(settings.value.sampler).pipe(Layer.provide(otlpTracerLayer(settings.value)))
    return options.tracing === true ? paykitTracing(sampler) : noSpans
  }))
