import { Cause, Effect, Exit, Schema } from "effect"
import { ID_PREFIXES, lowestIdAt, timestampFromMillis } from "@paykit/core"
import type { Event } from "../kernel/domain/events.ts"

/**
 * What the storage contract's suites share: a case, the failure a case reports, and the sample
 * rows they store. A case is a plain Effect, so any test runner can run it.
 */

export class ContractViolation extends Schema.TaggedError<ContractViolation>()("ContractViolation", {
  message: Schema.String
}) {}

/** One obligation of a storage adapter, as an Effect over the ports it needs (`R`), run on a fresh, empty store. */
export interface ContractCase<R = never> {
  readonly name: string
  readonly run: Effect.Effect<void, unknown, R>
}

export const check = (condition: boolean, message: string): Effect.Effect<void, ContractViolation> =>
  condition ? Effect.void : Effect.fail(new ContractViolation({ message }))

/**
 * Whether `exit` failed with a typed error of `tag` (in the error channel, catchable with
 * `Effect.catchTag`), not a defect: what the ports promise for `DuplicateId` and `StorageError`.
 */
export const failedWith = (exit: Exit.Exit<unknown, unknown>, tag: string): boolean =>
  Exit.isFailure(exit) && exit.cause.reasons.some((reason) =>
    Cause.isFailReason(reason) && typeof reason.error === "object" && reason.error !== null && Reflect.get(reason.error, "_tag") === tag)

/** Two lists of the same values in the same order, or a violation naming both. */
export const sameList = (actual: ReadonlyArray<string>, expected: ReadonlyArray<string>, what: string) =>
  check(JSON.stringify(actual) === JSON.stringify(expected), `${what}: got [${actual.join(", ")}], expected [${expected.join(", ")}]`)

/** The instant the samples are dated from: sample `n` is `n` seconds after it. */
export const SAMPLE_BASE_MS = Date.UTC(2026, 0, 1)

export const CONTRACT_ORG = "OR000000000001"
export const CONTRACT_OTHER_ORG = "OR000000000002"

/** An event `n` seconds after the base instant (or at `atMillis`); its id sorts by its instant. */
export const sampleEvent = (
  n: number,
  resourceType: Event["resource_type"],
  action: string,
  links: Record<string, string>,
  atMillis: number = SAMPLE_BASE_MS + n * 1000
): Event => ({
  id: lowestIdAt(ID_PREFIXES.event, atMillis).slice(0, -3) + String(n % 1000).padStart(3, "0"),
  created_at: timestampFromMillis(atMillis),
  resource_type: resourceType,
  action,
  links,
  details: { origin: "api", cause: action, description: `${resourceType} ${action}` },
  metadata: {},
  resource_metadata: {}
})
