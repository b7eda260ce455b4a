import { Exit } from "effect"
import { expect } from "vitest"
import { ID_PREFIXES, InvalidState, lowestIdAt, timestampFromMillis, OrganisationId } from "@paykit/core"
import { type Event } from "@paykit/engine"
import { sampleCustomer } from "@paykit/engine/testing"

export const ORG = OrganisationId("OR000000000001")
export const OTHER = "OR000000000002"

const BASE_MS = Date.UTC(2026, 0, 1)

export const customer = sampleCustomer

export const event = (n: number, links: Record<string, string> = {}): Event => {
  const ms = BASE_MS + n * 1000
  return {
    id: lowestIdAt(ID_PREFIXES.event, ms),
    created_at: timestampFromMillis(ms),
    resource_type: "customers",
    action: "created",
    links,
    details: { origin: "api", cause: "customer_created", description: "Customer created." },
    metadata: {},
    resource_metadata: {}
  }
}

/** Concurrent first writes of a one-per-creditor record: at least one made it, and every other lost the race as a 409 `conflict`. */
export const expectOneWinnerRestConflicts = (outcomes: ReadonlyArray<Exit.Exit<unknown, unknown>>): void => {
  for (const outcome of outcomes) {
    if (Exit.isFailure(outcome)) {
      const error = outcome.cause.reasons.find((r) => r._tag === "Fail")
      expect(error?._tag === "Fail" && error.error instanceof InvalidState && error.error.reason).toBe("conflict")
    }
  }
  expect(outcomes.some(Exit.isSuccess)).toBe(true)
}
