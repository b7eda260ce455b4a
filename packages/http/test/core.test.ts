import { OrganisationId } from "@paykit/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ApiError, type GoCardlessClient, InvalidApiUsageError, InvalidStateError, ValidationFailedError } from "gocardless-nodejs"
import { issueAccessToken } from "../src/index.ts"
import { UK_ACCOUNT } from "./fixtures.ts"
import { failure, localClient, startServer, type TestServer } from "./harness.ts"

/**
 * The direct-debit core through the official client, unchanged (issue 18): customers, their bank
 * accounts, mandates, payments and refunds created, changed and ended over HTTP, each refusal
 * parsed into the client's error class with the real API's reason. What needs the bank's days
 * (collection, pay-out, failure and retry, a refund of a collected payment) is the server-level
 * journey (`packages/server/test/core-journey.test.ts`).
 */

let server: TestServer
let client: GoCardlessClient
let creditor = ""
beforeAll(async () => {
  server = await startServer()
  client = localClient(await server.token(ORG), server.url)
  creditor = (await client.creditors.create({ name: "Acme Gym", country_code: "GB", creditor_type: "company" } as never)).id ?? ""
})
afterAll(async () => {
  await server.close()
})

const ORG = OrganisationId("OR00000000C0RE")
const ADA = { email: "ada@example.com", given_name: "Ada", family_name: "Lovelace", address_line1: "1 Analytical Row", city: "London", postal_code: "N1 1AA", country_code: "GB" }
// UK_ACCOUNT passes the Vocalink modulus check; `55779912` with the same sort code fails it.
const GERMAN_IBAN = "DE89370400440532013000"

/** The reason of the first error of a refused call, checked to be of the client's class `kind` and status `code`. */
const reasonOf = async (call: Promise<unknown>, kind: abstract new (...args: never) => ApiError, code: number): Promise<string> => {
  const error = await failure(call)
  expect(error).toBeInstanceOf(kind)
  expect((error as ApiError).code).toBe(code)
  return String((error as ApiError).errors[0]?.reason)
}

const newCustomer = async () => (await client.customers.create(ADA as never)).id ?? ""
const newAccount = async (customer: string) => (await client.customerBankAccounts.create({ ...UK_ACCOUNT, links: { customer } } as never)).id ?? ""
const newMandate = async (account: string) => client.mandates.create({ scheme: "bacs", links: { customer_bank_account: account, creditor } } as never)
/** A customer with an account and a Bacs mandate on it. */
const payer = async () => {
  const customer = await newCustomer()
  const account = await newAccount(customer)
  const mandate = await newMandate(account)
  return { customer, account, mandate: mandate.id ?? "" }
}
const newPayment = async (mandate: string, extra: Record<string, unknown> = {}) =>
  client.payments.create({ amount: 2500, currency: "GBP", links: { mandate }, ...extra } as never)

/** The actions of the events linked to a resource, oldest first. */
const actions = async (key: string, id: string, resourceType: string): Promise<ReadonlyArray<string>> =>
  (await client.events.list({ [key]: id, resource_type: resourceType, limit: "500" } as never)).events.map((e) => String(e.action)).reverse()

