import { Context, Effect, Layer } from "effect"
import { decodeAtBoundary, type IdGenerator, newId, type NotFound, type OrganisationId, type StorageError, type ValidationFailed } from "@paykit/core"
import { eq, type Page } from "../kernel/ports/list-query.ts"
import { toListQuery } from "../kernel/list-params.ts"
import { captureIdGenerator, insertNew } from "../kernel/support.ts"
import { type Webhook, WebhookListParams } from "./domain/webhooks.ts"
import { attemptDelivery } from "./attempt.ts"
import { WebhookEndpointRepository, WebhookRepository } from "./repositories.ts"
import { WebhookSecretKey } from "./secret-box.ts"
import { WebhookSender } from "./sender.ts"
import { WebhookTargetTrust } from "./target-trust.ts"

const decodeList = decodeAtBoundary(WebhookListParams, "webhooks")

/** The records of webhook attempts (`GET /webhooks`), and sending one again. */
export class Webhooks extends Context.Service<Webhooks, {
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<Webhook, NotFound | StorageError>
  readonly list: (organisation: OrganisationId, params: typeof WebhookListParams.Encoded) => Effect.Effect<Page<Webhook>, ValidationFailed | StorageError>
  /**
   * Sends the webhook's body again, as it was, to its endpoint's URL now, signed anew, and answers
   * the record of this new attempt. It is sent whether or not the endpoint is enabled: the
   * integrator asked for it.
   */
  readonly retry: (organisation: OrganisationId, id: string) => Effect.Effect<Webhook, NotFound | StorageError>
  /**
   * A test webhook to the endpoint now: a body signed as every delivery is, holding no events
   * (`{"events": [], "meta": {"webhook_id": ...}}`), recorded with `is_test: true`, whether or not
   * the endpoint is enabled. What a receiver's signature check and answer can be tried with,
   * without a resource changing; the API has no route for it (GoCardless's is in its dashboard).
   */
  readonly sendTest: (organisation: OrganisationId, endpoint: string) => Effect.Effect<Webhook, NotFound | StorageError>
}>()("@paykit/engine/Webhooks") {
  static readonly layer: Layer.Layer<
    Webhooks,
    never,
    WebhookRepository | WebhookEndpointRepository | WebhookSecretKey | WebhookSender | IdGenerator
  > = Layer.effect(
    Webhooks,
    Effect.gen(function*() {
      const records = yield* WebhookRepository
      const endpoints = yield* WebhookEndpointRepository
      const deps = { box: yield* WebhookSecretKey, sender: yield* WebhookSender, trust: yield* WebhookTargetTrust }
      const provideIds = yield* captureIdGenerator
      const flag = (value: boolean | undefined) => value === undefined ? undefined : eq(String(value))
      return Webhooks.of({
        get: (o, id) => Effect.map(records.get(o, id), (v) => v.resource),
        list: (o, plain) => Effect.flatMap(decodeList(plain), (params) => records.list(o, toListQuery(params, { successful: flag(params.successful), is_test: flag(params.is_test) }))),
        // No unit of work around it: the record is one insert, and none is held open across the request.
        retry: (o, id) =>
          Effect.gen(function*() {
            const earlier = (yield* records.get(o, id)).resource
            const endpoint = yield* endpoints.get(o, earlier.links.webhook_endpoint)
            const record = yield* provideIds(attemptDelivery(deps, {
              organisation: o, delivery: earlier.links.delivery, body: earlier.request_body, endpoint: endpoint.resource
            }))
            return (yield* insertNew(records, o, record)).resource
          }),
        sendTest: (o, endpointId) =>
          Effect.gen(function*() {
            const endpoint = (yield* endpoints.get(o, endpointId)).resource
            const record = yield* provideIds(Effect.flatMap(newId("webhook"), (delivery) =>
              attemptDelivery(deps, {
                organisation: o, delivery, recordId: delivery, endpoint, isTest: true,
                body: JSON.stringify({ events: [], meta: { webhook_id: delivery } })
              })))
            return (yield* insertNew(records, o, record)).resource
          })
      })
    })
  )
}
