import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { OpenApi } from "effect/http-api"
import { PaykitApi, REQUEST_BODY_MAX_BYTES } from "@paykit/http"
import { fulfilledMandateRequest, localClient, startServer, type TestServer } from "./harness.ts"

/**
 * The server as `npm start` composes it (PGlite, SQL adapters, sandbox routes), fuzzed over every
 * route of the OpenAPI document and the sandbox's: ids well formed and not, NUL and lone
 * surrogates in paths, queries and bodies, huge and deep values, wrong types, odd headers. Never a
 * 5xx, and every error is the spec's error body. Ids the server answers with go into a pool that
 * later paths, filters and links draw from, so requests reach past "not found".
 */

interface Route {
  readonly method: string
  readonly path: string
}

const document = OpenApi.fromApi(PaykitApi)

const SANDBOX_ROUTES: ReadonlyArray<Route> = [
  { method: "GET", path: "/sandbox/simulator/clock" },
  { method: "POST", path: "/sandbox/simulator/advance" },
  ...["visit", "authorise", "deny", "fail"].map((action) => ({ method: "POST", path: `/sandbox/bank_authorisations/{id}/actions/${action}` })),
  { method: "POST", path: "/sandbox/outbound_payment_imports/{id}/actions/authorise" },
  { method: "POST", path: "/sandbox/payment_accounts/fund" }
]

const ROUTES: ReadonlyArray<Route> = [
  ...Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => ({ method: method.toUpperCase(), path }))),
  ...SANDBOX_ROUTES
]

/** Every property name the document declares anywhere: the fields bodies and filters are made of. */
const fieldNames = (): ReadonlyArray<string> => {
  const names = new Set<string>()
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk)
    if (typeof value !== "object" || value === null) return
    for (const [key, child] of Object.entries(value)) {
      if (key === "properties" && typeof child === "object" && child !== null) Object.keys(child).forEach((name) => names.add(name))
      if (key === "parameters" && Array.isArray(child)) {
        for (const parameter of child) if (typeof parameter === "object" && parameter !== null && "name" in parameter) names.add(String(parameter.name))
      }
      walk(child)
    }
  }
  walk(document)
  return [...names]
}
const FIELDS = fieldNames()

/** Ids the server has shown: real ones of every kind, for paths, filters and links. */
const pool: Array<string> = []
const harvest = (text: string) => {
  for (const match of text.matchAll(/"id":"([A-Z]{2,3}[0-9A-Z]{12})"/g)) {
    const id = match[1]
    if (id !== undefined && pool.length < 300 && !pool.includes(id)) pool.push(id)
  }
}
const pooled = fc.nat().map((i) => pool.length === 0 ? "CR000000000000" : (pool[i % pool.length] ?? ""))

const HUGE = "x".repeat(200_000)
const DEEP = "[".repeat(20_000) + "]".repeat(20_000)
const NEAR_LIMIT = "x".repeat(REQUEST_BODY_MAX_BYTES - 1024)
const odd = fc.constantFrom(
  "", " ", "\u0000", "a\u0000b", "\ud800", "a\udc00b", "\ud83d", "🙂", "é", "\u202e", "\r\n", "%00", "../..", "null", "true", "0",
  "GBP", "EUR", "SEK", "bacs", "sepa_core", "becs", "autogiro", "2026-12-01", "2026-13-45", "P1D", "PT1H", "monthly", "weekly", "-1", "1e309"
)
const text = fc.oneof(
  { weight: 3, arbitrary: odd },
  { weight: 3, arbitrary: fc.string({ maxLength: 20, unit: "binary" }) },
  { weight: 3, arbitrary: pooled },
  { weight: 2, arbitrary: pooled.map((id) => `${id}\u0000`) },
  { weight: 1, arbitrary: pooled.map((id) => id.slice(0, -1) + "\ud800") },
  { weight: 1, arbitrary: fc.constant(HUGE) }
)
const number = fc.oneof(
  fc.constantFrom(0, -1, 1, 100, 2 ** 31, 2 ** 53 + 2, 1e308, -1e308, 0.5, -0),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true })
)
const { value } = fc.letrec<{ value: unknown; leaf: unknown }>((tie) => ({
  leaf: fc.oneof(text, number, fc.boolean(), fc.constant(null)),
  value: fc.oneof(
    { depthSize: "small", maxDepth: 3 },
    { weight: 4, arbitrary: tie("leaf") },
    { weight: 1, arbitrary: fc.array(tie("value"), { maxLength: 4 }) },
    { weight: 2, arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 6 })), tie("value"), { maxKeys: 6 }) }
  )
}))
const payload = fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 8 })

