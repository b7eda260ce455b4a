import { Schema } from "effect"
import { ID_PREFIXES } from "@paykit/core"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, NullableTimestamp } from "../../kernel/fields.ts"
import { listFields } from "../../kernel/list-params.ts"

/**
 * A webhook endpoint: where an organisation's events are POSTed, and the secret they are signed
 * with. paykit's own API extension (the real API manages endpoints in its dashboard).
 */

/** Why an endpoint stopped receiving: its owner disabled it, or it kept failing (`WEBHOOK_ENDPOINT_DISABLE_AFTER_MS`). */
export const WEBHOOK_ENDPOINT_DISABLED_REASONS = ["disabled_by_user", "failing"] as const
export type WebhookEndpointDisabledReason = (typeof WEBHOOK_ENDPOINT_DISABLED_REASONS)[number]
export const DISABLED_BY_USER: WebhookEndpointDisabledReason = "disabled_by_user"
export const DISABLED_FOR_FAILING: WebhookEndpointDisabledReason = "failing"

/**
 * How an endpoint's requests are signed. GoCardless's `Webhook-Signature` and Standard Webhooks'
 * `webhook-signature` are one header (names are case-insensitive), and GoCardless's libraries
 * compare its whole value with the hex digest, so one request cannot carry both signatures:
 * `gocardless` (the default) puts the hex HMAC of the body there, `standard_webhooks` the
 * `v1,<base64>` signature of `id.timestamp.body`. Both send `webhook-id` and `webhook-timestamp`.
 */
export const WEBHOOK_SIGNATURE_SCHEMES = ["gocardless", "standard_webhooks"] as const
export type WebhookSignatureScheme = (typeof WEBHOOK_SIGNATURE_SCHEMES)[number]

/** The longest URL an endpoint takes. */
export const WEBHOOK_URL_MAX_LENGTH = 2048
/** Secrets an integrator chooses: long enough to be a key, short enough to be a header value. */
export const WEBHOOK_SECRET_MIN_LENGTH = 16
export const WEBHOOK_SECRET_MAX_LENGTH = 256

/** The fields the API shows. */
const publicFields = {
  id: Id,
  created_at: CreatedAt,
  url: Schema.String,
  signature_scheme: Schema.Literals(WEBHOOK_SIGNATURE_SCHEMES),
  enabled: Schema.Boolean,
  /** Why `enabled` is false; null while enabled. */
  disabled_reason: Schema.NullOr(Schema.Literals(WEBHOOK_ENDPOINT_DISABLED_REASONS)),
  /** When the run of failed attempts now going on began; null after a success. */
  failing_since: NullableTimestamp
} as const

/** An endpoint as the API shows it: never its secret. */
export const WebhookEndpoint = Schema.Struct(publicFields)
export type WebhookEndpoint = typeof WebhookEndpoint.Type

/** The answer to a creation: the endpoint and its secret, shown this once. */
export const CreatedWebhookEndpoint = Schema.Struct({ ...publicFields, secret: Schema.String })
export type CreatedWebhookEndpoint = typeof CreatedWebhookEndpoint.Type

/**
 * An endpoint as stored: its secret sealed with the server's key (`secret-box.ts`), since a signing
 * secret must be read back to sign and so cannot be hashed.
 */
export const StoredWebhookEndpoint = Schema.Struct({
  ...publicFields,
  sealed_secret: Schema.String,
  /**
   * The partner app (its id) this endpoint delivers the organisation's events to, for an
   * organisation connected to an app with a webhook URL (docs/oauth.md): its bodies add
   * `links.organisation`. Absent on the organisation's own endpoints.
   */
  partner_app: Schema.optionalKey(Schema.String)
})
export type StoredWebhookEndpoint = typeof StoredWebhookEndpoint.Type

/** The API's key of webhook endpoints: their path, and the root of their requests' field errors. */
export const WEBHOOK_ENDPOINTS = "webhook_endpoints"

export const webhookEndpoints = defineResource({
  name: WEBHOOK_ENDPOINTS,
  idPrefix: ID_PREFIXES.webhook_endpoint,
  schema: StoredWebhookEndpoint,
  filters: {
    created_at: (r: StoredWebhookEndpoint) => r.created_at,
    url: (r: StoredWebhookEndpoint) => r.url,
    enabled: (r: StoredWebhookEndpoint) => String(r.enabled)
  }
})

export const publicEndpoint = ({ sealed_secret: _sealed, partner_app: _app, ...endpoint }: StoredWebhookEndpoint): WebhookEndpoint => endpoint

/** An absolute http(s) URL without credentials; whether plain http is allowed depends on the mode (`WebhookSender.refusal`). */
export const WebhookUrl = Schema.String.check(
  Schema.makeFilter((s: string) => s.length <= WEBHOOK_URL_MAX_LENGTH && httpUrl(s), {
    message: `must be an absolute http or https URL of at most ${WEBHOOK_URL_MAX_LENGTH} characters, without user or password`
  })
)

const httpUrl = (s: string): boolean => {
  if (!URL.canParse(s)) return false
  const url = new URL(s)
  return (url.protocol === "https:" || url.protocol === "http:") && url.username === "" && url.password === ""
}

export const WebhookSecret = Schema.String.check(
  Schema.makeFilter((s: string) => s.length >= WEBHOOK_SECRET_MIN_LENGTH && s.length <= WEBHOOK_SECRET_MAX_LENGTH && /^[\x21-\x7e]+$/.test(s), {
    message: `must be ${WEBHOOK_SECRET_MIN_LENGTH} to ${WEBHOOK_SECRET_MAX_LENGTH} visible ASCII characters`
  })
)

/** `POST /webhook_endpoints`: the URL, and the secret when the integrator has one already (else one is made). */
export const WebhookEndpointCreateRequest = Schema.Struct({
  url: WebhookUrl,
  secret: Schema.optionalKey(WebhookSecret),
  signature_scheme: Schema.optionalKey(Schema.Literals(WEBHOOK_SIGNATURE_SCHEMES)),
  enabled: Schema.optionalKey(Schema.Boolean)
})
export type WebhookEndpointCreateRequest = typeof WebhookEndpointCreateRequest.Type

/** `PUT /webhook_endpoints/{id}`: a new URL, or enabling (again) or disabling. */
export const WebhookEndpointUpdateRequest = Schema.Struct({
  url: Schema.optionalKey(WebhookUrl),
  signature_scheme: Schema.optionalKey(Schema.Literals(WEBHOOK_SIGNATURE_SCHEMES)),
  enabled: Schema.optionalKey(Schema.Boolean)
})
export type WebhookEndpointUpdateRequest = typeof WebhookEndpointUpdateRequest.Type

export const WebhookEndpointListParams = Schema.Struct({
  ...listFields("webhook_endpoint"),
  enabled: Schema.optionalKey(Schema.Literals(["true", "false"]))
})
export type WebhookEndpointListParams = typeof WebhookEndpointListParams.Type
