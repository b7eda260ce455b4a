import { Layer } from "effect"
import { FetchHttpClient } from "effect/http"
import { OtlpSerialization, OtlpTracer } from "effect/observability"
import type { ProductionStorage } from "@paykit/engine"
import { productionLayer } from "./engine-production.ts"

/**
 * Effect's OTLP exporter: spans posted as JSON to a collector's traces endpoint (4318 is
 * OTLP/HTTP's port) with `fetch`. `OtlpSerialization.layerProtobuf` posts protobuf instead.
 */
export const tracerLayer = OtlpTracer.layer({
  url: process.env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] ?? "http://localhost:4318/v1/traces",
  resource: { serviceName: "payments-host" }
}).pipe(Layer.provide(OtlpSerialization.layerJson), Layer.provide(FetchHttpClient.layer))

/**
 * `productionLayer` with its spans exported: the tracer is provided around the engine, so the
 * engine is built with it and every operation, statement, due item and webhook attempt is a span.
 */
export const tracedProductionLayer = <E, R>(storage: Layer.Layer<ProductionStorage, E, R>) =>
  productionLayer(storage).pipe(Layer.provide(tracerLayer))
