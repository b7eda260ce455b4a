import { Context, Effect, Layer, Schema, SchemaGetter } from "effect"
import { CountryCode, NotFound, type ValidationFailed, decodeInputEffect } from "@paykit/core"
import {
  INSTITUTION_ROLES,
  INSTITUTION_SCHEMES,
  INSTITUTIONS,
  type InstitutionRecord,
  type InstitutionScheme
} from "./data/institutions.ts"
import type { Institution } from "./domain/institutions.ts"

const ROOT = "institutions"

/**
 * The public base URL of this server's hosted pages (bank authorisation pages, institution
 * images), without a trailing slash. The HTTP layer provides its own; the default, the empty
 * string, makes every such URL a path relative to the server (`/institutions/<id>/logo.png`).
 */
export const HostedPagesBaseUrl = Context.Reference<string>("@paykit/engine/HostedPagesBaseUrl", { defaultValue: () => "" })

const SortCodeQuery = Schema.String.check(
  Schema.makeFilter((s: string) => /^\d{6}$/.test(s.replace(/[-\s]/g, "")), { message: "must be a 6-digit sort code" })
)

export const InstitutionListParams = Schema.Struct({
  country_code: Schema.optionalKey(CountryCode),
  scheme: Schema.optionalKey(Schema.Literals(INSTITUTION_SCHEMES)),
  feature: Schema.optionalKey(Schema.Literals(INSTITUTION_ROLES)),
  branch_code: Schema.optionalKey(SortCodeQuery)
})
export type InstitutionListParams = typeof InstitutionListParams.Type

/** `ids` as a list: one id, a comma-separated string, or an array of either. */
const IdList = Schema.Union([Schema.String, Schema.Array(Schema.String)]).pipe(
  Schema.decodeTo(Schema.Array(Schema.String), {
    decode: SchemaGetter.transform((u: string | ReadonlyArray<string>) =>
      (typeof u === "string" ? [u] : u).flatMap((s) => s.split(",")).map((s) => s.trim()).filter((s) => s !== "")),
    encode: SchemaGetter.transform((ids: ReadonlyArray<string>) => ids)
  })
)

const BooleanQuery = Schema.Union([Schema.Boolean, Schema.Literals(["true", "false"])]).pipe(
  Schema.decodeTo(Schema.Boolean, {
    decode: SchemaGetter.transform((u: boolean | "true" | "false") => u === true || u === "true"),
    encode: SchemaGetter.transform((b: boolean) => b)
  })
)

export const BillingRequestInstitutionParams = Schema.Struct({
  country_code: CountryCode,
  search: Schema.optionalKey(Schema.String),
  ids: Schema.optionalKey(IdList),
  include_disabled: Schema.optionalKey(BooleanQuery)
})
export type BillingRequestInstitutionParams = typeof BillingRequestInstitutionParams.Type

/** The API shape of an institution record, its images served by this server. */
export const toInstitution = (r: InstitutionRecord, baseUrl: string): Institution => ({
  id: r.id,
  name: r.name,
  icon_url: `${baseUrl}/institutions/${r.id}/icon.png`,
  logo_url: `${baseUrl}/institutions/${r.id}/logo.png`,
  roles: [...r.roles],
  country_code: r.country_code,
  limits: null,
  autocompletes_collect_bank_account: r.autocompletes_collect_bank_account,
  status: r.status
})

/** The institution a UK sort code belongs to: the one with the longest matching prefix. */
export const institutionOfSortCode = (records: ReadonlyArray<InstitutionRecord>, sortCode: string): InstitutionRecord | undefined => {
  const digits = sortCode.replace(/[-\s]/g, "")
  let best: { readonly record: InstitutionRecord; readonly length: number } | undefined
  for (const r of records) {
    for (const prefix of r.sort_code_prefixes) {
      if (digits.startsWith(prefix) && (best === undefined || prefix.length > best.length)) best = { record: r, length: prefix.length }
    }
  }
  return best?.record
}

