import { Config, Duration, Effect, Layer, Option, Schema } from "effect"
import { FetchHttpClient } from "effect/http"
import { OtlpSerialization, OtlpTracer } from "effect/observability"
import type { Sampler } from "./paykit-tracer.ts"

/**
 * The standard OpenTelemetry variables, as far as traces over OTLP/HTTP go (docs/operations.md,
 * "Traces"). Effect's own `OtlpTracer.layerFromConfig` exports only when `OTEL_TRACES_EXPORTER`
 * names `otlp`, where the specification makes `otlp` the default, so paykit reads them itself
 * and builds Effect's exporter (`OtlpTracer.layer`) with them.
 */

/** What the environment says about exporting traces. */
export interface TracesSettings {
  /** Where spans are posted: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, else `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`. */
  readonly url: string
  readonly protocol: "http/protobuf" | "http/json"
  readonly headers: Readonly<Record<string, string>> | undefined
  readonly compression: "gzip" | "none"
  readonly exportInterval: Duration.Duration | undefined
  readonly maxBatchSize: number | undefined
  readonly shutdownTimeout: Duration.Duration | undefined
  /** `paykit` unless `OTEL_SERVICE_NAME` or `OTEL_RESOURCE_ATTRIBUTES` names the service (Effect reads those itself). */
  readonly serviceName: string | undefined
  readonly sampler: Sampler
}

/** The traces' variable if set, else the general one (`OTEL_EXPORTER_OTLP_TRACES_X`, then `OTEL_EXPORTER_OTLP_X`). */
const either = <A>(make: (name: string) => Config.Config<A>, suffix: string): Config.Config<Option.Option<A>> =>
  Config.all([Config.option(make(`OTEL_EXPORTER_OTLP_TRACES_${suffix}`)), Config.option(make(`OTEL_EXPORTER_OTLP_${suffix}`))]).pipe(
    Config.map(([traces, general]) => Option.orElse(traces, () => general))
  )

/** `key=value` pairs separated by commas, each part percent-decoded (the specification's form of the headers). */
const headersConfig = (name: string) => Config.Record(Schema.String, Schema.StringFromUriComponent, name)

const endpoint: Config.Config<Option.Option<string>> = Config.all([
  Config.option(Config.URL("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")),
  Config.option(Config.URL("OTEL_EXPORTER_OTLP_ENDPOINT"))
]).pipe(Config.map(([traces, general]) =>
  Option.isSome(traces) ? Option.some(traces.value.toString()) : Option.map(general, (url) => {
    url.pathname = `${url.pathname.replace(/\/+$/, "")}/v1/traces`
    return url.toString()
  })))

const SAMPLERS = ["always_on", "always_off", "traceidratio", "parentbased_always_on", "parentbased_always_off", "parentbased_traceidratio"] as const

/** `OTEL_TRACES_SAMPLER` and its `OTEL_TRACES_SAMPLER_ARG` (the ratio, default 1); default `parentbased_always_on`. */
const samplerConfig: Config.Config<Sampler> = Config.all({
  name: Config.Literals(SAMPLERS, "OTEL_TRACES_SAMPLER").pipe(Config.withDefault("parentbased_always_on" as const)),
  ratio: Config.Number("OTEL_TRACES_SAMPLER_ARG").pipe(Config.withDefault(1))
}).pipe(Config.map(({ name, ratio }) => ({
  ratio: name.endsWith("always_on") ? 1 : name.endsWith("always_off") ? 0 : Math.min(1, Math.max(0, ratio)),
  parentBased: name.startsWith("parentbased_")
})))

const PROTOCOLS = ["http/protobuf", "http/json", "grpc"] as const

/**
 * The settings, or none when traces are not exported: no endpoint, `OTEL_SDK_DISABLED=true`, or
 * `OTEL_TRACES_EXPORTER` without `otlp` (`none`). A gRPC protocol is refused: paykit sends OTLP
 * over HTTP only.
 */
export const tracesSettings: Effect.Effect<Option.Option<TracesSettings>, Config.ConfigError | Error> = Effect.gen(function*() {
  const url = yield* endpoint
  const disabled = yield* Config.Boolean("OTEL_SDK_DISABLED").pipe(Config.withDefault(false))
  const exporters = yield* Config.String("OTEL_TRACES_EXPORTER").pipe(Config.withDefault("otlp"))
  if (Option.isNone(url) || disabled || !exporters.split(",").map((name) => name.trim().toLowerCase()).includes("otlp")) return Option.none()
  const protocol = Option.getOrElse(yield* either((name) => Config.Literals(PROTOCOLS, name), "PROTOCOL"), () => "http/protobuf" as const)
  if (protocol === "grpc") return yield* Effect.fail(new Error("OTEL_EXPORTER_OTLP_PROTOCOL: paykit exports traces over OTLP/HTTP only; set http/protobuf or http/json"))
  const timeoutMs = yield* either(Config.Int, "TIMEOUT")
  const scheduleDelayMs = yield* Config.option(Config.Int("OTEL_BSP_SCHEDULE_DELAY"))
  const named = Option.isSome(yield* Config.option(Config.String("OTEL_SERVICE_NAME"))) ||
    /(^|,)\s*service\.name\s*=/.test(Option.getOrElse(yield* Config.option(Config.String("OTEL_RESOURCE_ATTRIBUTES")), () => ""))
  return Option.some({
    url: url.value,
    protocol,
    headers: Option.getOrUndefined(yield* either(headersConfig, "HEADERS")),
    compression: Option.getOrElse(yield* either((name) => Config.Literals(["gzip", "none"] as const, name), "COMPRESSION"), () => "none" as const),
    exportInterval: Option.getOrUndefined(Option.map(scheduleDelayMs, Duration.millis)),
    maxBatchSize: Option.getOrUndefined(yield* Config.option(Config.Int("OTEL_BSP_MAX_EXPORT_BATCH_SIZE"))),
    shutdownTimeout: Option.getOrUndefined(Option.map(timeoutMs, Duration.millis)),
    serviceName: named ? undefined : "paykit",
    sampler: yield* samplerConfig
  })
})

/** The sampler alone (for a tracer the embedder gives, which the environment does not otherwise configure). */
export const samplerSetting: Effect.Effect<Sampler, Config.ConfigError> = Effect.gen(function*() {
  return yield* samplerConfig
})

/** Effect's OTLP exporter with these settings, posting with `fetch`. */
export const otlpTracerLayer = (settings: TracesSettings) =>
  OtlpTracer.layer({
    url: settings.url,
    resource: { serviceName: settings.serviceName },
    headers: settings.headers,
    compression: settings.compression,
    exportInterval: settings.exportInterval,
    maxBatchSize: settings.maxBatchSize,
    shutdownTimeout: settings.shutdownTimeout
  }).pipe(
    Layer.provide(settings.protocol === "http/json" ? OtlpSerialization.layerJson : OtlpSerialization.layerProtobuf),
    Layer.provide(FetchHttpClient.layer)
  )
