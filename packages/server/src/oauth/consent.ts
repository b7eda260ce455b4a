import { Clock, Effect } from "effect"
import { ACCESS_SCOPES, type AccessScope, type ApiRequest, type ApiResponse, authenticateFormToken, DEFAULT_THEME, formFields, hashToken, html, type Html, htmlPage, layout, MESSAGES, seeOther } from "@paykit/http"
import { decodeInputEffect, newOrganisationId } from "@paykit/core"
import { CreditorCreateRequest } from "@paykit/engine"
import { randomBytes } from "node:crypto"
import type { ConnectServices } from "./connect-services.ts"
import { OAUTH_CODE_LIFETIME_MS } from "./protocol.ts"
import type { OAuthApp } from "./store.ts"

/**
 * `GET /oauth/authorize` and its consent page (RFC 6749 4.1.1-4.1.2). An unknown client or a
 * redirect URI the app did not register is an error page, never a redirect; every other refusal
 * goes back to the app's redirect URI with `error`, `error_description` and `state` unchanged.
 * The consent page's user logs in with an access token of their organisation (paykit has no user
 * accounts) or, on a sandbox, signs up with a new organisation, and agrees or declines.
 */

const PURPOSE = "oauth_consent"
const CONSENT_ERRORS = ["access_denied", "invalid_request", "invalid_scope", "unsupported_response_type"] as const
type ConsentError = (typeof CONSENT_ERRORS)[number]

export const INITIAL_VIEWS = ["signup", "login"] as const
type InitialView = (typeof INITIAL_VIEWS)[number]

const PREFILLS = ["email", "given_name", "family_name", "organisation_name", "country_code"] as const
type Prefill = Partial<Record<(typeof PREFILLS)[number], string>>

/** What an authorisation request asks, once its client and redirect URI are known good. */
interface Authorisation {
  readonly app: OAuthApp
  readonly redirectUri: string
  readonly scope: AccessScope
  readonly state: string | undefined
  readonly initialView: InitialView
  readonly prefill: Prefill
}

type Params = (name: string) => string | undefined

const isScope = (value: string | undefined): value is AccessScope => ACCESS_SCOPES.some((s) => s === value)
const isView = (value: string | undefined): value is InitialView => INITIAL_VIEWS.some((v) => v === value)

/** `redirect_uri` with the answer added to its query (a registered URI may have one; it has no fragment). */
export const redirectWith = (redirectUri: string, values: Readonly<Record<string, string | undefined>>): string => {
  const url = new URL(redirectUri)
  for (const [key, value] of Object.entries(values)) if (value !== undefined) url.searchParams.set(key, value)
  return url.toString()
}

const redirectTo = (location: string): ApiResponse => ({ status: 302, body: "", headers: { location, "cache-control": "no-store" } })

const errorRedirect = (redirectUri: string, error: ConsentError, description: string, state: string | undefined) =>
  redirectTo(redirectWith(redirectUri, { error, error_description: description, state }))

const frame = (title: string, content: Html, status = 200): ApiResponse =>
  htmlPage(status, layout({ language: "en", messages: MESSAGES.en, title, theme: DEFAULT_THEME, path: "/oauth/authorize", content, singleLanguage: true }))

/** Why the request cannot be answered at the app: shown to the user, who came from a link. */
const errorPage = (detail: string): ApiResponse => frame("This connection cannot be made", html`<p role="alert">${detail}</p>`, 400)

/** The app and redirect URI, or the error page: nothing is sent to a URI the app did not register (RFC 6749 4.1.2.1). */
const clientOf = (services: ConnectServices, params: Params): Effect.Effect<{ readonly app: OAuthApp; readonly redirectUri: string } | ApiResponse> => {
  const clientId = params("client_id")
  const redirectUri = params("redirect_uri")
  if (clientId === undefined || clientId === "") return Effect.succeed(errorPage("The request names no app (client_id is missing)."))
  return Effect.map(services.store.appByClientId(clientId), (app) => {
    if (app === undefined || app.status !== "enabled") return errorPage("The app asking to connect is unknown or disabled.")
    if (redirectUri === undefined || !app.redirectUris.includes(redirectUri)) {
      return errorPage("The app's redirect_uri is missing or is not one it registered.")
    }
    return { app, redirectUri }
  })
}

