import { Effect, Option } from "effect"
import { httpStatusOf, isStorageFailure, NotFound, OrganisationId, pathIdOf, type PaykitError, type StorageError } from "@paykit/core"
import { collectionOfPath, DueWorkStore, pageKeyHolds, withClockOffset } from "@paykit/engine"
import type { ApiRequest } from "../api-request.ts"
import type { ApiResponse } from "../api-response.ts"
import type { PageRoute } from "../routes.ts"
import { CSRF_FIELD, type CsrfSigner } from "./csrf.ts"
import { type Html, html } from "./html.ts"
import { cookieLanguage, isLanguage, type Language, LANGUAGE_COOKIE, MESSAGES, pickLanguage } from "./i18n.ts"
import { DEFAULT_THEME, layout, type Theme } from "./layout.ts"
import type { Messages } from "./messages/en.ts"

/**
 * What every page shares: the request's language, its answers (a page, a redirect, an error page),
 * its form's body and CSRF check, and the organisation's clock. A page never answers with the
 * API's JSON: an engine error is a page saying what went wrong, in the page's language.
 */

/** A page's request before its organisation is checked (and of a page whose path names none: an institution's image). */
export interface PageRequestBase {
  readonly request: ApiRequest
  /** The language the request named itself, if it did. */
  readonly asked: Language | undefined
  readonly language: Language
  readonly messages: Messages
  readonly id: string
  /** The page's own path, without its query. */
  readonly path: string
  /** The page's path as a browser reaches it: under the host's prefix, when mounted. */
  readonly href: string
}

/** A page's request, its organisation (the path's `:organisation`) checked to be an organisation's id. */
export interface PageRequest extends PageRequestBase {
  readonly organisation: OrganisationId
}

const header = (request: ApiRequest, name: string): string | undefined => {
  const value = request.headers[name]
  return typeof value === "string" ? value : value?.[0]
}

/** The fields of a form post (`application/x-www-form-urlencoded`), the last of repeats kept. */
export const formFields = (request: ApiRequest): Readonly<Record<string, string>> =>
  Object.fromEntries(new URLSearchParams(request.body))

/** The language a request asks for itself (`lang` in its query or form), which the page then keeps in a cookie. */
const askedLanguage = (request: ApiRequest): Language | undefined => {
  const query = request.query["lang"]
  const asked = typeof query === "string" ? query : formFields(request)["lang"]
  return isLanguage(asked) ? asked : undefined
}

const pageRequestOf = (request: ApiRequest): PageRequestBase => {
  const asked = askedLanguage(request)
  const language = pickLanguage(asked, header(request, "accept-language"), cookieLanguage(header(request, "cookie")))
  return {
    request,
    asked,
    language,
    messages: MESSAGES[language],
    id: request.params["id"] ?? "",
    path: request.path,
    href: `${request.basePath ?? ""}${request.path}`
  }
}

const HTML_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  // The pages load nothing from elsewhere and run no script; they may not be framed (clickjacking).
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self' http: https:; frame-ancestors 'none'; base-uri 'none'",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store"
}

export const page = (status: number, markup: Html): ApiResponse => ({ status, body: markup.markup, headers: HTML_HEADERS })

/** `uri` with `params` added to its query (after any query it has, before any fragment). */
export const withQuery = (uri: string, params: Readonly<Record<string, string>>): string => {
  const hash = uri.indexOf("#")
  const [base, fragment] = hash === -1 ? [uri, ""] : [uri.slice(0, hash), uri.slice(hash)]
  return `${base}${base.includes("?") ? "&" : "?"}${new URLSearchParams(params).toString()}${fragment}`
}

/**
 * The page in the language its resource names (a flow's `language`) unless the payer chose one:
 * the request's own `lang`, then the language the payer chose before (the cookie), then the
 * resource's, then the browser's.
 */
export const inLanguageOf = <P extends PageRequestBase>(p: P, resourceLanguage: string | null): P => {
  const kept = cookieLanguage(header(p.request, "cookie")) ?? (isLanguage(resourceLanguage) ? resourceLanguage : undefined)
  const language = pickLanguage(p.asked, header(p.request, "accept-language"), kept)
  return { ...p, language, messages: MESSAGES[language] }
}

/** After a form post: the browser GETs `location` (303 See Other). */
export const redirect = (location: string): ApiResponse => ({ status: 303, body: "", headers: { location, "cache-control": "no-store" } })

/** The hidden fields every form carries: its CSRF token and the page's language. */
export const formGuard = (p: PageRequestBase, token: string): Html =>
  html`<input type="hidden" name="${CSRF_FIELD}" value="${token}"><input type="hidden" name="lang" value="${p.language}">`

/** Whether a post carries a good token for this page's organisation, resource and `purpose`. */
export const csrfValid = (csrf: CsrfSigner, p: PageRequest, purpose: string): boolean =>
  csrf.verify(formFields(p.request)[CSRF_FIELD], purpose, p.organisation, p.id, Date.now())

/** A token for this page's form (`purpose`), as `csrfValid` checks it. */
export const csrfToken = (csrf: CsrfSigner, p: PageRequest, purpose: string): string =>
  csrf.sign(purpose, p.organisation, p.id, Date.now())

/** The page of an error: the engine's message under the page's title, in the layout. */
export const errorPage = (p: PageRequestBase, status: number, detail: string, theme: Theme = DEFAULT_THEME): ApiResponse =>
  page(status, layout({
    language: p.language,
    messages: p.messages,
    title: p.messages.error_title,
    theme,
    path: p.href,
    content: html`<p role="alert">${detail}</p>`
  }))

