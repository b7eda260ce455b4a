import { Effect, Layer, ManagedRuntime, Schema } from "effect"
import { HttpApiEndpoint } from "effect/http-api"
import { request } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  AccessTokens,
  apiDispatcher,
  bindRoutes,
  declare,
  DefectLog,
  IdempotencyStore,
  inMemoryApiEngine,
  issueAccessToken,
  Idempotent,
  makeHttpApp,
  makeHttpAppWith,
  ok,
  paykitRoutes,
  RateLimiter,
  REQUEST_BODY_MAX_BYTES,
  RequestLog,
  type RequestLogEntry,
  serveHttpApp,
  serverUrl,
  silentRequestLog
} from "../src/index.ts"

/**
 * The dispatcher on a small API of its own: bodies over the limit, defects (thrown or died), a
 * request whose client goes away, and a shutdown with a request in flight.
 */

let created = 0
const things = [
  declare("things", HttpApiEndpoint.post("create", "/things", { payload: Schema.Unknown, success: Schema.Unknown }).annotate(Idempotent, true), () => () =>
    Effect.sleep("150 millis").pipe(Effect.andThen(Effect.sync(() => ok({ things: { n: ++created } }))))),
  declare("things", HttpApiEndpoint.get("slow", "/things/slow", { success: Schema.Unknown }), () => () => Effect.as(Effect.sleep("400 millis"), ok({ things: "slow" }))),
  declare("things", HttpApiEndpoint.get("dies", "/things/dies", { success: Schema.Unknown }), () => () => Effect.die(new Error("a bug with a secret in its message"))),
  declare("things", HttpApiEndpoint.get("throws", "/things/throws", { success: Schema.Unknown }), () => (): never => {
    throw new Error("thrown before any Effect runs")
  })
]
const table = bindRoutes(things, Effect.void)

const start = async () => {
  const defects: Array<string> = []
  const layer = serveHttpApp(apiDispatcher(table), { port: 0, host: "127.0.0.1" }).pipe(
    Layer.provideMerge(Layer.mergeAll(AccessTokens.layerMemory, IdempotencyStore.layerMemory, RateLimiter.layerMemory)),
    Layer.provide(Layer.succeed(RequestLog, silentRequestLog)),
    Layer.provide(Layer.succeed(DefectLog, (requestId: string) => void defects.push(requestId)))
  )
  const runtime = ManagedRuntime.make(layer)
  const url = await runtime.runPromise(serverUrl)
  const token = await runtime.runPromise(issueAccessToken({ id: "AT_d", organisation: "OR0000000000D1", scope: "read_write" }))
  const headers = { authorization: `Bearer ${token}`, "gocardless-version": "2015-07-06" }
  return { runtime, url, headers, defects }
}

let server: Awaited<ReturnType<typeof start>>
beforeAll(async () => {
  server = await start()
})
afterAll(async () => {
  await server.runtime.dispose()
})

describe("the dispatcher", () => {
  it("refuses a body over the limit with 413 and the spec's body, without reading it", async () => {
    const big = "x".repeat(REQUEST_BODY_MAX_BYTES + 1)
    const response = await fetch(`${server.url}/things`, {
      method: "POST",
      headers: { ...server.headers, "content-type": "application/json" },
      body: JSON.stringify({ things: big })
    })
    expect(response.status).toBe(413)
    const body = await response.json() as { error: { code: number; type: string; errors: Array<{ reason: string }>; request_id: string } }
    expect(body.error).toMatchObject({ code: 413, type: "invalid_api_usage", errors: [{ reason: "request_entity_too_large" }] })
    expect(body.error.request_id).toBe(response.headers.get("x-request-id"))
  })

  it("answers a defect with the 500 body that reveals nothing, and keeps serving", async () => {
    for (const path of ["/things/dies", "/things/throws"]) {
      const response = await fetch(`${server.url}${path}`, { headers: server.headers })
      expect(response.status).toBe(500)
      const text = await response.text()
      expect(JSON.parse(text)).toMatchObject({ error: { code: 500, type: "gocardless" } })
      expect(text).not.toContain("secret")
      expect(text).not.toContain("thrown")
      // The operator finds the cause under the id the client was given.
      expect(server.defects).toContain(response.headers.get("x-request-id"))
    }
    const after = await fetch(`${server.url}/things/slow`, { headers: server.headers })
    expect(after.status).toBe(200)
  })

  it("runs a request to its end when the client goes away", async () => {
    const before = created
    await new Promise<void>((resolve) => {
      const req = request(`${server.url}/things`, { method: "POST", headers: { ...server.headers, "content-type": "application/json" } })
      req.on("error", () => resolve())
      req.end(JSON.stringify({ things: {} }), () => setTimeout(() => {
        req.destroy()
        resolve()
      }, 20))
    })
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(created).toBe(before + 1)
  })

  it("on shutdown, stops taking connections and finishes the request in flight", async () => {
    const own = await start()
    const inFlight = fetch(`${own.url}/things/slow`, { headers: own.headers })
    await new Promise((resolve) => setTimeout(resolve, 100))
    const stopped = own.runtime.dispose()
    await new Promise((resolve) => setTimeout(resolve, 50))
    await expect(fetch(`${own.url}/things/slow`, { headers: own.headers })).rejects.toThrow()
    const response = await inFlight
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ things: "slow" })
    await stopped
  })
})

