import { Effect, Schema } from "effect"
import { HttpApiEndpoint } from "effect/http-api"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { declare, PAYKIT_ROUTES, type Route, routeOf, single } from "../src/index.ts"
import { answerProblem } from "./answers.ts"
import { startServer, type TestServer } from "./harness.ts"

/**
 * The answers of the API against the Schemas its route table declares: the check itself, then a
 * sweep that calls every route once and decodes what it answered (a success with the route's
 * success Schema, an error with the error Schema).
 */

const Thing = Schema.Struct({ id: Schema.String })
const thing = routeOf(
  declare("things", HttpApiEndpoint.get("get", "/things/:id", { success: single("things", Thing) }), () => () => Effect.die("not called")),
  () => Effect.die("not called")
)

describe("the answer check", () => {
  it("accepts a body its Schema decodes and refuses one it does not (a wrong type, a missing or an undeclared field)", () => {
    expect(answerProblem(thing, 200, JSON.stringify({ things: { id: "TH1" } }))).toBeUndefined()
    expect(answerProblem(thing, 200, JSON.stringify({ things: { id: 1 } }))).toMatch(/GET \/things\/:id answered 200/)
    expect(answerProblem(thing, 200, JSON.stringify({ things: {} }))).toBeDefined()
    expect(answerProblem(thing, 200, JSON.stringify({ things: { id: "TH1", secret: "x" } }))).toBeDefined()
    expect(answerProblem(thing, 200, "not json")).toMatch(/not JSON/)
  })

  it("reads an error answer with the API's error Schema", () => {
    const error = { code: 404, type: "invalid_api_usage", message: "m", errors: [{ reason: "not_found", message: "m" }], documentation_url: "u", request_id: "r" }
    expect(answerProblem(thing, 404, JSON.stringify({ error }))).toBeUndefined()
    expect(answerProblem(thing, 404, JSON.stringify({ things: { id: "TH1" } }))).toBeDefined()
  })
})

/** Bodies that create something, by group: the sweep's later routes find their ids in what these made. */
const CREATE_BODIES: Readonly<Record<string, unknown>> = {
  creditors: { creditors: { name: "Sweep Ltd", country_code: "GB", creditor_type: "company" } },
  billing_requests: { billing_requests: { mandate_request: { currency: "GBP", scheme: "bacs" } } },
  payer_authorisations: { payer_authorisations: { customer: { email: "ada@example.com" } } },
  bank_details_lookups: { bank_details_lookups: { account_number: "55779911", branch_code: "200000", country_code: "GB" } },
  scheme_identifiers: { scheme_identifiers: { name: "SWEEP LTD", scheme: "bacs" } }
}

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server.close()
})

describe("every route, once", () => {
  it("answers with a body that decodes with the Schema its declaration gives", async () => {
    const headers = {
      authorization: `Bearer ${await server.token("OR0000000SWEEP")}`,
      "gocardless-version": "2015-07-06",
      "content-type": "application/json"
    }
    const routes = PAYKIT_ROUTES.map((declaration) => routeOf(declaration, () => Effect.die("not called")))
    // Creations first, then reads, then the rest: later calls use the ids earlier answers named.
    const order = (r: Route) => r.endpoint === "create" || r.endpoint === "lookup" ? 0 : r.method === "GET" ? 1 : 2
    const ids = new Map<string, string>()
    const answered: Array<{ readonly route: Route; readonly status: number }> = []
    const problems: Array<string> = []
    for (const route of [...routes].sort((a, b) => order(a) - order(b))) {
      const path = route.path.replace(":id", ids.get(route.group) ?? `${route.group.slice(0, 2).toUpperCase()}000000000000`)
      const body = route.method === "GET" ? undefined : JSON.stringify(route.endpoint === "create" || route.endpoint === "lookup" ? CREATE_BODIES[route.group] ?? {} : {})
      const response = await fetch(`${server.url}${path}`, { method: route.method, headers, ...(body === undefined ? {} : { body }) })
      const text = await response.text()
      const problem = answerProblem(route, response.status, text)
      if (problem !== undefined) problems.push(problem)
      answered.push({ route, status: response.status })
      // The id of what was created, or of a page's first item, for the routes of the group that come later.
      const value: unknown = response.ok ? JSON.parse(text) : undefined
      const under = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[route.group] : undefined
      const first: unknown = Array.isArray(under) ? under[0] : under
      if (!ids.has(route.group) && typeof first === "object" && first !== null && "id" in first && typeof first.id === "string") ids.set(route.group, first.id)
    }
    expect(problems).toEqual([])
    expect(answered.length).toBe(routes.length)
    // Reads succeed: every list but those that need a parent's id, and the gets of what the sweep found.
    const filtered = new Set([
      "/verification_details", "/outbound_payment_import_entries", "/mandate_import_entries", "/billing_requests/:id/institutions",
      "/payout_items", "/balances", "/payment_accounts/:id/transactions"
    ])
    for (const { route, status } of answered) {
      const read = route.endpoint === "list" ? !filtered.has(route.path) : route.endpoint === "get" && ids.has(route.group)
      if (route.method === "GET" && read) expect({ route: route.path, status }).toEqual({ route: route.path, status: 200 })
    }
    expect(["creditors", "billing_requests", "payer_authorisations"].every((group) => ids.has(group))).toBe(true)
  })
})
