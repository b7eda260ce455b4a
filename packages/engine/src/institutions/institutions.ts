import { Context, Effect, Layer } from "effect"
import { decodeAtBoundary, NotFound, type ValidationFailed } from "@paykit/core"
import { INSTITUTIONS, type InstitutionRecord, type InstitutionScheme } from "./data/institutions.ts"
import type { Institution } from "./domain/institutions.ts"
import { hostedPageUrl, HostedPagesKey, type KeyedPage, keyedPageUrl } from "../kernel/hosted-pages.ts"
import { BillingRequestInstitutionParams, InstitutionListParams } from "./domain/institution-params.ts"

export { BillingRequestInstitutionParams, InstitutionListParams }

const ROOT = "institutions"
const decodeList = decodeAtBoundary(InstitutionListParams, ROOT)

/**
 * The public base URL of this server's hosted pages (bank authorisation pages, institution
 * images, import authorisation), without a trailing slash. The server provides its public URL
 * (`PAYKIT_PUBLIC_URL`); the default, the empty string, makes every such URL a path relative to
 * the server (`/institutions/<id>/logo.svg`).
 */
export const HostedPagesBaseUrl = Context.Reference<string>("@paykit/engine/HostedPagesBaseUrl", { defaultValue: () => "" })

/** The URLs of the payer's pages as the engine hands them out: under `HostedPagesBaseUrl`, with their page keys under `HostedPagesKey`. */
export const payerPageLinks: Effect.Effect<{ readonly url: (page: KeyedPage, organisation: string, id: string) => string }> =
  Effect.gen(function*() {
    const base = yield* HostedPagesBaseUrl
    const key = yield* HostedPagesKey
    return { url: (page, organisation, id) => keyedPageUrl(base, key, page, { organisation, id }) }
  })


/** The API shape of an institution record, its images served by this server. */
export const toInstitution = (r: InstitutionRecord, baseUrl: string): Institution => ({
  id: r.id,
  name: r.name,
  icon_url: hostedPageUrl(baseUrl, "institutionIcon", { id: r.id }),
  logo_url: hostedPageUrl(baseUrl, "institutionLogo", { id: r.id }),
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
  readonly list: (params: typeof InstitutionListParams.Encoded) => Effect.Effect<ReadonlyArray<Institution>, ValidationFailed>
  readonly get: (id: string) => Effect.Effect<Institution, NotFound>
  /** The record behind an id, for the engine's own checks (scheme, status). */
  readonly record: (id: string) => Effect.Effect<InstitutionRecord, NotFound>
  readonly search: (params: BillingRequestInstitutionParams, scheme: InstitutionScheme) => Effect.Effect<ReadonlyArray<Institution>>
}>()("@paykit/engine/Institutions") {
  /** Institutions over a given dataset (tests use one with disabled banks). */
  static readonly layerWith = (records: ReadonlyArray<InstitutionRecord>): Layer.Layer<Institutions> =>
    Layer.succeed(Institutions, (() => {
      const present = (rs: ReadonlyArray<InstitutionRecord>) =>
        Effect.map(HostedPagesBaseUrl, (base: string) => rs.map((r) => toInstitution(r, base)))
      const record = (id: string) => {
        const found = records.find((r) => r.id === id)
        return found === undefined ? Effect.fail(new NotFound({ resource: ROOT, id })) : Effect.succeed(found)
      }
      return Institutions.of({
        list: (params) => Effect.flatMap(decodeList(params), (p) => present(filterInstitutions(records, p))),
        get: (id) => Effect.flatMap(record(id), (r) => Effect.map(present([r]), (xs) => xs[0] ?? toInstitution(r, ""))),
        record,
        search: (params, scheme) => present(searchInstitutions(records, params, scheme))
      })
    })())

  /** Institutions over this engine's dataset (src/data/institutions.ts). */
  static readonly layer: Layer.Layer<Institutions> = Institutions.layerWith(INSTITUTIONS)
}