/** The resource key a route's body goes under (`data` for actions and the sandbox). */
const bodyKey = (route: Route): string =>
  route.path.includes("/actions/") || route.path.startsWith("/sandbox/") ? "data" : (route.path.split("/")[1] ?? "")

/** An id of the pool with this prefix, when there is one: links that name a real resource. */
const real = (prefix: string): string => pool.find((id) => id.startsWith(prefix) && /^[0-9]/.test(id.slice(prefix.length))) ?? `${prefix}000000000000`

/** Valid bodies of the creations and actions that lead somewhere, for one or two fields to be spoilt. */
const TEMPLATES: Readonly<Record<string, () => Record<string, unknown>>> = {
  "/creditors": () => ({ name: "Fuzz Ltd", country_code: "GB", creditor_type: "company" }),
  "/creditors/{id}": () => ({ name: "Fuzz Renamed Ltd" }),
  "/creditor_bank_accounts": () => ({ account_holder_name: "Fuzz", account_number: "55779911", branch_code: "200000", country_code: "GB", links: { creditor: real("CR") } }),
  "/billing_requests": () => ({ mandate_request: { currency: "GBP", scheme: "bacs" }, payment_request: { amount: 1000, currency: "GBP", description: "Fuzz" }, metadata: { k: "v" } }),
  "/billing_requests/{id}/actions/collect_customer_details": () => ({
    customer: { email: "ada@example.com", given_name: "Ada", family_name: "Lovelace" },
    customer_billing_detail: { address_line1: "1 Analytical Row", city: "London", postal_code: "N1 1AA", country_code: "GB" }
  }),
  "/billing_requests/{id}/actions/collect_bank_account": () => ({ account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB" }),
  "/billing_requests/{id}/actions/choose_currency": () => ({ currency: "EUR" }),
  "/subscriptions": () => ({ amount: 1500, currency: "GBP", interval_unit: "monthly", name: "Fuzz", day_of_month: 5, count: 3, links: { mandate: real("MD") } }),
  "/subscriptions/{id}": () => ({ name: "Fuzz Renamed", amount: 1600 }),
  "/subscriptions/{id}/actions/pause": () => ({ pause_cycles: 1 }),
  "/outbound_payments": () => ({ amount: 100, scheme: "faster_payments", description: "Fuzz", reference: "FUZZ", links: { creditor: real("CR"), recipient_bank_account: real("BA") } }),
  "/outbound_payment_imports": () => ({ entries: [{ amount: 100, scheme: "faster_payments", reference: "FUZZ", links: { recipient_bank_account: real("BA") } }] }),
  "/bank_details_lookups": () => ({ account_number: "55779911", branch_code: "200000", country_code: "GB" }),
  // A day: every advance crosses a daily run, which then processes what the fuzz created.
  "/sandbox/simulator/advance": () => ({ by: "P1D" }),
  "/sandbox/payment_accounts/fund": () => ({ amount: 1000, links: { payment_account: real("BA") } })
}

/** `template` with each of `paths` (a top-level field, or one inside a nested object) set to the value beside it. */
const spoilt = (template: Record<string, unknown>, changes: ReadonlyArray<readonly [number, unknown]>): Record<string, unknown> => {
  const out: Record<string, unknown> = structuredClone(template)
  const paths = Object.entries(out).flatMap(([key, child]) =>
    typeof child === "object" && child !== null && !Array.isArray(child) ? [[key], ...Object.keys(child).map((inner) => [key, inner])] : [[key]])
  for (const [pick, replacement] of changes) {
    const [key = "", inner] = paths[pick % paths.length] ?? []
    const parent = out[key]
    if (inner !== undefined && typeof parent === "object" && parent !== null) (parent as Record<string, unknown>)[inner] = replacement
    else out[key] = replacement
  }
  return out
}

const nearValid = (route: Route) => {
  const template = TEMPLATES[route.path]
  if (template === undefined) return payload
  return fc.array(fc.tuple(fc.nat(), value), { minLength: 0, maxLength: 2 }).map((changes) => spoilt(template(), changes))
}

const body = (route: Route) => fc.oneof(
  { weight: TEMPLATES[route.path] === undefined ? 0 : 10, arbitrary: nearValid(route).map((p) => JSON.stringify({ [bodyKey(route)]: p })) },
  { weight: 8, arbitrary: payload.map((p) => JSON.stringify({ [bodyKey(route)]: p })) },
  { weight: 2, arbitrary: payload.map((p) => JSON.stringify(p)) },
  { weight: 2, arbitrary: value.map((v) => JSON.stringify({ [bodyKey(route)]: v })) },
  { weight: 1, arbitrary: fc.constantFrom("", "null", "[]", "{", "{\"a\":", "\u0000", "\"\\ud800\"", `{"${bodyKey(route)}":${DEEP}}`, DEEP) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40, unit: "binary" }) }
)

