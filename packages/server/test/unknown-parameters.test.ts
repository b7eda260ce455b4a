import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { api, bacsMandate, json, localClient, startServer, type TestServer } from "./harness.ts"

/**
 * A typo fails loudly: a body field the endpoint does not take is a `validation_failed` item of
 * its own (field, message, pointer), and a list parameter it does not take is a 400
 * `invalid_filters` naming it, instead of a 201 that dropped the field or a list that ignored it.
 */
describe("unknown body fields and query parameters are refused, named", () => {
  let server: TestServer
  let token = ""
  let mandate = ""

  beforeAll(async () => {
    server = await startServer()
    token = server.boot.accessToken ?? ""
    mandate = await bacsMandate(localClient(token, server.url), server.boot.creditor ?? "")
  }, 60_000)
  afterAll(() => server.close())

  it("a body with chrage_date and colour: 422, one item per unknown field; nothing is made", async () => {
    const response = await api(server.url, token, "/payments", {
      method: "POST",
      body: { payments: { amount: 1000, currency: "GBP", chrage_date: "2030-01-01", colour: "red", links: { mandate, mandat: mandate } } }
    })
    expect(response.status).toBe(422)
    const error = (await json(response))["error"] as { type: string; errors: ReadonlyArray<Record<string, string>> }
    expect(error.type).toBe("validation_failed")
    const items = error.errors.map((e) => [e["field"], e["message"], e["request_pointer"]])
    expect(items).toEqual(expect.arrayContaining([
      ["chrage_date", "is not a known field", "/payments/chrage_date"],
      ["colour", "is not a known field", "/payments/colour"],
      ["links.mandat", "is not a known field", "/payments/links/mandat"]
    ]))
    const listed = await json(await api(server.url, token, "/payments"))
    expect(listed["payments"]).toEqual([])
  })

  it("a list with statuss=paid_out: 400 invalid_filters naming statuss; the right name still filters", async () => {
    const response = await api(server.url, token, "/payments?statuss=paid_out")
    expect(response.status).toBe(400)
    const error = (await json(response))["error"] as { type: string; message: string; errors: ReadonlyArray<Record<string, string>> }
    expect(error.type).toBe("invalid_api_usage")
    expect(error.errors[0]?.["reason"]).toBe("invalid_filters")
    expect(error.message).toContain("`statuss`")
    expect(error.message).toContain("status")
    expect((await api(server.url, token, "/payments?status=paid_out&limit=5")).status).toBe(200)
  })

  it("the official client's fields and filters still pass, paging included", async () => {
    const client = localClient(token, server.url)
    const payment = await client.payments.create({ amount: "1000", currency: "GBP", retry_if_possible: true, metadata: { order: "1" }, links: { mandate } } as never)
    expect(payment.status).toBe("pending_submission")
    const seen: Array<string> = []
    for await (const p of client.payments.all({ mandate, status: ["pending_submission"], limit: "1", created_at: { gte: "2000-01-01T00:00:00Z" } } as never)) seen.push(p.id ?? "")
    expect(seen).toEqual([payment.id])
  })
})
