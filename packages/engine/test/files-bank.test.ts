import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import { IdGenerator } from "@paykit/core"
import { BankReports, BankSubmissions, ClockControl, engineOn, FilesBank, InMemoryStorage, Payments, sandboxWebhooks, Simulator } from "@paykit/engine"
import { edge, ORG, setUpPayer, START } from "./fixtures.ts"

const DAY = 86_400_000

/** The engine in memory with the files bank in place of the sandbox bank. */
const filesLayer = Layer.mergeAll(
  engineOn(InMemoryStorage).pipe(Layer.provideMerge(Layer.mergeAll(FilesBank, IdGenerator.layerSeeded(7), ClockControl.testClock, sandboxWebhooks))),
  TestClock.layer()
)

describe("the files bank", () => {
  it("keeps each submission's file for someone to carry (nobody has taken it), invents no report, and settles an unreported collection by its deadline", { timeout: 30_000 }, async () => {
    const r = await Effect.runPromise(Effect.provide(Effect.flatMap(TestClock.setTime(START), () =>
      Effect.gen(function*() {
        const { mandate } = yield* setUpPayer(ORG, "Ada fail Lovelace")
        // Both the holder's name and the amount are sandbox test values for a failure: the files bank reads neither.
        const payment = yield* (yield* Payments).create(ORG, yield* edge.payment({ amount: 1091, currency: "GBP", links: { mandate: mandate.id } }))
        yield* (yield* Simulator).advanceTo(START + 10 * DAY)
        return {
          payment: yield* (yield* Payments).get(ORG, payment.id),
          submissions: (yield* (yield* BankSubmissions).list(ORG, {})).items,
          reports: (yield* (yield* BankReports).list(ORG, {})).items
        }
      })), filesLayer))
    expect(r.submissions.map((s) => [s.scheme, s.item_count, s.bank_reference, s.acknowledged_at !== null, s.file_sha256 !== null])).toEqual([
      ["bacs", 1, null, true, true],
      ["bacs", 1, null, true, true]
    ])
    expect(r.reports).toEqual([])
    expect(["confirmed", "paid_out"]).toContain(r.payment.status)
  })
})
