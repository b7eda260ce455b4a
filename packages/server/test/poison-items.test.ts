import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { api, json, startServer, type TestServer } from "./harness.ts"

/**
 * Finding 4 of issue 14 as a user meets it, on the real server over PGlite: an import whose
 * recipient id PostgreSQL cannot even look up (a NUL byte) and a subscription its mandate cannot
 * collect. Afterwards every advance answers 200, the other subscription still charges, and the
 * import can be cancelled.
 */

const field = (body: Record<string, unknown>, key: string): Record<string, unknown> => {
  const value = body[key]
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`no ${key} in ${JSON.stringify(body)}`)
  return value as Record<string, unknown>
}

describe("poison items on the real server", () => {
  let server: TestServer
  let token: string
  const post = async (path: string, body: unknown) => api(server.url, token, path, { method: "POST", body })
  const created = async (path: string, key: string, body: unknown) => {
    const response = await post(path, { [key]: body })
    expect(response.status).toBe(201)
    return String(field(await json(response), key)["id"])
  }
  beforeAll(async () => {
    server = await startServer()
    token = server.boot.accessToken ?? ""
  })
  afterAll(async () => {
    await server.close()
  })

  it("never stop the clock; the subscription is refused at creation, the import can be cancelled, the others charge", { timeout: 120_000 }, async () => {
    // A payer and a Bacs mandate, the way the API makes them: a billing request, fulfilled.
    const creditor = await created("/creditors", "creditors", { name: "Poison Ltd", country_code: "GB", creditor_type: "company" })
    const request = await created("/billing_requests", "billing_requests", { mandate_request: { currency: "GBP", scheme: "bacs" }, links: { creditor } })
    const action = async (name: string, data: unknown) => {
      const response = await post(`/billing_requests/${request}/actions/${name}`, { data })
      expect(response.status).toBe(200)
      return field(await json(response), "billing_requests")
    }
    await action("collect_customer_details", {
      customer: { email: "ada@example.com", given_name: "Ada", family_name: "Lovelace" },
      customer_billing_detail: { address_line1: "1 Analytical Row", city: "London", postal_code: "N1 1AA", country_code: "GB" }
    })
    await action("collect_bank_account", { account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB" })
    await action("confirm_payer_details", {})
    const mandate = String(field(await action("fulfil", {}), "links")["mandate_request_mandate"])
    const healthy = await created("/subscriptions", "subscriptions", { amount: 1500, currency: "GBP", interval_unit: "weekly", links: { mandate } })

    const eur = await post("/subscriptions", { subscriptions: { amount: 1000, currency: "EUR", interval_unit: "monthly", links: { mandate } } })
    expect(eur.status).toBe(422)
    expect(JSON.stringify(await json(eur))).toContain("must be GBP for a bacs mandate")

    // Refused at the edge once ids are checked there (another part of this issue); accepted here, it must not poison the runs.
    const poisoned = await post("/outbound_payment_imports", {
      outbound_payment_imports: { entry_items: [{ scheme: "faster_payments", amount: 100, recipient_bank_account_id: "BA\u0000" }], links: { creditor } }
    })
    expect([201, 422]).toContain(poisoned.status)
    const importId = poisoned.status === 201 ? String(field(await json(poisoned), "outbound_payment_imports")["id"]) : undefined

    for (const by of ["P2D", "P1D"]) {
      const advanced = await post("/sandbox/simulator/advance", { by })
      expect(advanced.status).toBe(200)
    }
    const payments = await json(await api(server.url, token, `/payments?subscription=${healthy}`))
    expect((payments["payments"] as ReadonlyArray<unknown>).length).toBeGreaterThan(0)

    if (importId !== undefined) {
      const cancelled = await post(`/sandbox/outbound_payment_imports/${importId}/actions/cancel`, {})
      expect(cancelled.status).toBe(200)
      expect(field(await json(cancelled), "outbound_payment_imports")["status"]).toBe("cancelled")
    }
    expect((await post("/sandbox/simulator/advance", { by: "P1D" })).status).toBe(200)
  })
})
