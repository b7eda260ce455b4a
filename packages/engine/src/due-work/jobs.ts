import type { OrganisationId } from "@paykit/core"
import { Context, Effect, Layer } from "effect"
import type { StorageFailure } from "@paykit/core"

/** A job of the daily run, for one organisation. */
export interface DailyJob {
  readonly name: string
  readonly run: (organisation: OrganisationId) => Effect.Effect<void, StorageFailure>
}

/**
 * The due work a feature declares: a job of the daily run, its place in the run's order (lower
 * first; docs/engine.md lists the order) and whether it is a deadline: a deadline falls at any
 * time of day and is a due row of its own at its instant (the feature's `due.ts`); its job in the
 * daily run is the net under those rows.
 */
export interface DueWork extends DailyJob {
  readonly order: number
  readonly deadline: boolean
}

/** A feature's due work, read from its services when the engine is built. */
export type DueWorkDeclaration<R> = Effect.Effect<ReadonlyArray<DueWork>, never, R>

/** Two declarations that contradict each other: a programming error, found when the engine is built. */
export class JobRegistryError extends Error {
  override readonly name = "JobRegistryError"
}

const inOrder = (declared: ReadonlyArray<DueWork>): ReadonlyArray<DueWork> => {
  const names = new Set(declared.map((job) => job.name))
  const orders = new Set(declared.map((job) => job.order))
  if (names.size !== declared.length) throw new JobRegistryError("two jobs of the daily run have one name")
  // The order must not depend on the order the features were composed in.
  if (orders.size !== declared.length) throw new JobRegistryError("two jobs of the daily run have one place in its order")
  return [...declared].sort((a, b) => a.order - b.order)
}

/**
 * The due work of every feature, in the daily run's order. The kernel's simulator runs it and
 * knows no feature: `engine.ts` composes the features' declarations into this registry.
 */
export class JobRegistry extends Context.Service<JobRegistry, {
  /** Every job, in order. */
  readonly jobs: ReadonlyArray<DueWork>
  /** The deadlines among them, in order (each also a due row at its instant). */
  readonly deadlines: ReadonlyArray<DueWork>
}>()("@paykit/engine/JobRegistry") {
  /** The registry of the due work `declared` gives, sorted by its order. */
  static readonly layer = <R>(declared: DueWorkDeclaration<R>): Layer.Layer<JobRegistry, never, R> =>
    Layer.effect(
      JobRegistry,
      Effect.map(declared, (jobs) => {
        const ordered = inOrder(jobs)
        return JobRegistry.of({ jobs: ordered, deadlines: ordered.filter((job) => job.deadline) })
      })
    )
}
