import { Schema, SchemaGetter } from "effect"
import { IdOf, type IdResource, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, parseTimestamp, type Timestamp } from "@paykit/core"
import type { Filter, ListQuery } from "./ports/list-query.ts"

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

export const CreatedAtRange = Schema.Struct({
  gt: Schema.optionalKey(QueryTimestamp),
  gte: Schema.optionalKey(QueryTimestamp),
  lt: Schema.optionalKey(QueryTimestamp),
  lte: Schema.optionalKey(QueryTimestamp)
})
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

/** The repository query of decoded list params plus resource-specific filters (undefined ones dropped). */
export const toListQuery = <K extends string>(
  params: { readonly before?: string; readonly after?: string; readonly limit?: number; readonly created_at?: CreatedAtRange },
  filters: { readonly [P in K]?: Filter | undefined }
): ListQuery<K | "created_at"> => {
  const all: { [P in K | "created_at"]?: Filter } = {}
  for (const key of Object.keys(filters) as Array<K>) {
    const f = filters[key]
    if (f !== undefined) all[key] = f
  }
  if (params.created_at !== undefined) all.created_at = rangeFilter(params.created_at)
  return {
    limit: params.limit ?? PAGE_SIZE_DEFAULT,
    ...(params.before === undefined ? {} : { before: params.before }),
    ...(params.after === undefined ? {} : { after: params.after }),
    filters: all
  }
}
