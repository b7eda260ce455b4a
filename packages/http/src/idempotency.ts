import { Context, Deferred, Effect, Layer } from "effect"
import { IDEMPOTENCY_KEY_LIFETIME_MS, millisIn } from "@paykit/core"

/**
 * Idempotent creation, as GoCardless does it. A creating POST may carry an `Idempotency-Key`; the
 * first request with a key in an organisation runs and, when it creates a resource, the key is kept
 * with that resource's id. Any later request with the key in that organisation, whatever its body,
 * creates nothing: it is answered 409 `idempotent_creation_conflict` naming the resource (the
 * official client then fetches it, or raises `IdempotentCreationConflictError`). A request that
 * creates nothing (it fails) leaves the key free, so the client can retry with it.
 *
 * The key and the resource commit together: a store on a database runs the claim, the creation and
 * the key's record in one transaction, so a crash at any instant leaves both or neither.
 */

/** The longest key accepted (the real API's limit). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 128

/** How long a key is kept (@paykit/core's limits: retention in the engine reads it too). */
export { IDEMPOTENCY_KEY_LIFETIME_MS }

/** What a keyed creation came to: it ran (`value` is its result), or the key had created `resourceId` before. */
export type KeyedCreation<A> =
  | { readonly _tag: "Created"; readonly value: A }
  | { readonly _tag: "Conflict"; readonly resourceId: string }

/**
 * The port. `once` runs `create` for the first request with a key and keeps the key when
 * `createdId` names the resource its result created; a result naming none, a failure, a defect or
 * an interruption leave the key free. Of concurrent requests with one key, one runs and the others
 * wait for it, then conflict (it created) or run in turn (it did not).
 */
export type KeyedCreate = <A, E, R>(
  organisation: string,
  key: string,
  create: Effect.Effect<A, E, R>,
  createdId: (value: A) => string | undefined
) => Effect.Effect<KeyedCreation<A>, E, R>

export class IdempotencyStore extends Context.Service<IdempotencyStore, { readonly once: KeyedCreate }>()("@paykit/http/IdempotencyStore") {
  /** Keys in this process's memory, for the in-memory engine: same semantics, nothing survives a restart. */
  static readonly layerMemory: Layer.Layer<IdempotencyStore> = Layer.sync(IdempotencyStore, () => {
    type Entry =
      | { readonly _tag: "Running"; readonly done: Deferred.Deferred<void> }
      | { readonly _tag: "Kept"; readonly resourceId: string; readonly atMillis: number }
    const entries = new Map<string, Entry>()
    const slotOf = (organisation: string, key: string) => `${organisation}\u0000${key}`
    const once: KeyedCreate = (organisation, key, create, createdId) =>
      Effect.withFiber((fiber) => {
        const slot = slotOf(organisation, key)
        const now = millisIn(fiber)
        const existing = entries.get(slot)
        // Another request holds the key: wait for it to end, then look again.
        if (existing?._tag === "Running") return Effect.andThen(Deferred.await(existing.done), once(organisation, key, create, createdId))
        if (existing !== undefined && !isExpired(existing.atMillis, now)) {
          return Effect.succeed({ _tag: "Conflict", resourceId: existing.resourceId } as const)
        }
        const running: Entry = { _tag: "Running", done: Deferred.makeUnsafe<void>() }
        entries.set(slot, running)
        return create.pipe(
          Effect.map((value) => {
            const resourceId = createdId(value)
            if (resourceId === undefined) entries.delete(slot)
            else entries.set(slot, { _tag: "Kept", resourceId, atMillis: now })
            return { _tag: "Created", value } as const
          }),
          Effect.onExit((exit) =>
            Effect.sync(() => {
              if (exit._tag === "Failure" && entries.get(slot) === running) entries.delete(slot)
              Deferred.doneUnsafe(running.done, Effect.void)
            })
          )
        )
      })
    return IdempotencyStore.of({ once })
  })
}

/** Whether a key kept since `keptAtMillis` has outlived its lifetime at `nowMillis`. */
export const isExpired = (keptAtMillis: number, nowMillis: number): boolean => nowMillis - keptAtMillis >= IDEMPOTENCY_KEY_LIFETIME_MS
