import { Context, Effect, Layer } from "effect"
import type { FilterKeyOf, ResourceDefinition, ResourceOf } from "./definition.ts"
import { type Repository, RepositoryBackend } from "./ports/repository.ts"

/** The repository port of the resource a definition describes. */
export type RepositoryOf<D> = Repository<ResourceOf<D>, FilterKeyOf<D>>

/**
 * The class-style service key of a resource's repository, keyed `@paykit/engine/<name>`; the
 * definition gives the repository's type:
 * `class XRepository extends repositoryService<XRepository>()("XRepository", xs) {}`.
 */
export const repositoryService = <Self>() => <const N extends string, D>(name: N, _definition: D) =>
  Context.Service<Self, RepositoryOf<D>>()(`@paykit/engine/${name}` as const)

/** The layer of one repository, built from whichever storage backend is provided. */
export const fromBackend = <I, A extends { readonly id: string; readonly created_at: string }, K extends string>(
  tag: Context.Key<I, Repository<A, K>>,
  definition: ResourceDefinition<A, K>
): Layer.Layer<I, never, RepositoryBackend> =>
  Layer.effect(tag, Effect.map(RepositoryBackend, (backend: RepositoryBackend["Service"]) => backend.repository(definition)))
