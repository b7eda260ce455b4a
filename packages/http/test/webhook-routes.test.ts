import { OpenApi } from "effect/http-api"
import { describe, expect, it } from "vitest"
import { PaykitApi } from "@paykit/http"

describe("the webhook routes in the OpenAPI document", () => {
  const spec = OpenApi.fromApi(PaykitApi) as unknown as { paths: Record<string, Record<string, { description?: string }>> }
  const operations = Object.entries(spec.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })))

  it("serves the real API's webhook records: list, get, retry", () => {
    const served = operations.filter((o) => o.path.startsWith("/webhooks")).map((o) => `${o.method} ${o.path}`)
    expect(served.sort()).toEqual(["get /webhooks", "get /webhooks/{id}", "post /webhooks/{id}/actions/retry"])
  })

  it("marks every /webhook_endpoints operation as paykit's own extension", () => {
    const own = operations.filter((o) => o.path.startsWith("/webhook_endpoints"))
    expect(own.map((o) => `${o.method} ${o.path}`).sort()).toEqual([
      "get /webhook_endpoints", "get /webhook_endpoints/{id}", "post /webhook_endpoints", "post /webhook_endpoints/{id}/actions/disable", "put /webhook_endpoints/{id}"
    ])
    expect(own.every((o) => (o.op.description ?? "").startsWith("paykit's own API extension"))).toBe(true)
  })
})
