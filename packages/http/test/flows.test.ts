import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiError, InvalidApiUsageError, InvalidStateError, ValidationFailedError } from "gocardless-nodejs"
import type { Timestamp } from "@paykit/core"
import { type CustomerNotification, CustomerNotificationRepository } from "@paykit/engine"
import { ADA, DUAL, UK_ACCOUNT } from "./fixtures.ts"
import { failure, localClient, payerPageUrl, startServer, type TestServer } from "./harness.ts"

/**
 * Issue 18's flows through the official client, unchanged: billing request flows, templates,
 * `create_with_actions`, redirect flows, bank account holder verifications and customer
 * notifications, each with its happy path and its refusals as the client's error classes.
 */

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server.close()
})


const expectError = (error: unknown, kind: abstract new (...args: never) => ApiError, code: number, reason?: string) => {
  expect(error).toBeInstanceOf(kind)
  expect((error as ApiError).code).toBe(code)
  if (reason !== undefined) expect((error as ApiError).errors.map((e) => (e as { reason?: string }).reason)).toContain(reason)
}

const statusOf = (answer: { readonly __response__: unknown }): number => (answer.__response__ as { statusCode: number }).statusCode

const clientFor = async (org: string) => {
  const client = localClient(await server.token(org), server.url)
  await client.creditors.create({ name: `Creditor of ${org}`, country_code: "GB", creditor_type: "company" } as never)
  return client
}

describe("billing request flows", () => {
  it("create: every field kept, the real API's defaults, authorisation_url under the hosted pages; flow_created recorded", async () => {
    const client = await clientFor("OR0000000F10WS")
    const br = await client.billingRequests.create({ mandate_request: { currency: "GBP", scheme: "bacs" } } as never)
    const flow = await client.billingRequestFlows.create({
      links: { billing_request: br.id },
      redirect_uri: "https://acme.example/done",
      exit_uri: "https://acme.example/exit",
      language: "fr",
      lock_currency: true,
      prefilled_customer: { given_name: "Ada", email: "ada@example.com" },
      prefilled_bank_account: { account_type: "savings" },
      show_redirect_buttons: true
    } as never)
    expect(statusOf(flow)).toBe(201)
    expect(flow.id).toMatch(/^BRF/)
    expect(flow.authorisation_url).toBe(payerPageUrl("billingRequestFlow", "OR0000000F10WS", flow.id ?? ""))
    expect(flow).toMatchObject({
      auto_fulfil: true, lock_currency: true, lock_bank_account: false, lock_customer_details: false, language: "fr",
      redirect_uri: "https://acme.example/done", exit_uri: "https://acme.example/exit", session_token: null,
      show_redirect_buttons: true, show_success_redirect_button: false, skip_success_screen: false, customer_details_captured: false,
      prefilled_bank_account: { account_type: "savings" }, links: { billing_request: br.id }
    })
    expect(flow.prefilled_customer).toMatchObject({ given_name: "Ada", email: "ada@example.com", family_name: null })
    expect(Date.parse(flow.expires_at ?? "") - Date.parse(flow.created_at ?? "")).toBe(7 * 24 * 60 * 60 * 1000)
    const events = await client.events.list({ billing_request: br.id } as never)
    expect(events.events.map((e) => e.action)).toContain("flow_created")
  })

  it("initialise gives a fresh session token each time; an unknown flow is 404", async () => {
    const client = await clientFor("OR000F10WS1N1T")
    const br = await client.billingRequests.create({ mandate_request: { currency: "GBP" } } as never)
    const flow = await client.billingRequestFlows.create({ links: { billing_request: br.id } } as never)
    const first = await client.billingRequestFlows.initialise(flow.id)
    const second = await client.billingRequestFlows.initialise(flow.id)
    expect(first.session_token).toMatch(/^sess_/)
    expect(second.session_token).toMatch(/^sess_/)
    expect(second.session_token).not.toBe(first.session_token)
    expectError(await failure(client.billingRequestFlows.initialise("BRF000000000000")), InvalidApiUsageError, 404)
  })

  it("refusals: another organisation's or an unknown billing request, a closed one, a relative redirect_uri", async () => {
    const client = await clientFor("ORF10WSREFVSA1")
    const other = await clientFor("OR00F10WS0THER")
    const theirs = await other.billingRequests.create({ mandate_request: { currency: "GBP" } } as never)
    expectError(await failure(client.billingRequestFlows.create({ links: { billing_request: theirs.id } } as never)), ValidationFailedError, 422)
    expectError(await failure(client.billingRequestFlows.create({ links: { billing_request: "BRQ000000000000" } } as never)), ValidationFailedError, 422)
    const br = await client.billingRequests.create({ mandate_request: { currency: "GBP" } } as never)
    expectError(await failure(client.billingRequestFlows.create({ links: { billing_request: br.id }, redirect_uri: "/done" } as never)), ValidationFailedError, 422)
    await client.billingRequests.cancel(br.id, {} as never)
    expectError(await failure(client.billingRequestFlows.create({ links: { billing_request: br.id } } as never)), InvalidStateError, 422, "billing_request_not_pending")
  })
})

