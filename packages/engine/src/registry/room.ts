import { type Context, Effect, Layer, type Schema } from "effect"
import type { StorageError } from "@paykit/core"
import type { DueWork } from "../due-work/jobs.ts"
import type { ResourceDefinition } from "../kernel/definition.ts"
import type { DueWorkDeclarations } from "../due-work/port.ts"
import type { Repository, RepositoryBackend } from "../kernel/ports/repository.ts"
import { fromBackend } from "../kernel/repository-service.ts"
import { withOperationSpans } from "./operation-spans.ts"

/**
 * What a room hands the centre, in its `room.ts`: everything `repositories.ts`,
 * `request-schemas.ts` and `engine.ts` used to import file by file, so a new resource touches its
 * room and, for a new room, one line of `src/rooms.ts`. Every part is optional: a room with no
 * storage, bodies or due work (scenarios, retention) has no module. An `Effect` is covariant in
 * what it needs and a `Layer` contravariant in what it provides, so `unknown` and `never` below
 * admit any room's; the centre reads each room's own types from its literal type.
 */
export interface Room {
  /** Its stored resources, each with its repository (`store`): a storage adapter makes one table of each. */
  readonly stores?: ReadonlyArray<Store<never>>
  /** Its request bodies by API resource and action (`REQUEST_BODIES`). */
  readonly requestBodies?: { readonly [resource: string]: { readonly [action: string]: Schema.Top } }
  /** Its jobs of the daily run (`jobs.ts`). */
  readonly dueWork?: Effect.Effect<ReadonlyArray<DueWork>, never, unknown>
  /** Its deadlines and pumps, which a server's worker runs besides the daily run. */
  readonly deadlines?: Effect.Effect<DueWorkDeclarations, never, unknown>
  /** Its services, built on those of the rooms below it (`servicesOf`). */
  readonly services?: Layer.Layer<never, never, unknown>
  /** The ports of lower rooms it implements, provided under every room's services (`portsOf`). */
  readonly ports?: Layer.Layer<never, never, unknown>
}

/** One stored resource of a room: its definition, and its repository built from the storage backend. */
export interface Store<I> {
  readonly definition: { readonly name: string; readonly filters: object }
  readonly layer: Layer.Layer<I, never, RepositoryBackend>
}

/** The store of `definition` under its repository's key (`repositoryService`). */
export const store = <I, A extends { readonly id: string; readonly created_at: string }, K extends string>(
  tag: Context.Key<I, Repository<A, K>>,
  definition: ResourceDefinition<A, K>
): Store<I> => ({ definition, layer: fromBackend(tag, definition) })

/** Defines a room's module with its literal types (the centre derives exact types from them). */
export const defineRoom = <const R extends Room>(room: R): R => room

/** What the rooms that declare `K` declare under it (a room without it adds nothing). */
type Part<Rooms extends ReadonlyArray<Room>, K extends keyof Room> = Rooms[number] extends infer One
  ? One extends { readonly [P in K]: infer V } ? Exclude<V, undefined> : never
  : never
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never

/** Every room's resources, in the rooms' order: their names and filters are what an adapter reads of them all. */
export const resourcesOf = (rooms: ReadonlyArray<Room>): ReadonlyArray<Store<never>["definition"]> =>
  rooms.flatMap((room) => (room.stores ?? []).map((stored) => stored.definition))

type Repositories<Rooms extends ReadonlyArray<Room>> = Layer.Success<Part<Rooms, "stores">[number]["layer"]>

/**
 * Every room's repositories in one layer. The fold's result is the union of the rooms' layers,
 * which TypeScript cannot follow through `reduce`: the type is stated, from the rooms' own.
 */
export const repositoriesOf = <const Rooms extends ReadonlyArray<Room>>(rooms: Rooms): Layer.Layer<Repositories<Rooms>, never, RepositoryBackend> =>
  rooms.flatMap((room) => room.stores ?? []).reduce<Layer.Layer<never, never, RepositoryBackend>>(
    (all, stored) => Layer.merge(all, stored.layer),
    Layer.empty
  ) as Layer.Layer<Repositories<Rooms>, never, RepositoryBackend>

