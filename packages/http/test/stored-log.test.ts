import { OrganisationId } from "@paykit/core"
import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  type CallerShape,
  makeRequestLogWriter,
  MAX_QUEUED,
  recordOf,
  REDACTED,
  redactBody,
  type RequestCapture,
  type RequestLogRecord,
  RequestLogStore,
  resourceIdsOf,
  storedJsonOf
} from "../src/index.ts"

/** The stored request log's pure rules (redaction, the resources an answer names) and its writer's bounds. */

const SECRET_KEYS = ["secret", "client_secret", "webhook_secret", "access_token", "code"] as const

/** A JSON body with secrets planted at any depth, under any key the API uses for one. */
const bodyWith = (secret: string) =>
  fc.letrec<{ node: unknown }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small" },
      fc.constant(secret).map((s) => ({ [SECRET_KEYS[s.length % SECRET_KEYS.length] ?? "secret"]: s })),
      fc.constant({ account_number: secret, currency: "GBP" }),
      fc.constant({ iban: secret }),
      fc.constant(`paykit_rw_${secret}`),
      fc.string(),
      fc.integer(),
      fc.array(tie("node"), { maxLength: 4 }),
      fc.dictionary(fc.constantFrom("a", "links", "metadata", "customer_bank_accounts"), tie("node"), { maxKeys: 3 })
    )
  })).node

describe("redaction", () => {
  it("leaves no planted secret, account number, IBAN or token anywhere in a body", () => {
    fc.assert(fc.property(fc.stringMatching(/^[A-Za-z0-9]{12,24}$/), fc.integer({ min: 0, max: 1000 }), (secret, seed) => {
      const body = fc.sample(bodyWith(secret), { seed, numRuns: 1 })[0]
      expect(JSON.stringify(redactBody(body)) ?? "").not.toContain(secret)
    }))
  })

  it("shows an account as the API does: its number's last two characters (four for NZD), an IBAN's likewise", () => {
    expect(redactBody({ customer_bank_accounts: { account_number: "55779911", branch_code: "200000", links: { customer: "CU0001" } } }))
      .toEqual({ customer_bank_accounts: { account_number_ending: "11", branch_code: "200000", links: { customer: "CU0001" } } })
    expect(redactBody({ account_number: "1234567890", currency: "NZD" })).toEqual({ account_number_ending: "7890", currency: "NZD" })
    expect(redactBody({ iban: "DE89 3704 0044 0532 0130 00" })).toEqual({ account_number_ending: "00" })
    expect(redactBody({ webhook_endpoints: { url: "https://x.example", secret: "s3cr3t" } })).toEqual({ webhook_endpoints: { url: "https://x.example", secret: REDACTED } })
    expect(redactBody({ note: "my token is paykit_ro_abcdefghijklmnop" })).toEqual({ note: `my token is ${REDACTED}` })
    expect(redactBody({ error: { code: 422 } })).toEqual({ error: { code: 422 } })
    // What the database's JSON refuses (NUL, half a surrogate pair) is stored as U+FFFD.
    expect(redactBody({ ["k\u0000"]: "a\ud800b\u0000" })).toEqual({ ["k\ufffd"]: "a\ufffdb\ufffd" })
    expect(redactBody({ emoji: "\ud83d\ude00" })).toEqual({ emoji: "\ud83d\ude00" })
  })

  it("leaves a body without secrets as it was (no copy), and copies one with a secret, leaving the original alone", () => {
    const clean = { customers: [{ id: "CU0000000000AB", metadata: { note: "x" }, links: { creditor: "CR0000000000CD" } }] }
    expect(redactBody(clean)).toBe(clean)
    const secret = { a: [1, { b: "c" }], webhook_endpoints: { url: "https://x.example", secret: "s3cr3t" } }
    const redacted = redactBody(secret)
    expect(redacted).toEqual({ a: [1, { b: "c" }], webhook_endpoints: { url: "https://x.example", secret: REDACTED } })
    expect(secret.webhook_endpoints.secret).toBe("s3cr3t")
  })

  it("finds the resources an answer names: ids and links, once each, in a resource, a page or an error", () => {
    expect(resourceIdsOf({ customers: { id: "CU0000000000AB", links: { creditor: "CR0000000000CD" } } })).toEqual(["CU0000000000AB", "CR0000000000CD"])
    expect(resourceIdsOf({ payments: [{ id: "PM0000000000A1", links: { mandate: "MD0000000000B2" } }, { id: "PM0000000000A2", links: { mandate: "MD0000000000B2" } }], meta: {} }))
      .toEqual(["PM0000000000A1", "MD0000000000B2", "PM0000000000A2"])
    expect(resourceIdsOf({ error: { errors: [{ links: { conflicting_resource_id: "PM0000000000A1" } }] } })).toEqual(["PM0000000000A1"])
    expect(resourceIdsOf({ customers: { id: "not an id", email: "CU0000000000AB" } })).toEqual([])
  })
})