/** The request's other parameters, checked in the spec's order; a refusal goes back to the app. */
const authorisationOf = (app: OAuthApp, redirectUri: string, params: Params): Authorisation | ApiResponse => {
  const state = params("state")
  const responseType = params("response_type")
  const scope = params("scope")
  const fail = (error: ConsentError, description: string) => errorRedirect(redirectUri, error, description, state)
  if (responseType === undefined || responseType === "") return fail("invalid_request", "response_type is required")
  if (scope === undefined || scope === "") return fail("invalid_request", "scope is required")
  if (responseType !== "code") return fail("unsupported_response_type", "response_type must be code")
  if (!isScope(scope)) return fail("invalid_scope", "scope must be read_only or read_write")
  const view = params("initial_view")
  if (view !== undefined && !isView(view)) return fail("invalid_request", "initial_view must be signup or login")
  const prefill: Prefill = Object.fromEntries(PREFILLS.flatMap((name) => {
    const value = params(`prefill[${name}]`)
    return value === undefined || value.length > 255 ? [] : [[name, value]]
  }))
  return { app, redirectUri, scope, state, initialView: view ?? (scope === "read_only" ? "login" : "signup"), prefill }
}

/** Query parameters, each once: a repeated one makes the request invalid (RFC 6749 3.1). */
const queryParams = (request: ApiRequest): { readonly params: Params; readonly repeated: boolean } => {
  const query = request.query
  const repeated = Object.values(query).some((value) => typeof value !== "string")
  return { params: (name) => { const v = query[name]; return typeof v === "string" ? v : undefined }, repeated }
}

const csrfResource = (a: { readonly redirectUri: string; readonly scope: string; readonly state: string | undefined }) =>
  JSON.stringify([a.redirectUri, a.scope, a.state ?? null])

const field = (name: string, label: string, value: string | undefined, type = "text") =>
  html`<label for="${name}">${label}</label><input id="${name}" name="${name}" type="${type}" value="${value ?? ""}">`

/** The consent page: who asks, for what, and the user's account, agreement or refusal. */
/** `basePath`: the prefix a host mounts the connect server under, which the form posts back below. */
const consentPage = (services: ConnectServices, a: Authorisation, basePath: string, problem?: string): Effect.Effect<ApiResponse> =>
  Effect.map(Clock.currentTimeMillis, (nowMs) => {
    const token = services.csrf.sign(PURPOSE, a.app.clientId, csrfResource(a), nowMs)
    const signup = services.signup && a.initialView === "signup"
    const access = a.scope === "read_write" ? "view and manage" : "view"
    return frame(`Connect ${a.app.name} to your paykit account`, html`
${problem === undefined ? "" : html`<p role="alert">${problem}</p>`}
<p><strong>${a.app.name}</strong> asks to ${access} your organisation's payments data (scope <code>${a.scope}</code>).</p>
<form method="post" action="${basePath}/oauth/authorize">
<input type="hidden" name="csrf_token" value="${token}">
<input type="hidden" name="client_id" value="${a.app.clientId}">
<input type="hidden" name="redirect_uri" value="${a.redirectUri}">
<input type="hidden" name="scope" value="${a.scope}">
<input type="hidden" name="response_type" value="code">
<input type="hidden" name="initial_view" value="${a.initialView}">
${a.state === undefined ? "" : html`<input type="hidden" name="state" value="${a.state}">`}
${field("email", "Your email", a.prefill.email, "email")}
<fieldset><legend>Your organisation</legend>
<label class="choice"><input type="radio" name="account" value="login"${signup ? "" : html` checked`}> Log in: an access token of your organisation</label>
${field("access_token", "Access token", undefined, "password")}
${services.signup ? html`<label class="choice"><input type="radio" name="account" value="signup"${signup ? html` checked` : ""}> Sign up: a new sandbox organisation</label>
${field("organisation_name", "Organisation name", a.prefill.organisation_name)}
${field("country_code", "Country (ISO 3166-1 alpha-2)", a.prefill.country_code ?? "GB")}` : ""}
</fieldset>
<div class="actions">
<button class="primary" type="submit" name="decision" value="allow">Allow</button>
<button class="secondary" type="submit" name="decision" value="deny">Decline</button>
</div>
</form>`)
  })