describe("customers", () => {
  it("create (201, Location), find, list by email, update; a person needs both names", async () => {
    const created = await client.customers.create({ ...ADA, metadata: { crm: "42" } } as never)
    const response = created.__response__ as { statusCode: number; headers: Record<string, string> }
    expect(response.statusCode).toBe(201)
    expect(response.headers["location"]).toBe(`/customers/${created.id}`)
    expect(created).toMatchObject({ email: "ada@example.com", given_name: "Ada", city: "London", language: "en", metadata: { crm: "42" } })
    expect((await client.customers.find(created.id ?? "")).family_name).toBe("Lovelace")
    expect((await client.customers.list({ email: "ada@example.com" } as never)).customers.map((c) => c.id)).toContain(created.id)
    const updated = await client.customers.update(created.id ?? "", { city: "Cambridge", metadata: { crm: "43" } } as never)
    expect(updated).toMatchObject({ city: "Cambridge", given_name: "Ada", metadata: { crm: "43" } })
    expect(await reasonOf(client.customers.create({ given_name: "Ada" } as never), ValidationFailedError, 422)).toBe("validation_failed")
    expect(await reasonOf(client.customers.update("CU000000000000", { city: "Leeds" } as never), InvalidApiUsageError, 404)).toBe("resource_not_found")
  })

  it("remove: refused while a mandate is live; then the personal data is erased, the customer unlisted and read as customer_data_removed, with its event", async () => {
    const { customer, mandate } = await payer()
    expect(await reasonOf(client.customers.remove(customer), InvalidStateError, 422)).toBe("customer_has_active_mandates")
    await client.mandates.cancel(mandate, {} as never)
    const removed = await client.customers.remove(customer)
    expect((removed.__response__ as { statusCode: number }).statusCode).toBe(200)
    expect(removed).toMatchObject({ id: customer, email: null, given_name: null, family_name: null, address_line1: null, city: null, postal_code: null, metadata: {} })
    expect("removed_at" in removed).toBe(false)
    expect((await client.customers.list({ limit: "500" } as never)).customers.map((c) => c.id)).not.toContain(customer)
    for (const call of [
      () => client.customers.find(customer),
      () => client.customers.update(customer, { city: "Leeds" } as never),
      () => client.customers.remove(customer),
      () => client.customerBankAccounts.create({ ...UK_ACCOUNT, links: { customer } } as never)
    ]) expect(await reasonOf(call(), InvalidStateError, 422)).toBe("customer_data_removed")
    expect(await actions("customer", customer, "customers")).toEqual(["removed"])
  })

  it("remove erases what else names the person: the billing request's billing detail, the bank accounts' holder name and metadata; a billing request for them is refused", async () => {
    const customer = await newCustomer()
    const account = (await client.customerBankAccounts.create({ ...UK_ACCOUNT, metadata: { nickname: "Ada's" }, links: { customer } } as never)).id ?? ""
    const request = (await client.billingRequests.create({
      mandate_request: { currency: "GBP", scheme: "bacs" }, links: { customer, customer_bank_account: account }
    } as never)).id ?? ""
    // The customer's address is complete, so the request's billing detail holds it from the start.
    expect((await client.billingRequests.find(request)).resources?.customer_billing_detail).toMatchObject({ address_line1: ADA.address_line1 })
    await client.customers.remove(customer)
    const detail = (await client.billingRequests.find(request)).resources?.customer_billing_detail
    expect(detail).toMatchObject({ address_line1: null, city: null, postal_code: null, country_code: null, ip_address: null, swedish_identity_number: null })
    const erased = { id: account, account_holder_name: "", metadata: {}, enabled: false }
    expect(await client.customerBankAccounts.find(account)).toMatchObject(erased)
    expect((await client.customerBankAccounts.list({ customer } as never)).customer_bank_accounts).toMatchObject([erased])
    const refused = client.billingRequests.create({ mandate_request: { currency: "GBP", scheme: "bacs" }, links: { customer } } as never)
    expect(await reasonOf(refused, InvalidStateError, 422)).toBe("customer_data_removed")
    // Its details and account were given before the removal: the payer's next step would confirm them.
    expect(await reasonOf(client.billingRequests.confirmPayerDetails(request, {} as never), InvalidStateError, 422)).toBe("customer_data_removed")
    expect((await client.billingRequests.cancel(request, {} as never)).status).toBe("cancelled")
  })

  it("GET /subscriptions omits the subscriptions of removed customers (spec), by any filter", async () => {
    const { customer, mandate } = await payer()
    const subscription = (await client.subscriptions.create({ amount: 1500, currency: "GBP", interval_unit: "monthly", day_of_month: 1, links: { mandate } } as never)).id ?? ""
    const listed = async (query: Record<string, string>) => (await client.subscriptions.list({ limit: "500", ...query } as never)).subscriptions.map((s) => s.id)
    await client.mandates.cancel(mandate, {} as never)
    expect(await listed({})).toContain(subscription)
    await client.customers.remove(customer)
    for (const query of [{}, { mandate }, { customer }, { status: "cancelled" }]) expect(await listed(query)).not.toContain(subscription)
    expect((await client.subscriptions.find(subscription)).status).toBe("cancelled")
  })
})

