import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import { Events, HostedPagesKey, Mandates, NAME_MISMATCH_MESSAGE, pageKeyOf, Payments } from "@paykit/engine"
import { ADA, bankAuthorisationsAtEdge, billingRequestsAtEdge, ORG, runBilling, setUpCreditor, UK_ACCOUNT } from "./billing-fixtures.ts"

const statusOf = (actions: ReadonlyArray<{ readonly type: string; readonly status: string }>, type: string) =>
  actions.find((a) => a.type === type)?.status

const failureOf = <A, E>(effect: Effect.Effect<A, E, never>) => Effect.flip(effect)

describe("billing requests: a direct debit mandate", () => {
  it("goes through every action to a mandate, with the real API's links and events", async () => {
    const result = await runBilling(Effect.gen(function*() {
      yield* setUpCreditor
      const brs = yield* billingRequestsAtEdge
      const created = yield* brs.create(ORG, { mandate_request: { currency: "GBP", scheme: "bacs" }, metadata: { order: "42" } })
      const afterDetails = yield* brs.collectCustomerDetails(ORG, created.id, ADA)
      const afterAccount = yield* brs.collectBankAccount(ORG, created.id, UK_ACCOUNT)
      const afterConfirm = yield* brs.confirmPayerDetails(ORG, created.id, {})
      const fulfilled = yield* brs.fulfil(ORG, created.id, {})
      const mandate = yield* (yield* Mandates).get(ORG, fulfilled.links.mandate_request_mandate ?? "")
      const events = yield* (yield* Events).list(ORG, { billing_request: created.id, limit: 50 })
      return { created, afterDetails, afterAccount, afterConfirm, fulfilled, mandate, events }
    }))
    const { created, afterDetails, afterAccount, afterConfirm, fulfilled, mandate } = result
    expect(created.status).toBe("pending")
    expect(created.id.startsWith("BRQ")).toBe(true)
    expect(created.actions.map((a) => a.type)).toEqual(["choose_currency", "collect_customer_details", "collect_bank_account", "confirm_payer_details"])
    expect(created.actions.find((a) => a.type === "collect_customer_details")?.collect_customer_details?.incomplete_fields).toEqual({
      customer: ["email", "given_name", "family_name"],
      customer_billing_detail: ["address_line1", "city", "postal_code", "country_code"]
    })
    expect(created.resources.customer.id).toBe(created.links.customer)
    expect(created.resources.customer_billing_detail.id.startsWith("CBD")).toBe(true)
    expect(statusOf(afterDetails.actions, "collect_customer_details")).toBe("completed")
    expect(afterDetails.resources.customer.email).toBe("ada@example.com")
    expect(afterDetails.resources.customer_billing_detail.city).toBe("London")
    expect(statusOf(afterAccount.actions, "collect_bank_account")).toBe("completed")
    expect(afterAccount.resources.customer_bank_account?.account_number_ending).toBe("11")
    expect(afterConfirm.status).toBe("ready_to_fulfil")
    expect(fulfilled.status).toBe("fulfilled")
    expect(mandate.scheme).toBe("bacs")
    expect(mandate.links.customer_bank_account).toBe(afterAccount.links.customer_bank_account)
    expect(fulfilled.mandate_request?.links.mandate).toBe(mandate.id)
    const actions = result.events.items.filter((e) => e.resource_type === "billing_requests").map((e) => e.action).reverse()
    expect(actions).toEqual(["created", "collect_customer_details", "collect_bank_account", "payer_details_confirmed", "fulfilled"])
  })

  it("refuses fulfil while required actions are pending and changes nothing", async () => {
    const [error, after] = await runBilling(Effect.gen(function*() {
      yield* setUpCreditor
      const brs = yield* billingRequestsAtEdge
      const created = yield* brs.create(ORG, { mandate_request: { currency: "GBP" } })
      yield* brs.collectCustomerDetails(ORG, created.id, ADA)
      const error = yield* failureOf(brs.fulfil(ORG, created.id, {}))
      return [error, yield* brs.get(ORG, created.id)] as const
    }))
    expect(error._tag).toBe("InvalidState")
    expect(after.status).toBe("pending")
  })

  it("lists requests newest first, filtered by status and customer", async () => {
    const { all, ready, byCustomer, first } = await runBilling(Effect.gen(function*() {
      yield* setUpCreditor
      const brs = yield* billingRequestsAtEdge
      const first = yield* brs.create(ORG, { mandate_request: { currency: "GBP" } })
      yield* TestClock.adjust("1 second")
      const second = yield* brs.create(ORG, { mandate_request: { currency: "GBP" } })
      yield* brs.collectCustomerDetails(ORG, second.id, ADA)
      yield* brs.collectBankAccount(ORG, second.id, UK_ACCOUNT)
      yield* brs.confirmPayerDetails(ORG, second.id, {})
      return {
        first,
        all: yield* brs.list(ORG, { limit: 1 }),
        ready: yield* brs.list(ORG, { status: "ready_to_fulfil" }),
        byCustomer: yield* brs.list(ORG, { customer: first.links.customer })
      }
    }))
    expect(all.items).toHaveLength(1)
    expect(all.after).not.toBeNull()
    expect(ready.items.map((b) => b.status)).toEqual(["ready_to_fulfil"])
    expect(byCustomer.items.map((b) => b.id)).toEqual([first.id])
  })

  it("gives 422 on account_holder_name when confirmation of payee finds no match", async () => {
    const error = await runBilling(Effect.gen(function*() {
      yield* setUpCreditor
      const brs = yield* billingRequestsAtEdge
      const created = yield* brs.create(ORG, { mandate_request: { currency: "GBP" } })
      yield* brs.collectCustomerDetails(ORG, created.id, ADA)
      return yield* failureOf(brs.collectBankAccount(ORG, created.id, { ...UK_ACCOUNT, account_holder_name: "No Match Ltd" }))
    }))
    expect(error._tag).toBe("ValidationFailed")
    if (error._tag !== "ValidationFailed") return
    expect(error.errors).toEqual([expect.objectContaining({ field: "account_holder_name", message: NAME_MISMATCH_MESSAGE })])
  })

  it("collects customer details only when every field the scheme needs is there", async () => {
    const error = await runBilling(Effect.gen(function*() {
      yield* setUpCreditor
      const brs = yield* billingRequestsAtEdge
      const created = yield* brs.create(ORG, { mandate_request: { currency: "GBP" } })
      return yield* failureOf(brs.collectCustomerDetails(ORG, created.id, { customer: ADA.customer }))
    }))
    expect(error._tag).toBe("ValidationFailed")
    if (error._tag !== "ValidationFailed") return
    expect(error.errors.map((e) => e.field)).toEqual([
      "customer_billing_detail.address_line1", "customer_billing_detail.city", "customer_billing_detail.postal_code", "customer_billing_detail.country_code"
    ])
  })

  it("cancels a pending request and refuses actions afterwards", async () => {
    const [cancelled, error] = await runBilling(Effect.gen(function*() {
      yield* setUpCreditor
      const brs = yield* billingRequestsAtEdge
      const created = yield* brs.create(ORG, { mandate_request: { currency: "GBP" } })
      const cancelled = yield* brs.cancel(ORG, created.id, {})
      return [cancelled, yield* failureOf(brs.collectCustomerDetails(ORG, created.id, ADA))] as const
    }))
    expect(cancelled.status).toBe("cancelled")
    expect(error._tag).toBe("InvalidState")
  })

  it("changes the currency of a mandate-only request and keeps a scheme only when the currency has it", async () => {
    const chosen = await runBilling(Effect.gen(function*() {
      yield* setUpCreditor
      const brs = yield* billingRequestsAtEdge
      const created = yield* brs.create(ORG, { mandate_request: { currency: "GBP", scheme: "bacs" } })
      return yield* brs.chooseCurrency(ORG, created.id, { currency: "EUR" })
    }))
    expect(chosen.mandate_request?.currency).toBe("EUR")
    expect(chosen.mandate_request?.scheme).toBeNull()
    expect(statusOf(chosen.actions, "choose_currency")).toBe("completed")
  })
})