describe("billing request templates", () => {
  it("create, get, list with its filter, update; the rules between fields hold on create and on the updated whole", async () => {
    const client = await clientFor("OR000TEMP1ATES")
    const template = await client.billingRequestTemplates.create({
      name: "Gym membership",
      mandate_request_currency: "GBP",
      mandate_request_scheme: "bacs",
      payment_request_amount: "2500",
      payment_request_currency: "GBP",
      payment_request_scheme: "faster_payments",
      redirect_uri: "https://acme.example/welcome",
      metadata: { plan: "gold" }
    } as never)
    expect(statusOf(template)).toBe(201)
    expect(template.id).toMatch(/^BRT/)
    expect(template.authorisation_url).toMatch(new RegExp(`^https://pay\\.paykit\\.example/pages/OR\\w+/billing_request_templates/${template.id ?? ""}/[\\w-]{22}$`))
    expect(template.payment_request_amount).toBe("2500")
    const mandateOnly = await client.billingRequestTemplates.create({ name: "Mandate only", mandate_request_currency: "EUR" } as never)
    expect((await client.billingRequestTemplates.find(template.id ?? "")).name).toBe("Gym membership")
    const fps = await client.billingRequestTemplates.list({ payment_request_scheme: "faster_payments" } as never)
    expect(fps.billing_request_templates.map((t) => t.id)).toEqual([template.id])
    expect((await client.billingRequestTemplates.list()).billing_request_templates.map((t) => t.id)).toEqual([mandateOnly.id, template.id])
    const updated = await client.billingRequestTemplates.update(template.id ?? "", { name: "Gym (annual)", payment_request_amount: 30000 } as never)
    expect(updated).toMatchObject({ name: "Gym (annual)", payment_request_amount: "30000", mandate_request_scheme: "bacs" })
    expect(Date.parse(updated.updated_at ?? "")).toBeGreaterThanOrEqual(Date.parse(template.updated_at ?? ""))
    expectError(await failure(client.billingRequestTemplates.create({ mandate_request_currency: "GBP", mandate_request_scheme: "sepa_core" } as never)), ValidationFailedError, 422)
    expectError(await failure(client.billingRequestTemplates.create({ name: "Nothing requested" } as never)), ValidationFailedError, 422)
    expectError(await failure(client.billingRequestTemplates.create({ payment_request_amount: "0", payment_request_currency: "GBP" } as never)), ValidationFailedError, 422)
    // EUR payments are not on Faster Payments: the change is checked with the fields the template keeps.
    expectError(await failure(client.billingRequestTemplates.update(template.id ?? "", { payment_request_currency: "EUR" } as never)), ValidationFailedError, 422)
    expectError(await failure(client.billingRequestTemplates.list({ payment_request_scheme: "cheque" } as never)), ValidationFailedError, 422)
    expectError(await failure(client.billingRequestTemplates.find("BRT000000000000")), InvalidApiUsageError, 404)
  })
})

