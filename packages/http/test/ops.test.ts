import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type GoCardlessClient, InvalidApiUsageError, InvalidStateError, ValidationFailedError } from "gocardless-nodejs"
import { addDays, type LocalDate, OrganisationId } from "@paykit/core"
import { Customers, MandateImports } from "@paykit/engine"
import { setUpPayer } from "@paykit/engine/testing"
import { failure, localClient, startServer, type TestServer } from "./harness.ts"

/**
 * Issue 18, part "ops", through the official client: instalment schedules, blocks, and mandate
 * imports with their entries. Payers are set up by the engine where the API serves no creation
 * of them yet (customers and mandates come with the direct-debit core).
 */

let server: TestServer
let client: GoCardlessClient
const run = <A, E, R>(effect: Effect.Effect<A, E, R>) => server.run(effect)

/** A fresh organisation with a creditor, a customer, a bank account and a mandate. */
const payer = async (organisation: string) => {
  const set = await run(setUpPayer(OrganisationId(organisation)))
  return { ...set, client: localClient(await server.token(organisation), server.url) }
}

beforeAll(async () => {
  server = await startServer()
  client = localClient(await server.token("OR0000000000P1"), server.url)
})
afterAll(async () => {
  await server.close()
})

describe("instalment schedules", () => {
  it("journey: a schedule of three payments on dates, listed, updated and cancelled with its payments", async () => {
    const { mandate, customer, client } = await payer("OR01NSTA1MENTS")
    const earliest = (await client.mandates.find(mandate.id)).next_possible_charge_date as LocalDate
    const dates = [addDays(earliest, 7), addDays(earliest, 37), addDays(earliest, 67)]
    const schedule = await client.instalmentSchedules.createWithDates({
      name: "Sofa",
      currency: "GBP",
      total_amount: 3000,
      instalments: dates.map((charge_date) => ({ amount: 1000, charge_date })),
      links: { mandate: mandate.id },
      payment_reference: "SOFA",
      metadata: { order: "42" }
    })
    expect(schedule).toMatchObject({ status: "active", total_amount: 3000, currency: "GBP", name: "Sofa", payment_errors: {} })
    expect(schedule.links).toMatchObject({ mandate: mandate.id, customer: customer.id })
    const paymentIds = schedule.links?.payments ?? []
    expect(paymentIds).toHaveLength(3)
    const payments = await Promise.all(paymentIds.map((id) => client.payments.find(id)))
    expect(payments.map((p) => p.amount)).toEqual([1000, 1000, 1000])
    expect(payments.every((p) => p.status === "pending_submission" && p.links?.instalment_schedule === schedule.id && p.reference === "SOFA")).toBe(true)
    expect(payments.map((p) => p.charge_date).every((d, i) => (d ?? "") >= (dates[i] ?? ""))).toBe(true)

    const id = schedule.id ?? ""
    expect((await client.instalmentSchedules.find(id)).status).toBe("active")
    const listed = await client.instalmentSchedules.list({ mandate: mandate.id, status: ["active"] })
    expect(listed.instalment_schedules.map((s) => s.id)).toEqual([id])
    expect((await client.instalmentSchedules.list({ status: ["cancelled"] })).instalment_schedules).toEqual([])
    expect((await client.instalmentSchedules.update(id, { metadata: { order: "43" } })).metadata).toEqual({ order: "43" })

    const cancelled = await client.instalmentSchedules.cancel(id)
    expect(cancelled.status).toBe("cancelled")
    const after = await Promise.all(paymentIds.map((p) => client.payments.find(p)))
    expect(after.map((p) => p.status)).toEqual(["cancelled", "cancelled", "cancelled"])
    const again = await failure(client.instalmentSchedules.cancel(id))
    expect(again).toBeInstanceOf(InvalidStateError)
    expect((again as InvalidStateError).errors[0]?.reason).toBe("cancellation_failed")

    const events = await client.events.list({ instalment_schedule: id } as never)
    expect(events.events.filter((e) => e.resource_type === "instalment_schedules").map((e) => e.action).reverse()).toEqual(["created", "cancelled"])
  })

  it("create_with_schedule dates the amounts an interval apart from the start date", async () => {
    const { mandate, client } = await payer("OR1NSTA1MENTSC")
    const earliest = (await client.mandates.find(mandate.id)).next_possible_charge_date as LocalDate
    const schedule = await client.instalmentSchedules.createWithSchedule({
      name: "Course",
      currency: "GBP",
      total_amount: 2500,
      instalments: { amounts: [1000, 1000, 500], interval: 2, interval_unit: "weekly", start_date: earliest },
      links: { mandate: mandate.id }
    })
    expect(schedule.status).toBe("active")
    const payments = await Promise.all((schedule.links?.payments ?? []).map((id) => client.payments.find(id)))
    expect(payments.map((p) => p.amount)).toEqual([1000, 1000, 500])
    const days = payments.map((p) => Date.parse(p.charge_date ?? "") / 86_400_000)
    // Two weeks apart, give or take a day or two rolled forward past a bank holiday.
    expect((days[1] ?? 0) - (days[0] ?? 0)).toBeGreaterThanOrEqual(12)
    expect((days[2] ?? 0) - (days[1] ?? 0)).toBeGreaterThanOrEqual(12)
  })

  it("an instalment before the mandate's next possible charge date fails the creation, with payment_errors and no payments", async () => {
    const { mandate, client } = await payer("OR1NSTA1MENTEA")
    const earliest = (await client.mandates.find(mandate.id)).next_possible_charge_date as LocalDate
    const schedule = await client.instalmentSchedules.createWithDates({
      name: "Too soon",
      currency: "GBP",
      total_amount: 2000,
      instalments: [{ amount: 1000, charge_date: addDays(earliest, -3) }, { amount: 1000, charge_date: addDays(earliest, 30) }],
      links: { mandate: mandate.id }
    })
    expect(schedule.status).toBe("creation_failed")
    expect(schedule.links?.payments).toEqual([])
    expect(schedule.payment_errors).toEqual({ "0": [{ field: "charge_date", message: expect.stringContaining(earliest) }] })
    expect((await client.payments.list({ mandate: mandate.id })).payments).toEqual([])
  })

  it("refuses instalments that do not add up to the total, a wrong currency, and an unknown mandate", async () => {
    const { mandate, client } = await payer("OR1NSTA1MENTRE")
    const base = { name: "Bad", currency: "GBP" as const, links: { mandate: mandate.id } }
    const sum = await failure(client.instalmentSchedules.createWithDates({ ...base, total_amount: 999, instalments: [{ amount: 1000, charge_date: null }] }))
    expect(sum).toBeInstanceOf(ValidationFailedError)
    expect((sum as ValidationFailedError).errors[0]).toMatchObject({ field: "total_amount" })
    const currency = await failure(client.instalmentSchedules.createWithDates({ ...base, currency: "EUR", total_amount: 1000, instalments: [{ amount: 1000, charge_date: null }] }))
    expect((currency as ValidationFailedError).errors[0]).toMatchObject({ field: "currency" })
    const unknown = await failure(client.instalmentSchedules.createWithSchedule({
      ...base,
      total_amount: 1000,
      instalments: { amounts: [1000], interval: 1, interval_unit: "monthly" },
      links: { mandate: "MD000000000000" }
    }))
    expect((unknown as ValidationFailedError).errors[0]).toMatchObject({ field: "links.mandate" })
    // An app fee is a partner app's: refused from the organisation's own token.
    const fee = await failure(client.instalmentSchedules.createWithDates({ ...base, total_amount: 1000, app_fee: 10, instalments: [{ amount: 1000, charge_date: null }] }))
    expect((fee as ValidationFailedError).errors[0]).toMatchObject({ field: "app_fee" })
    const none = await failure(client.instalmentSchedules.createWithDates({ ...base, total_amount: 0, instalments: [] }))
    expect(none).toBeInstanceOf(ValidationFailedError)
    const missing = await failure(client.instalmentSchedules.find("IS000000000000"))
    expect(missing).toBeInstanceOf(InvalidApiUsageError)
  })
})

