import { Effect } from "effect"
import { OrganisationId, type StorageError, type StorageFailure } from "@paykit/core"
import { type DueKind, dueDone, type DueRequest, DueWorkSchedule } from "./port.ts"

/**
 * Deadlines as due work. A use case that makes a resource with a deadline (a bank authorisation's
 * 15 minutes, an outbound payment's approval window, an import's authorisation window) schedules a
 * row at that instant, in its own unit of work; the row's handler runs the feature's sweep for the
 * organisation at that instant, in a server's worker and in the library's simulator alike. The
 * daily run's deadline jobs stay as the net under it.
 */

/**
 * The schedule the service is built with: the composition's `DueWorkSchedule` (every
 * `EngineStorage` has one: SQL in a server or an embedder's store-sql, `InMemoryDueWork` in
 * memory), or, for a service composed by hand without one, none: its deadlines are then met by the
 * daily run's net only.
 */
export const optionalSchedule: Effect.Effect<(request: DueRequest) => Effect.Effect<void, StorageError>> = Effect.map(
  Effect.serviceOption(DueWorkSchedule),
  (schedule) => schedule._tag === "Some" ? schedule.value.schedule : () => Effect.void
)

/** A kind whose handler runs `sweep` for the item's organisation at the item's instant. */
export const sweepKind = (kind: string, sweep: (organisation: OrganisationId) => Effect.Effect<unknown, StorageFailure>): DueKind => ({
  kind,
  // The sweeps isolate their items in units of work of their own (`captureDailyItems`).
  ownUnitsOfWork: true,
  run: (item) => Effect.as(sweep(OrganisationId(item.organisation)), dueDone)
})