/** `GET /oauth/authorize`. */
export const authorizePage = (services: ConnectServices) => (request: ApiRequest): Effect.Effect<ApiResponse> => {
  const { params, repeated } = queryParams(request)
  return Effect.flatMap(clientOf(services, params), (client) => {
    if (!("app" in client)) return Effect.succeed(client)
    if (repeated) return Effect.succeed(errorRedirect(client.redirectUri, "invalid_request", "A parameter is repeated", params("state")))
    const authorisation = authorisationOf(client.app, client.redirectUri, params)
    return "app" in authorisation ? consentPage(services, authorisation, request.basePath ?? "") : Effect.succeed(authorisation)
  })
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/
const decodeCreditor = decodeInputEffect(CreditorCreateRequest, "creditors")

/** The organisation the user logged in to or signed up with, or what was wrong with the form. */
const accountOf = (services: ConnectServices, fields: Readonly<Record<string, string>>) =>
  Effect.gen(function*() {
    if (fields["account"] === "signup" && services.signup) {
      const name = (fields["organisation_name"] ?? "").trim()
      if (name === "") return { problem: "Give your organisation's name." }
      // Its creditor, so the new merchant can collect at once, as the first start's organisation can.
      const creditor = yield* Effect.result(decodeCreditor({ name, country_code: (fields["country_code"] ?? "").trim().toUpperCase(), creditor_type: "company" }))
      if (creditor._tag === "Failure") {
        return { problem: `Your organisation's details were refused: ${creditor.failure.errors.map((e) => `${e.field} ${e.message}`).join("; ")}` }
      }
      const organisation = yield* Effect.provideContext(newOrganisationId, services.ids)
      yield* services.organisations.insert({ id: organisation, name, environment: "sandbox", origin: "signup" })
      yield* Effect.provideContext(services.creditors.create(organisation, creditor.success), services.ids)
      return { organisation }
    }
    const caller = yield* Effect.exit(authenticateFormToken(services.tokens, fields["access_token"]))
    if (caller._tag === "Failure") return { problem: "That access token is not an active token of any organisation." }
    if (caller.value.app !== null || caller.value.scope !== "read_write") {
      return { problem: "Log in with a read-write access token of the organisation itself, not one issued to an app." }
    }
    return { organisation: caller.value.organisation }
  })

/** `POST /oauth/authorize`: the consent form's answer, sent back to the app as a code or `access_denied`. */
export const authorizeDecision = (services: ConnectServices) => (request: ApiRequest): Effect.Effect<ApiResponse> => {
  const fields = formFields(request)
  const params: Params = (name) => fields[name]
  // After a form post the browser is sent on with 303 See Other, so it GETs the app's URI.
  const answered = Effect.flatMap(clientOf(services, params), (client) => {
    if (!("app" in client)) return Effect.succeed(client)
    const authorisation = authorisationOf(client.app, client.redirectUri, params)
    if (!("app" in authorisation)) return Effect.succeed(authorisation)
    return Effect.flatMap(Clock.currentTimeMillis, (nowMs) => {
      if (!services.csrf.verify(fields["csrf_token"], PURPOSE, client.app.clientId, csrfResource(authorisation), nowMs)) {
        return Effect.succeed(errorPage("This form has expired or did not come from this page; start again from the app."))
      }
      if (fields["decision"] !== "allow") {
        return Effect.succeed(errorRedirect(authorisation.redirectUri, "access_denied", "The user declined to connect", authorisation.state))
      }
      return grant(services, authorisation, fields, nowMs, request.basePath ?? "")
    })
  })
  return Effect.map(answered, (response) => response.status === 302 ? { ...response, status: 303 } : response)
}

const grant = (services: ConnectServices, a: Authorisation, fields: Readonly<Record<string, string>>, nowMs: number, basePath: string): Effect.Effect<ApiResponse> =>
  Effect.gen(function*() {
    const email = (fields["email"] ?? "").trim()
    if (!EMAIL.test(email)) return yield* consentPage(services, { ...a, prefill: { ...a.prefill, email } }, basePath, "Give your email address.")
    const account = yield* accountOf(services, fields)
    if ("problem" in account) return yield* consentPage(services, { ...a, prefill: { ...a.prefill, email } }, basePath, account.problem)
    const code = randomBytes(32).toString("base64url")
    yield* services.store.insertCode({
      codeHash: hashToken(code),
      app: a.app.id,
      organisation: account.organisation,
      scope: a.scope,
      redirectUri: a.redirectUri,
      email,
      expiresAt: nowMs + OAUTH_CODE_LIFETIME_MS
    })
    return seeOther(redirectWith(a.redirectUri, { code, state: a.state }))
  }).pipe(
    // A storage failure is answered as a defect is: 500, or 503 when a retry may succeed (`defectAnswer`).
    Effect.orDie
  )