describe("instalment schedule creation paths (Versioning)", () => {
  /** A POST the official client has no method for: the same envelope, headers and token it sends. */
  const post = async (token: string, path: string, body: unknown) => {
    const answer = await fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "gocardless-version": "2015-07-06", "content-type": "application/json" },
      body: JSON.stringify({ instalment_schedules: body })
    })
    return { status: answer.status, location: answer.headers.get("location"), body: (await answer.json()) as Record<string, Record<string, unknown>> }
  }

  it("POST /instalment_schedules, /with_dates and /with_schedule create as create_with_dates and create_with_schedule do", async () => {
    const organisation = OrganisationId("OR1NSTA1MENTPA")
    const { mandate } = await payer(organisation)
    const token = await server.token(organisation)
    const base = { currency: "GBP", total_amount: 2000, links: { mandate: mandate.id } }
    const withDates = (name: string) => ({ ...base, name, instalments: [{ amount: 1000, charge_date: null }, { amount: 1000, charge_date: null }] })
    const withSchedule = (name: string) => ({ ...base, name, instalments: { amounts: [1000, 1000], interval: 1, interval_unit: "monthly" } })
    const answers = [
      await post(token, "/instalment_schedules/with_dates", withDates("aliased dates")),
      await post(token, "/instalment_schedules/with_schedule", withSchedule("aliased schedule")),
      await post(token, "/instalment_schedules", withDates("plain dates")),
      await post(token, "/instalment_schedules", withSchedule("plain schedule"))
    ]
    for (const answer of answers) {
      expect(answer.status).toBe(201)
      const schedule = answer.body["instalment_schedules"] ?? {}
      expect(schedule).toMatchObject({ status: "active", total_amount: 2000 })
      expect(answer.location).toBe(`/instalment_schedules/${String(schedule["id"])}`)
      expect((schedule["links"] as { payments: ReadonlyArray<string> }).payments).toHaveLength(2)
    }
    const listed = await localClient(token, server.url).instalmentSchedules.list({ mandate: mandate.id })
    expect(listed.instalment_schedules.map((s) => s.name).sort()).toEqual(["aliased dates", "aliased schedule", "plain dates", "plain schedule"])
  })

  it("each path refuses what its creation refuses; the plain path reads dates from a list of instalments, a schedule otherwise", async () => {
    const organisation = OrganisationId("OR1NSTA1MENTP1")
    const { mandate } = await payer(organisation)
    const token = await server.token(organisation)
    const base = { name: "Bad", currency: "GBP", total_amount: 999, links: { mandate: mandate.id } }
    const sum = await post(token, "/instalment_schedules", { ...base, instalments: [{ amount: 1000, charge_date: null }] })
    expect(sum.status).toBe(422)
    expect(sum.body["error"]).toMatchObject({ type: "validation_failed", errors: [{ field: "total_amount" }] })
    const scheduleSum = await post(token, "/instalment_schedules", { ...base, instalments: { amounts: [1000], interval: 1, interval_unit: "monthly" } })
    expect(scheduleSum.body["error"]).toMatchObject({ errors: [{ field: "total_amount" }] })
    // A list sent to the schedule path is not a schedule; a schedule sent to the dates path is not a list.
    expect((await post(token, "/instalment_schedules/with_schedule", { ...base, total_amount: 1000, instalments: [{ amount: 1000, charge_date: null }] })).status).toBe(422)
    expect((await post(token, "/instalment_schedules/with_dates", { ...base, total_amount: 1000, instalments: { amounts: [1000], interval: 1, interval_unit: "monthly" } })).status).toBe(422)
    const none = await post(token, "/instalment_schedules", { ...base, total_amount: 1000 })
    expect(none.status).toBe(422)
    expect(none.body["error"]).toMatchObject({ errors: [{ field: "instalments" }] })
    // App fees stay a partner app's on every path.
    const fee = await post(token, "/instalment_schedules", { ...base, total_amount: 1000, app_fee: 10, instalments: [{ amount: 1000, charge_date: null }] })
    expect(fee.body["error"]).toMatchObject({ errors: [{ field: "app_fee" }] })
  })
})

