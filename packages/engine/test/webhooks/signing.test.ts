import { Effect, Exit } from "effect"
import fc from "fast-check"
import { readFileSync } from "node:fs"
import { createHmac } from "node:crypto"
import * as officialWebhooks from "gocardless-nodejs"
import { describe, expect, it } from "vitest"
import {
  deliveryBody,
  gocardlessSignature,
  InvalidWebhookBody,
  InvalidWebhookSignature,
  parseWebhook,
  signedHeaders,
  standardSignature,
  standardWebhooksSecret
} from "@paykit/engine"

const ORACLE = "/work/shared/oracle/webhook-signature"
const vector = JSON.parse(readFileSync(`${ORACLE}/vector.json`, "utf8")) as { secret: string; expected_hex: string }
// The vector's body is the fixture re-serialised, with no trailing newline.
const oracleBody = JSON.stringify(JSON.parse(readFileSync(`${ORACLE}/body.json`, "utf8")))

const failureOf = <A, E>(exit: Exit.Exit<A, E>): E | undefined =>
  Exit.isFailure(exit) ? exit.cause.reasons.find((r) => r._tag === "Fail")?.error : undefined

describe("Webhook-Signature", () => {
  it("matches the known-answer vector of the official client's tests", () => {
    expect(gocardlessSignature(vector.secret, oracleBody)).toBe(vector.expected_hex)
    expect(signedHeaders("gocardless", vector.secret, "WB000000000001", 1_700_000_000, oracleBody)["Webhook-Signature"]).toBe(vector.expected_hex)
  })

  it("the official client's parse accepts what paykit signs, and refuses a tampered body", () => {
    expect(officialWebhooks.parse(oracleBody, vector.secret, gocardlessSignature(vector.secret, oracleBody))).toHaveLength(2)
    expect(() => officialWebhooks.parse(oracleBody.replace("created", "cancelled"), vector.secret, vector.expected_hex)).toThrow()
  })
})

describe("Standard Webhooks signature", () => {
  it("is v1 and the base64 HMAC of id.timestamp.body under the key whsec_ encodes", () => {
    const secret = "a-paykit-endpoint-secret"
    const key = Buffer.from(standardWebhooksSecret(secret).slice("whsec_".length), "base64")
    const expected = createHmac("sha256", key).update(`WB1.1700000000.${oracleBody}`).digest("base64")
    expect(standardSignature(secret, "WB1", 1_700_000_000, oracleBody)).toBe(`v1,${expected}`)
    const headers = signedHeaders("standard_webhooks", secret, "WB1", 1_700_000_000, oracleBody)
    expect(headers).toEqual({
      "Content-Type": "application/json", "webhook-id": "WB1", "webhook-timestamp": "1700000000", "webhook-signature": `v1,${expected}`
    })
  })
})

/** Events as paykit's outbox holds them: the bodies paykit sends. */
const eventArb = fc.record({
  id: fc.stringMatching(/^EV[0-9A-Z]{12}$/),
  created_at: fc.constant("2026-11-23T09:00:00.000Z"),
  resource_type: fc.constantFrom("mandates", "payments", "payouts"),
  action: fc.constantFrom("created", "confirmed", "failed"),
  links: fc.dictionary(fc.constantFrom("mandate", "payment", "payout"), fc.stringMatching(/^[A-Z]{2}[0-9A-Z]{12}$/)),
  details: fc.record({ origin: fc.constantFrom("api", "bank", "gocardless"), cause: fc.string(), description: fc.string() }),
  metadata: fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 20 })),
  resource_metadata: fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 20 }))
})
const secretArb = fc.stringMatching(/^[\x21-\x7e]{16,64}$/)

describe("parseWebhook, the receiving side", () => {
  it("agrees with the official client's parse on good and tampered bodies", () => {
    fc.assert(fc.property(fc.array(eventArb, { maxLength: 5 }), secretArb, fc.nat(), (events, secret, flip) => {
      const body = deliveryBody("WB0000000000AA", events as never)
      const signature = gocardlessSignature(secret, body)
      const ours = Effect.runSync(parseWebhook(body, secret, signature))
      expect(ours.events).toEqual(officialWebhooks.parse(body, secret, signature))
      expect(ours.webhookId).toBe("WB0000000000AA")
      // One character of the body changed: both refuse it.
      const at = flip % body.length
      const tampered = body.slice(0, at) + (body[at] === "x" ? "y" : "x") + body.slice(at + 1)
      expect(() => officialWebhooks.parse(tampered, secret, signature)).toThrow()
      expect(failureOf(Effect.runSyncExit(parseWebhook(tampered, secret, signature)))).toBeInstanceOf(InvalidWebhookSignature)
    }), { numRuns: 100 })
  })

  it("accepts the official fixture (events without resource_metadata) and refuses another secret", () => {
    const parsed = Effect.runSync(parseWebhook(Buffer.from(oracleBody), vector.secret, vector.expected_hex))
    expect(parsed.events.map((e) => e.resource_type)).toEqual(["subscriptions", "mandates"])
    expect(failureOf(Effect.runSyncExit(parseWebhook(oracleBody, `${vector.secret}X`, vector.expected_hex)))).toBeInstanceOf(InvalidWebhookSignature)
  })

  it("a signed body that is not a webhook's is a typed body error", () => {
    const secret = "0123456789abcdef"
    const body = JSON.stringify({ events: [{ id: 1 }] })
    expect(failureOf(Effect.runSyncExit(parseWebhook(body, secret, gocardlessSignature(secret, body))))).toBeInstanceOf(InvalidWebhookBody)
    expect(failureOf(Effect.runSyncExit(parseWebhook("not json", secret, gocardlessSignature(secret, "not json"))))).toBeInstanceOf(InvalidWebhookBody)
  })
})
