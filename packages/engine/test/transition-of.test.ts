import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { addDays, timestampFromMillis, unsafeLocalDate } from "@paykit/core"
import { OUTBOUND_PAYMENT_EVENTS, OUTBOUND_PAYMENT_STATUSES, outboundPaymentMachine, transition } from "@paykit/machines"
import { transitionOf } from "../src/services/support.ts"

const DAY = unsafeLocalDate("2026-11-23")
const day = fc.integer({ min: -5, max: 5 }).map((n) => addDays(DAY, n))

const resource = (status: (typeof OUTBOUND_PAYMENT_STATUSES)[number]) => ({ id: "OUT000000000001", status, amount: 100, metadata: { k: "v" } })

/**
 * `transitionOf` is the engine's one reading of a machine's table for a status change
 * (`applyTransition` stores what it gives; a creation that moves on at once stores only its
 * result), so it must say exactly what the table says.
 */
describe("transitionOf", () => {
  it("accepts exactly what the machine's table accepts, moves to its state and drafts the event it names", () => {
    fc.assert(fc.property(
      fc.constantFrom(...OUTBOUND_PAYMENT_STATUSES),
      fc.constantFrom(...OUTBOUND_PAYMENT_EVENTS),
      fc.option(day, { nil: null }),
      day,
      fc.boolean(),
      (status, event, execution_date, today, patched) => {
        const at = timestampFromMillis(Date.UTC(2026, 10, 23, 9))
        const context = { execution_date, today }
        const cause = { origin: "api" as const, cause: "test" }
        const request = {
          machine: outboundPaymentMachine,
          event,
          context,
          cause,
          links: { outbound_payment: "OUT000000000001" },
          extra: { scheme: "faster_payments" },
          ...(patched ? { patch: (p: ReturnType<typeof resource>) => ({ ...p, amount: p.amount + 1 }) } : {})
        }
        const got = transitionOf(resource(status), request, at)
        const table = transition(outboundPaymentMachine, status, event, { at, cause, context })
        expect(Result.isSuccess(got)).toBe(Result.isSuccess(table))
        if (Result.isFailure(table) || Result.isFailure(got)) {
          if (Result.isFailure(table) && Result.isFailure(got)) expect(got.failure).toEqual(table.failure)
          return
        }
        expect(got.success.next).toEqual({ ...resource(status), amount: patched ? 101 : 100, status: table.success.to })
        if (table.success.emits === null) {
          expect(got.success.event).toBeUndefined()
        } else {
          expect(got.success.event).toEqual({
            resource_type: "outbound_payments",
            action: table.success.emits,
            links: request.links,
            cause,
            resource_metadata: { k: "v" },
            extra: { scheme: "faster_payments" }
          })
        }
      }
    ), { numRuns: 300 })
  })
})
