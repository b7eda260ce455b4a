import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import {
  OUTBOUND_PAYMENT_IMPORT_AUTHORISATION_WINDOW_DAYS,
  OutboundPaymentImports,
  OutboundPayments,
  Simulator,
  inMemoryEngine
} from "@paykit/engine"
import { ORG, START, dayAfter, fundAccount, setUpCreditor, setUpRecipient } from "./outbound-fixtures.ts"

const DAY = 86_400_000

/** The whole engine in memory, whose simulator runs the outbound jobs in its daily run. */
const simulatedLayer = () => Layer.mergeAll(inMemoryEngine({ seed: 7 }), TestClock.layer())

describe("outbound payments and imports in the simulator's daily run", () => {
  it("validates imports, executes payments on their date and expires unauthorised imports as time passes", async () => {
    const r = await Effect.runPromise(Effect.provide(Effect.gen(function*() {
      yield* TestClock.setTime(START)
      const simulator = yield* Simulator
      const outbound = yield* OutboundPayments
      const imports = yield* OutboundPaymentImports
      const creditor = yield* setUpCreditor(ORG, { verified: false })
      const recipient = yield* setUpRecipient(ORG)
      yield* fundAccount(ORG, { amount: 1_000, links: { creditor: creditor.id } })
      const p = yield* outbound.create(ORG, { amount: 700, scheme: "faster_payments", execution_date: dayAfter(2), links: { recipient_bank_account: recipient.id } })
      yield* outbound.approve(ORG, p.id)
      const batch = yield* imports.create(ORG, { entry_items: [{ scheme: "faster_payments", amount: 50, recipient_bank_account_id: recipient.id }] })
      yield* simulator.advanceBy(DAY)
      const afterOneDay = { payment: (yield* outbound.get(ORG, p.id)).status, batch: (yield* imports.get(ORG, batch.id)).status }
      yield* simulator.advanceBy(DAY)
      const afterTwoDays = (yield* outbound.get(ORG, p.id)).status
      yield* simulator.advanceBy(OUTBOUND_PAYMENT_IMPORT_AUTHORISATION_WINDOW_DAYS * DAY)
      const expired = (yield* imports.get(ORG, batch.id)).status
      return { afterOneDay, afterTwoDays, expired }
    }), simulatedLayer()))
    expect(r.afterOneDay).toEqual({ payment: "scheduled", batch: "valid" })
    expect(r.afterTwoDays).toBe("executed")
    expect(r.expired).toBe("cancelled")
  })
})