describe("billing requests created with actions", () => {
  it("the actions run in the payer's order: details, account and confirmation make it ready to fulfil", async () => {
    const client = await clientFor("OR0W1THACT10NS")
    const answer = await client.billingRequestWithActions.createWithActions({
      mandate_request: { currency: "GBP", scheme: "bacs" },
      metadata: { order: "7" },
      actions: { collect_customer_details: ADA, collect_bank_account: UK_ACCOUNT, confirm_payer_details: {} }
    } as never)
    expect(statusOf(answer)).toBe(201)
    expect(answer.billing_requests.status).toBe("ready_to_fulfil")
    expect(answer.bank_authorisations).toBeNull()
    const stored = await client.billingRequests.find(answer.billing_requests.id ?? "")
    expect(stored.status).toBe("ready_to_fulfil")
    expect(stored.metadata).toEqual({ order: "7" })
  })

  it("with select_institution and create_bank_authorisation the bank authorisation comes with it", async () => {
    const client = await clientFor("ORW1THACT10NSB")
    const banks = await client.institutions.list({ country_code: "GB" } as never)
    const institution = banks.institutions.find((i) => i.name === "Monzo")?.id ?? ""
    const answer = await client.billingRequestWithActions.createWithActions({
      ...DUAL,
      actions: {
        collect_customer_details: ADA, collect_bank_account: UK_ACCOUNT, confirm_payer_details: {},
        select_institution: { institution, country_code: "GB" },
        create_bank_authorisation: true,
        bank_authorisation_redirect_uri: "https://acme.example/back"
      }
    } as never)
    const authorisation = answer.bank_authorisations
    expect(authorisation?.id).toMatch(/^BAU/)
    expect(authorisation?.redirect_uri).toBe("https://acme.example/back")
    expect(authorisation?.links?.billing_request).toBe(answer.billing_requests.id)
  })

  it("an idempotency key used again creates nothing and names the billing request it made", async () => {
    const org = "ORW1THACT10NSK"
    const client = await clientFor(org)
    const token = await server.token(org)
    // The official client answers this conflict by calling a `fetch` it does not define for this
    // service (a TypeError of the client), so the two requests are sent as it sends them, by hand.
    const send = () =>
      fetch(`${server.url}/billing_requests/create_with_actions`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "gocardless-version": "2015-07-06", "content-type": "application/json", "idempotency-key": "KEY-1" },
        body: JSON.stringify({ billing_request_with_actions: { mandate_request: { currency: "GBP", scheme: "bacs" }, actions: { collect_customer_details: ADA } } })
      })
    const made = await send()
    expect(made.status).toBe(201)
    const id = ((await made.json()) as { billing_request_with_actions: { billing_requests: { id: string } } }).billing_request_with_actions.billing_requests.id
    const again = await send()
    expect(again.status).toBe(409)
    const error = ((await again.json()) as { error: { errors: ReadonlyArray<{ reason: string; links?: unknown }> } }).error.errors[0]
    expect(error).toMatchObject({ reason: "idempotent_creation_conflict", links: { conflicting_resource_id: id } })
    expect((await client.billingRequests.list()).billing_requests.map((b) => b.id)).toEqual([id])
  })

  it("a refused action undoes the whole call: no billing request is left behind", async () => {
    const client = await clientFor("ORW1THACT10NSV")
    const before = (await client.billingRequests.list()).billing_requests.length
    // The bank authorisation needs the institution chosen first.
    const refused = await failure(client.billingRequestWithActions.createWithActions({
      ...DUAL,
      actions: { collect_customer_details: ADA, collect_bank_account: UK_ACCOUNT, confirm_payer_details: {}, create_bank_authorisation: true }
    } as never))
    expectError(refused, InvalidStateError, 422)
    expect((await client.billingRequests.list()).billing_requests.length).toBe(before)
    expectError(await failure(client.billingRequestWithActions.createWithActions({ mandate_request: { currency: "GBP", scheme: "sepa_core" } } as never)), ValidationFailedError, 422)
    // A refusal an action's use case makes against stored data points at that action in this body.
    const unknownBank = await failure(client.billingRequestWithActions.createWithActions({ ...DUAL, actions: { select_institution: { institution: "nope", country_code: "GB" } } } as never))
    expectError(unknownBank, ValidationFailedError, 422)
    expect((unknownBank as ApiError).errors[0]).toMatchObject({
      field: "actions.select_institution.institution",
      request_pointer: "/billing_request_with_actions/actions/select_institution/institution"
    })
    const otherCreditor = await failure(client.billingRequestWithActions.createWithActions({ mandate_request: { currency: "GBP" }, links: { creditor: "CR000000000009" } } as never))
    expect((otherCreditor as ApiError).errors[0]).toMatchObject({ request_pointer: "/billing_request_with_actions/links/creditor" })
    expect((await client.billingRequests.list()).billing_requests.length).toBe(before)
  })
})

