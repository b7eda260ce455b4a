import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  INSTITUTIONS,
  filterInstitutions,
  institutionOfSortCode,
  type InstitutionRecord,
  searchInstitutions
} from "@paykit/engine"
import { billingRequestsAtEdge, institutionsAtEdge, ORG, runBilling, setUpCreditor } from "./billing-fixtures.ts"

const names = (xs: ReadonlyArray<{ readonly name: string }>) => xs.map((x) => x.name)

describe("institutions dataset", () => {
  it("holds the major UK and eurozone banks with unique ids", () => {
    const all = names(INSTITUTIONS)
    for (const bank of ["Barclays", "HSBC UK", "Lloyds Bank", "NatWest", "Santander UK", "Nationwide Building Society", "Monzo", "Starling Bank",
      "Revolut", "Halifax", "Royal Bank of Scotland", "TSB", "Metro Bank", "The Co-operative Bank", "First Direct", "Bank of Scotland", "Virgin Money",
      "Deutsche Bank", "Commerzbank", "ING", "ABN AMRO", "Rabobank", "BNP Paribas", "Société Générale", "Crédit Agricole", "Santander", "BBVA",
      "CaixaBank", "UniCredit", "Intesa Sanpaolo", "KBC", "Bank of Ireland", "AIB"]) {
      expect(all).toContain(bank)
    }
    expect(new Set(INSTITUTIONS.map((i) => i.id)).size).toBe(INSTITUTIONS.length)
  })

  it("maps a sort code to the bank with the longest matching prefix", () => {
    expect(institutionOfSortCode(INSTITUTIONS, "04-00-04")?.name).toBe("Monzo")
    expect(institutionOfSortCode(INSTITUTIONS, "60-83-71")?.name).toBe("Starling Bank")
    expect(institutionOfSortCode(INSTITUTIONS, "60-16-13")?.name).toBe("NatWest")
    expect(institutionOfSortCode(INSTITUTIONS, "40-47-84")?.name).toBe("First Direct")
    expect(institutionOfSortCode(INSTITUTIONS, "20-00-00")?.name).toBe("Barclays")
  })
})

describe("GET /institutions", () => {
  it("defaults to GB and filters by country, scheme, feature and branch code", async () => {
    const r = await runBilling(Effect.gen(function*() {
      const i = yield* institutionsAtEdge
      return {
        gb: yield* i.list({}),
        de: yield* i.list({ country_code: "DE" }),
        frInstant: yield* i.list({ country_code: "FR", scheme: "sepa_instant_credit_transfer" }),
        vrpDe: yield* i.list({ country_code: "DE", feature: "vrp_sweeping" }),
        byBranch: yield* i.list({ branch_code: "040004" }),
        bad: yield* Effect.flip(i.list({ branch_code: "12" }))
      }
    }))
    expect(r.gb.every((x) => x.country_code === "GB")).toBe(true)
    expect(names(r.gb)).toContain("Barclays")
    expect(names(r.de)).toEqual(["Commerzbank", "Deutsche Bank", "DZ Bank", "N26"])
    expect(names(r.frInstant)).toEqual(["BNP Paribas", "Société Générale"])
    expect(r.vrpDe).toEqual([])
    expect(names(r.byBranch)).toEqual(["Monzo"])
    expect(r.gb[0]?.logo_url).toBe(`/institutions/${r.gb[0]?.id}/logo.svg`)
    expect(r.bad._tag).toBe("ValidationFailed")
  })

  it("lists only what matches every filter (property)", () => {
    const countries = [...new Set(INSTITUTIONS.map((i) => i.country_code))]
    fc.assert(fc.property(
      fc.option(fc.constantFrom(...countries), { nil: undefined }),
      fc.option(fc.constantFrom("faster_payments", "sepa_credit_transfer", "sepa_instant_credit_transfer") as fc.Arbitrary<InstitutionRecord["schemes"][number]>, { nil: undefined }),
      (country, scheme) => {
        const listed = filterInstitutions(INSTITUTIONS, { ...(country === undefined ? {} : { country_code: country as "GB" }), ...(scheme === undefined ? {} : { scheme }) })
        const expected = INSTITUTIONS.filter((i) => i.country_code === (country ?? "GB") && (scheme === undefined || i.schemes.includes(scheme)))
        expect(new Set(listed.map((i) => i.id))).toEqual(new Set(expected.map((i) => i.id)))
      }
    ))
  })
})

describe("GET /billing_requests/{id}/institutions", () => {
  const outage: ReadonlyArray<InstitutionRecord> = INSTITUTIONS.map((i) =>
    i.name === "Monzo" ? { ...i, status: "temporarily_disabled" } : i.name === "Metro Bank" ? { ...i, status: "disabled" } : i)

  it("searches by name, by ids, and shows temporarily disabled banks only when asked", async () => {
    const r = await runBilling(Effect.gen(function*() {
      yield* setUpCreditor
      const brs = yield* billingRequestsAtEdge
      const br = yield* brs.create(ORG, {
        mandate_request: { currency: "GBP", scheme: "bacs" },
        payment_request: { amount: 1000, currency: "GBP" }
      })
      return {
        search: yield* brs.institutions(ORG, br.id, { country_code: "GB", search: "BANK OF" }),
        ids: yield* brs.institutions(ORG, br.id, { country_code: "GB", ids: "BARCLAYS_BUKBGB22,HSBC_HBUKGB4B" }),
        idsArray: yield* brs.institutions(ORG, br.id, { country_code: "GB", ids: ["TSB_TSBSGB2A"] }),
        enabledOnly: yield* brs.institutions(ORG, br.id, { country_code: "GB" }),
        withDisabled: yield* brs.institutions(ORG, br.id, { country_code: "GB", include_disabled: "true" }),
        noCountry: yield* Effect.flip(brs.institutions(ORG, br.id, {})),
        refusedChoice: yield* Effect.flip(brs.selectInstitution(ORG, br.id, { institution: "MONZO_MONZGB2L", country_code: "GB" }))
      }
    }), 1, outage)
    expect(names(r.search)).toEqual(["Bank of Scotland", "Royal Bank of Scotland"])
    expect(names(r.ids)).toEqual(["Barclays", "HSBC UK"])
    expect(names(r.idsArray)).toEqual(["TSB"])
    expect(names(r.enabledOnly)).not.toContain("Monzo")
    expect(names(r.withDisabled)).toContain("Monzo")
    expect(names(r.withDisabled)).not.toContain("Metro Bank")
    expect(r.noCountry._tag).toBe("ValidationFailed")
    expect(r.refusedChoice._tag).toBe("ValidationFailed")
  })

  it("never offers a disabled bank and always honours the search (property)", () => {
    fc.assert(fc.property(fc.string({ maxLength: 4 }), fc.boolean(), (search, includeDisabled) => {
      const found = searchInstitutions(INSTITUTIONS, { country_code: "GB", search, include_disabled: includeDisabled }, "faster_payments")
      for (const i of found) {
        expect(i.status).not.toBe("disabled")
        expect(i.name.toLowerCase()).toContain(search.trim().toLowerCase())
      }
    }))
  })
})
