import { Clock, Effect } from "effect"
import { newId, OrganisationId } from "@paykit/core"
import { type AccessTokenRecord, AccessTokens, type ApiRequest, type ApiResponse, hashToken, headerOf, issueAccessToken } from "@paykit/http"
import type { ConnectServices } from "./connect-services.ts"
import { appSecretContext } from "./apps.ts"
import { secretMatches } from "./secrets.ts"
import type { OAuthApp } from "./store.ts"

/**
 * The token side of the connect server (RFC 6749 section 4.1.3, RFC 7662, RFC 7009): form-encoded
 * requests, answers and errors in OAuth's own format (`{error, error_description}`), never the
 * API's. Every answer carries `Cache-Control: no-store` (RFC 6749 5.1).
 */

export const OAUTH_ERRORS = [
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unsupported_grant_type"
] as const
export type OAuthError = (typeof OAUTH_ERRORS)[number]

const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" }

const json = (status: number, value: unknown, headers: Readonly<Record<string, string>> = {}): ApiResponse => ({
  status,
  body: JSON.stringify(value),
  headers: { ...NO_STORE, ...headers }
})

export const oauthError = (error: OAuthError, description: string, headers: Readonly<Record<string, string>> = {}): ApiResponse =>
  json(error === "invalid_client" ? 401 : 400, { error, error_description: description }, headers)

/** The form's parameters; `undefined` when the body is not a form or a parameter is repeated (RFC 6749 3.2: parameters sent once). */
export const formOf = (request: ApiRequest): ReadonlyMap<string, string> | undefined => {
  const type = headerOf(request, "content-type") ?? ""
  if (!/^application\/x-www-form-urlencoded\s*(;.*)?$/i.test(type)) return undefined
  const fields = new Map<string, string>()
  for (const [key, value] of new URLSearchParams(request.body)) {
    if (fields.has(key)) return undefined
    fields.set(key, value)
  }
  return fields
}

type ClientCheck = { readonly _tag: "Client"; readonly app: OAuthApp } | { readonly _tag: "Refused"; readonly response: ApiResponse }

const BASIC = /^Basic +([A-Za-z0-9+/=]+) *$/i

/** Client credentials from HTTP Basic (RFC 6749 2.3.1: each part form-urlencoded) or the body, never both. */
const credentialsOf = (request: ApiRequest, form: ReadonlyMap<string, string>) => {
  const header = headerOf(request, "authorization")
  const basic = header === undefined ? null : BASIC.exec(header)
  if (basic === null) return { basic: false, id: form.get("client_id"), secret: form.get("client_secret"), both: false }
  const decoded = Buffer.from(basic[1] ?? "", "base64").toString("utf8")
  const colon = decoded.indexOf(":")
  const part = (text: string) => {
    try {
      return decodeURIComponent(text.replaceAll("+", " "))
    } catch {
      return undefined
    }
  }
  return {
    basic: true,
    id: colon === -1 ? undefined : part(decoded.slice(0, colon)),
    secret: colon === -1 ? undefined : part(decoded.slice(colon + 1)),
    both: form.has("client_secret")
  }
}

/**
 * The calling app, authenticated by its client id and secret (the secret compared in constant
 * time against its hash); an unknown client, a wrong secret and a disabled app are all
 * `invalid_client`, with `WWW-Authenticate` when the client used HTTP Basic (RFC 6749 5.2).
 */
export const authenticateClient = (services: ConnectServices, request: ApiRequest, form: ReadonlyMap<string, string>): Effect.Effect<ClientCheck> => {
  const given = credentialsOf(request, form)
  const refuse = (description: string): ClientCheck => ({
    _tag: "Refused",
    response: oauthError("invalid_client", description, given.basic ? { "www-authenticate": "Basic realm=\"paykit connect\"" } : {})
  })
  if (given.both) return Effect.succeed({ _tag: "Refused", response: oauthError("invalid_request", "Client credentials must be sent one way: HTTP Basic or the body") })
  const { id, secret } = given
  if (id === undefined || secret === undefined || id === "" || secret === "") return Effect.succeed(refuse("Client authentication is required"))
  return Effect.map(services.store.appByClientId(id), (app): ClientCheck => {
    // A secret is hashed and compared even for an unknown client, so timing does not tell which it was.
    const matches = secretMatches(secret, app?.clientSecretHash ?? "0".repeat(64))
    if (app === undefined || !matches) return refuse("Client authentication failed")
    if (app.status !== "enabled") return refuse("The app is disabled")
    return { _tag: "Client", app }
  })
}

