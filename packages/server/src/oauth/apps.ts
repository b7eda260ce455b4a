import { Effect, Schema } from "effect"
import { Forbidden, invalidField, NotFound, newId, now, OrganisationId, type PaykitError } from "@paykit/core"
import { CreditorRepository, resolveCreditor, WebhookEndpoints, WebhookSecretKey, WebhookSender, WebhookTargetTrust } from "@paykit/engine"
import { AccessTokens, APP_RESTRICTED_REASON, type CallerShape } from "@paykit/http"
import { randomBytes } from "node:crypto"
import { hashSecret } from "./secrets.ts"
import { createdState, oauthAppMachine } from "@paykit/machines"
import { type OAuthApp, OAuthStore } from "./store.ts"

/**
 * Registering partner apps: paykit's own extension (the real service makes apps in its
 * dashboard's developer section). An organisation registers an app with its own access token;
 * the app receives a `client_id` and a `client_secret` of 64 characters each, the secret shown
 * in the creation's answer only.
 */

export const OAUTH_APPS = "oauth_apps"

/** `client_id` and `client_secret` length (spec, Limits). */
export const CLIENT_CREDENTIAL_LENGTH = 64

/** At most this many redirect URIs per app (the spec names no limit; a bound keeps the row small). */
export const MAX_REDIRECT_URIS = 10

const httpUrl = (options: { readonly fragment: boolean }) => (value: string): boolean => {
  try {
    const url = new URL(value)
    return (url.protocol === "https:" || url.protocol === "http:") && url.username === "" && url.password === "" &&
      (options.fragment || !value.includes("#"))
  } catch {
    return false
  }
}

/** RFC 6749 3.1.2: an absolute URI without a fragment; http is allowed (a sandbox app runs on localhost). */
const RedirectUri = Schema.String.check(
  Schema.isMaxLength(2000),
  Schema.makeFilter(httpUrl({ fragment: false }), { message: "must be an absolute http or https URL without a fragment or credentials" })
)
const WebhookUrl = Schema.String.check(
  Schema.isMaxLength(2000),
  Schema.makeFilter(httpUrl({ fragment: true }), { message: "must be an absolute http or https URL without credentials" })
)

export const OAuthAppCreateRequest = Schema.Struct({
  name: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(255)),
  redirect_uris: Schema.Array(RedirectUri).check(Schema.isMinLength(1), Schema.isMaxLength(MAX_REDIRECT_URIS)),
  webhook_url: Schema.optionalKey(Schema.NullOr(WebhookUrl)),
  links: Schema.optionalKey(Schema.Struct({ creditor: Schema.optionalKey(Schema.String) }))
})
export type OAuthAppCreateRequest = typeof OAuthAppCreateRequest.Type

/** An app as the API shows it: never its secret, which only the creation's answer carries. */
export const OAuthAppView = Schema.Struct({
  id: Schema.String,
  created_at: Schema.String,
  name: Schema.String,
  redirect_uris: Schema.Array(Schema.String),
  webhook_url: Schema.NullOr(Schema.String),
  client_id: Schema.String,
  status: Schema.String,
  payment_pages_approved: Schema.Boolean,
  links: Schema.Struct({ organisation: Schema.String, creditor: Schema.String })
})
export type OAuthAppView = typeof OAuthAppView.Type

export const viewOf = (app: OAuthApp): OAuthAppView => ({
  id: app.id,
  created_at: app.createdAt,
  name: app.name,
  redirect_uris: app.redirectUris,
  webhook_url: app.webhookUrl,
  client_id: app.clientId,
  status: app.status,
  payment_pages_approved: app.paymentPagesApproved,
  links: { organisation: app.organisation, creditor: app.creditor }
})

/** 64 URL-safe characters of 384 random bits. */
const credential = (): string => randomBytes(48).toString("base64url")

/** Apps act for other organisations; only an organisation's own token manages its apps. */
export const ownTokenOnly = (caller: CallerShape): Effect.Effect<void, Forbidden> =>
  caller.app === null ? Effect.void : Effect.fail(new Forbidden({ reason: APP_RESTRICTED_REASON, message: "A partner app's access token cannot manage OAuth apps" }))

