import { Context, Effect, Layer, Schema } from "effect"
import type { EngineStorage } from "../engine.ts"
import { type Repository, RepositoryBackend } from "../kernel/ports/repository.ts"

/** The defect a `FailureInjection` store raises for the chosen id. */
export class InjectedFailure extends Schema.TaggedError<InjectedFailure>()("InjectedFailure", {
  id: Schema.String
}) {
  override get message(): string {
    return `injected failure for ${this.id}`
  }
}

/**
 * A storage adapter wrapped so that reading or writing one chosen id dies (a defect, as a broken
 * row or store would): tests show with it that one item of a daily run that cannot be processed
 * stops nothing else, and is processed by a later run once the failure stops.
 */
export class FailureInjection extends Context.Service<FailureInjection, {
  /** From now on every `get`, `insert` and `update` of a resource with one of these ids dies; `[]` stops. */
  readonly failFor: (ids: ReadonlyArray<string>) => Effect.Effect<void>
}>()("@paykit/engine/testing/FailureInjection") {}

const failing = <A extends { readonly id: string; readonly created_at: string }, K extends string>(
  inner: Repository<A, K>,
  chosen: () => ReadonlySet<string>
): Repository<A, K> => {
  const guard = <B, E>(id: string, effect: Effect.Effect<B, E>): Effect.Effect<B, E> =>
    Effect.suspend(() => chosen().has(id) ? Effect.die(new InjectedFailure({ id })) : effect)
  return {
    ...inner,
    get: (organisation, id) => guard(id, inner.get(organisation, id)),
    insert: (organisation, resource) => guard(resource.id, inner.insert(organisation, resource)),
    update: (organisation, resource, expectedVersion) => guard(resource.id, inner.update(organisation, resource, expectedVersion))
  }
}

/** `storage` with a `FailureInjection` over its repositories (scans, lists and the event log are left alone). */
export const withFailureInjection = <E, R>(storage: Layer.Layer<EngineStorage, E, R>): Layer.Layer<EngineStorage | FailureInjection, E, R> =>
  Layer.effectContext(Effect.gen(function*() {
    const context = yield* Effect.context<EngineStorage>()
    const backend = Context.get(context, RepositoryBackend)
    let chosen: ReadonlySet<string> = new Set()
    const wrapped = RepositoryBackend.of({
      ...backend,
      repository: (definition) => failing(backend.repository(definition), () => chosen)
    })
    return context.pipe(
      Context.add(RepositoryBackend, wrapped),
      Context.add(FailureInjection, FailureInjection.of({ failFor: (ids) => Effect.sync(() => { chosen = new Set(ids) }) }))
    )
  })).pipe(Layer.provide(storage))