describe("redirect flows", () => {
  it("create on a billing request and its flow; complete once the payer's details are in: customer, bank account and mandate", async () => {
    const client = await clientFor("OR0000RED1RECT")
    const flow = await client.redirectFlows.create({
      description: "Wine boxes",
      session_token: "SESS_1",
      success_redirect_url: "https://acme.example/pay/confirm",
      scheme: "bacs",
      prefilled_customer: { given_name: "Ada", language: "en" },
      metadata: { basket: "12" }
    } as never)
    expect(statusOf(flow)).toBe(201)
    expect(flow.id).toMatch(/^RE/)
    const br = flow.links?.billing_request ?? ""
    expect(br).toMatch(/^BRQ/)
    expect(flow.redirect_url).toBe(payerPageUrl("redirectFlow", "OR0000RED1RECT", flow.id ?? ""))
    expect(flow).toMatchObject({ description: "Wine boxes", scheme: "bacs", session_token: "SESS_1", metadata: { basket: "12" } })
    expect(flow.confirmation_url).toBeUndefined()
    // The billing request flow the redirect flow's pages follow, named by its billing request's `flow_created` event.
    const created = (await client.events.list({ billing_request: br } as never)).events.find((e) => e.action === "flow_created")
    const pageFlow = await client.billingRequestFlows.initialise(created?.links?.billing_request_flow ?? "")
    expect(pageFlow).toMatchObject({ language: "en", redirect_uri: "https://acme.example/pay/confirm", auto_fulfil: false, links: { billing_request: br } })
    expect(pageFlow.prefilled_customer).toMatchObject({ given_name: "Ada" })
    expectError(await failure(client.redirectFlows.complete(flow.id ?? "", { session_token: "SESS_1" })), InvalidStateError, 422, "redirect_flow_incomplete")
    // What the hosted page would do, through the billing request's own actions (docs/flows.md).
    await client.billingRequests.collectCustomerDetails(br, ADA as never)
    await client.billingRequests.collectBankAccount(br, UK_ACCOUNT as never)
    await client.billingRequests.confirmPayerDetails(br, {} as never)
    expectError(await failure(client.redirectFlows.complete(flow.id ?? "", { session_token: "SESS_2" })), InvalidApiUsageError, 400, "bad_request")
    const completed = await client.redirectFlows.complete(flow.id ?? "", { session_token: "SESS_1" })
    expect(completed.links?.mandate).toMatch(/^MD/)
    expect(completed.links?.customer).toMatch(/^CU/)
    expect(completed.links?.customer_bank_account).toMatch(/^BA/)
    expect(completed.confirmation_url).toBe(payerPageUrl("redirectFlowConfirmation", "OR0000RED1RECT", flow.id ?? ""))
    const mandate = await client.mandates.find(completed.links?.mandate ?? "")
    expect(completed.mandate_reference).toBe(mandate.reference)
    expect(mandate.links?.customer_bank_account).toBe(completed.links?.customer_bank_account)
    expect((await client.billingRequests.find(br)).status).toBe("fulfilled")
    expect(await client.redirectFlows.find(flow.id ?? "")).toMatchObject({ links: completed.links })
    expectError(await failure(client.redirectFlows.complete(flow.id ?? "", { session_token: "SESS_1" })), InvalidStateError, 422, "redirect_flow_already_completed")
  })

  it("refusals: no session token or success URL, a scheme the client does not know, an unknown flow", async () => {
    const client = await clientFor("ORRED1RECTREFV")
    expectError(await failure(client.redirectFlows.create({ success_redirect_url: "https://acme.example" } as never)), ValidationFailedError, 422)
    expectError(await failure(client.redirectFlows.create({ session_token: "S", success_redirect_url: "nope" } as never)), ValidationFailedError, 422)
    expectError(await failure(client.redirectFlows.create({ session_token: "S", success_redirect_url: "https://acme.example", scheme: "faster_payments" } as never)), ValidationFailedError, 422)
    const noIdentifier = await failure(client.redirectFlows.create({ session_token: "S", success_redirect_url: "https://acme.example", scheme: "sepa_core" } as never))
    expectError(noIdentifier, ValidationFailedError, 422)
    expect((noIdentifier as ApiError).errors[0]).toMatchObject({ request_pointer: "/redirect_flows/scheme" })
    expectError(await failure(client.redirectFlows.find("RE000000000000")), InvalidApiUsageError, 404)
    expectError(await failure(client.redirectFlows.complete("RE000000000000", { session_token: "S" })), InvalidApiUsageError, 404)
  })
})

