import { Context, Effect, Layer, References, Tracer } from "effect"

/**
 * Engine operations as spans: with tracing on, each service a room builds is handed out with every
 * operation (a method answering an Effect) run in a span named by the service and the operation
 * (`Payments.create`), so an API request, a due item or an embedder's call shows what the engine
 * did in it. With tracing off, or no tracer but Effect's native one (which keeps nothing: an
 * engine composed without a tracer), the services are handed out as they are, at no cost per call.
 */

const TRACED = Symbol.for("@paykit/engine/traced")

/** A service's name in its spans: the last segment of its key (`@paykit/engine/Payments` is `Payments`). */
const serviceName = (key: string): string => key.slice(key.lastIndexOf("/") + 1)

const spanOf = (service: string, operation: string) =>
  Effect.withSpan(`${service}.${operation}`, { attributes: { "paykit.service": service, "paykit.operation": operation } })

/** The service with each operation spanned; anything else it holds is kept as it is. */
const spanned = (name: string, service: unknown): unknown => {
  if (typeof service !== "object" || service === null || TRACED in service) return service
  const traced: Record<PropertyKey, unknown> = Object.create(Object.getPrototypeOf(service) as object | null) as Record<PropertyKey, unknown>
  for (const [operation, value] of Object.entries(service)) {
    const span = spanOf(name, operation)
    traced[operation] = typeof value === "function"
      ? (...args: ReadonlyArray<unknown>) => {
        const result: unknown = Reflect.apply(value, service, args)
        return Effect.isEffect(result) ? span(result) : result
      }
      : Effect.isEffect(value) ? span(value) : value
  }
  traced[TRACED] = true
  return traced
}

/** Whether spans made here go anywhere: tracing is on, under a tracer of someone's own. */
const exporting = Effect.gen(function*() {
  return (yield* References.TracerEnabled) && (yield* Effect.tracer) !== Tracer.nativeTracer
})

/** `layer` whose services' operations are spanned when spans are exported where it is built. */
export const withOperationSpans = <A, E, R>(layer: Layer.Layer<A, E, R>): Layer.Layer<A, E, R> =>
  Layer.flatMap(layer, (context) =>
    Layer.effectContext(Effect.map(exporting, (traced) =>
      traced ? Context.makeUnsafe<A>(new Map([...context.mapUnsafe].map(([key, service]) => [key, spanned(serviceName(key), service)]))) : context)))