/** What an app's webhook secret is sealed to: that app (a sealed secret copied elsewhere does not open). */
export const appSecretContext = (app: string): string => `oauth_apps/${app}`

/**
 * The webhook URL under the delivery rules of the registering organisation (the app's events are
 * delivered under its owner's rules, `WebhookTargetTrust`), and a signing secret for it (shown
 * once, kept sealed).
 */
const webhookOf = (organisation: string, id: string, url: string | null | undefined) =>
  Effect.gen(function*() {
    if (url === undefined || url === null) return { url: null, secret: undefined, sealed: null }
    const privateTargets = yield* (yield* WebhookTargetTrust).privateTargets({ organisation })
    const refused = yield* (yield* WebhookSender).check(url, privateTargets)
    if (refused !== undefined) return yield* Effect.fail(invalidField(OAUTH_APPS, ["webhook_url"], refused))
    const secret = randomBytes(32).toString("base64url")
    return { url, secret, sealed: (yield* WebhookSecretKey).seal(secret, appSecretContext(id)) }
  })

export const registerApp = (organisation: string, command: OAuthAppCreateRequest) =>
  Effect.gen(function*() {
    // The creditor app fees are paid to: the one named, else the organisation's only creditor.
    const creditor = (yield* resolveCreditor(yield* CreditorRepository, organisation, OAUTH_APPS, command.links?.creditor)).resource
    const clientSecret = credential()
    const id = yield* newId("oauth_app")
    const webhook = yield* webhookOf(organisation, id, command.webhook_url)
    const app: OAuthApp = {
      id,
      organisation,
      creditor: creditor.id,
      name: command.name,
      redirectUris: command.redirect_uris,
      webhookUrl: webhook.url,
      webhookSecretSealed: webhook.sealed,
      clientId: credential(),
      clientSecretHash: hashSecret(clientSecret),
      status: createdState(oauthAppMachine, "enabled"),
      paymentPagesApproved: false,
      createdAt: yield* now
    }
    yield* (yield* OAuthStore).insertApp(app)
    return { ...viewOf(app), client_secret: clientSecret, ...(webhook.secret === undefined ? {} : { webhook_secret: webhook.secret }) }
  })

/** An app of the organisation; another organisation's is as unknown as a made-up id. */
export const appOf = (organisation: string, id: string): Effect.Effect<OAuthApp, PaykitError, OAuthStore> =>
  Effect.gen(function*() {
    const app = yield* (yield* OAuthStore).appById(id)
    if (app === undefined || app.organisation !== organisation) return yield* Effect.fail(new NotFound({ resource: OAUTH_APPS, id }))
    return app
  })

/** Disabling is for good: its client is refused (`invalid_client`) and its tokens stop working. */
export const disableApp = (organisation: string, id: string) =>
  Effect.gen(function*() {
    const app = yield* appOf(organisation, id)
    const store = yield* OAuthStore
    const tokens = yield* AccessTokens
    const endpoints = yield* WebhookEndpoints
    // One unit with the exchanges (which hold the app's row): every grant they make is seen here.
    const disabled = yield* store.exclusive(Effect.gen(function*() {
      // A disabled app stays disabled: disabling it again changes nothing and answers it as it is.
      const after = yield* store.moveApp(app.id, "disable")
      for (const grant of yield* store.grantsOf(app.id)) {
        yield* tokens.move(grant.tokenId, "deactivate")
        yield* Effect.orDie(endpoints.disconnectApp(OrganisationId(grant.organisation), app.id))
      }
      return after ?? app
    }))
    return viewOf(disabled)
  })

/**
 * The organisation's partner apps detached from every other organisation that connected them:
 * the app's webhook endpoint there is disabled, as a revocation would leave it (the grants and the
 * tokens issued to the app go with the organisation's rows: `Organisations.remove`).
 */
export const detachAppsOf = (organisation: string) =>
  Effect.gen(function*() {
    const store = yield* OAuthStore
    const endpoints = yield* WebhookEndpoints
    for (const app of yield* store.appsOf(organisation)) {
      const connected = new Set((yield* store.grantsOf(app.id)).map((grant) => grant.organisation))
      connected.delete(organisation)
      for (const merchant of connected) yield* Effect.orDie(endpoints.disconnectApp(OrganisationId(merchant), app.id))
    }
  })
