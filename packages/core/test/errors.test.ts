import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import {
  Forbidden,
  InvalidApiUsage,
  InvalidState,
  NotFound,
  RateLimited,
  decodeInput,
  httpStatusOf,
  invalidField,
  renderError,
  requestPointer
} from "@paykit/core"

describe("error model", () => {
  it("renders validation errors in the spec's body with field and request_pointer", () => {
    const error = invalidField("mandate_pdfs", ["links", "mandate"], "Cannot provide both a mandate and other details")
    expect(renderError(error, { requestId: "req_1" })).toEqual({
      error: {
        code: 422,
        type: "validation_failed",
        message: "links.mandate Cannot provide both a mandate and other details",
        errors: [{
          field: "links.mandate",
          message: "Cannot provide both a mandate and other details",
          request_pointer: "/mandate_pdfs/links/mandate",
          reason: "validation_failed"
        }],
        documentation_url: "/docs#validation_failed",
        request_id: "req_1"
      }
    })
  })

  it("collects every failing field of a decode", () => {
    const decode = decodeInput(Schema.Struct({ a: Schema.String, b: Schema.Number }), "things")
    const r = decode({ a: 1, b: "x" })
    expect(Result.isFailure(r)).toBe(true)
    if (Result.isFailure(r)) expect(r.failure.errors.map((e) => e.request_pointer).sort()).toEqual(["/things/a", "/things/b"])
    const missing = decode({})
    if (Result.isFailure(missing)) expect(missing.failure.errors.map((e) => e.field).sort()).toEqual(["a", "b"])
  })

  it("maps every error to its status and type", () => {
    const conflict = new InvalidState({ reason: "idempotent_creation_conflict", message: "A resource has already been created with this idempotency key", links: { conflicting_resource_id: "PM000" } })
    expect(httpStatusOf(conflict)).toBe(409)
    const body = renderError(conflict, { requestId: "r" })
    expect(body.error.type).toBe("invalid_state")
    expect(body.error.errors[0]?.links).toEqual({ conflicting_resource_id: "PM000" })
    expect(httpStatusOf(new InvalidState({ reason: "cancellation_failed", message: "x" }))).toBe(422)
    expect(httpStatusOf(new NotFound({ resource: "payouts", id: "PO1" }))).toBe(404)
    const unauth = new InvalidApiUsage({ reason: "access_token_revoked", message: "revoked", status: 401 })
    expect(renderError(unauth, { requestId: "r" }).error).toMatchObject({ code: 401, type: "invalid_api_usage", errors: [{ reason: "access_token_revoked" }] })
    expect(httpStatusOf(new Forbidden({ reason: "insufficient_permissions", message: "read only" }))).toBe(403)
    expect(httpStatusOf(new RateLimited({ limit: 300, resetAtMillis: 0 }))).toBe(429)
  })

  it("escapes JSON pointer segments", () => {
    expect(requestPointer("x", ["a/b", "c~d", 0])).toBe("/x/a~1b/c~0d/0")
  })
})