/**
 * `GET /institutions`: the institutions of a country (GB when none is given) that are listed
 * (role `institutions_list`) and not disabled, narrowed by scheme, feature (a role) and the bank
 * a sort code belongs to. Ordered by name.
 */
export const filterInstitutions = (records: ReadonlyArray<InstitutionRecord>, params: InstitutionListParams): ReadonlyArray<InstitutionRecord> => {
  const country = params.country_code ?? "GB"
  const owner = params.branch_code === undefined ? undefined : institutionOfSortCode(records, params.branch_code)
  return records
    .filter((r) =>
      r.country_code === country && r.status !== "disabled" && r.roles.includes("institutions_list") &&
      (params.scheme === undefined || r.schemes.includes(params.scheme)) &&
      (params.feature === undefined || r.roles.includes(params.feature)) &&
      (params.branch_code === undefined || r === owner))
    .toSorted((a, b) => a.name.localeCompare(b.name, "en"))
}

/**
 * `GET /billing_requests/{id}/institutions`: the institutions of a country that can take the
 * billing request's scheme, only enabled ones unless `include_disabled` (which adds temporarily
 * disabled ones; disabled ones are never offered), narrowed by a case-insensitive name substring
 * and by ids. Ordered by name.
 */
export const searchInstitutions = (
  records: ReadonlyArray<InstitutionRecord>,
  params: BillingRequestInstitutionParams,
  scheme: InstitutionScheme
): ReadonlyArray<InstitutionRecord> => {
  const needle = params.search?.trim().toLowerCase()
  return records
    .filter((r) =>
      r.country_code === params.country_code && r.schemes.includes(scheme) &&
      (r.status === "enabled" || (params.include_disabled === true && r.status === "temporarily_disabled")) &&
      (needle === undefined || needle === "" || r.name.toLowerCase().includes(needle)) &&
      (params.ids === undefined || params.ids.includes(r.id)))
    .toSorted((a, b) => a.name.localeCompare(b.name, "en"))
}

export class Institutions extends Context.Service<Institutions, {
  readonly list: (params: unknown) => Effect.Effect<ReadonlyArray<Institution>, ValidationFailed>
  readonly get: (id: string) => Effect.Effect<Institution, NotFound>
  /** The record behind an id, for the engine's own checks (scheme, status). */
  readonly record: (id: string) => Effect.Effect<InstitutionRecord, NotFound>
  readonly search: (params: unknown, scheme: InstitutionScheme) => Effect.Effect<ReadonlyArray<Institution>, ValidationFailed>
}>()("@paykit/engine/Institutions") {
  /** Institutions over a given dataset (tests use one with disabled banks). */
  static readonly layerWith = (records: ReadonlyArray<InstitutionRecord>): Layer.Layer<Institutions> =>
    Layer.succeed(Institutions, (() => {
      const decodeList = decodeInputEffect(InstitutionListParams, ROOT)
      const decodeSearch = decodeInputEffect(BillingRequestInstitutionParams, ROOT)
      const present = (rs: ReadonlyArray<InstitutionRecord>) =>
        Effect.map(HostedPagesBaseUrl, (base: string) => rs.map((r) => toInstitution(r, base)))
      const record = (id: string) => {
        const found = records.find((r) => r.id === id)
        return found === undefined ? Effect.fail(new NotFound({ resource: ROOT, id })) : Effect.succeed(found)
      }
      return Institutions.of({
        list: (p) => Effect.flatMap(decodeList(p), (params) => present(filterInstitutions(records, params))),
        get: (id) => Effect.flatMap(record(id), (r) => Effect.map(present([r]), (xs) => xs[0] ?? toInstitution(r, ""))),
        record,
        search: (p, scheme) => Effect.flatMap(decodeSearch(p), (params) => present(searchInstitutions(records, params, scheme)))
      })
    })())

  /** Institutions over this engine's dataset (src/data/institutions.ts). */
  static readonly layer: Layer.Layer<Institutions> = Institutions.layerWith(INSTITUTIONS)
}