/** A form request from an authenticated client; `then` answers for it. */
const withClient = (
  services: ConnectServices,
  request: ApiRequest,
  then: (app: OAuthApp, form: ReadonlyMap<string, string>) => Effect.Effect<ApiResponse>
): Effect.Effect<ApiResponse> => {
  const form = formOf(request)
  if (form === undefined) return Effect.succeed(oauthError("invalid_request", "The body must be form-encoded (application/x-www-form-urlencoded), each parameter once"))
  return Effect.flatMap(authenticateClient(services, request, form), (check) => check._tag === "Refused" ? Effect.succeed(check.response) : then(check.app, form))
}

/** How long an authorisation code may be exchanged (spec, Limits: OAuth code life). */
export const OAUTH_CODE_LIFETIME_MS = 5 * 60 * 1000

const required = (form: ReadonlyMap<string, string>, names: ReadonlyArray<string>): string | undefined =>
  names.find((name) => (form.get(name) ?? "") === "")

/** `POST /oauth/access_token`: a code exchanged once, within its life, by the app it was issued to, for the redirect URI it was issued with. */
export const accessToken = (services: ConnectServices) => (request: ApiRequest): Effect.Effect<ApiResponse> =>
  withClient(services, request, (app, form) => {
    const grantType = form.get("grant_type")
    if (grantType === undefined || grantType === "") return Effect.succeed(oauthError("invalid_request", "grant_type is required"))
    if (grantType !== "authorization_code") return Effect.succeed(oauthError("unsupported_grant_type", "grant_type must be authorization_code"))
    const missing = required(form, ["code", "redirect_uri"])
    if (missing !== undefined) return Effect.succeed(oauthError("invalid_request", `${missing} is required`))
    return exchange(services, app, form.get("code") ?? "", form.get("redirect_uri") ?? "")
  })

const invalidGrant = (description: string) => oauthError("invalid_grant", description)

/** The whole exchange holds the code's row and the (app, organisation) lock, its webhook endpoint changes included. */
const exchange = (services: ConnectServices, app: OAuthApp, code: string, redirectUri: string): Effect.Effect<ApiResponse> =>
  services.store.exclusive(exchangeCode(services, app, code, redirectUri))

const exchangeCode = (services: ConnectServices, app: OAuthApp, code: string, redirectUri: string): Effect.Effect<ApiResponse> =>
  Effect.gen(function*() {
    const { store } = services
    const consumed = yield* store.consumeCode(hashToken(code))
    if (consumed === undefined || consumed.code.app !== app.id) return invalidGrant("The code is not valid")
    const { organisation, scope, email } = consumed.code
    yield* store.lockConnection(app.id, organisation)
    if (consumed.usedBefore) {
      // RFC 6749 4.1.2: a code used twice revokes what its first exchange issued (recorded before the code's row was released).
      if (consumed.issuedToken !== null) yield* revokeToken(services, app.id, consumed.issuedToken, organisation)
      return invalidGrant("The code has already been used; the access token it issued is revoked")
    }
    if ((yield* Clock.currentTimeMillis) >= consumed.code.expiresAt) return invalidGrant("The code has expired")
    if (consumed.code.redirectUri !== redirectUri) return invalidGrant("redirect_uri does not match the authorisation request")
    // Held to the end: a disable waits for this exchange and then finds its grant, or came first and is seen here.
    if ((yield* store.appForExchange(app.id))?.status !== "enabled") return oauthError("invalid_client", "The app is disabled")
    const id = yield* Effect.provideContext(newId("access_token"), services.ids)
    const token = yield* Effect.provideService(
      issueAccessToken({ id, organisation, scope, app: { organisation: app.organisation, creditor: app.creditor } }),
      AccessTokens,
      services.tokens
    )
    yield* store.insertGrant({ tokenId: id, app: app.id, organisation, email })
    yield* store.setCodeToken(consumed.code.codeHash, id)
    // A reconnect: the organisation's earlier tokens for this app stop working (a revoked one stays revoked).
    for (const grant of yield* store.grantsOf(app.id, organisation)) if (grant.tokenId !== id) yield* services.tokens.move(grant.tokenId, "deactivate")
    yield* deliverToApp(services, app, organisation)
    return json(200, { access_token: token, scope, token_type: "bearer", email, organisation_id: organisation })
  })

