import { readFileSync } from "node:fs"
import * as engine from "@paykit/engine"
import { describe, expect, it } from "vitest"
import { ERRORS_DOC, engineServices, errorsTable, exportedKeysOf, exportedServices, withTable } from "../../../scripts/errors-table.ts"

/**
 * docs/errors.md tables every error each public operation can fail with, as the services' types
 * declare them (`scripts/errors-table.ts` reads them), and no operation that reaches storage
 * declares that it never fails: issue 45, "Every failure typed".
 */

const exportedKeys = exportedKeysOf(engine)

/** Exported services that reach no storage: the bank and name-check ports, static data, the clock, pure helpers. */
const WITHOUT_STORAGE: ReadonlySet<string> = new Set([
  "BankGateway", "NameVerifier", "Institutions", "TaxRates", "CurrencyExchangeRates", "ClockControl", "WebhookSender",
  "IdempotencyFingerprints", "LogoScaler", "MandatePdfRenderer", "DuePolling"
])

// Reading some 300 source files: once, for both tests.
const all = engineServices()
const services = exportedServices(engine, all)

describe("docs/errors.md", () => {
  it("lists every operation of every service the engine exports, with the errors its type declares", () => {
    const doc = readFileSync(ERRORS_DOC, "utf8")
    // On a difference: `npx tsx scripts/errors-table.ts --write`, then say in the doc what changed.
    expect(doc).toBe(withTable(doc, errorsTable(services)))
    const listed = new Set(services.map((service) => service.key))
    const missing = [...exportedKeys].filter((key) => !listed.has(key) && all.some((s) => s.key === key))
    expect(missing).toEqual([])
    expect(services.map((service) => service.name)).toEqual(expect.arrayContaining(["Creditors", "Payments", "Simulator", "Subscriptions"]))
  })

  it("no operation of a service over storage declares that it never fails", () => {
    const untyped = services
      .filter((service) => !WITHOUT_STORAGE.has(service.name))
      .flatMap((service) => service.operations.filter((op) => !op.errors.includes("StorageError")).map((op) => `${service.name}.${op.name}`))
    expect(untyped).toEqual([])
  })
})
