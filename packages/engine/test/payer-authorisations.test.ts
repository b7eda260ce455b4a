import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { Customers, Events, Mandates, payerAuthorisationIncompleteFields } from "@paykit/engine"
import { ORG, payerAuthorisationsAtEdge, runBilling, setUpCreditor } from "./billing-fixtures.ts"

const CUSTOMER = {
  email: "ada@example.com", given_name: "Ada", family_name: "Lovelace",
  address_line1: "1 Analytical Row", city: "London", postal_code: "N1 1AA", country_code: "GB"
}
const ACCOUNT = { account_holder_name: "Ada Lovelace", account_number: "55779911", branch_code: "200000", country_code: "GB" }

describe("payer authorisations (deprecated flow)", () => {
  it("is created incomplete, updated field by field, submitted, confirmed and completed with its resources", async () => {
    const r = await runBilling(Effect.gen(function*() {
      yield* setUpCreditor
      const pas = yield* payerAuthorisationsAtEdge
      const created = yield* pas.create(ORG, { customer: { email: "ada@example.com" } })
      const refused = yield* Effect.flip(pas.submit(ORG, created.id))
      const partly = yield* pas.update(ORG, created.id, { customer: { given_name: "Ada", family_name: "Lovelace" } })
      const full = yield* pas.update(ORG, created.id, { customer: CUSTOMER, bank_account: ACCOUNT, mandate: { scheme: "bacs" } })
      const submitted = yield* pas.submit(ORG, created.id)
      const completed = yield* pas.confirm(ORG, created.id)
      const customer = yield* (yield* Customers).get(ORG, completed.links.customer ?? "")
      const mandate = yield* (yield* Mandates).get(ORG, completed.links.mandate ?? "")
      const events = yield* (yield* Events).list(ORG, { payer_authorisation: created.id, limit: 10 })
      return { created, refused, partly, full, submitted, completed, customer, mandate, events }
    }))
    expect(r.created.id.startsWith("PA")).toBe(true)
    expect(r.created.status).toBe("created")
    expect(r.created.incomplete_fields.map((f) => f.field)).toContain("given_name")
    expect(r.created.incomplete_fields.find((f) => f.field === "given_name")?.request_pointer).toBe("/payer_authorisations/customer/given_name")
    expect(r.refused._tag).toBe("InvalidState")
    // Only the fields present change: the email given at creation survives the update.
    expect(r.partly.customer.email).toBe("ada@example.com")
    expect(r.partly.incomplete_fields.map((f) => f.field)).not.toContain("given_name")
    expect(r.full.incomplete_fields).toEqual([])
    expect(r.full.bank_account.account_number_ending).toBe("11")
    expect(r.submitted.status).toBe("submitted")
    expect(r.completed.status).toBe("completed")
    expect(r.customer.email).toBe("ada@example.com")
    expect(r.mandate.links.customer_bank_account).toBe(r.completed.links.bank_account)
    expect(r.events.items.map((e) => e.action)).toEqual(["completed"])
  })

  it("fails, with a failed event, when the resources cannot be created", async () => {
    const r = await runBilling(Effect.gen(function*() {
      yield* setUpCreditor
      const pas = yield* payerAuthorisationsAtEdge
      // A GBP account cannot carry a SEPA mandate: the mandate is refused at confirmation.
      const pa = yield* pas.create(ORG, { customer: CUSTOMER, bank_account: ACCOUNT, mandate: { scheme: "sepa_core" } })
      yield* pas.submit(ORG, pa.id)
      const failed = yield* pas.confirm(ORG, pa.id)
      const customers = yield* (yield* Customers).list(ORG, {})
      const events = yield* (yield* Events).list(ORG, { payer_authorisation: pa.id, limit: 10 })
      return { failed, customers, events }
    }))
    expect(r.failed.status).toBe("failed")
    expect(r.failed.links).toEqual({})
    expect(r.customers.items).toEqual([])
    expect(r.events.items.map((e) => e.action)).toEqual(["failed"])
  })

  it("requires the identity number of SEK accounts and the IP address of ACH mandates", () => {
    const base = { customer: { ...emptyCustomer(), ...CUSTOMER }, bank_account: emptyAccount(), mandate: { reference: null, scheme: "ach" as const, payer_ip_address: null, metadata: {} } }
    const fields = payerAuthorisationIncompleteFields(base).map((f) => f.request_pointer)
    expect(fields).toContain("/payer_authorisations/mandate/payer_ip_address")
    expect(fields).toContain("/payer_authorisations/bank_account/account_holder_name")
  })
})

const emptyCustomer = () => ({
  email: null, given_name: null, family_name: null, company_name: null, address_line1: null, address_line2: null,
  address_line3: null, city: null, region: null, postal_code: null, country_code: null, locale: null,
  swedish_identity_number: null, danish_identity_number: null, metadata: {}
})
const emptyAccount = () => ({
  account_holder_name: null, account_number: null, account_number_ending: null, account_number_suffix: null,
  account_type: null, bank_code: null, branch_code: null, country_code: null, currency: null, iban: null, metadata: {}
})
