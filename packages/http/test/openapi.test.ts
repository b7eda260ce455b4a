import { OpenApi } from "effect/http-api"
import { describe, expect, it } from "vitest"
import { PaykitApi } from "../src/index.ts"

/**
 * The OpenAPI document describes request bodies with the engine's request Schemas (the ones its
 * services decode with), not as free-form objects.
 */

const spec = OpenApi.fromApi(PaykitApi)

/** The JSON of the request body of `method path`, with its `$ref`s as names. */
const bodyOf = (path: string, method: "post" | "put"): string => {
  const paths = spec.paths as Record<string, Record<string, { requestBody?: unknown } | undefined> | undefined>
  const body = paths[path]?.[method]?.requestBody
  expect(body, `${method} ${path} has a body`).toBeDefined()
  return JSON.stringify(body)
}

/** The body's schema resolved one level: the component it names, if it names one. */
const resolved = (body: string): string => {
  const refs = [...body.matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1] ?? "")
  const components = (spec.components?.schemas ?? {}) as Record<string, unknown>
  return body + refs.map((r) => JSON.stringify(components[r])).join("")
}

describe("OpenAPI request bodies", () => {
  it.each([
    ["/subscriptions", "post", ["amount", "currency", "interval_unit", "app_fee", "links"]],
    ["/outbound_payments", "post", ["amount", "scheme", "recipient_bank_account"]],
    ["/billing_requests", "post", ["payment_request", "mandate_request"]],
    ["/creditor_bank_accounts", "post", ["account_holder_name", "currency", "creditor"]],
    ["/payouts/{id}", "put", ["metadata"]]
  ] as const)("%s %s names the engine's fields", (path, method, fields) => {
    const described = resolved(bodyOf(path, method))
    for (const field of fields) expect(described, `${method} ${path}: ${field}`).toContain(`"${field}"`)
  })
})
