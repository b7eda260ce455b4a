import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ID_PREFIXES, type IdResource, makeIdFactory, seededRandom } from "@paykit/core"
import { payoutHoldOf } from "../src/dashboard/home.ts"
import { collectionsOfId, scenariosFor } from "../src/dashboard/resources.ts"

/** The dashboard's pure rules: which collection an id names, which scenarios a resource may run, why payouts are held. */

const RESOURCES = Object.keys(ID_PREFIXES) as Array<IdResource>

describe("collectionsOfId", () => {
  it("names the id's own collection, and only collections of its prefix", () => {
    fc.assert(fc.property(fc.constantFrom(...RESOURCES), fc.integer({ min: 0, max: 2 ** 40 }), fc.integer(), (resource, ms, seed) => {
      const id = makeIdFactory(seededRandom(seed))(ID_PREFIXES[resource], ms)
      const collections = collectionsOfId(id)
      expect(collections).toContain(`${resource}s`)
      for (const c of collections) expect(ID_PREFIXES[c.slice(0, -1) as IdResource]).toBe(ID_PREFIXES[resource])
    }))
  })

  it("names nothing for text that is no id", () => {
    fc.assert(fc.property(fc.string(), (text) => {
      fc.pre(!/^[A-Z]{2,4}[0-9A-HJKMNP-TV-Z]{12}$/.test(text))
      expect(collectionsOfId(text)).toEqual([])
    }))
  })
})

describe("scenariosFor", () => {
  it("offers a payment the scenarios that start from its status (docs/scenario-simulators.md)", () => {
    expect(scenariosFor("payments", "pending_submission")).toEqual([
      "payment_submitted", "payment_confirmed", "payment_paid_out", "payment_failed", "payment_charged_back", "payment_chargeback_settled",
      "payment_late_failure", "payment_late_failure_settled"
    ])
    expect(scenariosFor("payments", "paid_out")).toEqual(["payment_charged_back", "payment_chargeback_settled", "payment_late_failure", "payment_late_failure_settled"])
    expect(scenariosFor("payments", "confirmed")).toEqual([])
    expect(scenariosFor("payouts", "paid")).toEqual(["payout_bounced"])
    // A creditor's scenarios judge more than a status: all are offered.
    expect(scenariosFor("creditors", undefined)).toContain("payout_create")
  })
})

describe("payoutHoldOf", () => {
  it("holds an unverified creditor's payouts, and a verified one's without a payout account", () => {
    expect(payoutHoldOf({ verification_status: "action_required", links: { default_gbp_payout_account: "BA0000000000001" } })).toContain("verification_status")
    expect(payoutHoldOf({ verification_status: "successful", links: { default_gbp_payout_account: null } })).toContain("no default payout account")
    expect(payoutHoldOf({ verification_status: "successful", links: { default_gbp_payout_account: "BA0000000000001" } })).toBeNull()
  })
})
