import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { INPUT_DATE_FIRST, INPUT_DATE_LAST } from "@paykit/core"
import { api, bacsMandate, json, localClient, startServer, type TestServer } from "./harness.ts"

/**
 * A date past what the calendars hold is refused where it is given, 422 naming the field and the
 * range, rather than failing as a 500 when a date computed from it (a working day rolled to, a
 * Bacs mandate's dormancy 13 months on, a schedule's next instalment) leaves the year 9999. On
 * SQL storage, as the issue met it: the dormancy date is computed when the payment is stored.
 */

interface FieldErrors {
  readonly error: { readonly code: number; readonly errors: ReadonlyArray<{ readonly field: string; readonly message: string; readonly request_pointer: string }> }
}

const RANGE = `must be a date from ${INPUT_DATE_FIRST} to ${INPUT_DATE_LAST}`

describe("dates past the calendars' range", () => {
  let server: TestServer
  let token = ""
  let mandate = ""
  const post = async (path: string, body: unknown) => {
    const response = await api(server.url, token, path, { method: "POST", body })
    return { status: response.status, body: (await json(response)) as unknown as FieldErrors & Record<string, Record<string, unknown>> }
  }

  beforeAll(async () => {
    server = await startServer()
    token = server.boot.accessToken ?? ""
    mandate = await bacsMandate(localClient(token, server.url), server.boot.creditor ?? "")
  }, 60_000)
  afterAll(() => server.close())

  it.each([
    ["POST /payments charge_date 9999-12-31", "/payments", () => ({ payments: { amount: 1000, currency: "GBP", charge_date: "9999-12-31", links: { mandate } } }), "charge_date"],
    ["POST /payments charge_date 1899-12-31", "/payments", () => ({ payments: { amount: 1000, currency: "GBP", charge_date: "1899-12-31", links: { mandate } } }), "charge_date"],
    [
      "create_with_dates with 9999-12-31",
      "/instalment_schedules/create_with_dates",
      () => ({ instalment_schedules: { name: "Sofa", currency: "GBP", total_amount: 1000, instalments: [{ amount: 1000, charge_date: "9999-12-31" }], links: { mandate } } }),
      "instalments.0.charge_date"
    ],
    [
      "create_with_schedule starting 9999-12-20",
      "/instalment_schedules/create_with_schedule",
      () => ({ instalment_schedules: { name: "Sofa", currency: "GBP", total_amount: 2000, instalments: { amounts: [1000, 1000], interval: 1, interval_unit: "monthly", start_date: "9999-12-20" }, links: { mandate } } }),
      "instalments.start_date"
    ],
    ["a subscription ending 9999-12-31", "/subscriptions", () => ({ subscriptions: { amount: 1000, currency: "GBP", interval_unit: "monthly", end_date: "9999-12-31", links: { mandate } } }), "end_date"]
  ] as const)("%s: 422 naming the field and the range", async (_, path, body, field) => {
    const answer = await post(path, body())
    expect(answer.status).toBe(422)
    expect(answer.body.error.errors).toContainEqual(expect.objectContaining({ field, message: RANGE }))
  })

  it("a payment on the last date a request may name is made, and so is everything computed from it", async () => {
    const answer = await post("/payments", { payments: { amount: 1000, currency: "GBP", charge_date: INPUT_DATE_LAST, links: { mandate } } })
    expect(answer.status).toBe(201)
    // Rolled forward to a working day past it: the room the range leaves.
    expect(String(answer.body["payments"]?.["charge_date"]) >= INPUT_DATE_LAST).toBe(true)
  })

  it("a schedule whose computed instalments would pass the last date is 422 on instalments, not a date error on each", async () => {
    const answer = await post("/instalment_schedules/create_with_schedule", {
      instalment_schedules: { name: "Sofa", currency: "GBP", total_amount: 3000, instalments: { amounts: [1000, 1000, 1000], interval: 1, interval_unit: "monthly", start_date: "9989-11-30" }, links: { mandate } }
    })
    expect(answer.status).toBe(422)
    // 9989-11-30 and a month on, rolled past the year's end: the second is past the last date.
    expect(answer.body.error.errors).toEqual([expect.objectContaining({ field: "instalments", message: `must all fall on or before ${INPUT_DATE_LAST}: instalment 1 would not` })])
  })

  it("a retry's charge date is held to the same range", async () => {
    const made = await post("/payments", { payments: { amount: 1000, currency: "GBP", links: { mandate } } })
    const id = String(made.body["payments"]?.["id"])
    const answer = await post(`/payments/${id}/actions/retry`, { data: { charge_date: "9999-12-31" } })
    expect(answer.status).toBe(422)
    expect(answer.body.error.errors).toContainEqual(expect.objectContaining({ field: "charge_date", message: RANGE }))
  })
})
