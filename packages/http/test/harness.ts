import { Effect, Layer, ManagedRuntime } from "effect"
import { HttpServer } from "effect/http"
import {
  AccessTokens,
  IdempotencyStore,
  inMemoryApiEngine,
  issueAccessToken,
  makeHttpApp,
  RateLimiter,
  RequestLog,
  serveHttpApp,
  serverUrl,
  silentRequestLog
} from "../src/index.ts"

/** The whole stack in-process on a random port, over the in-memory store. */
export const startServer = async () => {
  const ports = Layer.mergeAll(AccessTokens.layerMemory, IdempotencyStore.layerMemory, RateLimiter.layerMemory)
  const engine = inMemoryApiEngine()
  const layer = serveHttpApp(makeHttpApp(), { port: 0, host: "127.0.0.1" }).pipe(
    Layer.provideMerge(ports),
    Layer.provideMerge(engine),
    Layer.provide(Layer.succeed(RequestLog, silentRequestLog))
  )
  const runtime = ManagedRuntime.make(layer)
  const url = await runtime.runPromise(Effect.flatMap(HttpServer.HttpServer, () => serverUrl))
  const token = (organisation: string, scope: "read_write" | "read_only" = "read_write", id = `AT_${organisation}_${scope}`) =>
    runtime.runPromise(issueAccessToken({ id, organisation, scope }))
  return { runtime, url, token, close: () => runtime.dispose() }
}

export type TestServer = Awaited<ReturnType<typeof startServer>>
