import { Effect, Layer, ManagedRuntime } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { Creditors } from "@paykit/engine"
import { describe, expect, it } from "vitest"
import {
  AccessTokens,
  DefectLog,
  IdempotencyStore,
  inMemoryApiEngine,
  makeHttpApp,
  RateLimiter,
  RequestLog,
  serveHttpApp,
  serverUrl,
  silentRequestLog
} from "../src/index.ts"

/**
 * The request context: trimmed by default (the engine's services are not carried per request),
 * full on request. A route mounted beside the API that reads an engine service per request works
 * only with the full context; the trimmed one answers it with the 500 body, never a crash.
 */
const serveWith = async (requestContext: "trimmed" | "full") => {
  const probe = HttpRouter.add("GET", "/probe", Effect.map(Creditors, () => HttpServerResponse.text("creditors reachable")))
  const layer = serveHttpApp(Layer.mergeAll(makeHttpApp(), probe), { port: 0, host: "127.0.0.1", requestContext }).pipe(
    Layer.provideMerge(Layer.mergeAll(AccessTokens.layerMemory, IdempotencyStore.layerMemory, RateLimiter.layerMemory)),
    Layer.provideMerge(inMemoryApiEngine()),
    Layer.provide(Layer.succeed(RequestLog, silentRequestLog)),
    // The trimmed case's 500 is the defect this test expects.
    Layer.provide(Layer.succeed(DefectLog, () => {}))
  )
  const runtime = ManagedRuntime.make(layer)
  const url = await runtime.runPromise(serverUrl)
  const response = await fetch(`${url}/probe`)
  const result = { status: response.status, text: await response.text() }
  await runtime.dispose()
  return result
}

describe("serveHttpApp request context", () => {
  it("full: a route beside the API reads an engine service per request", async () => {
    expect(await serveWith("full")).toEqual({ status: 200, text: "creditors reachable" })
  })

  it("trimmed (the default): the same route fails as a defect, answered with the 500 body", async () => {
    const { status, text } = await serveWith("trimmed")
    expect(status).toBe(500)
    expect(JSON.parse(text)).toMatchObject({ error: { code: 500, type: "gocardless" } })
  })
})
