import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Customer, erasedCustomer } from "@paykit/engine"

/**
 * The rule of a customer's removal, stated over the Customer Schema itself: every field of the
 * resource that is not its identity (id, creation time) or its language is erased (null, and the
 * metadata empty), whatever the customer held. A personal field added to the Schema and not erased
 * fails here.
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
