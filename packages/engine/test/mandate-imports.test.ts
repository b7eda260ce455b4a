import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { mandateImportMachine } from "@paykit/machines"
import {
  applyTransition,
  Customers,
  decodeCommand,
  type MandateImport,
  MandateImportEntryRepository,
  MandateImportEntryRequestRepository,
  MandateImportRepository,
  MandateImports,
  REQUEST_BODIES,
  type Versioned
} from "@paykit/engine"
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

/** Whether the stored request of each entry (by id) still holds the payer's details. */
const detailsKept = (ids: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const requests = yield* MandateImportEntryRequestRepository
    return yield* Effect.forEach(ids, (id) => Effect.map(Effect.orDie(requests.get(ORG, id)), (r) => "bank_account" in r.resource || "customer" in r.resource))
  })

describe("mandate import entries' bank details", () => {
  it("are kept until the entry is processed, then deleted with its outcome, success or refusal alike", async () => {
    const result = await runEngine(Effect.gen(function*() {
      yield* setUpPayer(ORG)
      const imports = yield* MandateImports
      const created = yield* imports.create(ORG, { scheme: "bacs" })
      const good = yield* imports.addEntry(ORG, yield* entry(created.id, "one@example.com"))
      // Refused when processed: a SEPA import cannot take a UK account's mandate.
      const other = yield* imports.create(ORG, { scheme: "sepa_core" })
      const bad = yield* imports.addEntry(ORG, yield* entry(other.id, "two@example.com"))
      const before = yield* detailsKept([good.id, bad.id])
      yield* imports.submit(ORG, created.id)
      yield* imports.submit(ORG, other.id)
      yield* imports.processSubmitted(ORG)
      const entries = yield* (yield* MandateImportEntryRepository).scan(ORG, {})
      return { before, after: yield* detailsKept([good.id, bad.id]), outcomes: entries.map((e) => e.resource.links.mandate !== undefined || e.resource.processing_errors !== null) }
    }))
    expect(result).toEqual({ before: [true, true], after: [false, false], outcomes: [true, true] })
  })

  it("are deleted when the import is cancelled", async () => {
    const result = await runEngine(Effect.gen(function*() {
      yield* setUpPayer(ORG)
      const imports = yield* MandateImports
      const created = yield* imports.create(ORG, { scheme: "bacs" })
      const one = yield* imports.addEntry(ORG, yield* entry(created.id, "one@example.com"))
      const two = yield* imports.addEntry(ORG, yield* entry(created.id, "two@example.com"))
      const kept = yield* imports.create(ORG, { scheme: "bacs" })
      const untouched = yield* imports.addEntry(ORG, yield* entry(kept.id, "three@example.com"))
      yield* imports.cancel(ORG, created.id)
      return yield* detailsKept([one.id, two.id, untouched.id])
    }))
    expect(result).toEqual([false, false, true])
  })
})

describe("adding an entry while the import is submitted", () => {
  /** The import as addEntry read it before a submit committed (what a concurrent unit of work sees). */
  const readBefore = (snapshot: Versioned<MandateImport>) =>
    Layer.effect(MandateImportRepository, Effect.map(MandateImportRepository, (repository) =>
      MandateImportRepository.of({ ...repository, get: (o, id) => id === snapshot.resource.id ? Effect.succeed(snapshot) : repository.get(o, id) })))

  it("is refused (its write of the import conflicts with the submit) and stores nothing", async () => {
    const result = await runEngine(Effect.gen(function*() {
      yield* setUpPayer(ORG)
      const imports = yield* MandateImports
      const created = yield* imports.create(ORG, { scheme: "bacs" })
      const snapshot = yield* Effect.orDie((yield* MandateImportRepository).get(ORG, created.id))
      yield* imports.submit(ORG, created.id)
      const late = yield* entry(created.id, "late@example.com")
      const outcome = yield* Effect.flatMap(MandateImports, (racing) => racing.addEntry(ORG, late)).pipe(
        Effect.provide(Layer.fresh(MandateImports.layer).pipe(Layer.provide(readBefore(snapshot)))),
        Effect.match({ onFailure: (e) => ("reason" in e ? String(e.reason) : e._tag), onSuccess: () => "added" })
      )
      const entries = yield* (yield* MandateImportEntryRepository).scan(ORG, {})
      return { outcome, entries: entries.length }
    }))
    expect(result.outcome).not.toBe("added")
    expect(result.entries).toBe(0)
  })
})