/** What a page says for an engine error: not found, or the engine's own message. */
const pageOfError = (p: PageRequestBase, error: PaykitError): ApiResponse =>
  errorPage(p, httpStatusOf(error), error._tag === "NotFound" ? p.messages.error_not_found : `${p.messages.error_refused}: ${error.message}`)

/** Runs an effect on an organisation's clock. */
export type OrganisationClock = <A, E, R>(organisation: string, effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | StorageError, R>

/**
 * The organisation's clock (its sandbox offset; none where the server keeps no clocks), from the
 * `DueWorkStore` taken when the pages are bound: a request's context no longer holds the engine's
 * services (`app.ts` trims them), so a lookup per request would find none and run on the wall clock.
 */
export const organisationClock: Effect.Effect<OrganisationClock> = Effect.map(Effect.serviceOption(DueWorkStore), (store) =>
  (organisation, effect) =>
    Option.isNone(store) ? effect : Effect.flatMap(store.value.offsetOf(organisation), (offset) => withClockOffset(offset, effect)))

/** The answer with the language asked kept for the pages that follow (a session cookie: nothing else is stored). */
const keepLanguage = (language: Language) => (response: ApiResponse): ApiResponse => ({
  ...response,
  headers: { ...response.headers, "set-cookie": `${LANGUAGE_COOKIE}=${language}; Path=/; SameSite=Lax; HttpOnly` }
})

/**
 * The language the payer chose with the language switch (a GET's `?lang=`), the only choice kept
 * in the site-wide cookie: a form's hidden `lang` or a redirect keeping it would otherwise
 * override the `language` of every later flow.
 */
const switched = (p: PageRequestBase): Language | undefined => p.request.method === "GET" && typeof p.request.query["lang"] === "string" ? p.asked : undefined

export type PageAnswer = (p: PageRequest) => Effect.Effect<ApiResponse, PaykitError>

/**
 * The path's ids checked before any lookup, as the API checks its own: a malformed resource id
 * (a NUL, a wrong prefix) or organisation id names nothing, so the page is a 404.
 */
const checkedIds = (p: PageRequestBase, collection: string): Effect.Effect<OrganisationId, NotFound> => {
  const given = p.request.params["organisation"] ?? ""
  return OrganisationId.is(given)
    ? Effect.as(pathIdOf(collection, p.id), given)
    : Effect.fail(new NotFound({ resource: "organisations", id: given }))
}

/**
 * A payer's page (its path has `:key`) answers only under its resource's page key: any other key
 * is a 404, as an unknown id is, so a guessed URL learns nothing, not even that the id exists.
 */
const checkedKey = (p: PageRequest, collection: string, pageKey: Uint8Array): Effect.Effect<void, NotFound> => {
  const given = p.request.params["key"]
  return given === undefined || pageKeyHolds(pageKey, collection, p.organisation, p.id, given)
    ? Effect.void
    : Effect.fail(new NotFound({ resource: collection, id: p.id }))
}

/** What a page needs of the pages' services: the organisation's clock, and the key its URL's key is checked under. */
export interface PageBasics {
  readonly onClock: OrganisationClock
  readonly pageKey: Uint8Array
}

/**
 * A page at `path` (with `:organisation`, `:id` and, for a payer's page, `:key`), its engine
 * errors answered as pages. The ids and the key are checked before the organisation's clock is
 * looked up: a malformed id (a NUL, which PostgreSQL refuses in text) or a wrong key reaches no store.
 */
export const pageAt = (pages: PageBasics, method: "GET" | "POST", path: string, answer: PageAnswer): PageRoute => {
  const collection = collectionOfPath(path)
  return {
    method,
    path,
    page: (request) => {
      const base = pageRequestOf(request)
      const checked = Effect.flatMap(checkedIds(base, collection), (organisation) => {
        const p: PageRequest = { ...base, organisation }
        return Effect.andThen(checkedKey(p, collection, pages.pageKey), pages.onClock(organisation, answer(p)))
      })
      return answeredIn(base, Effect.catch(checked, answerError(base)))
    }
  }
}

/** A page whose path names no organisation (an institution's image): its id checked, no clock. */
export const organisationFreePageAt = (method: "GET" | "POST", path: string, answer: (p: PageRequestBase) => Effect.Effect<ApiResponse, PaykitError>): PageRoute => {
  const collection = collectionOfPath(path)
  return {
    method,
    path,
    page: (request) => {
      const p = pageRequestOf(request)
      return answeredIn(p, Effect.catch(Effect.andThen(pathIdOf(collection, p.id), answer(p)), answerError(p)))
    }
  }
}

/** An error as its page; a storage failure is the server's: the dispatcher answers it as a defect (500, or 503 to retry). */
const answerError = (p: PageRequestBase) => (error: PaykitError | StorageError): Effect.Effect<ApiResponse> =>
  isStorageFailure(error) ? Effect.die(error) : Effect.succeed(pageOfError(p, error))

/** The answer, keeping the language the payer switched to (a GET with `lang`). */
const answeredIn = (p: PageRequestBase, answered: Effect.Effect<ApiResponse>): Effect.Effect<ApiResponse> => {
  const chosen = switched(p)
  return chosen === undefined ? answered : Effect.map(answered, keepLanguage(chosen))
}