/**
 * An app with a webhook URL receives the connected organisation's events: an endpoint of that
 * organisation at the app's URL, signed with the app's secret, whose bodies add `links.organisation`.
 * The URL passed the mode's delivery rules at registration, so a refusal here is a defect.
 */
const deliverToApp = (services: ConnectServices, app: OAuthApp, organisation: string): Effect.Effect<void> => {
  const secret = app.webhookSecretSealed === null ? undefined : services.box.open(app.webhookSecretSealed, appSecretContext(app.id))
  if (app.webhookUrl === null || secret === undefined) return Effect.void
  return Effect.orDie(services.webhookEndpoints.connectApp(OrganisationId(organisation), { app: app.id, url: app.webhookUrl, secret }))
}

/**
 * Revokes one of the app's tokens, under the (app, organisation) lock; the organisation's webhooks for the app stop
 * only when no active token of the app remains there (revoking an earlier, already inactive token leaves the current connection alone).
 */
const revokeToken = (services: ConnectServices, app: string, tokenId: string, organisation: string): Effect.Effect<void> =>
  Effect.gen(function*() {
    yield* services.tokens.move(tokenId, "revoke")
    for (const grant of yield* services.store.grantsOf(app, organisation)) {
      if ((yield* services.tokens.statusOf(grant.tokenId)) === "active") return
    }
    yield* Effect.orDie(services.webhookEndpoints.disconnectApp(OrganisationId(organisation), app))
  })

/** The token's record if it is one this app was issued, whatever its status. */
const appTokenOf = (services: ConnectServices, app: OAuthApp, token: string): Effect.Effect<{ readonly record: AccessTokenRecord; readonly email: string } | undefined> =>
  Effect.gen(function*() {
    const record = yield* services.tokens.findByHash(hashToken(token))
    if (record === undefined) return undefined
    const grant = yield* services.store.grantOf(record.id)
    return grant === undefined || grant.app !== app.id ? undefined : { record, email: grant.email }
  })

/** `POST /oauth/introspect` (RFC 7662): `{active: false}` for a token unknown, not this app's, revoked or disabled. */
export const introspect = (services: ConnectServices) => (request: ApiRequest): Effect.Effect<ApiResponse> =>
  withClient(services, request, (app, form) => {
    const token = form.get("token")
    if (token === undefined || token === "") return Effect.succeed(oauthError("invalid_request", "token is required"))
    return Effect.map(appTokenOf(services, app, token), (found) =>
      found === undefined || found.record.status !== "active"
        ? json(200, { active: false })
        : json(200, { active: true, scope: found.record.scope, token_type: "bearer", organisation_id: found.record.organisation, email: found.email }))
  })

/** `POST /oauth/revoke` (RFC 7009): 200 with no body, whether or not there was anything to revoke. */
export const revoke = (services: ConnectServices) => (request: ApiRequest): Effect.Effect<ApiResponse> =>
  withClient(services, request, (app, form) => {
    const token = form.get("token")
    if (token === undefined || token === "") return Effect.succeed(oauthError("invalid_request", "token is required"))
    return Effect.gen(function*() {
      const found = yield* appTokenOf(services, app, token)
      if (found !== undefined) {
        const { id, organisation } = found.record
        yield* services.store.exclusive(Effect.andThen(services.store.lockConnection(app.id, organisation), revokeToken(services, app.id, id, organisation)))
      }
      return { status: 200, body: "", headers: { ...NO_STORE, "content-type": "text/plain; charset=utf-8" } }
    })
  })
