import type { GoCardlessClient } from "gocardless-nodejs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { addDays, type LocalDate } from "@paykit/core"
import { api, fulfilledMandateRequest, localClient, SERVER_DATABASES, type TestServer } from "./harness.ts"

/**
 * Issue 18's "ops" journeys on a sandbox server, through the official client, with the sandbox
 * clock moved by `/sandbox/simulator/advance` so the due work runs as it would in time: an
 * instalment schedule of three payments collected and paid out until it completes, and a mandate
 * import processed seconds after its submission.
 */
describe.each(SERVER_DATABASES)("ops journeys on %s", (_database, start) => {
  let server: TestServer
  let client: GoCardlessClient
  let token: string

  const advance = async (by: string | number) => {
    const response = await api(server.url, token, "/sandbox/simulator/advance", { method: "POST", body: { by } })
    expect(response.status).toBe(200)
  }

  beforeAll(async () => {
    server = await start()
    token = server.boot.accessToken ?? ""
    client = localClient(token, server.url)
    const creditor = server.boot.creditor ?? ""
    // Payouts need the creditor verified and a GBP payout account.
    await client.creditorBankAccounts.create({
      account_holder_name: "Sandbox Creditor Ltd", account_number: "55779911", branch_code: "200000", country_code: "GB", currency: "GBP",
      set_as_default_payout_account: true, links: { creditor }
    } as never)
    // The next daily run reviews the creditor and verifies it.
    await client.verificationDetails.create({
      name: "Sandbox Creditor Ltd", company_number: "01234567", description: "Testing", address_line1: "1 High Street", city: "London", postal_code: "E1 6AN",
      directors: [{ given_name: "Grace", family_name: "Hopper", date_of_birth: "1970-01-01", street: "1 High Street", city: "London", postal_code: "E1 6AN", country_code: "GB" }],
      links: { creditor }
    } as never)
  }, 60_000)
  afterAll(async () => {
    await server.close()
  })

  it("an instalment schedule of three payments is collected, paid out and completed", async () => {
    const { mandate } = await fulfilledMandateRequest(client)
    const earliest = (await client.mandates.find(mandate)).next_possible_charge_date as LocalDate
    const schedule = await client.instalmentSchedules.createWithDates({
      name: "Three payments",
      currency: "GBP",
      total_amount: 4500,
      instalments: [0, 14, 28].map((days) => ({ amount: 1500, charge_date: addDays(earliest, days) })),
      links: { mandate }
    })
    expect(schedule.status).toBe("active")
    await advance("P45D")
    const payments = await Promise.all((schedule.links?.payments ?? []).map((id) => client.payments.find(id)))
    expect(payments.map((p) => p.status)).toEqual(["paid_out", "paid_out", "paid_out"])
    expect((await client.instalmentSchedules.find(schedule.id ?? "")).status).toBe("completed")
    const events = await client.events.list({ instalment_schedule: schedule.id, resource_type: "instalment_schedules" } as never)
    expect(events.events.map((e) => e.action).reverse()).toEqual(["created", "completed"])
  }, 120_000)

  it("a mandate import is processed seconds after its submission into a customer, a bank account and a mandate", async () => {
    const created = await client.mandateImports.create({ scheme: "bacs" })
    const id = created.id ?? ""
    await client.mandateImportEntries.create({
      customer: { given_name: "Grace", family_name: "Hopper", email: "grace@example.com", address_line1: "1 High Street", city: "London", postal_code: "E1 6AN", country_code: "GB" },
      bank_account: { account_holder_name: "Grace Hopper", account_number: "55779911", branch_code: "200000", country_code: "GB" },
      mandate: { reference: "IMPORTED-1" },
      record_identifier: "row-1",
      links: { mandate_import: id }
    })
    expect((await client.mandateImports.submit(id)).status).toBe("submitted")
    expect((await client.mandateImports.find(id)).status).toBe("submitted")
    await advance(15)
    expect((await client.mandateImports.find(id)).status).toBe("processed")
    const entries = await client.mandateImportEntries.list({ mandate_import: id, status: "successfully_processed" })
    expect(entries.mandate_import_entries.map((e) => e.record_identifier)).toEqual(["row-1"])
    const mandate = await client.mandates.find(entries.mandate_import_entries[0]?.links?.mandate ?? "")
    expect(mandate).toMatchObject({ scheme: "bacs", reference: "IMPORTED-1" })
    expect((await client.customers.find(mandate.links?.customer ?? "")).email).toBe("grace@example.com")
  }, 60_000)
})
