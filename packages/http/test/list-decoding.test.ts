import { Effect, type Schema } from "effect"
import { describe, expect, it } from "vitest"
import { decodeAtBoundary, OrganisationId } from "@paykit/core"
import { EventListParams, PaymentListParams } from "@paykit/engine"
import type { ApiRequest } from "../src/api-request.ts"
import { listHandler, type ListParamsSchema } from "../src/read-handlers.ts"
import type { CallerShape } from "../src/request-context.ts"

const caller: CallerShape = { organisation: OrganisationId("OR0000000000AA"), scope: "read_write", tokenId: "AT1", app: null }

const get = (path: string, query: ApiRequest["query"]): ApiRequest =>
  ({ method: "GET", path, headers: {}, params: {}, query, body: "", json: { _tag: "Empty" } })

/** The parameters a list handler hands its operation for `query`. */
const handedOn = <S extends ListParamsSchema>(key: string, schema: S, query: ApiRequest["query"]) => {
  const given: Array<S["Type"]> = []
  const handler = listHandler(key, schema, (_organisation, params: S["Type"]) => {
    given.push(params)
    return Effect.succeed({ items: [], before: null, after: null })
  })
  Effect.runSync(handler(get(`/${key}`, query), caller))
  return given
}

describe("a list's query is decoded once, at the edge", () => {
  const cases: ReadonlyArray<readonly [string, ListParamsSchema & Schema.Top, ApiRequest["query"]]> = [
    ["payments", PaymentListParams, { mandate: "MD0000000000AB", "charge_date[gte]": "2026-01-01", status: "paid_out,failed", limit: "10" }],
    ["events", EventListParams, { resource_type: "payments", include: "payment", limit: "2" }]
  ]
  for (const [key, schema, query] of cases) {
    it(`${key}: the operation's boundary takes the parameters the handler decoded as they are`, () => {
      const [params] = handedOn(key, schema, query)
      expect(params).toBeDefined()
      // The same object back: decoding it again would have made a new one.
      expect(Effect.runSync(decodeAtBoundary(schema, key)(params))).toBe(params)
    })
  }
})