describe("customer bank accounts", () => {
  it("create from UK local details and from an IBAN: number ending, currency and country resolved", async () => {
    const customer = await newCustomer()
    const uk = await client.customerBankAccounts.create({ ...UK_ACCOUNT, metadata: { kind: "main" }, links: { customer } } as never)
    expect((uk.__response__ as { statusCode: number }).statusCode).toBe(201)
    expect(uk).toMatchObject({ account_number_ending: "11", country_code: "GB", currency: "GBP", enabled: true, metadata: { kind: "main" }, links: { customer } })
    const german = await client.customerBankAccounts.create({ account_holder_name: "Ada Lovelace", iban: GERMAN_IBAN, links: { customer } } as never)
    expect(german).toMatchObject({ account_number_ending: "00", country_code: "DE", currency: "EUR" })
    expect((await client.customerBankAccounts.list({ customer } as never)).customer_bank_accounts.map((a) => a.id).sort()).toEqual([uk.id, german.id].sort())
  })

  it("bad details are refused as a bank details lookup refuses them: modulus check, IBAN check digits", async () => {
    const customer = await newCustomer()
    const modulus = await failure(client.customerBankAccounts.create({ ...UK_ACCOUNT, account_number: "55779912", links: { customer } } as never))
    expect(modulus).toBeInstanceOf(ValidationFailedError)
    const iban = await failure(client.customerBankAccounts.create({ account_holder_name: "Ada", iban: "DE89370400440532013001", links: { customer } } as never))
    expect(iban).toBeInstanceOf(ValidationFailedError)
    expect((iban as ValidationFailedError).errors[0]).toMatchObject({ field: "iban" })
    expect(await reasonOf(client.customerBankAccounts.create({ ...UK_ACCOUNT, links: { customer: "CU000000000000" } } as never), InvalidApiUsageError, 404)).toBe("resource_not_found")
  })

  it("update changes metadata only; disable cancels its mandates and their pending payments; disabling again is disable_failed", async () => {
    const { account, mandate } = await payer()
    expect((await client.customerBankAccounts.update(account, { metadata: { note: "x" } } as never)).metadata).toEqual({ note: "x" })
    const payment = (await newPayment(mandate)).id ?? ""
    const disabled = await client.customerBankAccounts.disable(account)
    expect(disabled.enabled).toBe(false)
    expect((await client.mandates.find(mandate)).status).toBe("cancelled")
    expect((await client.payments.find(payment)).status).toBe("cancelled")
    expect(await actions("customer_bank_account", account, "customer_bank_accounts")).toEqual(["disabled"])
    expect(await reasonOf(client.customerBankAccounts.disable(account), InvalidStateError, 422)).toBe("disable_failed")
    expect(await reasonOf(newMandate(account), InvalidStateError, 422)).toBe("bank_account_disabled")
  })
})