describe("the request log", () => {
  it("writes one line per request, for the API's routes and the router's alike", async () => {
    const lines: Array<RequestLogEntry> = []
    const layer = serveHttpApp(makeHttpApp(), { port: 0, host: "127.0.0.1" }).pipe(
      Layer.provideMerge(Layer.mergeAll(AccessTokens.layerMemory, IdempotencyStore.layerMemory, RateLimiter.layerMemory)),
      Layer.provideMerge(inMemoryApiEngine()),
      Layer.provide(Layer.succeed(RequestLog, (entry: RequestLogEntry) => void lines.push(entry)))
    )
    const runtime = ManagedRuntime.make(layer)
    const url = await runtime.runPromise(serverUrl)
    const token = await runtime.runPromise(issueAccessToken({ id: "AT_log", organisation: "OR00000000010G", scope: "read_write" }))
    const api = await fetch(`${url}/creditors?limit=5`, { headers: { authorization: `Bearer ${token}`, "gocardless-version": "2015-07-06" } })
    const unknown = await fetch(`${url}/nothing?x=1`)
    await runtime.dispose()
    expect(lines).toEqual([
      expect.objectContaining({ request_id: api.headers.get("x-request-id"), method: "GET", path: "/creditors", status: 200 }),
      expect.objectContaining({ request_id: unknown.headers.get("x-request-id"), method: "GET", path: "/nothing", status: 404 })
    ])
    for (const line of lines) {
      expect(line.duration_ms).toBeGreaterThanOrEqual(0)
      expect(Number.isNaN(Date.parse(line.time))).toBe(false)
    }
  })
})

describe("makeHttpAppWith", () => {
  it("serves the API with a dispatcher of one's own beside the docs and the OpenAPI document", async () => {
    // The API's own handlers, with one replaced: the creditors list answers what the test says.
    const table = Effect.map(paykitRoutes, (routes) =>
      routes.map((route) => route.group === "creditors" && route.endpoint === "list" ? { ...route, handler: () => Effect.succeed(ok({ creditors: "replaced" })) } : route))
    const layer = serveHttpApp(makeHttpAppWith(apiDispatcher(table)), { port: 0, host: "127.0.0.1" }).pipe(
      Layer.provideMerge(Layer.mergeAll(AccessTokens.layerMemory, IdempotencyStore.layerMemory, RateLimiter.layerMemory)),
      Layer.provideMerge(inMemoryApiEngine()),
      Layer.provide(Layer.succeed(RequestLog, silentRequestLog))
    )
    const runtime = ManagedRuntime.make(layer)
    try {
      const url = await runtime.runPromise(serverUrl)
      const token = await runtime.runPromise(issueAccessToken({ id: "AT_with", organisation: "OR00000000W1TH", scope: "read_write" }))
      const headers = { authorization: `Bearer ${token}`, "gocardless-version": "2015-07-06" }
      const replaced = await fetch(`${url}/creditors`, { headers })
      expect(replaced.status).toBe(200)
      expect(await replaced.json()).toEqual({ creditors: "replaced" })
      // The gateway still runs before the replaced handler, and the other handlers are the API's.
      expect((await fetch(`${url}/creditors`, { headers: { "gocardless-version": "2015-07-06" } })).status).toBe(401)
      const other = await fetch(`${url}/payouts?limit=1`, { headers })
      expect(await other.json()).toEqual({ payouts: [], meta: { cursors: { before: null, after: null }, limit: 1 } })
      expect((await fetch(`${url}/openapi.json`)).status).toBe(200)
    } finally {
      await runtime.dispose()
    }
  })
})
