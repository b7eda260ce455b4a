import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ApiError, InvalidStateError, ValidationFailedError } from "gocardless-nodejs"
import { AppAttributionRepository, type PartnerApp } from "@paykit/engine"
import { issueAccessToken } from "../src/index.ts"
import { failure, localClient, startServer, type TestServer } from "./harness.ts"

/**
 * Partner apps through the official client: a token issued to an app makes the engine attribute
 * what it creates to the app (`CallingApp`), and only such a token may name an `app_fee`; any
 * other token's `app_fee` is a 422 on the field, before anything is created.
 */

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server.close()
})

const MERCHANT = "OR0000MERCHANT"
const PARTNER = "OR00000PARTNER"

const appToken = (id: string, app: PartnerApp) =>
  server.runtime.runPromise(issueAccessToken({ id, organisation: MERCHANT, scope: "read_write", app }))

const attributionOf = (id: string) =>
  server.runtime.runPromise(Effect.flatMap(AppAttributionRepository, (repo) =>
    Effect.match(repo.get(MERCHANT, id), { onFailure: () => null, onSuccess: (v) => v.resource.app })))

const expectAppFeeRefused = (error: unknown, field: string, pointer: string) => {
  expect(error).toBeInstanceOf(ValidationFailedError)
  expect((error as ApiError).code).toBe(422)
  expect((error as ValidationFailedError).errors).toEqual([
    expect.objectContaining({ field, request_pointer: pointer, message: "can only be given through a partner app's access token" })
  ])
}

describe("partner apps", () => {
  let own: ReturnType<typeof localClient>
  let asApp: ReturnType<typeof localClient>
  let app: PartnerApp
  let mandate = ""
  const subscription = (extra: Record<string, unknown> = {}) =>
    ({ amount: 2000, currency: "GBP", interval_unit: "monthly", day_of_month: 1, links: { mandate }, ...extra }) as never

  beforeAll(async () => {
    const partner = localClient(await server.token(PARTNER), server.url)
    const partnerCreditor = await partner.creditors.create({ name: "Partner Apps Ltd", country_code: "GB", creditor_type: "company" } as never)
    app = { organisation: PARTNER, creditor: partnerCreditor.id ?? "" }
    own = localClient(await server.token(MERCHANT), server.url)
    asApp = localClient(await appToken("AT_app", app), server.url)
    await own.creditors.create({ name: "Acme Gym", country_code: "GB", creditor_type: "company" } as never)
    const request = await own.billingRequests.create({ mandate_request: { currency: "GBP", scheme: "bacs" } } as never)
    await own.billingRequests.collectCustomerDetails(request.id ?? "", {
      customer: { email: "ada@example.com", given_name: "Ada", family_name: "Lovelace" },
      customer_billing_detail: { address_line1: "1 Analytical Row", city: "London", postal_code: "N1 1AA", country_code: "GB" }
    } as never)
    await own.billingRequests.collectBankAccount(request.id ?? "", {
      account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB"
    } as never)
    await own.billingRequests.confirmPayerDetails(request.id ?? "", {} as never)
    mandate = (await own.billingRequests.fulfil(request.id ?? "", {} as never)).mandate_request?.links?.mandate ?? ""
    expect(mandate).toMatch(/^MD/)
  })

  it("an app's token creates a subscription with an app_fee, attributed to the app", async () => {
    const created = await asApp.subscriptions.create(subscription({ app_fee: 200 }))
    expect(created.app_fee).toBe(200)
    expect(await attributionOf(created.id ?? "")).toEqual(app)
    // An app may change the fee of what it created.
    expect((await asApp.subscriptions.update(created.id ?? "", { app_fee: 150 } as never)).app_fee).toBe(150)
  })

  it("the organisation's own token: app_fee is refused with 422 on the field; without it nothing is attributed", async () => {
    expectAppFeeRefused(await failure(own.subscriptions.create(subscription({ app_fee: 200 }))), "app_fee", "/subscriptions/app_fee")
    const plain = await own.subscriptions.create(subscription())
    expect(plain.app_fee).toBeNull()
    expect(await attributionOf(plain.id ?? "")).toBeNull()
    // A null fee is no fee.
    expect((await own.subscriptions.create(subscription({ app_fee: null }))).app_fee).toBeNull()
    expectAppFeeRefused(await failure(own.subscriptions.update(plain.id ?? "", { app_fee: 10 } as never)), "app_fee", "/subscriptions/app_fee")
    expect((await own.subscriptions.find(plain.id ?? "")).app_fee).toBeNull()
  })

  it("billing requests: payment_request.app_fee only through an app's token", async () => {
    const body = { payment_request: { amount: 1000, currency: "GBP", app_fee: 50, description: "Kit" } } as never
    expectAppFeeRefused(await failure(own.billingRequests.create(body)), "payment_request.app_fee", "/billing_requests/payment_request/app_fee")
    const created = await asApp.billingRequests.create(body)
    expect(created.payment_request?.app_fee).toBe(50)
  })

  it("an app whose partner creditor does not exist is refused by the engine (422 partner_creditor_not_found)", async () => {
    const orphan = localClient(await appToken("AT_orphan", { organisation: PARTNER, creditor: "CR_missing" }), server.url)
    const error = await failure(orphan.subscriptions.create(subscription({ app_fee: 100 })))
    expect(error).toBeInstanceOf(InvalidStateError)
    expect((error as InvalidStateError).errors[0]?.reason).toBe("partner_creditor_not_found")
  })
})
