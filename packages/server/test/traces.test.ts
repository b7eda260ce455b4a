import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CHILD_TOKEN, type ChildServer, freePort, startChild, stopChild } from "./child-server.ts"
import { type Receiver, startReceiver } from "../../store-sql/test/webhooks/receiver.ts"
import { api, json, tempDataDir } from "./harness.ts"
import { attributeOf, descendsFrom, type OtlpReceiver, type ReceivedSpan, SPAN_KIND, startOtlpReceiver } from "./otlp-receiver.ts"

/**
 * Issue 46's traces: the server as `npm start` runs it, configured by the standard OpenTelemetry
 * variables to export to a local OTLP receiver. A request that schedules due work (a mandate
 * import's submission, processed 10 seconds later) is found with its statements and the due item
 * it led to, run later by the worker during a sandbox advance, in one trace. The webhook
 * deliveries a request's events lead to (the sandbox organisation's endpoint, a local receiver)
 * run in the request's trace too, though a trigger queued the events and the pump made them.
 */

const ACCOUNT_NUMBER = "55779911"
const WEBHOOK_SECRET = "paykit-traces-webhook-secret-01"

describe("traces over OTLP/HTTP", () => {
  const data = tempDataDir()
  let receiver: OtlpReceiver
  let hooks: Receiver
  let server: ChildServer
  let url: string

  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await api(url, CHILD_TOKEN, path, { method: "POST", body, headers })
    expect(response.status, path).toBeLessThan(300)
    return { body: await json(response), requestId: response.headers.get("x-request-id") ?? "" }
  }
  const requestSpan = (requestId: string) => receiver.waitFor(
    (spans) => spans.find((span) => span.kind === SPAN_KIND.server && attributeOf(span.attributes, "paykit.request_id") === requestId),
    `span of the request ${requestId}`
  )

  beforeAll(async () => {
    receiver = await startOtlpReceiver()
    hooks = await startReceiver(WEBHOOK_SECRET)
    server = startChild({ dataDir: data.dir }, await freePort(), {
      PAYKIT_WEBHOOK_URL: hooks.url,
      PAYKIT_WEBHOOK_SECRET: WEBHOOK_SECRET,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "100",
      OTEL_SERVICE_NAME: undefined,
      OTEL_RESOURCE_ATTRIBUTES: undefined
    })
    url = await server.listening
  }, 90_000)
  afterAll(async () => {
    await stopChild(server)
    await receiver.close()
    await hooks.close()
    data.remove()
  })

  it("a submission's span holds its engine operation and SQL statements, and the due item it scheduled runs later in the same trace", { timeout: 120_000 }, async () => {
    const created = await post("/mandate_imports", { mandate_imports: { scheme: "bacs" } })
    const id = String((created.body["mandate_imports"] as Record<string, unknown>)["id"])
    await post("/mandate_import_entries", {
      mandate_import_entries: {
        customer: { given_name: "Grace", family_name: "Hopper", email: "grace@example.com", address_line1: "1 High Street", city: "London", postal_code: "E1 6AN", country_code: "GB" },
        bank_account: { account_holder_name: "Grace Hopper", account_number: ACCOUNT_NUMBER, branch_code: "200000", country_code: "GB" },
        mandate: { reference: "TRACED-1" },
        record_identifier: "row-1",
        links: { mandate_import: id }
      }
    })
    const submitted = await post(`/mandate_imports/${id}/actions/submit`, {})
    // The processing is due 10 seconds after the submission on the organisation's clock.
    const advanced = await post("/sandbox/simulator/advance", { by: 15 })

    const submit = await requestSpan(submitted.requestId)
    expect(submit.name).toBe("POST /mandate_imports/:id/actions/submit")
    expect(attributeOf(submit.attributes, "http.route")).toBe("/mandate_imports/:id/actions/submit")
    expect(attributeOf(submit.attributes, "http.request.method")).toBe("POST")
    expect(attributeOf(submit.attributes, "http.response.status_code")).toBe(200)
    expect(submit.parentSpanId ?? "").toBe("")
    expect(attributeOf(submit.resource, "service.name")).toBe("paykit")

    const processing = await receiver.waitFor(
      (spans) => spans.find((span) => span.name === "due_work mandate_import_processing" && attributeOf(span.attributes, "paykit.due_work.key") === id),
      "span of the import's processing"
    )
    const advance = await requestSpan(advanced.requestId)
    const spans = receiver.spans
    // One trace: the item's span is a child of a span of the submission (the operation that scheduled it).
    expect(processing.traceId).toBe(submit.traceId)
    expect(descendsFrom(spans, processing, submit)).toBe(true)
    expect(processing.kind).toBe(SPAN_KIND.consumer)
    expect(attributeOf(processing.attributes, "paykit.due_work.kind")).toBe("mandate_import_processing")
    expect(attributeOf(processing.attributes, "paykit.due_work.attempt")).toBe(0)
    expect(attributeOf(processing.attributes, "paykit.due_work.outcome")).toBe("done")
    // ...and linked to the advance's request, which ran it.
    expect(processing.links).toContainEqual(expect.objectContaining({ traceId: advance.traceId, spanId: advance.spanId }))
    // It happened after the submission, in real time, though the organisation's clock ran 15 seconds ahead.
    expect(BigInt(processing.startTimeUnixNano)).toBeGreaterThan(BigInt(submit.endTimeUnixNano))
    expect(BigInt(processing.startTimeUnixNano)).toBeLessThan(BigInt(Date.now()) * 1_000_000n)

    const below = (root: ReceivedSpan) => spans.filter((span) => span !== root && descendsFrom(spans, span, root))
    const statements = (root: ReceivedSpan) => below(root).filter((span) => attributeOf(span.attributes, "db.query.text") !== undefined)
    expect(below(submit).map((span) => span.name)).toContain("MandateImports.submit")
    const submitStatements = statements(submit).map((span) => String(attributeOf(span.attributes, "db.query.text")))
    expect(submitStatements.some((text) => text.startsWith("INSERT INTO due_work"))).toBe(true)
    expect(statements(submit).map((span) => attributeOf(span.attributes, "db.query.summary"))).toContain("INSERT due_work")
    expect(statements(submit).every((span) => span.kind === SPAN_KIND.client && attributeOf(span.attributes, "db.system.name") === "postgresql")).toBe(true)
    expect(statements(processing).length).toBeGreaterThan(0)
    expect(below(processing).some((span) => /^(Mandates|Customers)\.create$/.test(span.name))).toBe(true)

    // Statements carry their text with placeholders, never the values bound to them.
    const everything = JSON.stringify(spans)
    expect(everything).not.toContain(ACCOUNT_NUMBER)
    expect(everything).not.toContain(CHILD_TOKEN)
  })

  it("the webhook delivery a request's event led to runs in the request's trace, its attempt below it", { timeout: 120_000 }, async () => {
    const creditors = await json(await api(url, CHILD_TOKEN, "/creditors"))
    const creditor = String((creditors["creditors"] as ReadonlyArray<Record<string, unknown>>)[0]?.["id"])
    const customer = await post("/customers", { customers: { email: "ada@example.com", given_name: "Ada", family_name: "Lovelace", country_code: "GB" } })
    const account = await post("/customer_bank_accounts", {
      customer_bank_accounts: {
        account_holder_name: "Ada Lovelace", account_number: ACCOUNT_NUMBER, branch_code: "200000", country_code: "GB",
        links: { customer: String((customer.body["customers"] as Record<string, unknown>)["id"]) }
      }
    })
    const mandate = await post("/mandates", {
      mandates: { scheme: "bacs", links: { customer_bank_account: String((account.body["customer_bank_accounts"] as Record<string, unknown>)["id"]), creditor } }
    })
    const mandateId = String((mandate.body["mandates"] as Record<string, unknown>)["id"])
    const created = await requestSpan(mandate.requestId)
    // The delivery whose body holds the mandate's creation: its item's span, in the creation's trace.
    const delivery = await receiver.waitFor(
      (spans) => spans.find((span) => span.name === "due_work webhook_delivery" && span.traceId === created.traceId),
      "span of the mandate's webhook delivery"
    )
    const spans = receiver.spans
    expect(descendsFrom(spans, delivery, created)).toBe(true)
    expect(attributeOf(delivery.attributes, "paykit.due_work.kind")).toBe("webhook_delivery")
    const attempt = spans.find((span) => span.name === "webhook attempt" && descendsFrom(spans, span, delivery))
    expect(attempt).toBeDefined()
    expect(hooks.received.some((hook) => JSON.stringify(hook).includes(mandateId))).toBe(true)
  })

  it("a request's traceparent is honoured: its span is the caller's span's child, in the caller's trace", { timeout: 60_000 }, async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736"
    const parent = "00f067aa0ba902b7"
    const response = await api(url, CHILD_TOKEN, "/customers", { headers: { traceparent: `00-${traceId}-${parent}-01` } })
    expect(response.status).toBe(200)
    const span = await requestSpan(response.headers.get("x-request-id") ?? "")
    expect(span.traceId).toBe(traceId)
    expect(span.parentSpanId).toBe(parent)
    expect(span.name).toBe("GET /customers")
  })

  it("a caller that chose not to sample (flag 00) is followed: nothing of its trace is exported", { timeout: 60_000 }, async () => {
    const unsampled = "0af7651916cd43dd8448eb211c80319c"
    const skipped = await api(url, CHILD_TOKEN, "/customers", { headers: { traceparent: `00-${unsampled}-b7ad6b7169203331-00` } })
    expect(skipped.status).toBe(200)
    // Spans are exported in the order they end: once a later request's span is in, the first would be too.
    const later = await api(url, CHILD_TOKEN, "/customers")
    await requestSpan(later.headers.get("x-request-id") ?? "")
    expect(receiver.spans.filter((span) => span.traceId === unsampled)).toEqual([])
  })
})
