import { Effect, Layer } from "effect"
import { EventLog, WebhookEndpoints, Webhooks } from "@paykit/engine"
import { AccessTokens, ApiDispatcher, ApiPublicUrl, csrfSignerFrom, IdempotencyStore, makeGateway, PageSigningSecret, RateLimiter } from "@paykit/http"
import type { ServerMode } from "../config.ts"
import { Organisations } from "../organisations.ts"
import { makeDashboardApi } from "./api-client.ts"
import { assetRoutes } from "./assets.ts"
import { bankPages } from "./bank-pages.ts"
import { homePages } from "./home.ts"
import { logsPages } from "./logs-page.ts"
import { resourcePages } from "./resource-pages.ts"
import { makeSessionSealer } from "./session.ts"
import { signInPages } from "./sign-in.ts"
import { testValuesPages } from "./test-values-page.ts"
import { tokenDirectory, tokenPages } from "./token-pages.ts"
import type { DashboardServices } from "./visit.ts"
import { webhookPages } from "./webhook-pages.ts"

/**
 * The dashboard (`/dashboard`, docs/dashboard.md): pages of the API's dispatcher, answered
 * without the gateway themselves, each calling the API's own routes through it with the
 * session's token. Added once the API's routes are built, since it serves what they serve.
 */
export const withDashboard = (mode: ServerMode) =>
  Layer.effect(ApiDispatcher, Effect.gen(function*() {
    const built = yield* ApiDispatcher
    const tokens = yield* AccessTokens
    const gateway = makeGateway({ tokens, idempotency: yield* IdempotencyStore, limiter: yield* RateLimiter })
    const secret = yield* PageSigningSecret
    const services: DashboardServices = {
      api: makeDashboardApi(built.routes, gateway),
      tokens,
      csrf: csrfSignerFrom(secret),
      sessions: makeSessionSealer(secret),
      history: yield* EventLog,
      webhooks: yield* Webhooks,
      endpoints: yield* WebhookEndpoints,
      organisations: yield* Organisations,
      mode,
      secureCookie: (yield* ApiPublicUrl).startsWith("https:")
    }
    const directory = yield* tokenDirectory
    return built.withRoutes([...assetRoutes, ...signInPages(services), ...homePages(services), ...resourcePages(services), ...bankPages(services), ...webhookPages(services), ...logsPages(services), ...tokenPages(services, directory), ...testValuesPages(services)])
  }))
