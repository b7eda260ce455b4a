import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { api, json, startServer, type TestServer } from "./harness.ts"

/**
 * Finding 4 of issue 14 as a user meets it, on the real server over PGlite: imports to recipients
 * that cannot be paid (a NUL byte, refused at the edge; a well-formed id naming no account) and a
 * subscription its mandate cannot collect (refused at creation). Every advance answers 200, the
 * other subscription still charges, an import can be cancelled and the other turns invalid. The
 * engine's tests show the same for a recipient that cannot even be read (creation-checks.test.ts).
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

  it("never stop the clock; the subscription and the import to no account are refused at creation, an import can be cancelled, the others charge", { timeout: 120_000 }, async () => {
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

    // The finding's recipient id is refused at the edge; a well-formed one that names no account of the organisation is refused at once too.
    const entryTo = (recipient: string) => ({ outbound_payment_imports: { entry_items: [{ scheme: "faster_payments", amount: 100, recipient_bank_account_id: recipient }], links: { creditor } } })
    expect((await post("/outbound_payment_imports", entryTo("BA\u0000"))).status).toBe(422)
    const unknown = await post("/outbound_payment_imports", entryTo("BA0000000000ZZ"))
    expect(unknown.status).toBe(422)
    expect(JSON.stringify(await json(unknown))).toContain("recipient_bank_account_id")
    const payee = await created("/customers", "customers", { given_name: "Bob", family_name: "Payee", country_code: "GB" })
    const payeeAccount = await created("/customer_bank_accounts", "customer_bank_accounts", {
      account_holder_name: "Bob Payee", account_number: "55779922", branch_code: "200000", country_code: "GB", links: { customer: payee }
    })
    const cancelledBeforeRun = await created("/outbound_payment_imports", "outbound_payment_imports", entryTo(payeeAccount).outbound_payment_imports)
    const cancelled = await post(`/sandbox/outbound_payment_imports/${cancelledBeforeRun}/actions/cancel`, {})
    expect(cancelled.status).toBe(200)
    expect(field(await json(cancelled), "outbound_payment_imports")["status"]).toBe("cancelled")
    // A path id the store cannot hold is not found, on this route as on every other.
    expect((await post("/sandbox/outbound_payment_imports/IM%00/actions/cancel", {})).status).toBe(404)

    for (const by of ["P2D", "P1D", "P1D"]) {
      const advanced = await post("/sandbox/simulator/advance", { by })
      expect(advanced.status).toBe(200)
    }
    const payments = await json(await api(server.url, token, `/payments?subscription=${healthy}`))
    expect((payments["payments"] as ReadonlyArray<unknown>).length).toBeGreaterThan(0)
  })
})