/** False for a string with a lone surrogate, which no URL can carry encoded. */
const wellFormed = (s: string): boolean => {
  try {
    encodeURIComponent(s)
    return true
  } catch {
    return false
  }
}

/** A path segment as a client might send it: encoded, or raw bytes no valid URL would carry. */
const segment = fc.oneof(
  { weight: 5, arbitrary: pooled },
  { weight: 3, arbitrary: text.filter((s) => s.length < 1000 && wellFormed(s)).map(encodeURIComponent) },
  { weight: 2, arbitrary: fc.constantFrom("%00", "PM%00", "%ED%A0%80", "CR%ED%B0%80", "%", "%zz", "%C0%AF", "%2F", "..", "x".repeat(5000)) }
)
const encoded = (s: string) => (wellFormed(s) ? encodeURIComponent(s) : "%ED%A0%80")
const query = fc.array(
  fc.tuple(
    fc.oneof(fc.constantFrom("limit", "before", "after", "created_at[gt]", "created_at[lte]", "status", "customer", "mandate", "creditor", "payment", "subscription", "limit[]"), fc.constantFrom(...FIELDS)),
    fc.oneof(text.filter((s) => s.length < 1000), fc.constantFrom("50", "501", "%00", "%ED%A0%80", "%"))
  ),
  { maxLength: 4 }
).map((pairs) => pairs.map(([k, v]) => `${encoded(k)}=${v.startsWith("%") ? v : encoded(v)}`).join("&"))

type Headers = Record<string, string>
/** Odd values for each header, "" meaning the header is left out. */
const ODD_HEADERS = (token: string): Readonly<Record<string, ReadonlyArray<string>>> => ({
  authorization: ["", "Bearer", "Bearer ", `bearer ${token}`, `Bearer ${token} `, `Basic ${token}`, `Bearer ${token}x`, `Bearer ${"a".repeat(4000)}`],
  "gocardless-version": ["", "2014-11-03", "2015-07-06, 2015-07-06", "2015-07-06 "],
  "content-type": ["", "text/plain", "application/x-www-form-urlencoded", "application/json; charset=latin1", "application/jsonx"],
  "idempotency-key": ["", " ", "k".repeat(300), "caf\u00e9", "a,b"],
  accept: ["text/html", "", "application/xml"]
})
/** Valid headers (a fresh idempotency key each time), with zero to two of them made odd. */
const headers = (token: string) => {
  const odd = ODD_HEADERS(token)
  const change = fc.constantFrom(...Object.keys(odd)).chain((name) => fc.tuple(fc.constant(name), fc.constantFrom(...(odd[name] ?? [""]))))
  return fc.tuple(fc.uuid(), fc.array(change, { maxLength: 2 }), fc.nat(3)).map(([key, changes, none]) => {
    const valid: Headers = {
      authorization: `Bearer ${token}`,
      "gocardless-version": "2015-07-06",
      "content-type": "application/json",
      "idempotency-key": key,
      accept: "application/json"
    }
    // One request in four has odd headers; the rest reach the handler.
    for (const [name, value] of none === 0 ? changes : []) {
      if (value === "") delete valid[name]
      else valid[name] = value
    }
    return valid
  })
}

const ERROR_FIELDS = new Set(["code", "type", "message", "documentation_url", "request_id", "errors"])

/** The spec's error body (payments-api.md, Errors), with this answer's status and request id. */
const expectSpecError = (status: number, requestId: string | null, text: string) => {
  const parsed = JSON.parse(text) as { error?: Record<string, unknown> }
  expect(Object.keys(parsed)).toEqual(["error"])
  const error = parsed.error ?? {}
  expect(Object.keys(error).filter((key) => !ERROR_FIELDS.has(key))).toEqual([])
  expect(error["code"]).toBe(status)
  expect(typeof error["type"]).toBe("string")
  expect(typeof error["message"]).toBe("string")
  // A real page: /docs at the server's public URL, at the anchor of the reason (or of the type).
  const [page, anchor] = String(error["documentation_url"]).split("#")
  expect(page).toMatch(/^http:\/\/[^/]+\/docs$/)
  expect(docsPage).toContain(`id="${anchor ?? ""}"`)
  expect(error["request_id"]).toBe(requestId)
  const errors = error["errors"]
  expect(Array.isArray(errors) && errors.length > 0).toBe(true)
  for (const item of Array.isArray(errors) ? errors : []) {
    expect(typeof (item as Record<string, unknown>)["message"]).toBe("string")
    expect(typeof (item as Record<string, unknown>)["reason"]).toBe("string")
  }
}

