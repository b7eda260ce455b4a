import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { OpenApi } from "effect/http-api"
import { PaykitApi } from "../src/index.ts"
import { seedCreditors } from "./fixtures.ts"
import { startServer, type TestServer } from "./harness.ts"

/** Random query strings, bodies and headers against every route: never a 500, always the error body. */

let server: TestServer
let token: string
beforeAll(async () => {
  server = await startServer()
  token = await server.token("OR00000000FVZZ")
  await server.runtime.runPromise(seedCreditors("OR00000000FVZZ", 5))
})
afterAll(async () => {
  await server.close()
})

const routes = Object.entries(OpenApi.fromApi(PaykitApi).paths).flatMap(([path, item]) =>
  Object.keys(item).filter((m) => ["get", "post", "put"].includes(m)).map((method) => ({ method: method.toUpperCase(), path }))
)

const segment = fc.oneof(fc.constantFrom("CR000000000001", "x", "%00", "..", "%2F"), fc.string({ maxLength: 12 }).map(encodeURIComponent))
const queryKey = fc.oneof(
  fc.constantFrom("limit", "before", "after", "created_at[gt]", "created_at[lte]", "created_at", "status", "customer", "mandate", "limit[]"),
  fc.string({ maxLength: 8 })
)
const queryValue = fc.oneof(fc.constantFrom("0", "-1", "501", "50", "1e3", "2026-11-21T00:00:00Z", "a,b,,c", ""), fc.string({ maxLength: 20 }))
const query = fc.array(fc.tuple(queryKey, queryValue), { maxLength: 5 }).map((pairs) => new URLSearchParams(pairs).toString())
const body = fc.oneof(fc.json({ maxDepth: 3 }), fc.string({ maxLength: 30 }), fc.constant("{\"creditors\":"))
const contentType = fc.constantFrom("application/json", "text/plain", "application/x-www-form-urlencoded", undefined)
const version = fc.constantFrom("2015-07-06", "2015-07-06", "2014-11-03", "", undefined)

describe("fuzz", () => {
  it("never answers 500, and every error carries the spec's body with the request id", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), segment, query, body, contentType, version, fc.boolean(), async (route, id, q, b, ct, v, auth) => {
        const path = route.path.replace(/\{[^}]+\}/g, id)
        const headers: Record<string, string> = {}
        if (auth) headers["authorization"] = `Bearer ${token}`
        if (v !== undefined) headers["gocardless-version"] = v
        if (ct !== undefined && route.method !== "GET") headers["content-type"] = ct
        const response = await fetch(`${server.url}${path}?${q}`, {
          method: route.method,
          headers,
          ...(route.method === "GET" ? {} : { body: b })
        })
        expect(response.status).toBeLessThan(500)
        const requestId = response.headers.get("x-request-id")
        expect(requestId).not.toBeNull()
        if (response.status >= 400) {
          const parsed = (await response.json()) as { error: { code: number; request_id: string; errors: Array<unknown> } }
          expect(parsed.error.code).toBe(response.status)
          expect(parsed.error.request_id).toBe(requestId)
          expect(parsed.error.errors.length).toBeGreaterThan(0)
        } else {
          await response.arrayBuffer()
        }
      }),
      { numRuns: 600 }
    )
  })

  it("unknown paths and methods are 404 with path_not_found", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 15 }).map(encodeURIComponent), fc.constantFrom("GET", "POST", "DELETE", "PATCH"), async (p, method) => {
        const response = await fetch(`${server.url}/zz_${p}`, { method })
        expect(response.status).toBe(404)
        const parsed = (await response.json()) as { error: { errors: Array<{ reason: string }> } }
        expect(parsed.error.errors[0]?.reason).toBe("path_not_found")
      }),
      { numRuns: 50 }
    )
  })
})
