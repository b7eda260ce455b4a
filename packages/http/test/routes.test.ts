import fc from "fast-check"
import { Effect } from "effect"
import { OpenApi } from "effect/http-api"
import { describe, expect, it } from "vitest"
import { type ApiHandler, makeRouter, ok, PAYKIT_ROUTES, PaykitApi, parseQuery, type Route, routeOf } from "../src/index.ts"

/**
 * Routing of the API's own dispatcher: every endpoint the definition declares is reached by its
 * method and path and by nothing else, fixed segments win over parameters, and query strings keep
 * every value in order.
 */

const handler: ApiHandler = () => Effect.succeed(ok({}))

/** Every endpoint of the route table (a match is told apart by its route). */
const declared: Array<Route> = PAYKIT_ROUTES.map((declaration) => routeOf(declaration, handler))
const router = makeRouter(declared)

const ID_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ_-abc"
const id = fc.string({ unit: fc.constantFrom(...ID_ALPHABET), minLength: 1, maxLength: 16 })
const fill = (path: string, value: string) => path.replace(/:[a-z_]+/g, value)

describe("the router", () => {
  it("has a route for every endpoint of the definition", () => {
    expect(declared.length).toBeGreaterThan(60)
    expect(new Set(declared.map((r) => `${r.method} ${r.path}`)).size).toBe(declared.length)
  })

  it("reaches every endpoint by its method and path, with the id decoded", () => {
    fc.assert(fc.property(fc.constantFrom(...declared), id, (route, value) => {
      const match = router.find(route.method, fill(route.path, encodeURIComponent(value)))
      // An id spelled like a fixed segment of another route at the same place is that route (the fixed one wins).
      const fixed = declared.find((r) => r !== route && r.method === route.method && !r.path.includes(":") && r.path === fill(route.path, value))
      expect(match?.route).toBe(fixed ?? route)
      if (fixed === undefined && route.path.includes(":id")) expect(match?.params["id"]).toBe(value)
    }))
  })

  it("decodes percent-escapes in parameters and keeps a malformed one as it came", () => {
    expect(router.find("GET", "/payouts/PO%20%2F1")?.params["id"]).toBe("PO /1")
    expect(router.find("GET", "/payouts/%E0%A4%A")?.params["id"]).toBe("%E0%A4%A")
  })

  it("prefers a fixed segment: POST /outbound_payments/withdrawal is the withdrawal", () => {
    expect(router.find("POST", "/outbound_payments/withdrawal")?.route.endpoint).toBe("withdrawal")
    expect(router.find("PUT", "/outbound_payments/withdrawal")?.route.endpoint).toBe("update")
  })

  it("matches nothing else: other methods, extra or missing segments, empty ids, trailing slashes", () => {
    fc.assert(fc.property(fc.constantFrom(...declared), id, fc.constantFrom("DELETE", "PATCH", "HEAD", "OPTIONS"), (route, value, method) => {
      const path = fill(route.path, value)
      // A method the table declares on the same path (`DELETE /customers/:id`) is that route's.
      const declaredThere = declared.some((other) => other.method === method && other.path === route.path)
      if (!declaredThere) expect(router.find(method, path)).toBeUndefined()
      expect(router.find(route.method, `${path}/`)).toBeUndefined()
      expect(router.find(route.method, `${path}/extra`)?.route.path).not.toBe(route.path)
      if (route.path.includes(":")) expect(router.find(route.method, fill(route.path, ""))).toBeUndefined()
    }))
    expect(router.find("GET", "payouts")).toBeUndefined()
    expect(router.find("GET", "/")).toBeUndefined()
  })

  it("serves exactly the operations of the OpenAPI document, both derived from the one declaration", () => {
    const documented = Object.entries(OpenApi.fromApi(PaykitApi).paths).flatMap(([path, item]) =>
      Object.keys(item).filter((m) => ["get", "post", "put", "patch", "delete"].includes(m)).map((m) => `${m.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ":$1")}`))
    expect([...documented].sort()).toEqual(declared.map((r) => `${r.method} ${r.path}`).sort())
    for (const operation of documented) {
      const [method = "", path = ""] = operation.split(" ")
      expect(router.find(method, fill(path, "X1"))?.route.path).toBe(path)
    }
  })

  it("takes a final `*` as the rest of a path, and the method `*` as any method", () => {
    const [first] = declared
    if (first === undefined) throw new Error("the table is empty")
    const rest = makeRouter([...declared, { ...first, method: "*", path: "/sandbox/*" }])
    expect(rest.find("DELETE", "/sandbox/simulator/clock")?.route.path).toBe("/sandbox/*")
    expect(rest.find("GET", "/sandbox/")?.route.path).toBe("/sandbox/*")
    expect(rest.find("GET", "/sandbox")).toBeUndefined()
    expect(rest.find("GET", "/payouts/PO1")?.route.path).toBe("/payouts/:id")
  })

  it("marks as idempotent exactly the creating POSTs (those that answer 201) of a resource the client can fetch", () => {
    // Creations named for how they create: an outbound withdrawal, an instalment schedule's two
    // creations and their aliases (Versioning), blocks by a reference.
    const CREATING_ENDPOINTS = ["create", "withdrawal", "create_with_dates", "create_with_schedule", "with_dates", "with_schedule", "block_by_ref"]
    // A conflict names the resource for the client to fetch; a mandate PDF has no GET (docs/mandate-pdfs.md).
    const UNFETCHABLE_GROUPS = ["mandate_pdfs"]
    const creating = declared.filter((r) => r.method === "POST" && CREATING_ENDPOINTS.includes(r.endpoint) && !UNFETCHABLE_GROUPS.includes(r.group))
    expect(declared.filter((r) => r.idempotent)).toEqual(creating)
  })
})

describe("query strings", () => {
  const key = fc.oneof(fc.constantFrom("status", "created_at[gte]", "__proto__", "constructor", "toString", "limit"), fc.string({ maxLength: 6 }))
  const pairs = fc.array(fc.tuple(key, fc.string({ maxLength: 8 })), { maxLength: 8 })

  it("keeps every value of every parameter, in order: one as a string, repeats as an array", () => {
    fc.assert(fc.property(pairs, (entries) => {
      const parsed = parseQuery(new URLSearchParams(entries).toString())
      const expected = new Map<string, Array<string>>()
      for (const [k, v] of entries) expected.set(k, [...(expected.get(k) ?? []), v])
      expect(Object.keys(parsed).sort()).toEqual([...expected.keys()].sort())
      for (const [k, values] of expected) expect(parsed[k]).toEqual(values.length === 1 ? values[0] : values)
    }))
  })
})
