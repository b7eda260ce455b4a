import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { timestampFromMillis } from "@paykit/core"
import { nextEndpoint, type StoredWebhookEndpoint, WEBHOOK_ENDPOINT_DISABLE_AFTER_MS } from "@paykit/engine"

const START = Date.UTC(2026, 10, 23)
const fresh: StoredWebhookEndpoint = {
  id: "WE0000000000AA", created_at: timestampFromMillis(START), url: "https://example.com/h", signature_scheme: "gocardless",
  enabled: true, disabled_reason: null, failing_since: null, sealed_secret: "v1.x"
}

/** Attempts' outcomes at increasing instants (gaps up to two days). */
const attempts = fc.array(fc.record({ gap: fc.integer({ min: 0, max: 2 * 86_400_000 }), ok: fc.boolean() }), { maxLength: 40 })

describe("an endpoint's failing run", () => {
  it("is disabled exactly when a failure comes WEBHOOK_ENDPOINT_DISABLE_AFTER_MS or more after the run began, and a success ends the run", () => {
    fc.assert(fc.property(attempts, (steps) => {
      let endpoint = fresh
      let at = START
      let runStart: number | undefined
      for (const step of steps) {
        at += step.gap
        const before = endpoint
        endpoint = nextEndpoint(endpoint, step.ok, at)
        if (!before.enabled) {
          // Disabled stays disabled, whatever comes (only its owner enables it again).
          expect(endpoint.enabled).toBe(false)
          continue
        }
        if (step.ok) {
          runStart = undefined
          expect(endpoint).toMatchObject({ enabled: true, failing_since: null })
          continue
        }
        runStart ??= at
        const expired = at - runStart >= WEBHOOK_ENDPOINT_DISABLE_AFTER_MS
        expect(endpoint.enabled).toBe(!expired)
        expect(endpoint.disabled_reason).toBe(expired ? "failing" : null)
        expect(endpoint.failing_since).toBe(timestampFromMillis(runStart))
      }
    }))
  })
})
