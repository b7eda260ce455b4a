import { Effect, Schema, SchemaGetter } from "effect"
import { IdOf, type IdResource, InputDate, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, parseTimestamp, type Timestamp } from "@paykit/core"
import type { Filter, ListOrder, ListQuery, Page } from "./ports/list-query.ts"

/** `limit`: 1 to PAGE_SIZE_MAX, given as an integer or its string form. */
export const PageLimit = Schema.Union([Schema.Number, Schema.String]).pipe(
  Schema.decodeTo(
    Schema.Number.check(
      Schema.makeFilter((n: number) => Number.isInteger(n) && n >= 1 && n <= PAGE_SIZE_MAX, {
        message: `must be a whole number from 1 to ${PAGE_SIZE_MAX}`
      })
    ),
    {
      decode: SchemaGetter.transform((u: number | string) => (typeof u === "number" ? u : /^\d+$/.test(u) ? Number(u) : Number.NaN)),
      encode: SchemaGetter.transform((n: number) => n)
    }
  )
)

/** A client date-time in any ISO 8601 form with an offset, canonicalised to a UTC timestamp. */
export const QueryTimestamp = Schema.String.check(
  Schema.makeFilter((s: string) => parseTimestamp(s) !== undefined, { message: "must be an ISO 8601 date-time" })
)

/** A range parameter (`created_at[gte]=...`): its four bounds, each optional, each a `bound`. */
const rangeOf = <S extends Schema.Top>(bound: S) =>
  Schema.Struct({ gt: Schema.optionalKey(bound), gte: Schema.optionalKey(bound), lt: Schema.optionalKey(bound), lte: Schema.optionalKey(bound) })

export const CreatedAtRange = rangeOf(QueryTimestamp)
export type CreatedAtRange = typeof CreatedAtRange.Type

/** The pagination fields of a list whose cursors are not ids (tax rates, named by jurisdiction). */
export const PageFields = {
  before: Schema.optionalKey(Schema.String),
  after: Schema.optionalKey(Schema.String),
  limit: Schema.optionalKey(PageLimit)
} as const

/** The pagination fields of a list of `resource`: its cursors are ids of that resource (`IdOf`). */
export const pageFields = (resource: IdResource) => ({
  before: Schema.optionalKey(IdOf(resource)),
  after: Schema.optionalKey(IdOf(resource)),
  limit: Schema.optionalKey(PageLimit)
})

/** Pagination and `created_at` of a list of `resource`: what every list of stored resources accepts. */
export const listFields = (resource: IdResource) => ({ ...pageFields(resource), created_at: Schema.optionalKey(CreatedAtRange) })

/** An optional filter naming a resource by its id (`/mandates?customer=CU...`). */
export const idFilter = (resource: IdResource) => Schema.optionalKey(IdOf(resource))

/** A boolean query parameter: `true`/`false` as the query string carries them, or a boolean. */
export const BooleanQuery = Schema.Union([Schema.Boolean, Schema.Literals(["true", "false"])]).pipe(
  Schema.decodeTo(Schema.Boolean, {
    decode: SchemaGetter.transform((u: boolean | "true" | "false") => u === true || u === "true"),
    encode: SchemaGetter.transform((b: boolean) => b)
  })
)

export const ListParams = Schema.Struct(listFields("creditor"))
export type ListParams = typeof ListParams.Type

const canonical = (s: string | undefined): Timestamp | undefined => (s === undefined ? undefined : parseTimestamp(s))

/** A `created_at` range as a repository filter. */
export const rangeFilter = (range: CreatedAtRange): Filter => {
  const gt = canonical(range.gt)
  const gte = canonical(range.gte)
  const lt = canonical(range.lt)
  const lte = canonical(range.lte)
  return {
    op: "range",
    ...(gt === undefined ? {} : { gt }),
    ...(gte === undefined ? {} : { gte }),
    ...(lt === undefined ? {} : { lt }),
    ...(lte === undefined ? {} : { lte })
  }
}

/** A range of dates (`charge_date[gte]=2026-01-01`): each bound a date a request may name. */
export const DateRange = rangeOf(InputDate)
export type DateRange = typeof DateRange.Type

/** A date range as a repository filter: ISO dates compare as text. */
export const dateRangeFilter = (range: DateRange): Filter => ({ op: "range", ...range })

/** `sort_direction`: the official client's two values. */
export const SortDirection = Schema.Literals(["asc", "desc"])

/**
 * The order a list's `sort_field` and `sort_direction` ask for: the field's key (`keys`), ascending
 * unless `desc`; a direction alone orders by creation; neither, the default (newest first).
 */
