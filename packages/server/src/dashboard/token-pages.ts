import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { ID_PREFIXES, IdGenerator, NotFound, type PaykitError } from "@paykit/core"
import { ACCESS_SCOPES, type AccessScope, AccessTokens, type ApiResponse, formFields, html, issueAccessToken, type PageRoute } from "@paykit/http"
import { ACCESS_TOKEN_STATUSES } from "@paykit/machines"
import { isoTimestampOf } from "../tokens.ts"
import { timeView } from "./format.ts"
import { csrfField, dashboardPage } from "./frame.ts"
import { type DashboardServices, doneThen, signedIn, type Visit } from "./visit.ts"

/**
 * The organisation's own access tokens (a partner app's are the app's, revoked through the connect
 * server): listed, made (the token shown once: only its hash is stored) and revoked (by the
 * token machine's `revoke`, the store's one move). The API has no token routes, so these read and
 * write the server's token store directly, always within the session's organisation.
 */

const TokenRow = Schema.Struct({
  id: Schema.String,
  display_prefix: Schema.NullOr(Schema.String),
  scope: Schema.Literals(ACCESS_SCOPES),
  status: Schema.Literals(ACCESS_TOKEN_STATUSES),
  created_at: Schema.Unknown,
  last_used_at: Schema.Unknown
})
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(TokenRow))

/** How many tokens the page lists, newest first (the organisation index; an organisation has a handful). */
const TOKENS_LISTED = 100

export const tokenDirectory = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const ids = yield* IdGenerator
  return {
    list: (organisation: string) =>
      Effect.orDie(Effect.flatMap(
        sql`SELECT id, display_prefix, scope, status, created_at, last_used_at FROM access_tokens WHERE organisation_id = ${organisation} AND app_organisation_id IS NULL
          ORDER BY created_at DESC, id DESC LIMIT ${TOKENS_LISTED}`,
        decodeRows
      )),
    /** Whether `id` is one of the organisation's own tokens: nothing of another organisation is revoked. */
    owns: (organisation: string, id: string) =>
      Effect.orDie(Effect.map(
        sql`SELECT 1 FROM access_tokens WHERE id = ${id} AND organisation_id = ${organisation} AND app_organisation_id IS NULL`,
        (rows) => rows.length === 1
      )),
    newId: ids.make(ID_PREFIXES.access_token)
  }
})
export type TokenDirectory = Effect.Success<typeof tokenDirectory>

/** An instant as a time, or the words for its absence. */
const timeOrNone = (value: string | null, none: string) => value === null ? none : timeView(value)

const tokensPage = (directory: TokenDirectory) => (visit: Visit): Effect.Effect<ApiResponse, PaykitError> =>
  Effect.map(directory.list(visit.caller.organisation), (rows) => dashboardPage(visit, "Access tokens", html`
<p>The organisation's own tokens (a partner app's are managed on the connect server). Only a token's hash is stored: a token is shown once, when made. Its prefix (its first characters, stored when paykit made it) tells it apart; last used is to the minute.</p>
<div class="scroll"><table><caption>Access tokens, newest first</caption><thead><tr><th scope="col">id</th><th scope="col">prefix</th><th scope="col">scope</th><th scope="col">status</th><th scope="col">created_at</th><th scope="col">last used</th><th scope="col"><span class="notice">action</span></th></tr></thead><tbody>${
    rows.map((row) => html`<tr><td><code>${row.id}</code>${row.id === visit.caller.tokenId ? " (this session's)" : ""}</td><td>${row.display_prefix === null ? "none" : html`<code>${row.display_prefix}…</code>`}</td><td>${row.scope}</td><td>${row.status}</td><td>${timeOrNone(isoTimestampOf(row.created_at), "")}</td><td>${timeOrNone(isoTimestampOf(row.last_used_at), "never")}</td><td>${
      visit.canAct && row.status !== "revoked" ? html`<form class="inline" method="post" action="${visit.root}/tokens/${row.id}/revoke">${csrfField(visit.csrfToken)}<button class="secondary" type="submit" aria-label="Revoke ${row.id}">Revoke</button></form>` : ""
    }</td></tr>`)
  }</tbody></table></div>
${visit.canAct ? html`<form method="post" action="${visit.root}/tokens">${csrfField(visit.csrfToken)}<label for="token-scope">New token's scope</label><select id="token-scope" name="scope">${ACCESS_SCOPES.map((s) => html`<option value="${s}">${s}</option>`)}</select><div class="actions"><button class="primary" type="submit">Create token</button></div></form>` : ""}`))

const isScope = (value: string | undefined): value is AccessScope => ACCESS_SCOPES.some((s) => s === value)

const createToken = (services: DashboardServices, directory: TokenDirectory) => (visit: Visit): Effect.Effect<ApiResponse, PaykitError> => {
  const scope = formFields(visit.request)["scope"]
  if (!isScope(scope)) return Effect.fail(new NotFound({ resource: "access_token_scopes", id: scope ?? "" }))
  return Effect.gen(function*() {
    const id = yield* directory.newId
    const token = yield* Effect.provideService(issueAccessToken({ id, organisation: visit.caller.organisation, scope }), AccessTokens, services.tokens)
    return dashboardPage(visit, "Access token created", html`<p>Token <code>${id}</code> (${scope}), shown this once: copy it now.</p>
<p class="once"><code id="new-token">${token}</code></p><p><a href="${visit.root}/tokens">Back to access tokens</a></p>`, 201)
  })
}

export const tokenPages = (services: DashboardServices, directory: TokenDirectory): ReadonlyArray<PageRoute> => [
  signedIn(services, "GET", "/dashboard/tokens", tokensPage(directory)),
  signedIn(services, "POST", "/dashboard/tokens", createToken(services, directory)),
  signedIn(services, "POST", "/dashboard/tokens/:id/revoke", (visit) => {
    const id = visit.request.params["id"] ?? ""
    return Effect.flatMap(directory.owns(visit.caller.organisation, id), (owned) =>
      owned
        ? Effect.as(services.tokens.move(id, "revoke"), doneThen(services, visit, "/dashboard/tokens", `Revoked ${id}: requests with it are refused from now on, and its dashboard sessions end.`))
        : Effect.fail(new NotFound({ resource: "access_tokens", id })))
  })
]
