import { LocalDate, addDays, fromDayNumber, toDayNumber, unsafeLocalDate } from "@paykit/core"
import fc from "fast-check"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { TAX_RATES, TaxRate, listTaxRates, taxOnFee, taxRateById, taxRateInForce } from "../src/index.ts"

const d = unsafeLocalDate
const percentageOn = (jurisdiction: string, date: string) => taxRateInForce(jurisdiction, d(date))?.percentage
const byId = (id: string) => {
  const r = taxRateById(id)
  if (r === undefined) throw new Error(`no rate ${id}`)
  return r
}

describe("tax rates data", () => {
  it("decodes with the TaxRate schema and has unique ids built from jurisdiction, type and version", () => {
    const ids = new Set<string>()
    for (const r of TAX_RATES) {
      expect(Schema.decodeUnknownResult(TaxRate)(r)._tag).toBe("Success")
      expect(r.id).toMatch(new RegExp(`^${r.jurisdiction}_${r.type}_\\d+$`))
      ids.add(r.id)
    }
    expect(ids.size).toBe(TAX_RATES.length)
  })

  it("holds the GB VAT history", () => {
    expect(percentageOn("GB", "1991-03-31")).toBeUndefined()
    expect(percentageOn("GB", "1991-04-01")).toBe("17.5")
    expect(percentageOn("GB", "2008-11-30")).toBe("17.5")
    expect(percentageOn("GB", "2008-12-01")).toBe("15.0")
    expect(percentageOn("GB", "2009-12-31")).toBe("15.0")
    expect(percentageOn("GB", "2010-01-01")).toBe("17.5")
    expect(percentageOn("GB", "2011-01-03")).toBe("17.5")
    expect(percentageOn("GB", "2011-01-04")).toBe("20.0")
    expect(taxRateInForce("GB", d("2026-11-21"))?.id).toBe("GB_VAT_4")
  })

  it("holds the FR TVA history", () => {
    expect(percentageOn("FR", "2013-12-31")).toBe("19.6")
    expect(percentageOn("FR", "2014-01-01")).toBe("20.0")
    expect(taxRateInForce("FR", d("2026-11-21"))?.id).toBe("FR_VAT_2")
  })

  it("has exactly one rate in force on every day from a jurisdiction's first rate on", () => {
    for (const jurisdiction of ["GB", "FR"]) {
      const first = listTaxRates({ jurisdiction })
        .map((r) => r.start_date)
        .reduce((a, b) => (a < b ? a : b))
      const day = fc.integer({ min: toDayNumber(first), max: toDayNumber(d("2100-12-31")) }).map(fromDayNumber)
      fc.assert(fc.property(day, (date: LocalDate) => {
        const inForce = TAX_RATES.filter((r) =>
          r.jurisdiction === jurisdiction && r.start_date <= date && (r.end_date === null || date <= r.end_date)
        )
        expect(inForce).toHaveLength(1)
        expect(taxRateInForce(jurisdiction, date)).toBe(inForce[0])
      }))
      expect(taxRateInForce(jurisdiction, addDays(first, -1))).toBeUndefined()
    }
  })

  it("lists by jurisdiction in id order", () => {
    expect(listTaxRates({ jurisdiction: "FR" }).map((r) => r.id)).toEqual(["FR_VAT_1", "FR_VAT_2"])
    expect(listTaxRates({ jurisdiction: "GB" }).map((r) => r.id)).toEqual(["GB_VAT_1", "GB_VAT_2", "GB_VAT_3", "GB_VAT_4"])
    expect(listTaxRates({ jurisdiction: "DE" })).toEqual([])
    expect(listTaxRates()).toHaveLength(TAX_RATES.length)
    expect(taxRateInForce("DE", d("2026-01-01"))).toBeUndefined()
  })
})

describe("tax on fees", () => {
  it("known answers: 20% of a 220p fee is 44p (GoCardless's own VAT example)", () => {
    expect(taxOnFee(220, byId("GB_VAT_4"))).toBe(44)
  })

  it("rounds half to even", () => {
    expect(taxOnFee(20, byId("GB_VAT_1"))).toBe(4) // 3.5 -> 4
    expect(taxOnFee(60, byId("GB_VAT_1"))).toBe(10) // 10.5 -> 10
    expect(taxOnFee(10, byId("GB_VAT_2"))).toBe(2) // 1.5 -> 2
    expect(taxOnFee(30, byId("GB_VAT_2"))).toBe(4) // 4.5 -> 4
    expect(taxOnFee(5, byId("FR_VAT_1"))).toBe(1) // 0.98 -> 1
  })

  it("is never negative, within half a minor unit of the exact tax, and mirrors on refunds", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.constantFrom(...TAX_RATES), (fee, rate) => {
      const tax = taxOnFee(fee, rate)
      expect(tax >= 0).toBe(true)
      expect(Number.isSafeInteger(tax)).toBe(true)
      // percentage has one decimal place in the data: exact tax = fee * p10 / 1000
      const p10 = BigInt(rate.percentage.replace(".", ""))
      const diff = BigInt(tax) * 1000n - BigInt(fee) * p10
      expect(2n * (diff < 0n ? -diff : diff) <= 1000n).toBe(true)
      expect(taxOnFee(-fee, rate) + tax).toBe(0)
    }))
  })
})
