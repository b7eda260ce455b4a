import { Effect, Schema } from "effect"
import type { StorageError } from "@paykit/core"
import { Event, EventDetails } from "../kernel/domain/events.ts"
import { StoredMetadata } from "../kernel/fields.ts"
import { constantTimeEquals } from "../kernel/constant-time.ts"
import { gocardlessSignature } from "./signing.ts"

/**
 * The receiving side, for an integrator's server (paykit's or GoCardless's webhooks alike): check
 * `Webhook-Signature` in constant time, then decode the body's events. What it accepts is wider
 * than what paykit sends: resource types and origins it does not know yet, and events without
 * `resource_metadata` (the real API added it late), so a new kind of event is not a broken webhook.
 */

/** An event as a receiver decodes it. */
export const ReceivedEvent = Schema.Struct({
  ...Event.fields,
  created_at: Schema.String,
  resource_type: Schema.String,
  details: Schema.Struct({ ...EventDetails.fields, origin: Schema.String }),
  resource_metadata: Schema.optionalKey(StoredMetadata)
})
export type ReceivedEvent = typeof ReceivedEvent.Type

export const ReceivedWebhookBody = Schema.Struct({
  events: Schema.Array(ReceivedEvent),
  meta: Schema.optionalKey(Schema.Struct({ webhook_id: Schema.optionalKey(Schema.String) }))
})

/** The signature does not match the body under the secret: not from the sender, or altered. */
export class InvalidWebhookSignature extends Schema.TaggedError<InvalidWebhookSignature>()("InvalidWebhookSignature", {}) {
  override get message(): string {
    return "The Webhook-Signature does not match the body under the webhook endpoint's secret"
  }
}

/** A correctly signed body that is not a webhook's (not JSON, or events of another shape). */
export class InvalidWebhookBody extends Schema.TaggedError<InvalidWebhookBody>()("InvalidWebhookBody", { message: Schema.String }) {}

export interface ParsedWebhook {
  readonly events: ReadonlyArray<ReceivedEvent>
  /** `meta.webhook_id`: the same on every attempt of one delivery, so a receiver can drop repeats. */
  readonly webhookId: string | undefined
}

const decodeBody = Schema.decodeUnknownEffect(Schema.fromJsonString(ReceivedWebhookBody))

/** Verifies `signature` (the `Webhook-Signature` header) over the raw `body` with `secret`, then decodes the events. */
export const parseWebhook = (
  body: string | Uint8Array,
  secret: string,
  signature: string
): Effect.Effect<ParsedWebhook, InvalidWebhookSignature | InvalidWebhookBody | StorageError> => {
  const text = typeof body === "string" ? body : Buffer.from(body).toString("utf8")
  if (!constantTimeEquals(gocardlessSignature(secret, text), signature.trim().toLowerCase())) return Effect.fail(new InvalidWebhookSignature())
  return decodeBody(text).pipe(
    Effect.map((decoded): ParsedWebhook => ({ events: decoded.events, webhookId: decoded.meta?.webhook_id })),
    Effect.mapError((issue) => new InvalidWebhookBody({ message: String(issue) }))
  )
}
