import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { CURRENCIES, formatMinorUnits, ID_PREFIXES, type IdResource, makeIdFactory, MINOR_UNIT_DIGITS, seededRandom } from "@paykit/core"
import * as machines from "@paykit/machines"
import { isInstant, moneyText, toneOf, utcText } from "../src/dashboard/format.ts"
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

describe("moneyText", () => {
  it("writes an amount's minor units as the currency's major units, exactly, with its symbol or code (property)", () => {
    fc.assert(fc.property(fc.constantFrom(...CURRENCIES), fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (currency, amount) => {
      const text = moneyText(amount, currency) ?? ""
      // Its digits are the minor units' decimal form, grouped by thousands: no float rounding on the way.
      expect(text.replace(/[^0-9.-]/g, "")).toBe(formatMinorUnits(amount, currency))
      expect(text.split(".")[1]?.length).toBe(MINOR_UNIT_DIGITS[currency])
      expect(text.startsWith("-")).toBe(amount < 0)
    }))
    expect(moneyText(1500, "GBP")).toBe("£15.00")
    expect(moneyText(-320, "EUR")).toBe("-€3.20")
    expect(moneyText(100_000, "SEK")).toBe("SEK\u00a01,000.00")
    expect(moneyText(1.5, "GBP")).toBeUndefined()
    expect(moneyText(100, "XYZ")).toBeUndefined()
  })
})

describe("instants", () => {
  it("an instant's UTC text is its minute, in UTC, and says so (property)", () => {
    fc.assert(fc.property(fc.date({ min: new Date("1970-01-01"), max: new Date("9999-12-31"), noInvalidDate: true }), (date) => {
      const value = date.toISOString()
      expect(isInstant(value)).toBe(true)
      expect(utcText(value)).toBe(`${value.slice(0, 10)} ${value.slice(11, 16)} UTC`)
    }))
    expect(isInstant("2026-12-03")).toBe(false)
    expect(isInstant("PM01234567890A")).toBe(false)
  })
})

describe("toneOf", () => {
  it("gives every status of every machine a tone, but an access token's inactive", () => {
    const statuses = new Set(Object.entries(machines).flatMap(([name, value]) => name.endsWith("_STATUSES") && Array.isArray(value) ? value.map(String) : []))
    expect(statuses.size).toBeGreaterThan(40)
    expect([...statuses].filter((s) => toneOf(s) === "neutral")).toEqual(["inactive"])
    expect(toneOf("paid_out")).toBe("good")
    expect(toneOf("pending_submission")).toBe("pending")
    expect(toneOf("pending_customer_approval")).toBe("attention")
    expect(toneOf("charged_back")).toBe("bad")
  })
})
