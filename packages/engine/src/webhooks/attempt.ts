import { Effect, Metric } from "effect"
import { type IdGenerator, type StorageError, withNewId } from "@paykit/core"
import { labelled, PaykitMetrics } from "../due-work/metrics.ts"
import type { StoredWebhookEndpoint } from "./domain/webhook-endpoints.ts"
import type { HeaderMap, Webhook } from "./domain/webhooks.ts"
import { WEBHOOK_RESPONSE_HEADER_MAX_LENGTH, WEBHOOK_RESPONSE_HEADERS_MAX_COUNT } from "./delivery-policy.ts"
import type { WebhookSecretKey } from "./secret-box.ts"
import type { SendResult, WebhookSender } from "./sender.ts"
import type { WebhookTargetTrustShape } from "./target-trust.ts"
import { signedHeaders } from "./signing.ts"
import { openSecret } from "./webhook-endpoints.ts"

/** What an attempt needs. */
export interface AttemptDeps {
  readonly box: WebhookSecretKey["Service"]
  readonly sender: WebhookSender["Service"]
  readonly trust: WebhookTargetTrustShape
}

/** What one attempt sends: the delivery's body, under its id, to the endpoint. */
export interface AttemptRequest {
  readonly organisation: string
  readonly delivery: string
  readonly body: string
  readonly endpoint: StoredWebhookEndpoint
  /** The record's id when it is fixed beforehand (a delivery's first attempt is recorded under the delivery's id). */
  readonly recordId?: string
  /** A test webhook (the dashboard's "send test webhook"): recorded with `is_test: true`. */
  readonly isTest?: boolean
}

export const isSuccess = (status: number): boolean => status >= 200 && status <= 299

const deliveriesOf = labelled(PaykitMetrics.webhookDeliveries)
const durationOf = labelled(PaykitMetrics.webhookDeliveryDuration)

/** An attempt counted by its outcome (success: 2xx; rejected: another status; error: no answer) and timed. */
const measure = (result: SendResult, seconds: number): Effect.Effect<void> => {
  const outcome = result._tag === "Failed" ? "error" : isSuccess(result.status) ? "success" : "rejected"
  return Effect.andThen(Metric.update(deliveriesOf({ outcome }), 1), Metric.update(durationOf({ outcome }), seconds))
}

/** The response headers a record keeps, and whether their count or content was cut. */
export const keptHeaders = (headers: ReadonlyArray<readonly [string, string]>) => {
  const kept: Record<string, string> = {}
  let contentTruncated = false
  for (const [name, value] of headers.slice(0, WEBHOOK_RESPONSE_HEADERS_MAX_COUNT)) {
    if (value.length > WEBHOOK_RESPONSE_HEADER_MAX_LENGTH) contentTruncated = true
    const cut = value.slice(0, WEBHOOK_RESPONSE_HEADER_MAX_LENGTH)
    // A repeated header keeps every value, as Node joins them.
    kept[name] = kept[name] === undefined ? cut : `${kept[name]}, ${cut}`
  }
  return { headers: kept as HeaderMap, contentTruncated, countTruncated: headers.length > WEBHOOK_RESPONSE_HEADERS_MAX_COUNT }
}

const answerFields = (result: SendResult) => {
  if (result._tag === "Failed") {
    return {
      response_code: null, response_headers: null, response_headers_content_truncated: false,
      response_headers_count_truncated: false, response_body: null, response_body_truncated: false, successful: false
    }
  }
  const kept = keptHeaders(result.headers)
  return {
    response_code: result.status,
    response_headers: kept.headers,
    response_headers_content_truncated: kept.contentTruncated,
    response_headers_count_truncated: kept.countTruncated,
    response_body: result.body,
    response_body_truncated: result.bodyTruncated,
    successful: isSuccess(result.status)
  }
}

/**
 * One attempt: the body signed with the endpoint's secret now (`webhook-timestamp` is the real
 * time, which receivers compare with their own clocks), sent, and its record made (stamped on the
 * organisation's clock) whatever came of it, for the caller to store with what follows from it. A
 * secret that no longer opens (the server key was replaced) is a failed attempt that says so in
 * the log; nothing unsigned is sent.
 */
export const attemptDelivery = (deps: AttemptDeps, request: AttemptRequest): Effect.Effect<Webhook, StorageError, IdGenerator> =>
  Effect.gen(function*() {
    const secret = openSecret(deps.box, request.organisation, request.endpoint)
    const timestamp = Math.floor(Date.now() / 1000)
    const headers = secret === undefined ? { "Content-Type": "application/json" } : signedHeaders(request.endpoint.signature_scheme, secret, request.delivery, timestamp, request.body)
    // Real time, as the signature's timestamp: how long the receiver took, whatever the organisation's clock says.
    const sentAt = performance.now()
    const result: SendResult = secret === undefined
      ? { _tag: "Failed", reason: "the endpoint's secret does not open with this server's key" }
      : yield* deps.sender.send(
        { url: request.endpoint.url, headers, body: request.body },
        yield* deps.trust.privateTargets({ organisation: request.organisation, partnerApp: request.endpoint.partner_app })
      )
    const elapsedMs = performance.now() - sentAt
    const responseTimeMs = secret === undefined ? null : Math.round(elapsedMs)
    yield* measure(result, elapsedMs / 1000)
    if (result._tag === "Failed") {
      yield* Effect.logWarning("webhook attempt failed").pipe(
        Effect.annotateLogs({ organisation: request.organisation, webhook_endpoint: request.endpoint.id, delivery: request.delivery, reason: result.reason })
      )
    }
    const record = (id: string, created_at: Webhook["created_at"]): Webhook => ({
      id,
      created_at,
      url: request.endpoint.url,
      request_headers: headers,
      request_body: request.body,
      ...answerFields(result),
      response_time_ms: responseTimeMs,
      is_test: request.isTest === true,
      links: { webhook_endpoint: request.endpoint.id, delivery: request.delivery }
    })
    return yield* withNewId("webhook", (id, createdAt) => Effect.succeed(record(request.recordId ?? id, createdAt)))
  }).pipe(
    // The answer's status, not its body or the URL (which may carry a receiver's token); never the secret.
    Effect.tap((record) =>
      Effect.annotateCurrentSpan({
        "paykit.webhook.successful": record.successful,
        ...(record.response_code === null ? {} : { "http.response.status_code": record.response_code })
      })),
    Effect.withSpan("webhook attempt", {
      kind: "client",
      attributes: {
        "paykit.organisation": request.organisation,
        "paykit.webhook_endpoint": request.endpoint.id,
        "paykit.webhook.delivery": request.delivery,
        "paykit.webhook.test": request.isTest === true
      }
    })
  )
