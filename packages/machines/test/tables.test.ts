import { InvalidState } from "@paykit/core"
import fc from "fast-check"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { type AnyMachine, MACHINES, rulesFor, transition } from "../src/index.ts"
import { CASES, causeArb, timestampArb } from "@paykit/machines/testing"

// The table's meaning, restated directly from its rows: the first candidate rule whose guard
// holds wins; with candidates but none holding, the last candidate's refusal is the answer.
const expected = (machine: AnyMachine, state: string, event: string, context: never, at: Parameters<typeof transition>[3]["at"]) => {
  const candidates = machine.transitions.filter((r) => r.event === event && r.from.includes(state))
  const winner = candidates.find((r) => r.guard === undefined || r.guard.check(context, at) === undefined)
  return { candidates, winner }
}

describe.each(CASES.map((c) => [c.machine.name, c] as const))("%s table", (_name, { machine, context }) => {
  const stateEventArb = fc.tuple(fc.constantFrom(...machine.states), fc.constantFrom(...machine.events))

  it("accepts no (state, event) pair outside the table, answering InvalidState with the declared reason", () => {
    fc.assert(
      fc.property(stateEventArb, context, timestampArb, causeArb, ([state, event], ctx, at, cause) => {
        fc.pre(rulesFor(machine, state, event).length === 0)
        const result = transition(machine, state, event, { at, cause, context: ctx as never })
        expect(Result.isFailure(result)).toBe(true)
        if (Result.isFailure(result)) {
          expect(result.failure).toBeInstanceOf(InvalidState)
          expect(result.failure.reason).toBe(machine.transitions.find((r) => r.event === event)?.reason)
        }
      })
    )
  })

  it("rejects every pair outside the table, exhaustively", () => {
    for (const state of machine.states) {
      for (const event of machine.events) {
        if (rulesFor(machine, state, event).length > 0) continue
        const [ctx] = fc.sample(context, { numRuns: 1, seed: 1 })
        const at = fc.sample(timestampArb, { numRuns: 1, seed: 1 })[0]
        if (at === undefined) throw new Error("no sample")
        const result = transition(machine, state, event, { at, cause: { origin: "api", cause: "test" }, context: ctx as never })
        expect(Result.isFailure(result), `${state} + ${event}`).toBe(true)
      }
    }
  })

  it("every accepted transition emits its declared event and returns its history entry", () => {
    fc.assert(
      fc.property(stateEventArb, context, timestampArb, causeArb, ([state, event], ctx, at, cause) => {
        const { candidates, winner } = expected(machine, state, event, ctx as never, at)
        const result = transition(machine, state, event, { at, cause, context: ctx as never })
        if (winner === undefined) {
          expect(Result.isFailure(result)).toBe(true)
          if (Result.isFailure(result) && candidates.length > 0) {
            const last = candidates[candidates.length - 1]
            expect(result.failure.reason).toBe(last?.guard?.check(ctx as never, at)?.reason)
          }
          return
        }
        expect(Result.isSuccess(result)).toBe(true)
        if (Result.isSuccess(result)) {
          expect(result.success).toEqual({
            resource_type: machine.name,
            from: state,
            to: winner.to,
            event,
            emits: winner.emits,
            at,
            cause
          })
        }
      })
    )
  })

  it("terminal states have no way out and every state is reachable from an initial one", () => {
    for (const t of machine.terminal) {
      expect(machine.events.filter((e) => rulesFor(machine, t, e).length > 0)).toEqual([])
    }
    const reached = new Set<string>(machine.initial)
    for (let grew = true; grew;) {
      grew = false
      for (const r of machine.transitions) {
        if (r.from.some((f) => reached.has(f)) && !reached.has(r.to)) {
          reached.add(r.to)
          grew = true
        }
      }
    }
    expect([...reached].sort()).toEqual([...machine.states].sort())
  })
})

describe("the registry", () => {
  it("holds every machine once", () => {
    expect(new Set(MACHINES.map((m) => m.name)).size).toBe(MACHINES.length)
    expect(CASES.map((c) => c.machine.name)).toEqual(MACHINES.map((m) => m.name))
  })
})
