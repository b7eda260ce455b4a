import { Effect, Exit, Layer } from "effect"
import { TestClock } from "effect/testing"
import {
  IMPORT_PROCESSING_CHUNK_SIZE,
  InMemoryStorage,
  OutboundPaymentImportEntryRepository,
  OutboundPaymentImports,
  OutboundPayments,
  sandboxEngineOn
} from "@paykit/engine"
import { FailureInjection, withFailureInjection } from "@paykit/engine/testing"
import { describe, expect, it } from "vitest"
import { createImport, fundAccount, ORG, setUpCreditor, setUpRecipient, START } from "./outbound-fixtures.ts"

/**
 * An authorised import is processed a chunk per unit of work, so one unit holds no more than a
 * chunk's payments (on PGlite's one connection a request waits behind a chunk, not an import),
 * and processing cut off between chunks is finished by the import's recovery row: the chunks
 * already done stay done, none is done twice, and the counts are the import's.
 */

const storage = withFailureInjection(InMemoryStorage)
const engine = Layer.mergeAll(storage, sandboxEngineOn(storage, { seed: 11 }), TestClock.layer())

const entries = 2 * IMPORT_PROCESSING_CHUNK_SIZE + 7

describe("processing an authorised import", () => {
  it("commits each chunk on its own; processing cut off in the second chunk is finished once by finishProcessing", async () => {
    const r = await Effect.runPromise(Effect.provide(Effect.gen(function*() {
      yield* TestClock.setTime(START)
      const imports = yield* OutboundPaymentImports
      const creditor = yield* setUpCreditor(ORG, { verified: true })
      const recipient = yield* setUpRecipient(ORG, "Ada Lovelace")
      yield* fundAccount(ORG, { amount: entries * 10, links: { creditor: creditor.id } })
      const item = { scheme: "faster_payments", amount: 10, recipient_bank_account_id: recipient.id }
      const created = yield* createImport(ORG, { entry_items: Array.from({ length: entries }, () => item) })
      yield* imports.validatePending(ORG)
      const stored = yield* (yield* OutboundPaymentImportEntryRepository).scan(ORG, { outbound_payment_import: { op: "eq", value: created.id } })
      // The entry halfway through the second chunk dies when it is saved.
      const poisoned = stored[IMPORT_PROCESSING_CHUNK_SIZE + IMPORT_PROCESSING_CHUNK_SIZE / 2]?.resource.id ?? ""
      const injection = yield* FailureInjection
      yield* injection.failFor([poisoned])
      const cut = yield* Effect.exit(imports.authorise(ORG, created.id, "grace@acme.example"))
      yield* injection.failFor([])
      const outbound = yield* OutboundPayments
      const afterCut = { status: (yield* imports.get(ORG, created.id)).status, payments: (yield* outbound.list(ORG, { limit: 500 })).items.length }
      yield* imports.finishProcessing(ORG, created.id)
      const finished = yield* imports.get(ORG, created.id)
      yield* imports.finishProcessing(ORG, created.id)
      return { cut, afterCut, finished, payments: (yield* outbound.list(ORG, { limit: 500 })).items }
    }), engine))
    expect(Exit.isFailure(r.cut)).toBe(true)
    // The first chunk was committed, the second rolled back as a whole.
    expect(r.afterCut).toEqual({ status: "processing", payments: IMPORT_PROCESSING_CHUNK_SIZE })
    expect(r.finished.status).toBe("processed")
    expect(r.finished.entry_counts.processed).toBe(entries)
    expect(r.finished.entry_counts.failed_to_process).toBe(0)
    expect(r.payments).toHaveLength(entries)
    expect(new Set(r.payments.map((p) => p.id)).size).toBe(entries)
  })
})
