import { Context, Effect } from "effect"

/**
 * The organisation whose work the fiber runs, where there is one: set around a request once its
 * caller is known, around a due item's run and an organisation's advance, and by the stores
 * around what they do for one organisation (an outbox batch, a due row's claim). A store may route by
 * it and nothing may depend on it for correctness (it is a hint, unset for work across
 * organisations): store-sql on a Citus cluster sends the statements to the node holding that
 * organisation's shards, where they run without a second backend planning them again.
 */
export const WorkingOrganisation = Context.Reference<string | undefined>("@paykit/engine/WorkingOrganisation", { defaultValue: () => undefined })

/** `effect` with its statements routed by `organisation` (`WorkingOrganisation`). */
export const forOrganisation = (organisation: string) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.provideService(effect, WorkingOrganisation, organisation)
