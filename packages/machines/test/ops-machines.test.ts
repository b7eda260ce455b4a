import { InvalidState } from "@paykit/core"
import fc from "fast-check"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import {
  INSTALMENT_SCHEDULE_EVENTS,
  instalmentScheduleMachine,
  MANDATE_IMPORT_EVENTS,
  mandateImportMachine,
  transition
} from "../src/index.ts"
import { causeArb, timestampArb } from "@paykit/machines/testing"

/**
 * The instalment schedule and mandate import machines against models written out from the real
 * API's documentation, not read from the tables: for any sequence of events, each is accepted
 * exactly when the model says so, and lands where the model says.
 */

// GoCardless: payments are made (active) or refused (creation_failed); active completes or errors;
// an errored schedule resumes when its payment is retried; anything not finished can be cancelled.
const INSTALMENT_MODEL: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  pending: { payments_created: "active", creation_failed: "creation_failed", cancel: "cancelled" },
  active: { complete: "completed", error: "errored", cancel: "cancelled" },
  errored: { resume: "active", cancel: "cancelled" },
  creation_failed: {},
  completed: {},
  cancelled: {}
}

// GoCardless: entries are added while created; submitted imports are processed in the sandbox;
// only a created import can be cancelled.
const IMPORT_MODEL: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  created: { submit: "submitted", cancel: "cancelled" },
  submitted: { start_processing: "processing" },
  processing: { finish_processing: "processed" },
  processed: {},
  cancelled: {}
}

const walk = (
  machine: typeof instalmentScheduleMachine | typeof mandateImportMachine,
  model: Readonly<Record<string, Readonly<Record<string, string>>>>,
  start: string,
  events: ReadonlyArray<string>
) =>
  fc.assert(fc.property(fc.array(fc.constantFrom(...events), { maxLength: 12 }), timestampArb, causeArb, (sequence, at, cause) => {
    let state = start
    for (const event of sequence) {
      const expected = model[state]?.[event]
      const outcome = transition(machine as never, state as never, event as never, { at, cause, context: {} as never })
      if (expected === undefined) {
        expect(Result.isFailure(outcome)).toBe(true)
        if (Result.isFailure(outcome)) expect(outcome.failure).toBeInstanceOf(InvalidState)
      } else {
        expect(Result.isSuccess(outcome) ? outcome.success.to : "refused").toBe(expected)
        state = expected
      }
    }
  }))

describe("the instalment schedule machine", () => {
  it("accepts exactly the moves of the real API's lifecycle", () => {
    walk(instalmentScheduleMachine, INSTALMENT_MODEL, "pending", INSTALMENT_SCHEDULE_EVENTS)
  })
  it("announces creation, failure, completion, errors, resumption and cancellation, and no move to active", () => {
    const emitted = Object.fromEntries(instalmentScheduleMachine.transitions.map((r) => [r.event, r.emits]))
    expect(instalmentScheduleMachine.created).toBe("created")
    expect(emitted).toEqual({
      payments_created: null,
      creation_failed: "creation_failed",
      complete: "completed",
      error: "errored",
      resume: "resumed",
      cancel: "cancelled"
    })
  })
})

describe("the mandate import machine", () => {
  it("accepts exactly the moves of the real API's lifecycle", () => {
    walk(mandateImportMachine, IMPORT_MODEL, "created", MANDATE_IMPORT_EVENTS)
  })
  it("sends no event: the real API has none for imports", () => {
    expect(mandateImportMachine.created).toBeNull()
    expect(mandateImportMachine.transitions.every((r) => r.emits === null)).toBe(true)
  })
})