describe("blocks", () => {
  it("journey: a blocked email, domain and bank account refuse the payer; block_by_ref, disable and enable", async () => {
    const { customer, account, client } = await payer("OR000000B10CKS")
    const organisation = OrganisationId("OR000000B10CKS")
    const newCustomer = (email: string) =>
      run(Effect.result(Effect.gen(function*() {
        return yield* (yield* Customers).create(organisation, { given_name: "Eve", family_name: "Smith", email })
      })))

    const email = await client.blocks.create({ block_type: "email", resource_reference: "Fraud@Example.com", reason_type: "identity_fraud" })
    expect(email).toMatchObject({ active: true, block_type: "email", reason_type: "identity_fraud", resource_reference: "Fraud@Example.com", reason_description: null })
    // The real API's fields, and nothing of what paykit matches on.
    expect(Object.keys(email).filter((k) => k !== "__response__").sort()).toEqual(
      ["active", "block_type", "created_at", "id", "reason_description", "reason_type", "resource_reference", "updated_at"]
    )
    const refused = await newCustomer("fraud@example.com")
    expect(refused._tag).toBe("Failure")
    expect(JSON.stringify(refused)).toContain("has been blocked")
    expect((await newCustomer("someone@example.com"))._tag).toBe("Success")

    const domain = await client.blocks.create({ block_type: "email_domain", resource_reference: "spam.test", reason_type: "other", reason_description: "Throwaway addresses" })
    expect((await newCustomer("anyone@spam.test"))._tag).toBe("Failure")
    await client.blocks.disable(domain.id ?? "")
    expect((await client.blocks.find(domain.id ?? "")).active).toBe(false)
    expect((await newCustomer("anyone@spam.test"))._tag).toBe("Success")
    expect((await client.blocks.enable(domain.id ?? "")).active).toBe(true)
    expect((await newCustomer("another@spam.test"))._tag).toBe("Failure")

    // Ada's details: her email and her bank account; a second call finds them blocked already.
    const byRef = await client.blocks.block_by_ref({ reference_type: "customer", reference_value: customer.id, reason_type: "no_intent_to_pay" })
    expect(byRef.blocks.map((b) => b.block_type).sort()).toEqual(["bank_account", "email"])
    expect(byRef.blocks.find((b) => b.block_type === "bank_account")?.resource_reference).toBe(account.id)
    expect((byRef.__response__ as { statusCode: number }).statusCode).toBe(201)
    const again = await client.blocks.block_by_ref({ reference_type: "customer", reference_value: customer.id, reason_type: "no_intent_to_pay" })
    expect((again.__response__ as { statusCode: number }).statusCode).toBe(200)
    expect(again.blocks.map((b) => b.id).sort()).toEqual(byRef.blocks.map((b) => b.id).sort())

    // The same account details for someone else are refused.
    const other = await newCustomer("bob@example.org")
    if (other._tag !== "Success") throw new Error("bob should be accepted")
    const sameAccount = await run(Effect.result(Effect.gen(function*() {
      return yield* (yield* Customers).createBankAccount(organisation, {
        account_holder_name: "Bob", account_number: "55779911", branch_code: "200000", country_code: "GB", links: { customer: other.success.id }
      })
    })))
    expect(sameAccount._tag).toBe("Failure")
    expect(JSON.stringify(sameAccount)).toContain("blocked")

    const listed = await client.blocks.list({ block_type: "email" })
    expect(listed.blocks.map((b) => b.id).sort()).toEqual([email.id, byRef.blocks.find((b) => b.block_type === "email")?.id].sort())
    expect((await client.blocks.list({ reason_type: "other" })).blocks.map((b) => b.id)).toEqual([domain.id])
  })

  it("collect_customer_details refuses a blocked email or email domain, pointing at the customer's email", async () => {
    const { client } = await payer("ORB10CKSC011EC")
    await client.blocks.create({ block_type: "email", resource_reference: "fraud@example.com", reason_type: "identity_fraud" })
    await client.blocks.create({ block_type: "email_domain", resource_reference: "spam.test", reason_type: "no_intent_to_pay" })
    const request = await client.billingRequests.create({ mandate_request: { currency: "GBP", scheme: "bacs" } } as never)
    const details = (email: string) => ({
      customer: { email, given_name: "Eve", family_name: "Smith" },
      customer_billing_detail: { address_line1: "1 Analytical Row", city: "London", postal_code: "N1 1AA", country_code: "GB" }
    })
    for (const email of ["Fraud@example.com", "eve@spam.test"]) {
      const refused = await failure(client.billingRequests.collectCustomerDetails(request.id ?? "", details(email) as never))
      expect(refused).toBeInstanceOf(ValidationFailedError)
      expect((refused as ValidationFailedError).errors).toEqual([
        expect.objectContaining({ field: "customer.email", message: "has been blocked from setting up mandates", request_pointer: "/billing_requests/customer/email" })
      ])
    }
    expect((await client.billingRequests.find(request.id ?? "")).status).toBe("pending")
    await client.billingRequests.collectCustomerDetails(request.id ?? "", details("eve@example.org") as never)
  })

  it("a block asked for again on the details of a disabled one enables it; block_by_ref does too", async () => {
    const { customer, client } = await payer("OR0B10CKSAGA1N")
    const first = await client.blocks.create({ block_type: "email", resource_reference: "ada@example.com", reason_type: "identity_fraud" })
    await client.blocks.disable(first.id ?? "")
    const again = await client.blocks.create({ block_type: "email", resource_reference: "ADA@example.com", reason_type: "identity_fraud" })
    expect({ id: again.id, active: again.active }).toEqual({ id: first.id, active: true })
    await client.blocks.disable(first.id ?? "")
    const byRef = await client.blocks.block_by_ref({ reference_type: "customer", reference_value: customer.id, reason_type: "identity_fraud" })
    expect(byRef.blocks.find((b) => b.id === first.id)?.active).toBe(true)
    expect((await client.blocks.find(first.id ?? "")).active).toBe(true)
  })

  it("a bank_name block refuses a new account at that bank", async () => {
    const { customer, client } = await payer("OR00B10CKSBANK")
    const organisation = OrganisationId("OR00B10CKSBANK")
    const account = (iban: string) => run(Effect.result(Effect.gen(function*() {
      return yield* (yield* Customers).createBankAccount(organisation, { account_holder_name: "Ada Lovelace", iban, links: { customer: customer.id } })
    })))
    const commerzbank = await account("DE89370400440532013000")
    if (commerzbank._tag !== "Success") throw new Error("a German account should be accepted")
    expect((await client.customerBankAccounts.find(commerzbank.success.id)).bank_name).toBe("Commerzbank")
    const block = await client.blocks.create({ block_type: "bank_name", resource_reference: commerzbank.success.id, reason_type: "identity_fraud" })
    expect(block).toMatchObject({ block_type: "bank_name", resource_reference: commerzbank.success.id, active: true })
    expect(JSON.stringify(await account("DE45370400440000012345"))).toContain("blocked")
  })

  it("refuses a reference that does not fit the block type and an `other` reason without a description", async () => {
    const wrongEmail = await failure(client.blocks.create({ block_type: "email", resource_reference: "not an email", reason_type: "other", reason_description: "x" }))
    expect((wrongEmail as ValidationFailedError).errors[0]).toMatchObject({ field: "resource_reference" })
    const noReason = await failure(client.blocks.create({ block_type: "email", resource_reference: "a@b.co", reason_type: "other" }))
    expect((noReason as ValidationFailedError).errors[0]).toMatchObject({ field: "reason_description" })
    const unknownAccount = await failure(client.blocks.create({ block_type: "bank_account", resource_reference: "BA000000000000", reason_type: "identity_fraud" }))
    expect((unknownAccount as ValidationFailedError).errors[0]).toMatchObject({ field: "resource_reference" })
    const unknownCustomer = await failure(client.blocks.block_by_ref({ reference_type: "customer", reference_value: "CU000000000000", reason_type: "identity_fraud" }))
    expect((unknownCustomer as ValidationFailedError).errors[0]).toMatchObject({ field: "reference_value" })
  })
})

