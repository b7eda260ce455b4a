import { readFileSync } from "node:fs"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { nearestScenario, SCENARIO_CATALOGUE, SCENARIO_NAMES, type ScenarioName, SCENARIOS, scenariosFor } from "@paykit/engine"
import { editDistance } from "../src/scenarios/catalogue.ts"

/** The scenarios as data: what the dashboard and `paykit trigger` read without loading the engine. */

describe("the scenario catalogue", () => {
  it("names exactly the scenarios the engine runs", () => {
    expect(Object.keys(SCENARIOS).sort()).toEqual([...SCENARIO_NAMES].sort())
  })

  it("loads nothing at run time: every import of catalogue.ts is a type's", () => {
    const source = readFileSync(new URL("../src/scenarios/catalogue.ts", import.meta.url), "utf8")
    const imports = [...source.matchAll(/^import\s+(type\s+)?[^;]*?from\s+"([^"]+)"/gms)]
    expect(imports.length).toBeGreaterThan(0)
    expect(imports.filter((m) => m[1] === undefined).map((m) => m[2])).toEqual([])
  })

  it("offers a resource the scenarios of its collection that start from its status", () => {
    expect(scenariosFor({ collection: "payments", status: "paid_out" }).apply).toEqual([
      "payment_charged_back", "payment_chargeback_settled", "payment_late_failure", "payment_late_failure_settled"
    ])
    expect(scenariosFor({ collection: "payments", status: "confirmed" }).apply).toEqual([])
    expect(scenariosFor({ collection: "payments", status: "confirmed" }).other).toHaveLength(8)
    expect(scenariosFor({ collection: "mandates", status: "active" }).apply).toEqual(["mandate_suspended_by_payer"])
    // That one exists for PayTo mandates only; a Bacs mandate's scenarios say so.
    expect(scenariosFor({ collection: "mandates", status: "active", scheme: "bacs" }).apply).toEqual([])
    expect(scenariosFor({ collection: "mandates", status: "pending_customer_approval", scheme: "ach" }).apply).toEqual([])
    expect(scenariosFor({ collection: "mandates", status: "submitted", scheme: "bacs" }).apply).toEqual([
      "mandate_activated", "mandate_failed", "mandate_expired", "mandate_transferred", "mandate_transferred_with_resubmission"
    ])
    // payout_create judges the creditor's balance, not a status: it is offered whatever the status.
    expect(scenariosFor({ collection: "creditors", status: "successful" }).apply).toEqual([
      "creditor_verification_status_action_required", "creditor_verification_status_in_review", "payout_create"
    ])
    expect(scenariosFor({ collection: "customers", status: undefined })).toEqual({ apply: [], other: [] })
  })

  it("splits a collection's scenarios by whether each starts from the status (property)", () => {
    const collections = [...new Set(SCENARIO_NAMES.map((n) => SCENARIO_CATALOGUE[n].collection))]
    const statuses = [...new Set(SCENARIO_NAMES.flatMap((n): ReadonlyArray<string> => Reflect.get(SCENARIO_CATALOGUE[n], "startsFrom") ?? []))]
    fc.assert(fc.property(fc.constantFrom(...collections), fc.option(fc.constantFrom(...statuses, "unheard_of"), { nil: undefined }), (collection, status) => {
      const { apply, other } = scenariosFor({ collection, status })
      expect([...apply, ...other].sort()).toEqual(SCENARIO_NAMES.filter((n) => SCENARIO_CATALOGUE[n].collection === collection).sort())
      for (const name of apply) {
        const from: ReadonlyArray<string> | undefined = Reflect.get(SCENARIO_CATALOGUE[name], "startsFrom")
        expect(from === undefined || (status !== undefined && from.includes(status))).toBe(true)
      }
    }))
  })
})

describe("nearestScenario", () => {
  /** A name with one letter dropped, doubled or replaced: a typo. */
  const typo = fc.record({
    name: fc.constantFrom(...SCENARIO_NAMES),
    at: fc.nat(),
    kind: fc.constantFrom("drop", "double", "replace"),
    letter: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz_")
  }).map(({ name, at, kind, letter }) => {
    const i = at % name.length
    const typed = kind === "drop" ? name.slice(0, i) + name.slice(i + 1) : kind === "double" ? name.slice(0, i + 1) + name.slice(i) : name.slice(0, i) + letter + name.slice(i + 1)
    return { name, typed }
  })

  it("takes a typo back to the name it was typed for (property)", () => {
    // One edit from a name is nearer to it than to any other only while every two names are three or more apart.
    const closest = Math.min(...SCENARIO_NAMES.flatMap((a, i) => SCENARIO_NAMES.slice(i + 1).map((b) => editDistance(a, b))))
    expect(closest).toBeGreaterThanOrEqual(3)
    fc.assert(fc.property(typo, ({ name, typed }) => {
      expect(nearestScenario(typed)).toBe(name)
      expect(nearestScenario(typed.toUpperCase())).toBe(name)
    }))
  })

  it("suggests nothing for a word far from every name", () => {
    expect(nearestScenario("frobnicate")).toBeUndefined()
    expect(nearestScenario("")).toBeUndefined()
    expect(nearestScenario("paid_out")).toBe<ScenarioName | undefined>(undefined)
  })

  it("measures edit distance as its definition says (property)", () => {
    fc.assert(fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), (a, b) => {
      const d = editDistance(a, b)
      expect(d).toBe(editDistance(b, a))
      expect(d === 0).toBe(a === b)
      expect(d).toBeGreaterThanOrEqual(Math.abs(a.length - b.length))
      expect(d).toBeLessThanOrEqual(Math.max(a.length, b.length))
      expect(editDistance(a, a + b)).toBe(b.length)
    }))
  })
})
