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

/** At START: the simulator and the outbound services, an unverified creditor whose account holds 1,000, and a recipient. */
const setUp = Effect.gen(function*() {
  yield* TestClock.setTime(START)
  const creditor = yield* setUpCreditor(ORG, { verified: false })
  const recipient = yield* setUpRecipient(ORG)
  yield* fundAccount(ORG, { amount: 1_000, links: { creditor: creditor.id } })
  return { simulator: yield* Simulator, outbound: yield* OutboundPayments, imports: yield* OutboundPaymentImports, recipient }
})

describe("outbound payments and imports in the simulator's daily run", () => {
  it("validates imports, executes payments on their date and expires unauthorised imports as time passes", async () => {
    const r = await Effect.runPromise(Effect.provide(Effect.gen(function*() {
      const { simulator, outbound, imports, recipient } = yield* setUp
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

describe("the library's simulator runs the same due rows as a server", () => {
  it("an import is validated seconds after its creation, and a dated payment left unapproved is cancelled as its date ends, not at the next 06:00", async () => {
    const r = await Effect.runPromise(Effect.provide(Effect.gen(function*() {
      const { simulator, outbound, imports, recipient } = yield* setUp
      const batch = yield* imports.create(ORG, { entry_items: [{ scheme: "faster_payments", amount: 50, recipient_bank_account_id: recipient.id }] })
      const p = yield* outbound.create(ORG, { amount: 70, scheme: "faster_payments", execution_date: dayAfter(0), links: { recipient_bank_account: recipient.id } })
      yield* simulator.advanceBy(60_000)
      const batchAfterAMinute = (yield* imports.get(ORG, batch.id)).status
      // START is 09:00 on a November day (GMT): its date ends at midnight, six hours before the daily run.
      yield* simulator.advanceTo(Date.UTC(2026, 10, 24, 0, 1))
      return { batchAfterAMinute, payment: (yield* outbound.get(ORG, p.id)).status }
    }), simulatedLayer()))
    expect(r.batchAfterAMinute).toBe("valid")
    expect(r.payment).toBe("cancelled")
  })
})