describe("mandate imports", () => {
  const entry = (importId: string, email: string, record: string) => ({
    customer: { given_name: "Grace", family_name: "Hopper", email, address_line1: "1 High Street", city: "London", postal_code: "E1 6AN", country_code: "GB" },
    bank_account: { account_holder_name: "Grace Hopper", account_number: "55779911", branch_code: "200000", country_code: "GB" },
    mandate: { reference: `REF-${record}`, metadata: { record } },
    record_identifier: record,
    links: { mandate_import: importId }
  })

  it("journey: created, entries added, submitted, processed into customers, bank accounts and mandates", async () => {
    const { client } = await payer("OR000001MP0RTS")
    await client.blocks.create({ block_type: "email", resource_reference: "blocked@example.com", reason_type: "identity_fraud" })
    const created = await client.mandateImports.create({ scheme: "bacs" })
    expect(created).toMatchObject({ status: "created", scheme: "bacs" })
    const id = created.id ?? ""
    const good = await client.mandateImportEntries.create(entry(id, "grace@example.com", "r1"))
    expect(good).toMatchObject({ record_identifier: "r1", processing_errors: null, links: { mandate_import: id } })
    await client.mandateImportEntries.create(entry(id, "blocked@example.com", "r2"))
    const badDetails = await failure(client.mandateImportEntries.create({ ...entry(id, "x@example.com", "r3"), bank_account: { account_holder_name: "X", account_number: "1", branch_code: "200000", country_code: "GB" } }))
    expect(badDetails).toBeInstanceOf(ValidationFailedError)
    expect((await client.mandateImportEntries.list({ mandate_import: id })).mandate_import_entries).toHaveLength(2)

    expect((await client.mandateImports.submit(id)).status).toBe("submitted")
    const late = await failure(client.mandateImportEntries.create(entry(id, "late@example.com", "r4")))
    expect((late as InvalidStateError).errors[0]?.reason).toBe("mandate_import_not_created")
    expect((await failure(client.mandateImports.cancel(id)) as InvalidStateError).errors[0]?.reason).toBe("mandate_import_not_created")

    // The sandbox's due work, seconds after submission.
    await run(Effect.gen(function*() {
      return yield* (yield* MandateImports).processSubmitted(OrganisationId("OR000001MP0RTS"))
    }))
    expect((await client.mandateImports.find(id)).status).toBe("processed")
    const processed = await client.mandateImportEntries.list({ mandate_import: id, status: "successfully_processed" })
    expect(processed.mandate_import_entries.map((e) => e.record_identifier)).toEqual(["r1"])
    const links = processed.mandate_import_entries[0]?.links
    const mandate = await client.mandates.find(links?.mandate ?? "")
    expect(mandate).toMatchObject({ scheme: "bacs", reference: "REF-r1", metadata: { record: "r1" } })
    expect(mandate.links).toMatchObject({ customer: links?.customer, customer_bank_account: links?.customer_bank_account })
    const failed = await client.mandateImportEntries.list({ mandate_import: id, status: "unsuccessfully_processed" })
    expect(failed.mandate_import_entries.map((e) => e.record_identifier)).toEqual(["r2"])
    expect(failed.mandate_import_entries[0]?.processing_errors).toEqual({ email: ["has been blocked from setting up mandates"] })
    expect(failed.mandate_import_entries[0]?.links?.customer).toBeUndefined()
  })

  it("a created import can be cancelled, and then takes no entries", async () => {
    const { client } = await payer("OR1MP0RTCANCE1")
    const created = await client.mandateImports.create({ scheme: "bacs" })
    const cancelled = await client.mandateImports.cancel(created.id ?? "")
    expect(cancelled.status).toBe("cancelled")
    const refused = await failure(client.mandateImportEntries.create(entry(created.id ?? "", "g@example.com", "r1")))
    expect((refused as InvalidStateError).errors[0]?.reason).toBe("mandate_import_not_created")
    expect(await failure(client.mandateImports.find("IM000000000000"))).toBeInstanceOf(InvalidApiUsageError)
  })
})