describe("mandates", () => {
  it("create: scheme, links, reference from the creditor's prefix, next possible charge date; update metadata", async () => {
    const customer = await newCustomer()
    const account = await newAccount(customer)
    const created = await client.mandates.create({ scheme: "bacs", metadata: { contract: "7" }, links: { customer_bank_account: account, creditor } } as never)
    expect((created.__response__ as { statusCode: number }).statusCode).toBe(201)
    const prefix = (await client.creditors.find(creditor)).bank_reference_prefix ?? ""
    expect(created).toMatchObject({ scheme: "bacs", status: "pending_submission", metadata: { contract: "7" }, links: { customer, customer_bank_account: account, creditor } })
    expect(created.reference?.startsWith(`${prefix}-`)).toBe(true)
    expect(created.next_possible_charge_date).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect((await client.mandates.update(created.id ?? "", { metadata: { contract: "8" } } as never)).metadata).toEqual({ contract: "8" })
    expect(await actions("mandate", created.id ?? "", "mandates")).toEqual(["created"])
  })

  it("create refuses a scheme the account cannot use and an unknown account", async () => {
    const account = await newAccount(await newCustomer())
    const scheme = await failure(client.mandates.create({ scheme: "sepa_core", links: { customer_bank_account: account, creditor } } as never))
    expect(scheme).toBeInstanceOf(ValidationFailedError)
    expect((scheme as ValidationFailedError).errors[0]).toMatchObject({ field: "scheme" })
    expect(await failure(client.mandates.create({ links: { customer_bank_account: "BA000000000000", creditor } } as never))).toBeInstanceOf(ValidationFailedError)
  })

  it("cancel takes the pending payments and live subscriptions with it (events; its metadata on its event); cancelling again is cancellation_failed; reinstate, then mandate_not_inactive", async () => {
    const { mandate } = await payer()
    const first = (await newPayment(mandate)).id ?? ""
    const second = (await newPayment(mandate)).id ?? ""
    const subscription = (await client.subscriptions.create({ amount: 1500, currency: "GBP", interval_unit: "monthly", day_of_month: 1, links: { mandate } } as never)).id ?? ""
    const cancelled = await client.mandates.cancel(mandate, { metadata: { why: "moved" } } as never)
    expect(cancelled.status).toBe("cancelled")
    expect(cancelled.next_possible_charge_date).toBeNull()
    for (const payment of [first, second]) {
      expect((await client.payments.find(payment)).status).toBe("cancelled")
      const events = (await client.events.list({ payment, resource_type: "payments" } as never)).events
      expect(events.map((e) => [e.action, e.details?.cause])).toContainEqual(["cancelled", "mandate_cancelled"])
    }
    expect((await client.subscriptions.find(subscription)).status).toBe("cancelled")
    const subscriptionEvents = (await client.events.list({ subscription, resource_type: "subscriptions" } as never)).events
    expect(subscriptionEvents.map((e) => [e.action, e.details?.cause])).toContainEqual(["cancelled", "mandate_cancelled"])
    const cancellation = (await client.events.list({ mandate, resource_type: "mandates", action: "cancelled" } as never)).events
    expect(cancellation.map((e) => e.metadata)).toEqual([{ why: "moved" }])
    expect(cancelled.metadata).toEqual({})
    expect(await reasonOf(client.mandates.cancel(mandate, {} as never), InvalidStateError, 422)).toBe("cancellation_failed")
    expect(await reasonOf(newPayment(mandate), InvalidStateError, 422)).toBe("mandate_is_inactive")
    expect((await client.mandates.reinstate(mandate, {} as never)).status).toBe("pending_submission")
    expect(await reasonOf(client.mandates.reinstate(mandate, {} as never), InvalidStateError, 422)).toBe("mandate_not_inactive")
    expect(await actions("mandate", mandate, "mandates")).toEqual(["created", "cancelled", "resubmission_requested"])
  })

  it("a mandate cancelled by disabling its account, or whose customer was removed, is not reinstated", async () => {
    const disabled = await payer()
    await client.customerBankAccounts.disable(disabled.account)
    expect(await reasonOf(client.mandates.reinstate(disabled.mandate, {} as never), InvalidStateError, 422)).toBe("bank_account_disabled")
    const removed = await payer()
    await client.mandates.cancel(removed.mandate, {} as never)
    await client.customers.remove(removed.customer)
    expect(await reasonOf(client.mandates.reinstate(removed.mandate, {} as never), InvalidStateError, 422)).toBe("customer_data_removed")
    for (const mandate of [disabled.mandate, removed.mandate]) {
      expect((await client.mandates.find(mandate)).status).toBe("cancelled")
      expect(await actions("mandate", mandate, "mandates")).toEqual(["created", "cancelled"])
    }
  })
})

