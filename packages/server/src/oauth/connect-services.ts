import { Effect } from "effect"
import type { IdGenerator } from "@paykit/core"
import { Creditors, WebhookEndpoints, WebhookSecretKey } from "@paykit/engine"
import { AccessTokens, csrfSignerFrom, PageSigningSecret } from "@paykit/http"
import type { ServerMode } from "../config.ts"
import { Organisations } from "../organisations.ts"
import { OAuthStore } from "./store.ts"

/**
 * What the connect server's handlers call, taken once when its routes are bound (as the API's
 * routes take theirs): a request's context holds no services.
 */
export const connectServices = (mode: ServerMode) =>
  Effect.gen(function*() {
    return {
      store: yield* OAuthStore,
      tokens: yield* AccessTokens,
      organisations: yield* Organisations,
      creditors: yield* Creditors,
      webhookEndpoints: yield* WebhookEndpoints,
      box: yield* WebhookSecretKey,
      ids: yield* Effect.context<IdGenerator>(),
      csrf: csrfSignerFrom(yield* PageSigningSecret),
      /** Whether the consent page may create an organisation: a sandbox's (a live server's merchants exist already). */
      signup: mode === "sandbox"
    }
  })

export type ConnectServices = Effect.Success<ReturnType<typeof connectServices>>
