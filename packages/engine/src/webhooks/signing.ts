import { createHmac } from "node:crypto"
import type { WebhookSignatureScheme } from "./domain/webhook-endpoints.ts"

/**
 * The signatures a delivery carries, in the endpoint's `signature_scheme`:
 *
 * - `gocardless`: `Webhook-Signature` is the lowercase hex HMAC-SHA256 of the raw body keyed with
 *   the endpoint secret (its UTF-8 bytes), as the official clients' `parse` checks it;
 * - `standard_webhooks`: `webhook-signature: v1,<base64>`, the HMAC-SHA256 of
 *   `<webhook-id>.<webhook-timestamp>.<body>` with the same key bytes. A Standard Webhooks library
 *   takes its key as `whsec_<base64 of the key bytes>`: `standardWebhooksSecret`.
 *
 * The two are one header (names are case-insensitive), hence the choice; every request carries
 * `webhook-id` (the delivery's id, the same on each retry) and `webhook-timestamp`.
 */

export const GOCARDLESS_SIGNATURE_HEADER = "Webhook-Signature"
export const STANDARD_ID_HEADER = "webhook-id"
export const STANDARD_TIMESTAMP_HEADER = "webhook-timestamp"
export const STANDARD_SIGNATURE_HEADER = "webhook-signature"

const hmac = (secret: string, message: string) => createHmac("sha256", Buffer.from(secret, "utf8")).update(message, "utf8")

/** GoCardless's `Webhook-Signature`: hex HMAC-SHA256 of the raw body. */
export const gocardlessSignature = (secret: string, body: string): string => hmac(secret, body).digest("hex")

/** Standard Webhooks' `webhook-signature` value (one `v1` signature). */
export const standardSignature = (secret: string, id: string, timestampSeconds: number, body: string): string =>
  `v1,${hmac(secret, `${id}.${timestampSeconds}.${body}`).digest("base64")}`

/** The endpoint secret as a Standard Webhooks library wants its key. */
export const standardWebhooksSecret = (secret: string): string => `whsec_${Buffer.from(secret, "utf8").toString("base64")}`

/** The headers of one request in `scheme`, with its content type. */
export const signedHeaders = (
  scheme: WebhookSignatureScheme,
  secret: string,
  webhookId: string,
  timestampSeconds: number,
  body: string
): Record<string, string> => ({
  "Content-Type": "application/json",
  [STANDARD_ID_HEADER]: webhookId,
  [STANDARD_TIMESTAMP_HEADER]: String(timestampSeconds),
  ...(scheme === "gocardless"
    ? { [GOCARDLESS_SIGNATURE_HEADER]: gocardlessSignature(secret, body) }
    : { [STANDARD_SIGNATURE_HEADER]: standardSignature(secret, webhookId, timestampSeconds, body) })
})