export const orderOf = <F extends string, K extends string>(
  keys: Readonly<Record<F, K>>,
  field: F | undefined,
  direction: "asc" | "desc" | undefined
): ListOrder<K | "created_at"> | undefined => {
  if (field === undefined && direction === undefined) return undefined
  return { key: field === undefined ? "created_at" : keys[field], direction: direction ?? "asc" }
}

/** The repository query of decoded list params plus resource-specific filters (undefined ones dropped), in `order` when one is given. */
export const toListQuery = <K extends string, O extends string = never>(
  params: { readonly before?: string; readonly after?: string; readonly limit?: number; readonly created_at?: CreatedAtRange },
  filters: { readonly [P in K]?: Filter | undefined },
  order?: ListOrder<O>
): ListQuery<K | O | "created_at"> => {
  const all: { [P in K | O | "created_at"]?: Filter } = {}
  for (const key of Object.keys(filters) as Array<K>) {
    const f = filters[key]
    if (f !== undefined) all[key] = f
  }
  if (params.created_at !== undefined) all.created_at = rangeFilter(params.created_at)
  return {
    limit: params.limit ?? PAGE_SIZE_DEFAULT,
    ...(params.before === undefined ? {} : { before: params.before }),
    ...(params.after === undefined ? {} : { after: params.after }),
    filters: all,
    ...(order === undefined ? {} : { order })
  }
}

/** How many rows a filtered walk (`pageWhere`) reads from the list at a time. */
const WALK_CHUNK = 100

/**
 * A page of the rows of `list` (newest first) that `keep` keeps, for a filter no key serves (a
 * payout's metadata): the list is read a chunk at a time from the cursor, in its order, until the
 * page and one row beyond it on each side are found. Its cost follows the rows passed over, so it
 * is for lists whose rows are few (payouts: one per creditor, currency and day).
 */
export const pageWhere = <A extends { readonly id: string }, E, R>(
  list: (window: { readonly before?: string; readonly after?: string; readonly limit: number }) => Effect.Effect<Page<A>, E, R>,
  keep: (a: A) => boolean,
  query: { readonly before?: string; readonly after?: string; readonly limit: number }
): Effect.Effect<Page<A>, E, R> =>
  Effect.gen(function*() {
    // Reading towards newer rows (only `before`) walks backwards and flips the page at the end.
    const backwards = query.before !== undefined && query.after === undefined
    const found: Array<A> = []
    let cursor: string | undefined = backwards ? query.before : query.after
    let more = true
    while (more && found.length <= query.limit) {
      const window = backwards ? { before: cursor ?? "", limit: WALK_CHUNK } : { ...(cursor === undefined ? {} : { after: cursor }), limit: WALK_CHUNK }
      const page = yield* list(window)
      const rows = backwards ? [...page.items].reverse() : page.items
      found.push(...rows.filter(keep))
      const next = backwards ? page.before : page.after
      more = next !== null
      if (next !== null) cursor = next
    }
    // In walking order: from the cursor outwards (newest first, or oldest first walking backwards).
    const items = found.slice(0, query.limit)
    const nearest = items[0]
    if (nearest === undefined) return { items: [], before: null, after: null }
    const farthest = items[items.length - 1] ?? nearest
    const beyondFar = found.length > query.limit
    // Behind the cursor the walk started from, a row of the match may lie too: look for one.
    const behind = (backwards ? query.before : query.after) === undefined
      ? false
      : yield* hasMatch(list, keep, backwards ? { after: nearest.id } : { before: nearest.id })
    return backwards
      ? { items: [...items].reverse(), before: beyondFar ? farthest.id : null, after: behind ? nearest.id : null }
      : { items, before: behind ? nearest.id : null, after: beyondFar ? farthest.id : null }
  })

/** Whether a row `keep` keeps lies beyond a cursor (one side of `pageWhere`'s page). */
const hasMatch = <A extends { readonly id: string }, E, R>(
  list: (window: { readonly before?: string; readonly after?: string; readonly limit: number }) => Effect.Effect<Page<A>, E, R>,
  keep: (a: A) => boolean,
  from: { readonly before: string } | { readonly after: string }
): Effect.Effect<boolean, E, R> =>
  Effect.gen(function*() {
    let cursor: { readonly before: string } | { readonly after: string } | undefined = from
    while (cursor !== undefined) {
      const page: Page<A> = yield* list({ ...cursor, limit: WALK_CHUNK })
      if (page.items.some(keep)) return true
      const next: string | null = "before" in cursor ? page.before : page.after
      cursor = next === null ? undefined : "before" in cursor ? { before: next } : { after: next }
    }
    return false
  })
