import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  BillingRequestFlowRepository,
  BillingRequestFlows,
  BillingRequests,
  Customer,
  CustomerBankAccountRepository,
  CustomerBillingDetailRepository,
  CustomerRepository,
  Customers,
  erasedCustomer,
  eq,
  Mandates
} from "@paykit/engine"
import { setUpPayer } from "@paykit/engine/testing"
import { edge, ORG, runEngine } from "./fixtures.ts"

/**
 * The rule of a customer's removal: no personal value of the customer survives it, in any record
 * linked to them. Stated twice: over the Customer Schema itself (every field but its identity and
 * language erased), and over the engine: a customer with any personal details, bank accounts
 * (holder names, metadata) and billing requests made for them (their flows prefilled with the
 * payer's details) is removed, and then no value they
 * gave is found in anything stored for them (the customer, their bank accounts, their billing
 * details) nor in any answer that reads them.
 */

/** What removal keeps: the record's identity, and the language its erased record is still in. */
const KEPT = new Set(["id", "created_at", "language", "removed_at"])
const text = fc.option(fc.string({ minLength: 1, maxLength: 20 }), { nil: null })

const customer = fc.record({
  id: fc.constant("CU0000000000A1"),
  created_at: fc.constant("2026-11-01T10:00:00.000Z"),
  email: text, given_name: text, family_name: text, company_name: text, address_line1: text, address_line2: text,
  address_line3: text, city: text, region: text, postal_code: text, country_code: text, language: text, phone_number: text,
  swedish_identity_number: text, danish_identity_number: text,
  metadata: fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 })
}) as fc.Arbitrary<Customer>

describe("erasedCustomer", () => {
  it("erases every field but the id, creation time and language", () => {
    fc.assert(fc.property(customer, (c) => {
      const erased = erasedCustomer(c)
      for (const field of Object.keys(Customer.fields)) {
        const value = (erased as Readonly<Record<string, unknown>>)[field]
        if (KEPT.has(field)) expect(value).toEqual((c as Readonly<Record<string, unknown>>)[field])
        else if (field === "metadata") expect(value).toEqual({})
        else expect(value, field).toBeNull()
      }
    }))
  })
})

// Personal values made distinct from anything the engine writes itself (ids, codes, dates).
const personal = fc.stringMatching(/^[a-z]{8,12}$/).map((s) => `pii${s}`)
const person = fc.record({
  given_name: personal, family_name: personal, address_line1: personal, city: personal, postal_code: personal,
  email: personal.map((s) => `${s}@example.com`), metadata: personal
})
const payer = fc.record({
  person,
  accounts: fc.array(fc.record({ holder: personal, note: personal, withMandate: fc.boolean() }), { minLength: 1, maxLength: 3 }),
  billingRequests: fc.nat({ max: 2 }),
  /** A flow of each billing request, with the payer's details prefilled on it. */
  prefilled: fc.record({ given_name: personal, city: personal, email: personal.map((s) => `${s}@example.org`) })
})
type Payer = typeof payer extends fc.Arbitrary<infer P> ? P : never

const valuesOf = (p: Payer): ReadonlyArray<string> => [
  ...Object.values(p.person),
  ...(p.billingRequests > 0 ? Object.values(p.prefilled) : []),
  ...p.accounts.flatMap((a) => [a.holder, a.note])
]

/** The customer made, removed, and everything then stored or answered for them, as text. */
const removeAndRead = (p: Payer) =>
  Effect.gen(function*() {
    const { creditor } = yield* setUpPayer(ORG)
    const customers = yield* Customers
    const mandates = yield* Mandates
    const billingRequests = yield* BillingRequests
    const flows = yield* BillingRequestFlows
    const made = yield* customers.create(ORG, yield* edge.customer({ ...p.person, country_code: "GB", metadata: { note: p.person.metadata } }))
    const accounts: Array<string> = []
    for (const a of p.accounts) {
      const account = yield* customers.createBankAccount(ORG, {
        account_holder_name: a.holder, account_number: "55779911", branch_code: "200000", country_code: "GB",
        metadata: { note: a.note }, links: { customer: made.id }
      })
      accounts.push(account.id)
      if (a.withMandate) {
        const mandate = yield* mandates.create(ORG, { links: { customer_bank_account: account.id, creditor: creditor.id } })
        yield* mandates.cancel(ORG, mandate.id)
      }
    }
    const requests: Array<string> = []
    const flowIds: Array<string> = []
    for (let n = 0; n < p.billingRequests; n++) {
      const request = yield* billingRequests.create(ORG, {
        mandate_request: { currency: "GBP", scheme: "bacs" }, links: { customer: made.id }
      } as never)
      requests.push(request.id)
      flowIds.push((yield* flows.create(ORG, { prefilled_customer: p.prefilled, links: { billing_request: request.id } })).id)
    }
    const answer = yield* customers.remove(ORG, made.id)
    const storedFlows = yield* BillingRequestFlowRepository
    const stored = [
      yield* (yield* CustomerRepository).get(ORG, made.id),
      ...yield* (yield* CustomerBankAccountRepository).scan(ORG, { customer: eq(made.id) }),
      ...yield* (yield* CustomerBillingDetailRepository).scan(ORG, { customer: eq(made.id) }),
      ...yield* Effect.forEach(flowIds, (id) => storedFlows.get(ORG, id))
    ]
    const read = [
      answer,
      yield* customers.listBankAccounts(ORG, { customer: made.id } as never),
      ...yield* Effect.forEach(accounts, (id) => customers.getBankAccount(ORG, id)),
      ...yield* Effect.forEach(requests, (id) => billingRequests.get(ORG, id)),
      ...yield* Effect.forEach(flowIds, (id) => flows.get(ORG, id))
    ]
    return JSON.stringify([stored, read])
  })

describe("removing a customer", () => {
  it("leaves no personal value of theirs in any record linked to them, stored or answered", async () => {
    await fc.assert(fc.asyncProperty(payer, async (p) => {
      const everything = await runEngine(removeAndRead(p))
      for (const value of valuesOf(p)) expect(everything, value).not.toContain(value)
    }), { numRuns: 15 })
  })
})
