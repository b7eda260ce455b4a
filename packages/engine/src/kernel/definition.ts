import type { Schema } from "effect"
import type { IdPrefix } from "@paykit/core"

/**
 * What a storage adapter needs to know about one resource: the API key it is listed under, the
 * prefix of its ids, its one Schema (the wire shape, which is also the stored shape) and its list
 * filters as pure extractors. The in-memory adapter needs nothing more; the SQL adapter serves
 * each filter from an index per (resource, filter key), so a new filter there is also a migration
 * (store-sql's `filter-indexes.test.ts` fails until it exists).
 */
export interface ResourceDefinition<A extends { readonly id: string; readonly created_at: string }, K extends string = string> {
  /** The API's key for the resource, e.g. `subscriptions`; also the table name. */
  readonly name: string
  /** Null for the engine's own records (history rows), whose ids are not the API's. */
  readonly idPrefix: IdPrefix | null
  readonly schema: Schema.Codec<A, unknown>
  /**
   * Filter key -> the value of the resource that the filter compares. `null` means the resource
   * has no value for it and never matches an equality or membership filter.
   */
  readonly filters: { readonly [P in K]: (resource: A) => string | null }
}

export type ResourceOf<D> = D extends { readonly schema: Schema.Codec<infer A, unknown> }
  ? A extends { readonly id: string; readonly created_at: string } ? A : never
  : never
export type FilterKeyOf<D> = D extends { readonly filters: infer F } ? keyof F & string : never

/** Defines a resource with its filter keys inferred from the extractors. */
export const defineResource = <A extends { readonly id: string; readonly created_at: string }, K extends string>(
  definition: ResourceDefinition<A, K>
): ResourceDefinition<A, K> => definition