const caller: CallerShape = { organisation: OrganisationId("OR000000000003"), scope: "read_write", tokenId: "AT1", tokenPrefix: "paykit_rw_abcd", app: null }

const capture = (i: number, path = "/customers"): RequestCapture => ({
  caller,
  requestId: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
  method: "GET",
  path,
  query: {},
  requestJson: { _tag: "Empty" },
  requestBodyLength: 0,
  idempotencyKey: undefined,
  status: 200,
  responseBody: `{"customers":{"id":"CU0000000000AB"}}`,
  answeredAtMillis: Date.parse("2026-11-29T10:00:00.000Z") + i,
  durationMs: 1
})

describe("the writer", () => {
  it("stores an answer without secrets as its own text, and one with a secret as its redacted body's", () => {
    const plain = `{"customers": {"id": "CU0000000000AB"}}`
    expect(storedJsonOf(recordOf({ ...capture(1), responseBody: plain }).responseBody)).toBe(plain)
    const stored = storedJsonOf(recordOf({ ...capture(2), responseBody: `{"webhook_endpoints": {"secret": "s3cr3t"}}` }).responseBody)
    expect(JSON.parse(stored)).toEqual({ webhook_endpoints: { secret: REDACTED } })
  })

  it("stores what it was handed in batches, later; past its bound requests go unlogged and are counted, never thrown", async () => {
    const stored: Array<RequestLogRecord> = []
    const reports: Array<string> = []
    const store = RequestLogStore.of({
      append: (records) => Effect.sync(() => void stored.push(...records)),
      list: () => Effect.succeed({ records: [], more: false }),
      find: () => Effect.succeed(undefined)
    })
    const writer = makeRequestLogWriter(store, (message) => void reports.push(message))
    for (let i = 0; i < MAX_QUEUED + 3; i++) writer.record(capture(i))
    writer.record(capture(0, "/request_logs"))
    expect(stored).toEqual([])
    await writer.flush()
    expect(stored).toHaveLength(MAX_QUEUED)
    expect(stored[0]).toMatchObject({ organisation: "OR000000000003", tokenId: "AT1", tokenPrefix: "paykit_rw_abcd", resourceIds: ["CU0000000000AB"], createdAt: "2026-11-29T10:00:00.000Z" })
    expect(reports).toEqual(["3 requests were not logged: the queue was full"])
  })

  it("a store that fails is reported and the writer goes on", async () => {
    const reports: Array<string> = []
    const store = RequestLogStore.of({
      append: () => Effect.die(new Error("database down")),
      list: () => Effect.succeed({ records: [], more: false }),
      find: () => Effect.succeed(undefined)
    })
    const writer = makeRequestLogWriter(store, (message) => void reports.push(message))
    writer.record(capture(1))
    await writer.flush()
    expect(reports).toEqual(["a request could not be stored"])
  })

  it("hands a store that makes its own records the captures as they were, in batches; its failure is reported and the writer goes on", async () => {
    const reports: Array<string> = []
    const handed: Array<ReadonlyArray<RequestCapture>> = []
    let failing = false
    const store = RequestLogStore.of({
      append: () => Effect.die(new Error("the records are the store's to make")),
      appendCaptured: (captures) => failing ? Effect.die(new Error("thread gone")) : Effect.sync(() => void handed.push(captures)),
      list: () => Effect.succeed({ records: [], more: false }),
      find: () => Effect.succeed(undefined)
    })
    const writer = makeRequestLogWriter(store, (message) => void reports.push(message))
    const captures = [capture(1), capture(2)]
    for (const c of captures) writer.record(c)
    await writer.flush()
    expect(handed).toEqual([captures])
    expect(handed[0]?.[0]).toBe(captures[0])
    failing = true
    writer.record(capture(3))
    writer.record(capture(4))
    await writer.flush()
    expect(reports).toEqual(["2 requests could not be stored"])
  })
})
