import { Cause } from "effect"
import { describe, expect, it } from "vitest"
import { StorageError } from "@paykit/core"
import { defectAnswer, UNAVAILABLE_RETRY_AFTER_SECONDS } from "../src/index.ts"

/**
 * A request that died of storage it could not reach is answered 503 with `Retry-After`, so a
 * client (or a load balancer) knows to send it again, and when; any other defect is a 500 without.
 */
describe("the answer to a request that died", () => {
  const answer = (defect: unknown) => defectAnswer(() => {}, "RQ1", Cause.die(defect))

  it("is 503 service_unavailable with Retry-After when the storage could not be reached", () => {
    const unreachable = answer(new StorageError({ operation: "read", retryable: true, cause: "connection lost" }))
    expect(unreachable.status).toBe(503)
    expect(unreachable.headers["Retry-After"]).toBe(String(UNAVAILABLE_RETRY_AFTER_SECONDS))
    expect(JSON.parse(unreachable.body)).toMatchObject({ error: { code: 503, errors: [{ reason: "service_unavailable" }], request_id: "RQ1" } })
  })

  it("is 500 without Retry-After for a storage fault that a retry would meet again, and for any other defect", () => {
    for (const defect of [new StorageError({ operation: "write", retryable: false, cause: "constraint" }), new Error("a bug")]) {
      const failed = answer(defect)
      expect(failed.status).toBe(500)
      expect(failed.headers["Retry-After"]).toBeUndefined()
    }
  })
})
