import { type Context, Effect, Schema } from "effect"
import { HttpApiEndpoint } from "effect/http-api"
import { IdGenerator, type PaykitError } from "@paykit/core"
import type { CreditorRepository, WebhookEndpoints, WebhookSecretKey, WebhookSender } from "@paykit/engine"
import {
  type AccessTokens,
  ApiProtocol,
  type ApiHandler,
  bindRoutes,
  createHandler,
  declare,
  type EndpointDeclaration,
  idParamOf,
  IdParams,
  ok,
  page,
  paykitExtension,
  single
} from "@paykit/http"
import { appOf, disableApp, OAUTH_APPS, OAuthAppCreateRequest, OAuthAppView, ownTokenOnly, registerApp, viewOf } from "./apps.ts"
import { OAuthStore } from "./store.ts"

/**
 * `/oauth_apps`: paykit's own extension for registering partner apps (docs/oauth.md). Served by
 * the API's dispatcher through the gateway (the organisation's bearer token, read-only tokens
 * only read), without the API's protocol (no `GoCardless-Version`), as the sandbox's routes.
 */

type Services = OAuthStore | CreditorRepository | IdGenerator | AccessTokens | WebhookEndpoints | WebhookSecretKey | WebhookSender

/** The table's services, captured when the routes are bound: a request's context no longer holds the engine's. */
const services = Effect.context<Services>()

const run = <A>(context: Context.Context<Services>, effect: Effect.Effect<A, PaykitError, Services>) => Effect.provideContext(effect, context)

const endpoint = (e: HttpApiEndpoint.Constraint & Parameters<typeof declare>[1], handler: (context: Context.Context<Services>) => ApiHandler) =>
  declare(OAUTH_APPS, paykitExtension(e.annotate(ApiProtocol, false)), handler)

const CreatedApp = Schema.Struct({ ...OAuthAppView.fields, client_secret: Schema.String, webhook_secret: Schema.optionalKey(Schema.String) })

export const OAUTH_APP_ROUTES: ReadonlyArray<EndpointDeclaration<Context.Context<Services>>> = [
  endpoint(
    HttpApiEndpoint.post("create_oauth_app", `/${OAUTH_APPS}`, { payload: single(OAUTH_APPS, OAuthAppCreateRequest), success: single(OAUTH_APPS, CreatedApp) }),
    (context) =>
      createHandler(OAUTH_APPS, OAuthAppCreateRequest, (organisation, command, caller) =>
        Effect.andThen(ownTokenOnly(caller), run(context, registerApp(organisation, command))))
  ),
  endpoint(
    HttpApiEndpoint.get("list_oauth_apps", `/${OAUTH_APPS}`, { success: page(OAUTH_APPS, OAuthAppView) }),
    (context) => (_request, caller) =>
      Effect.andThen(ownTokenOnly(caller), run(context, Effect.flatMap(OAuthStore, (store) => store.appsOf(caller.organisation)))).pipe(
        // Every app in one page: an organisation registers a handful.
        Effect.map((apps) => ok({ [OAUTH_APPS]: apps.map(viewOf), meta: { cursors: { before: null, after: null }, limit: apps.length } }))
      )
  ),
  endpoint(
    HttpApiEndpoint.get("get_oauth_app", `/${OAUTH_APPS}/:id`, { params: IdParams, success: single(OAUTH_APPS, OAuthAppView) }),
    (context) => (request, caller) =>
      Effect.andThen(ownTokenOnly(caller), Effect.flatMap(idParamOf(request), (id) => run(context, appOf(caller.organisation, id)))).pipe(
        Effect.map((app) => ok({ [OAUTH_APPS]: viewOf(app) }))
      )
  ),
  endpoint(
    HttpApiEndpoint.post("disable_oauth_app", `/${OAUTH_APPS}/:id/actions/disable`, { params: IdParams, success: single(OAUTH_APPS, OAuthAppView) }),
    (context) => (request, caller) =>
      Effect.andThen(ownTokenOnly(caller), Effect.flatMap(idParamOf(request), (id) => run(context, disableApp(caller.organisation, id)))).pipe(
        Effect.map((app) => ok({ [OAUTH_APPS]: app }))
      )
  )
]

/** The apps' routes bound to the server's services, for the API's dispatcher. */
export const oauthAppRoutes = bindRoutes(OAUTH_APP_ROUTES, services)
