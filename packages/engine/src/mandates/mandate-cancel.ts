import { Context, Effect } from "effect"
import type { InvalidState, Metadata, StorageError } from "@paykit/core"
import { type Cause, mandateMachine } from "@paykit/machines"
import type { Versioned } from "../kernel/ports/repository.ts"
import type { EngineContext } from "../kernel/support.ts"
import type { Mandate } from "./domain/mandates.ts"
import { moveMandate } from "./mandate-rules.ts"
import type { MandateRepository } from "./repositories.ts"

/** The states a machine's table lets `event` leave: read from the table, so the two never disagree. */
export const statesAccepting = <S extends string, E extends string>(machine: { readonly transitions: ReadonlyArray<{ readonly event: E; readonly from: ReadonlyArray<S> }> }, event: E): ReadonlyArray<S> =>
  [...new Set(machine.transitions.filter((rule) => rule.event === event).flatMap((rule) => rule.from))]

/** Mandates that can still be cancelled (the mandate machine's `cancel` sources). */
export const CANCELLABLE_MANDATE_STATUSES: ReadonlyArray<Mandate["status"]> = statesAccepting(mandateMachine, "cancel")

/**
 * What a cancelled mandate takes with it, the port the mandates call and the rooms above them
 * implement (the payments not yet submitted and the live subscriptions: `subscriptions/mandate-endings.ts`).
 * A port and not an import because payments and subscriptions are made on mandates: they read
 * the mandates, so the mandates cannot read them. Runs in the caller's unit of work.
 */
export class MandateEndings extends Context.Service<MandateEndings, {
  readonly cancelled: (organisation: string, mandate: Mandate, cause: Cause) => Effect.Effect<void, InvalidState | StorageError, EngineContext>
}>()("@paykit/engine/MandateEndings") {}

export interface MandateCancelDeps {
  readonly mandates: MandateRepository["Service"]
  readonly endings: MandateEndings["Service"]
}

/**
 * A mandate cancelled, and with it every payment of it not yet submitted and every subscription
 * on it still live, each through its machine with its own event, in the caller's unit of work.
 * The real API does this at once (they are `cancelled` with the cause `mandate_cancelled`); the
 * daily run's cancellation at submission stays for mandates that end otherwise (failed, expired).
 * The body's metadata goes on the mandate's cancellation event, as the real API keeps it.
 */
export const cancelMandateWithPayments = (deps: MandateCancelDeps, organisation: string, current: Versioned<Mandate>, cause: Cause, eventMetadata?: Metadata) =>
  Effect.gen(function*() {
    const cancelled = yield* moveMandate(deps.mandates, organisation, current, "cancel", cause, undefined, eventMetadata)
    yield* deps.endings.cancelled(organisation, cancelled, { origin: cause.origin, cause: "mandate_cancelled", description: "The mandate for this payment was cancelled." })
    return cancelled
  })