describe("bank account holder verifications", () => {
  it("confirmation of payee on a customer bank account: the bank's answer kept; get; an unknown account refused", async () => {
    const client = await clientFor("OR00000000BAHV")
    const accountOf = async (name: string) => {
      const br = await client.billingRequests.create({ mandate_request: { currency: "GBP", scheme: "bacs" } } as never)
      await client.billingRequests.collectCustomerDetails(br.id, ADA as never)
      const collected = await client.billingRequests.collectBankAccount(br.id, { ...UK_ACCOUNT, account_holder_name: name } as never)
      return collected.links?.customer_bank_account ?? ""
    }
    const full = await client.bankAccountHolderVerifications.create({ type: "confirmation_of_payee", reference: "INV-42", links: { bank_account: await accountOf("Ada Lovelace") } })
    expect(statusOf(full)).toBe(201)
    expect(full).toMatchObject({ type: "confirmation_of_payee", status: "completed", result: "full_match", actual_account_name: null, reference: "INV-42" })
    expect(full.id).toMatch(/^BAHV/)
    expect(await client.bankAccountHolderVerifications.find(full.id)).toMatchObject({ result: "full_match", reference: "INV-42" })
    const partial = await client.bankAccountHolderVerifications.create({ type: "confirmation_of_payee", links: { bank_account: await accountOf("Ada Partial Lovelace") } } as never)
    expect(partial).toMatchObject({ result: "partial_match", actual_account_name: "ADA LOVELACE" })
    expectError(await failure(client.bankAccountHolderVerifications.create({ type: "confirmation_of_payee", links: { bank_account: "BA000000000000" } } as never)), ValidationFailedError, 422)
    expectError(await failure(client.bankAccountHolderVerifications.create({ type: "other", links: { bank_account: "BA000000000000" } } as never)), ValidationFailedError, 422)
    expectError(await failure(client.bankAccountHolderVerifications.find("BAHV000000000000")), InvalidApiUsageError, 404)
  })
})

describe("customer notifications", () => {
  it("handle marks it handled; handling it again is 422 already_actioned; an unknown one is 404", async () => {
    const org = "ORN0T1F1CAT10N"
    const client = localClient(await server.token(org), server.url)
    // paykit does not create notifications yet (docs/flows.md): one is stored as the engine would keep it.
    const notification: CustomerNotification = {
      id: "PCN000000000001",
      created_at: "2026-11-24T09:00:00.000Z" as Timestamp,
      type: "payment_created",
      action_taken: null,
      action_taken_at: null,
      action_taken_by: null,
      links: { customer: "CU000000000001", event: "EV000000000001", payment: "PM000000000001" }
    }
    await server.runtime.runPromise(Effect.flatMap(CustomerNotificationRepository, (repo) => Effect.orDie(repo.insert(org, notification))))
    const handled = await client.customerNotifications.handle(notification.id)
    expect(handled).toMatchObject({ id: notification.id, action_taken: "handled", action_taken_by: org, type: "payment_created" })
    expect(handled.action_taken_at).toMatch(/^\d{4}-/)
    expectError(await failure(client.customerNotifications.handle(notification.id)), InvalidStateError, 422, "already_actioned")
    expectError(await failure(client.customerNotifications.handle("PCN000000000009")), InvalidApiUsageError, 404)
  })
})