/** Every room's request bodies in one record, keyed by API resource (two rooms never share a key). */
export const requestBodiesOf = <const Rooms extends ReadonlyArray<Room>>(rooms: Rooms): Intersection<Part<Rooms, "requestBodies">> => {
  const all: Record<string, unknown> = {}
  for (const room of rooms) {
    for (const [resource, bodies] of Object.entries(room.requestBodies ?? {})) {
      if (resource in all) throw new Error(`two rooms declare the request bodies of ${resource}`)
      all[resource] = bodies
    }
  }
  return all as Intersection<Part<Rooms, "requestBodies">>
}

type Needs<E> = E extends Effect.Effect<infer _A, infer _E | StorageError, infer R> ? R : never

/** Every room's jobs of the daily run (the registry orders them by their `order`). */
export const dueWorkOf = <const Rooms extends ReadonlyArray<Room>>(rooms: Rooms): Effect.Effect<ReadonlyArray<DueWork>, never, Needs<Part<Rooms, "dueWork">>> =>
  // Typed from the rooms' own declarations, as `repositoriesOf` is.
  Effect.map(Effect.forEach(rooms, (room) => room.dueWork ?? Effect.succeed([])), (lists) => lists.flat()) as Effect.Effect<
    ReadonlyArray<DueWork>,
    never,
    Needs<Part<Rooms, "dueWork">>
  >

/** Every room's deadlines and pumps. */
export const deadlinesOf = <const Rooms extends ReadonlyArray<Room>>(rooms: Rooms): Effect.Effect<ReadonlyArray<DueWorkDeclarations>, never, Needs<Part<Rooms, "deadlines">>> =>
  Effect.forEach(rooms.flatMap((room) => room.deadlines === undefined ? [] : [room.deadlines]), (declared) => declared) as Effect.Effect<
    ReadonlyArray<DueWorkDeclarations>,
    never,
    Needs<Part<Rooms, "deadlines">>
  >

type Provided<Rooms extends ReadonlyArray<Room>, K extends "services" | "ports"> =
  Part<Rooms, K> extends infer L ? L extends Layer.Layer<infer Out, infer _E, infer _In> ? Out : never : never
type Needed<Rooms extends ReadonlyArray<Room>, K extends "services" | "ports"> = Exclude<
  Part<Rooms, K> extends infer L ? L extends Layer.Layer<infer _Out, infer _E, infer In> ? In : never : never,
  Provided<Rooms, K>
>

/**
 * Every room's services in one layer, each room's built on those of the rooms before it: a
 * room's services need only lower rooms' (its imports point down), so the rooms' order is
 * the order of construction. Typed from the rooms' own layers, as `repositoriesOf` is.
 */
export const servicesOf = <const Rooms extends ReadonlyArray<Room>>(rooms: Rooms): Layer.Layer<Provided<Rooms, "services">, never, Needed<Rooms, "services">> =>
  rooms.reduce<Layer.Layer<never, never, unknown>>(
    (below, room) => room.services === undefined ? below : withOperationSpans(room.services).pipe(Layer.provideMerge(below)),
    Layer.empty
  ) as Layer.Layer<Provided<Rooms, "services">, never, Needed<Rooms, "services">>

/**
 * Every port the rooms implement in one layer. A port is declared low and implemented high, and
 * one implementation may use another declared below it (the mandates' `AccountMandates` ends a
 * mandate through the subscriptions' `MandateEndings`), so the higher rooms' ports are built first.
 */
export const portsOf = <const Rooms extends ReadonlyArray<Room>>(rooms: Rooms): Layer.Layer<Provided<Rooms, "ports">, never, Needed<Rooms, "ports">> =>
  rooms.reduceRight<Layer.Layer<never, never, unknown>>(
    (above, room) => room.ports === undefined ? above : room.ports.pipe(Layer.provideMerge(above)),
    Layer.empty
  ) as Layer.Layer<Provided<Rooms, "ports">, never, Needed<Rooms, "ports">>
