import { Context, type Effect, Schema } from "effect"
import { DuplicateId, type NotFound, type StorageError } from "@paykit/core"
import type { ResourceDefinition } from "../definition.ts"
import type { ListQuery, Page } from "./list-query.ts"

/** A stored resource and its optimistic-concurrency version (1 on insert, +1 per update). */
export interface Versioned<A> {
  readonly resource: A
  readonly version: number
}

/** An update lost a race: the stored version is no longer the one the caller read. */
export class VersionConflict extends Schema.TaggedError<VersionConflict>()("VersionConflict", {
  resource: Schema.String,
  id: Schema.String,
  expectedVersion: Schema.Number,
  actualVersion: Schema.Number
}) {
  override get message(): string {
    return `${this.resource} ${this.id} was changed concurrently (expected version ${this.expectedVersion}, found ${this.actualVersion})`
  }
}

/** An insert reused an id that already exists (a bug in the caller or the id generator); defined in `@paykit/core`. */
export { DuplicateId }

/** A chunk of a scan: at most `limit` matches, from just after the id `after` (oldest first). */
export interface ScanPage {
  readonly after?: string
  readonly limit: number
}

/** The names of a resource's top-level number fields (minor units): what `aggregate` can sum. */
export type IntegerFieldOf<A> = { readonly [P in keyof A]: A[P] extends number ? P : never }[keyof A] & string

/** One group of an `aggregate`: its value of the grouping key (null: none), how many, and their sum. */
export interface AggregateGroup {
  readonly key: string | null
  readonly count: number
  readonly sum: bigint
}

/**
 * The repository port of one aggregate. Every call names the organisation: the organisation is
 * part of every key, so one tenant can never read or change another's resources. Every call can
 * fail with `StorageError` (the database failed: `retryable` or not), besides its own outcomes.
 */
export interface Repository<A extends { readonly id: string; readonly created_at: string }, K extends string = string> {
  readonly definition: ResourceDefinition<A, K>
  readonly get: (organisation: string, id: string) => Effect.Effect<Versioned<A>, NotFound | StorageError>
  /**
   * The resources of `ids` that exist, in no particular order: one read for many (a daily batch
   * reads its items' rows ahead, `DailyItems`). In a SQL unit of work the answer, absent ones
   * too, is kept for the unit's `get`s, so each of them costs no statement.
   */
  readonly getMany: (organisation: string, ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Versioned<A>>, StorageError>
  readonly list: (organisation: string, query: ListQuery<K>) => Effect.Effect<Page<A>, StorageError>
  /**
   * Every matching resource, oldest first: for the engine's own scans (the simulator), not the API.
   * With `page`, at most `page.limit` of them, from just after the id `page.after` (the daily jobs
   * read what is due a chunk at a time, `due-work/daily-items.ts`).
   */
  readonly scan: (organisation: string, filters: ListQuery<K>["filters"], page?: ScanPage) => Effect.Effect<ReadonlyArray<Versioned<A>>, StorageError>
  /**
   * The matches counted and their integer field `sum` summed, grouped by the filter key `by`:
   * totals whose cost follows the groups, not the rows (SQL answers with `GROUP BY` and loads no
   * resource; in memory, a fold).
   */
  readonly aggregate: (
    organisation: string,
    filters: ListQuery<K>["filters"],
    by: K,
    sum: IntegerFieldOf<A>
  ) => Effect.Effect<ReadonlyArray<AggregateGroup>, StorageError>
  readonly insert: (organisation: string, resource: A) => Effect.Effect<Versioned<A>, DuplicateId | StorageError>
  /**
   * Inserts fresh records (history rows, events) in the order given, in one write: one statement
   * on SQL. Their ids were just made for them, so one that exists is a defect: the write dies and
   * inserts none of them (`DuplicateId`).
   */
  readonly insertAll: (organisation: string, resources: ReadonlyArray<A>) => Effect.Effect<void, DuplicateId | StorageError>
  readonly update: (
    organisation: string,
    resource: A,
    expectedVersion: number
  ) => Effect.Effect<Versioned<A>, NotFound | VersionConflict | StorageError>
}

/**
 * What a storage adapter provides: a repository for any resource definition, the organisations
 * it holds data for (the simulator visits each), and a unit of work.
 */
export class RepositoryBackend extends Context.Service<RepositoryBackend, {
  readonly repository: <A extends { readonly id: string; readonly created_at: string }, K extends string>(
    definition: ResourceDefinition<A, K>
  ) => Repository<A, K>
  readonly organisations: Effect.Effect<ReadonlyArray<string>, StorageError>
}>()("@paykit/engine/RepositoryBackend") {}

/**
 * The unit of work: every repository write and event append inside `transaction` commits together
 * or not at all. Nested calls join the outer transaction. Beginning or committing it can fail with
 * `StorageError` (a serialization failure at commit is `retryable`).
 */
export class Transactor extends Context.Service<Transactor, {
  readonly transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | StorageError, R>
}>()("@paykit/engine/Transactor") {}

/**
 * Set around a unit of work whose failure, whatever it is, is answered by running its items again
 * one unit each (a daily batch, `captureDailyItems`). Such a unit may hold back its first updates
 * and its inserts until it ends and write them as multi-row statements: a lost race or a duplicate
 * id then fails the unit as a whole (a defect) instead of the one call (`VersionConflict`,
 * `DuplicateId`), and the items run alone meet the typed failure as before. A store may ignore it.
 */
export const HoldWrites = Context.Reference<boolean>("@paykit/engine/HoldWrites", { defaultValue: () => false })