const DUAL = {
  mandate_request: { currency: "GBP", scheme: "bacs" },
  payment_request: { amount: 2500, currency: "GBP", scheme: "faster_payments", description: "First month" }
}

describe("billing requests: a payment request with a bank authorisation", () => {
  it("goes through institution choice and bank authorisation to a mandate and a payment", async () => {
    const r = await runBilling(Effect.gen(function*() {
      yield* setUpCreditor
      const brs = yield* billingRequestsAtEdge
      const bas = yield* bankAuthorisationsAtEdge
      const created = yield* brs.create(ORG, DUAL)
      const choice = yield* brs.institutions(ORG, created.id, { country_code: "GB", search: "monzo" })
      yield* brs.collectCustomerDetails(ORG, created.id, ADA)
      yield* brs.collectBankAccount(ORG, created.id, UK_ACCOUNT)
      yield* brs.confirmPayerDetails(ORG, created.id, {})
      const refusedEarly = yield* failureOf(bas.create(ORG, { links: { billing_request: created.id } }))
      const chosen = yield* brs.selectInstitution(ORG, created.id, { institution: choice[0]?.id ?? "", country_code: "GB" })
      const authorisation = yield* bas.create(ORG, { links: { billing_request: created.id } })
      const visited = yield* bas.visit(ORG, authorisation.id)
      const authorised = yield* bas.authorise(ORG, authorisation.id)
      const ready = yield* brs.get(ORG, created.id)
      const fulfilled = yield* brs.fulfil(ORG, created.id, {})
      const payment = yield* (yield* Payments).get(ORG, fulfilled.links.payment_request_payment ?? "")
      const events = yield* (yield* Events).list(ORG, { bank_authorisation: authorisation.id, limit: 50 })
      return { created, choice, refusedEarly, chosen, authorisation, visited, authorised, ready, fulfilled, payment, events }
    }))
    expect(r.created.actions.map((a) => a.type)).toEqual([
      "choose_currency", "collect_customer_details", "collect_bank_account", "confirm_payer_details", "select_institution", "bank_authorisation"
    ])
    expect(r.choice.map((i) => i.name)).toEqual(["Monzo"])
    expect(r.refusedEarly._tag).toBe("InvalidState")
    expect(r.chosen.links.institution).toBe(r.choice[0]?.id)
    expect(r.authorisation.authorisation_type).toBe("payment")
    // The payer's page under its key (the default key: this process's).
    const pageKey = pageKeyOf(Effect.runSync(Effect.gen(function*() { return yield* HostedPagesKey })), "bank_authorisations", ORG, r.authorisation.id)
    expect(r.authorisation.url).toBe(`/pages/${ORG}/bank_authorisations/${r.authorisation.id}/${pageKey}`)
    expect(r.authorisation.qr_code_url).toBe(`/pages/${ORG}/bank_authorisations/${r.authorisation.id}/${pageKey}/qr.png`)
    expect(Date.parse(r.authorisation.expires_at) - Date.parse(r.authorisation.created_at)).toBe(15 * 60 * 1000)
    expect(r.authorisation.links.institution).toBe(r.choice[0]?.id)
    expect(r.visited.last_visited_at).not.toBeNull()
    expect(r.authorised.authorised_at).not.toBeNull()
    expect(r.ready.status).toBe("ready_to_fulfil")
    expect(statusOf(r.ready.actions, "bank_authorisation")).toBe("completed")
    expect(r.fulfilled.status).toBe("fulfilled")
    expect(r.payment.amount).toBe(2500)
    expect(r.payment.links.mandate).toBe(r.fulfilled.links.mandate_request_mandate)
    expect(r.fulfilled.payment_request?.links.payment).toBe(r.payment.id)
    const seen = r.events.items.map((e) => `${e.resource_type}:${e.action}`).reverse()
    expect(seen).toEqual([
      "bank_authorisations:BANK_AUTHORISATION_VISITED", "billing_requests:bank_authorisation_visited",
      "bank_authorisations:BANK_AUTHORISATION_AUTHORISED", "billing_requests:bank_authorisation_authorised",
      "billing_requests:fulfilled"
    ])
  })

  it("refuses choose_currency when a payment request exists", async () => {
    const error = await runBilling(Effect.gen(function*() {
      yield* setUpCreditor
      const brs = yield* billingRequestsAtEdge
      const created = yield* brs.create(ORG, DUAL)
      return yield* failureOf(brs.chooseCurrency(ORG, created.id, { currency: "EUR" }))
    }))
    expect(error._tag).toBe("InvalidState")
    if (error._tag !== "InvalidState") return
    expect(error.reason).toBe("choose_currency_not_supported")
  })

  it("falls back to direct debit only when fallback is enabled", async () => {
    const r = await runBilling(Effect.gen(function*() {
      yield* setUpCreditor
      const brs = yield* billingRequestsAtEdge
      const disabled = yield* brs.create(ORG, DUAL)
      const refused = yield* failureOf(brs.fallback(ORG, disabled.id))
      const enabled = yield* brs.create(ORG, { ...DUAL, fallback_enabled: true })
      const fell = yield* brs.fallback(ORG, enabled.id)
      yield* brs.collectCustomerDetails(ORG, enabled.id, ADA)
      yield* brs.collectBankAccount(ORG, enabled.id, UK_ACCOUNT)
      const ready = yield* brs.confirmPayerDetails(ORG, enabled.id, {})
      return { refused, fell, ready }
    }))
    expect(r.refused._tag).toBe("InvalidState")
    if (r.refused._tag === "InvalidState") expect(r.refused.reason).toBe("fallback_not_enabled")
    expect(r.fell.fallback_occurred).toBe(true)
    expect(r.fell.actions.find((a) => a.type === "bank_authorisation")?.required).toBe(false)
    expect(r.ready.status).toBe("ready_to_fulfil")
  })

  it("records a notification (no email is sent) and refuses it for direct-debit-only requests", async () => {
    const r = await runBilling(Effect.gen(function*() {
      yield* setUpCreditor
      const brs = yield* billingRequestsAtEdge
      const dual = yield* brs.create(ORG, DUAL)
      yield* brs.collectCustomerDetails(ORG, dual.id, ADA)
      yield* brs.notify(ORG, dual.id, { notification_type: "email", redirect_uri: "https://example.com/back" })
      const plain = yield* brs.create(ORG, { mandate_request: { currency: "GBP" } })
      const refused = yield* failureOf(brs.notify(ORG, plain.id, { notification_type: "email" }))
      const events = yield* (yield* Events).list(ORG, { billing_request: dual.id, action: "notification_recorded", limit: 5 })
      return { refused, events }
    }))
    expect(r.events.items).toHaveLength(1)
    expect(r.events.items[0]?.details.description).toContain("sends no email")
    expect(r.refused._tag).toBe("InvalidState")
  })

  it("expires a bank authorisation 15 minutes after creation, and not before", async () => {
    const r = await runBilling(Effect.gen(function*() {
      yield* setUpCreditor
      const brs = yield* billingRequestsAtEdge
      const bas = yield* bankAuthorisationsAtEdge
      const created = yield* brs.create(ORG, DUAL)
      yield* brs.selectInstitution(ORG, created.id, { institution: "MONZO_MONZGB2L", country_code: "GB" })
      const authorisation = yield* bas.create(ORG, { links: { billing_request: created.id } })
      yield* TestClock.adjust("14 minutes")
      const early = yield* bas.expireDue(ORG)
      yield* TestClock.adjust("1 minute")
      const due = yield* bas.expireDue(ORG)
      const late = yield* failureOf(bas.authorise(ORG, authorisation.id))
      const events = yield* (yield* Events).list(ORG, { billing_request: created.id, limit: 50 })
      return { early, due, late, events, stored: yield* bas.get(ORG, authorisation.id) }
    }))
    expect(r.early).toEqual([])
    expect(r.due.map((a) => a.status)).toEqual(["expired"])
    expect(r.stored.status).toBe("expired")
    expect(r.late._tag).toBe("InvalidState")
    expect(r.events.items.map((e) => e.action)).toContain("bank_authorisation_expired")
    expect(r.events.items.map((e) => e.action)).toContain("BANK_AUTHORISATION_EXPIRED")
  })
})
