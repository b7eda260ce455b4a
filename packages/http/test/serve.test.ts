import { OrganisationId } from "@paykit/core"
import { Effect, Layer, ManagedRuntime } from "effect"
import { Creditors } from "@paykit/engine"
import { request } from "node:http"
import { describe, expect, it } from "vitest"
import {
  AccessTokens,
  apiDispatcher,
  DefectLog,
  IdempotencyStore,
  inMemoryApiEngine,
  jsonResponse,
  makeHttpAppWith,
  pageRoute,
  paykitRoutes,
  RateLimiter,
  REQUEST_BODY_MAX_BYTES,
  RequestLog,
  type RequestLogEntry,
  serveHttpApp,
  serverUrl
} from "../src/index.ts"

/**
 * One request stack: the API's routes, its pages, a page of one's own, an unknown path and a
 * refused body all go through the one dispatcher, each with its request id (header and error
 * body alike) and its one log line. Requests run without the engine's services in their context
 * (handlers and pages take theirs when bound): a page that reads one per request is a defect,
 * answered with the 500 body, never a crash.
 */

const ownPages = Effect.gen(function*() {
  const creditors = yield* Creditors
  return [
    pageRoute("/bound", () => Effect.as(creditors.get(OrganisationId("OR00000000N0NE"), "CR_none").pipe(Effect.ignore), jsonResponse(200, { bound: true }))),
    // Typed as a page needing nothing, as a mistake would be: the service is read when the request runs.
    pageRoute("/per-request", () => Effect.gen(function*() {
      yield* (Creditors as unknown as Effect.Effect<unknown>)
      return jsonResponse(200, { reached: true })
    }))
  ]
})

const start = async () => {
  const lines: Array<RequestLogEntry> = []
  const defects: Array<string> = []
  const layer = serveHttpApp(makeHttpAppWith(apiDispatcher(paykitRoutes, ownPages)), { port: 0, host: "127.0.0.1" }).pipe(
    Layer.provideMerge(Layer.mergeAll(AccessTokens.layerMemory, IdempotencyStore.layerMemory, RateLimiter.layerMemory)),
    Layer.provideMerge(inMemoryApiEngine()),
    Layer.provide(Layer.succeed(RequestLog, (entry: RequestLogEntry) => void lines.push(entry))),
    Layer.provide(Layer.succeed(DefectLog, (requestId: string) => void defects.push(requestId)))
  )
  const runtime = ManagedRuntime.make(layer)
  const url = await runtime.runPromise(serverUrl)
  return { runtime, url, lines, defects }
}

/** A POST declaring a body over the limit, sent without it: the answer comes before any byte of it. */
const declaredTooLarge = (url: string, path: string) =>
  new Promise<{ status: number; requestId: string | undefined; body: string }>((resolve, reject) => {
    const req = request(`${url}${path}`, { method: "POST", headers: { "content-length": String(REQUEST_BODY_MAX_BYTES + 1) } }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (chunk: Buffer) => chunks.push(chunk))
      res.on("end", () => {
        const id = res.headers["x-request-id"]
        resolve({ status: res.statusCode ?? 0, requestId: typeof id === "string" ? id : undefined, body: Buffer.concat(chunks).toString("utf8") })
        req.destroy()
      })
    })
    req.on("error", reject)
    req.flushHeaders()
  })

describe("one request stack", () => {
  it("serves pages without a token, 404s and 413s with one request id and one log line each", async () => {
    const { runtime, url, lines } = await start()
    try {
      const docs = await fetch(`${url}/docs`)
      expect(docs.status).toBe(200)
      expect(docs.headers.get("content-type")).toMatch(/^text\/html/)
      expect(await docs.text()).toContain("<h1 ")
      const openApi = await fetch(`${url}/openapi.json`)
      expect(openApi.status).toBe(200)
      expect(await openApi.json()).toMatchObject({ paths: { "/creditors": {} } })
      const unknown = await fetch(`${url}/nothing`)
      expect(unknown.status).toBe(404)
      const unknownBody = (await unknown.json()) as { error: { request_id: string; errors: Array<{ reason: string }> } }
      expect(unknownBody.error.request_id).toBe(unknown.headers.get("x-request-id"))
      expect(unknownBody.error.errors[0]?.reason).toBe("path_not_found")
      const wrongMethod = await fetch(`${url}/docs`, { method: "DELETE" })
      expect(wrongMethod.status).toBe(404)
      const tooLarge = await declaredTooLarge(url, "/nothing")
      expect(tooLarge.status).toBe(413)
      expect(JSON.parse(tooLarge.body)).toMatchObject({ error: { code: 413, request_id: tooLarge.requestId } })
      expect(lines.map(({ request_id, method, path, status }) => ({ request_id, method, path, status }))).toEqual([
        { request_id: docs.headers.get("x-request-id"), method: "GET", path: "/docs", status: 200 },
        { request_id: openApi.headers.get("x-request-id"), method: "GET", path: "/openapi.json", status: 200 },
        { request_id: unknown.headers.get("x-request-id"), method: "GET", path: "/nothing", status: 404 },
        { request_id: wrongMethod.headers.get("x-request-id"), method: "DELETE", path: "/docs", status: 404 },
        { request_id: tooLarge.requestId, method: "POST", path: "/nothing", status: 413 }
      ])
      expect(new Set(lines.map((line) => line.request_id)).size).toBe(lines.length)
    } finally {
      await runtime.dispose()
    }
  })

  it("a page bound to a service answers; one reading it per request is a defect answered with the 500 body", async () => {
    const { runtime, url, defects } = await start()
    try {
      const bound = await fetch(`${url}/bound`)
      expect(bound.status).toBe(200)
      expect(await bound.json()).toEqual({ bound: true })
      const perRequest = await fetch(`${url}/per-request`)
      expect(perRequest.status).toBe(500)
      expect(await perRequest.json()).toMatchObject({ error: { code: 500, type: "gocardless", request_id: perRequest.headers.get("x-request-id") } })
      expect(defects).toEqual([perRequest.headers.get("x-request-id")])
    } finally {
      await runtime.dispose()
    }
  })
})
