import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { addDays, timestampFromMillis, unsafeLocalDate } from "@paykit/core"
import { creation, creditorVerificationMachine, MACHINES, stateFieldOf, OUTBOUND_PAYMENT_EVENTS, OUTBOUND_PAYMENT_STATUSES, outboundPaymentMachine, transition } from "@paykit/machines"
import { creationOf, transitionOf } from "../src/kernel/support.ts"

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

/**
 * `creationOf` is the engine's one reading of a machine's table for a creation (`applyCreation`
 * stores what it gives): the status and the event are the creation entry's, and the resource
 * keeps its Schema's field order, so it reads the same on every storage.
 */
describe("creationOf", () => {
  it("creates exactly in the machine's initial states, with the event the table names, in the Schema's field order", () => {
    const at = timestampFromMillis(Date.UTC(2026, 10, 23, 9))
    const cause = { origin: "api" as const, cause: "test" }
    const schema = Schema.Struct({ id: Schema.String, amount: Schema.Number, status: Schema.String, metadata: Schema.Record(Schema.String, Schema.String) })
    // The creditor verification machine keeps its state in `verification_status`; the others in `status`.
    for (const machine of MACHINES.filter((m) => stateFieldOf(m) === "status")) {
      for (const state of machine.states) {
        const got = creationOf<typeof schema.Type, string, string, never>({ machine, state, resource: { metadata: { k: "v" }, amount: 1, id: "X1" }, cause, links: { x: "X1" } }, at, schema)
        const table = creation(machine, state, { at, cause })
        expect(Result.isSuccess(got)).toBe(machine.initial.includes(state))
        if (Result.isFailure(got) || Result.isFailure(table)) continue
        expect(Object.keys(got.success.next)).toEqual(["id", "amount", "status", "metadata"])
        expect(got.success.next.status).toBe(state)
        expect(got.success.event?.action ?? null).toBe(table.success.emits)
      }
    }
  })

  it("writes the state of a machine that names its field there, in the Schema's field order, and moves it there", () => {
    const at = timestampFromMillis(Date.UTC(2026, 10, 23, 9))
    const cause = { origin: "api" as const, cause: "test" }
    const schema = Schema.Struct({ id: Schema.String, verification_status: Schema.Literals(["action_required", "in_review", "successful"]), name: Schema.String })
    const got = creationOf<typeof schema.Type, "action_required" | "in_review" | "successful", string, Record<never, never>>(
      { machine: creditorVerificationMachine, state: "action_required", resource: { name: "N", id: "CR1" }, cause, links: {} }, at, schema)
    if (Result.isFailure(got)) throw got.failure
    expect(got.success.next).toEqual({ id: "CR1", verification_status: "action_required", name: "N" })
    expect(Object.keys(got.success.next)).toEqual(["id", "verification_status", "name"])
    const moved = transitionOf(got.success.next, { machine: creditorVerificationMachine, event: "submit_details", context: {}, cause, links: {} }, at)
    if (Result.isFailure(moved)) throw moved.failure
    expect(moved.success.next).toEqual({ id: "CR1", verification_status: "in_review", name: "N" })
    expect("status" in moved.success.next).toBe(false)
  })
})