let server: TestServer
let token: string
let docsPage = ""

const send = async (method: string, path: string, requestHeaders: Headers, requestBody: string | undefined) => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: requestHeaders,
    ...(requestBody === undefined ? {} : { body: requestBody })
  })
  const answer = await response.text()
  return { status: response.status, requestId: response.headers.get("x-request-id"), text: answer }
}

/** One request; a failure names it, so a finding can be replayed by hand. */
const check = async (method: string, path: string, requestHeaders: Headers, requestBody: string | undefined) => {
  const { status, requestId, text } = await send(method, path, requestHeaders, requestBody)
  const shown = `${method} ${path.slice(0, 300)} ${JSON.stringify(requestHeaders).slice(0, 300)} ${String(requestBody).slice(0, 300)} -> ${status} ${text.slice(0, 300)}`
  expect(status, shown).toBeLessThan(500)
  expect(requestId, shown).not.toBeNull()
  if (status >= 400) expectSpecError(status, requestId, text)
  else harvest(text)
}

beforeAll(async () => {
  server = await startServer()
  token = server.boot.accessToken ?? ""
  docsPage = await (await fetch(`${server.url}/docs`)).text()
  // A few creations and the ids every list then shows: the pool starts with real ids of many kinds.
  const base = { authorization: `Bearer ${token}`, "gocardless-version": "2015-07-06", "content-type": "application/json" }
  const creations: ReadonlyArray<readonly [string, unknown]> = [
    ["/billing_requests", { billing_requests: { mandate_request: { scheme: "bacs" } } }],
    ["/billing_requests", { billing_requests: { payment_request: { amount: 1000, currency: "GBP", description: "fuzz" } } }],
    ["/creditor_bank_accounts", { creditor_bank_accounts: { account_holder_name: "Fuzz", account_number: "55779911", branch_code: "200000", country_code: "GB", links: { creditor: server.boot.creditor } } }]
  ]
  for (const [path, created] of creations) harvest((await send("POST", path, { ...base, "idempotency-key": crypto.randomUUID() }, JSON.stringify(created))).text)
  // A mandate, its customer and bank account, and a subscription on it, as a payer's flow makes them.
  const client = localClient(token, server.url)
  const { mandate } = await fulfilledMandateRequest(client)
  await client.subscriptions.create({ amount: 1500, currency: "GBP", interval_unit: "monthly", name: "Fuzz", links: { mandate } })
  harvest((await send("POST", "/sandbox/simulator/advance", base, JSON.stringify({ by: "P10D" }))).text)
  for (const route of ROUTES.filter((r) => r.method === "GET" && !r.path.includes("{"))) harvest((await send("GET", route.path, base, undefined)).text)
})
afterAll(() => server.close())

describe("fuzz, the server on PGlite", () => {
  it("answers every route without a 5xx, and every error in the spec's error body", async () => {
    const request = fc.constantFrom(...ROUTES).chain((route) =>
      fc.record({ route: fc.constant(route), id: segment, query, body: body(route), headers: headers(token) }))
    await fc.assert(
      fc.asyncProperty(request, async ({ route, id, query: q, body: b, headers: h }) => {
        const path = route.path.replace(/\{[^}]+\}/g, id) + (q === "" ? "" : `?${q}`)
        await check(route.method, path, h, route.method === "GET" ? undefined : b)
      }),
      { numRuns: 4000 }
    )
    // The pool grew past the start: requests reached resources, not only "not found".
    expect(pool.length).toBeGreaterThan(3)
  }, 120_000)

  it("reads bodies just under the limit whole on every POST and PUT route, and answers them", async () => {
    const writes = ROUTES.filter((r) => r.method !== "GET")
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...writes), segment, fc.constantFrom("name", "description", "reference", "metadata", "links"), async (route, id, field) => {
        const path = route.path.replace(/\{[^}]+\}/g, id)
        await check(route.method, path, { authorization: `Bearer ${token}`, "gocardless-version": "2015-07-06", "content-type": "application/json", "idempotency-key": crypto.randomUUID() },
          JSON.stringify({ [bodyKey(route)]: { [field]: NEAR_LIMIT } }))
      }),
      { numRuns: 20 }
    )
  }, 60_000)

  it("answers unknown paths and methods with 404 path_not_found in the error body", async () => {
    await fc.assert(
      fc.asyncProperty(segment, fc.constantFrom("GET", "POST", "DELETE", "PATCH", "PUT"), async (p, method) => {
        const { status, requestId, text } = await send(method, `/zz_${p}`, { authorization: `Bearer ${token}` }, undefined)
        expect(status).toBe(404)
        expectSpecError(404, requestId, text)
      }),
      { numRuns: 200 }
    )
  })
})
