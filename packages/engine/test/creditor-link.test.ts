import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { CreditorRepository, Creditors, Mandates, OutboundPayments } from "@paykit/engine"
import { resolveCreditor } from "../src/creditors/creditor-link.ts"
import { ORG, runEngine, setUpPayer } from "./fixtures.ts"
import { ORG as OUTBOUND_ORG, runOutbound, setUpCreditor } from "./outbound-fixtures.ts"
import { billingRequestsAtEdge } from "./billing-fixtures.ts"

/** The `links.creditor` error items of a failure, as [field, message]. */
const creditorErrors = (e: unknown) =>
  typeof e === "object" && e !== null && "errors" in e && Array.isArray(e.errors)
    ? e.errors.map((x: { readonly field: string; readonly message: string }) => [x.field, x.message])
    : e

const REQUIRED = [["links.creditor", "is required unless the organisation has exactly one creditor"]]
const UNKNOWN = [["links.creditor", "must be a creditor of this organisation"]]

describe("a request that leaves out links.creditor (one resolveCreditor for every service)", () => {
  it("mandates and billing requests: the only creditor is taken; with two, the same error as outbound payments", async () => {
    const r = await runEngine(Effect.gen(function*() {
      const { mandate } = yield* setUpPayer(ORG)
      const mandates = yield* Mandates
      const billing = yield* billingRequestsAtEdge
      const account = { links: { customer_bank_account: mandate.links.customer_bank_account } }
      const single = yield* mandates.create(ORG, account)
      yield* (yield* Creditors).create(ORG, { name: "Acme Two", country_code: "GB", creditor_type: "company" })
      return {
        single: single.links.creditor === mandate.links.creditor,
        mandate: creditorErrors(yield* Effect.flip(mandates.create(ORG, account))),
        billing: creditorErrors(yield* Effect.flip(billing.create(ORG, { mandate_request: { currency: "GBP" } }))),
        unknown: creditorErrors(yield* Effect.flip(billing.create(ORG, { mandate_request: { currency: "GBP" }, links: { creditor: "CR0000000000ZZ" } })))
      }
    }))
    expect(r).toEqual({ single: true, mandate: REQUIRED, billing: REQUIRED, unknown: UNKNOWN })
    const outbound = await runOutbound(Effect.gen(function*() {
      yield* setUpCreditor(OUTBOUND_ORG, { verified: true })
      yield* setUpCreditor(OUTBOUND_ORG, { verified: true, name: "Acme Two" })
      return creditorErrors(yield* Effect.flip((yield* OutboundPayments).withdraw(OUTBOUND_ORG, { amount: 100, scheme: "faster_payments" })))
    }))
    expect(outbound).toEqual(REQUIRED)
  })
})

describe("resolveCreditor without links.creditor reads a page of two, never every creditor", () => {
  it("one creditor is found and two are refused, with scans (reading every creditor) made to fail", async () => {
    const r = await runEngine(Effect.gen(function*() {
      const repository = yield* CreditorRepository
      const noScan = { ...repository, scan: () => Effect.die(new Error("resolveCreditor read every creditor")) }
      const first = yield* (yield* Creditors).create(ORG, { name: "Acme", country_code: "GB", creditor_type: "company" })
      const only = yield* resolveCreditor(noScan, ORG, "mandates", undefined)
      yield* (yield* Creditors).create(ORG, { name: "Acme Two", country_code: "GB", creditor_type: "company" })
      const two = creditorErrors(yield* Effect.flip(resolveCreditor(noScan, ORG, "mandates", undefined)))
      return { only: only.resource.id === first.id && only.version >= 1, two }
    }))
    expect(r).toEqual({ only: true, two: REQUIRED })
  })
})
