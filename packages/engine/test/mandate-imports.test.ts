import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { mandateImportMachine } from "@paykit/machines"
import { applyTransition, Customers, decodeCommand, MandateImportEntryRepository, MandateImportRepository, MandateImports, REQUEST_BODIES } from "@paykit/engine"
import { ORG, runEngine, setUpPayer } from "./fixtures.ts"

const entryOf = decodeCommand(REQUEST_BODIES.mandate_import_entries.create, "mandate_import_entries")

const entry = (mandate_import: string, email: string) =>
  entryOf({
    customer: { given_name: "Grace", family_name: "Hopper", email },
    bank_account: { account_holder_name: "Grace Hopper", account_number: "55779911", branch_code: "200000", country_code: "GB" },
    links: { mandate_import }
  })

describe("mandate import processing", () => {
  it("carries on an import a run left processing, and processes no entry twice", async () => {
    const result = await runEngine(Effect.gen(function*() {
      yield* setUpPayer(ORG)
      const imports = yield* MandateImports
      const created = yield* imports.create(ORG, { scheme: "bacs" })
      yield* imports.addEntry(ORG, yield* entry(created.id, "one@example.com"))
      yield* imports.addEntry(ORG, yield* entry(created.id, "two@example.com"))
      yield* imports.submit(ORG, created.id)
      // A run that stopped right after moving the import to processing.
      const repository = yield* MandateImportRepository
      yield* applyTransition(repository, {
        organisation: ORG, machine: mandateImportMachine, current: yield* repository.get(ORG, created.id), event: "start_processing",
        context: {}, cause: { origin: "gocardless", cause: "mandate_import_processing" }, links: {}
      })
      const first = yield* imports.processSubmitted(ORG)
      const second = yield* imports.processSubmitted(ORG)
      const entries = yield* (yield* MandateImportEntryRepository).scan(ORG, {})
      const customers = yield* (yield* Customers).list(ORG, { limit: 10 })
      return {
        first: first.map((i) => i.status),
        second: second.length,
        mandates: entries.map((e) => e.resource.links.mandate !== undefined),
        customers: customers.items.map((c) => c.email).sort()
      }
    }))
    expect(result).toEqual({
      first: ["processed"],
      second: 0,
      mandates: [true, true],
      customers: ["ada@example.com", "one@example.com", "two@example.com"]
    })
  })
})