describe("payments", () => {
  it("create: charge_date defaults to the mandate's next possible date; an earlier one is refused; retry_if_possible kept", async () => {
    const { mandate } = await payer()
    const next = (await client.mandates.find(mandate)).next_possible_charge_date ?? ""
    const created = await newPayment(mandate, { description: "Gym", reference: "INV-1", retry_if_possible: true, metadata: { order: "1" } })
    expect((created.__response__ as { statusCode: number }).statusCode).toBe(201)
    expect(created).toMatchObject({
      amount: 2500, currency: "GBP", charge_date: next, status: "pending_submission", description: "Gym", reference: "INV-1",
      retry_if_possible: true, amount_refunded: 0, links: { mandate, creditor }
    })
    const earlier = await failure(newPayment(mandate, { charge_date: "2020-01-01" }))
    expect(earlier).toBeInstanceOf(ValidationFailedError)
    expect((earlier as ValidationFailedError).errors[0]).toMatchObject({ field: "charge_date" })
    const wrongCurrency = await failure(client.payments.create({ amount: 100, currency: "EUR", links: { mandate } } as never))
    expect((wrongCurrency as ValidationFailedError).errors[0]).toMatchObject({ field: "currency" })
    expect(await actions("payment", created.id ?? "", "payments")).toEqual(["created"])
  })

  it("a creation retried with its Idempotency-Key makes one payment (the client fetches the first on the 409)", async () => {
    const { mandate } = await payer()
    const body = { amount: 1234, currency: "GBP", links: { mandate } }
    const first = await client.payments.create(body as never, "core-payment-1")
    const again = await client.payments.create(body as never, "core-payment-1")
    expect(again.id).toBe(first.id)
    expect((await client.payments.list({ mandate } as never)).payments.map((p) => p.id)).toEqual([first.id])
  })

  it("app_fee only through a partner app's token", async () => {
    const { mandate } = await payer()
    const refused = await failure(newPayment(mandate, { app_fee: 10 }))
    expect(refused).toBeInstanceOf(ValidationFailedError)
    expect((refused as ValidationFailedError).errors[0]).toMatchObject({ field: "app_fee", message: "can only be given through a partner app's access token" })
    const partner = localClient(await server.token("OR0C0REPARTNER"), server.url)
    const partnerCreditor = (await partner.creditors.create({ name: "Partner Ltd", country_code: "GB", creditor_type: "company" } as never)).id ?? ""
    const app = { organisation: "OR0C0REPARTNER", creditor: partnerCreditor }
    const appToken = await server.runtime.runPromise(issueAccessToken({ id: "AT_core_app", organisation: ORG, scope: "read_write", app }))
    const asApp = localClient(appToken, server.url)
    expect((await asApp.payments.create({ amount: 2500, currency: "GBP", app_fee: 10, links: { mandate } } as never)).app_fee).toBe(10)
  })

  it("update metadata; cancel (its metadata on the event), then cancellation_failed; retry of a payment that has not failed is refused", async () => {
    const { mandate } = await payer()
    const id = (await newPayment(mandate)).id ?? ""
    expect((await client.payments.update(id, { metadata: { order: "2" } } as never)).metadata).toEqual({ order: "2" })
    expect(await reasonOf(client.payments.retry(id, {} as never), InvalidStateError, 422)).toBe("retry_failed")
    const cancelled = await client.payments.cancel(id, { metadata: { why: "duplicate" } } as never)
    expect(cancelled).toMatchObject({ status: "cancelled", metadata: { order: "2" } })
    const cancellation = (await client.events.list({ payment: id, resource_type: "payments", action: "cancelled" } as never)).events
    expect(cancellation.map((e) => e.metadata)).toEqual([{ why: "duplicate" }])
    expect(await reasonOf(client.payments.cancel(id, {} as never), InvalidStateError, 422)).toBe("cancellation_failed")
    expect(await actions("payment", id, "payments")).toEqual(["created", "cancelled"])
  })
})

describe("refunds", () => {
  it("a payment not yet collected cannot be refunded; update of an unknown refund is 404", async () => {
    const { mandate } = await payer()
    const payment = (await newPayment(mandate)).id ?? ""
    const refused = client.refunds.create({ amount: 100, total_amount_confirmation: 100, links: { payment } } as never)
    expect(await reasonOf(refused, InvalidStateError, 422)).toBe("refund_payment_invalid_state")
    expect(await reasonOf(client.refunds.update("RF000000000000", { metadata: {} } as never), InvalidApiUsageError, 404)).toBe("resource_not_found")
  })
})
