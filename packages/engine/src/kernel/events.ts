import { Context, Effect, Layer, Schema } from "effect"
import { issue, withRules } from "@paykit/validation"
import { decodeAtBoundary, type NotFound, type OrganisationId, type StorageError, type ValidationFailed } from "@paykit/core"
import { type EventFilterKey, EventLog } from "./ports/event-log.ts"
import { eq, type Filter, type Page } from "./ports/list-query.ts"
import { EVENT_LINK_KEYS, EVENT_RESOURCE_TYPES, type Event } from "./domain/events.ts"
import { listFields, toListQuery } from "./list-params.ts"

const linkFields = Object.fromEntries(EVENT_LINK_KEYS.map((k) => [k, Schema.optionalKey(Schema.String)])) as {
  readonly [K in (typeof EVENT_LINK_KEYS)[number]]: Schema.optionalKey<Schema.String>
}

/** What `include` may name (the real API's `EventInclude`): a link kind whose resource the list then carries under `linked`. */
export const EVENT_INCLUDES = [
  "billing_request", "creditor", "customer", "instalment_schedule", "mandate", "outbound_payment", "payer_authorisation",
  "payment", "payment_account_transaction", "payout", "refund", "scheme_identifier", "subscription"
] as const
export type EventInclude = (typeof EVENT_INCLUDES)[number]

export const EventListParams = withRules(Schema.Struct({
  ...listFields("event"),
  resource_type: Schema.optionalKey(Schema.Literals(EVENT_RESOURCE_TYPES)),
  action: Schema.optionalKey(Schema.String),
  ...linkFields,
  /** The linked resources to carry with the page (served by the HTTP layer, which reads them through their services). */
  include: Schema.optionalKey(Schema.Literals(EVENT_INCLUDES))
}), [(p) => p.include === undefined || p.resource_type !== undefined ? [] : [issue(["include"], "must be given with resource_type")]])
export type EventListParams = typeof EventListParams.Type

const decodeList = decodeAtBoundary(EventListParams, "events")

/**
 * The events API: append-only, read by id or listed with filters, newest first. The list takes
 * `EventListParams`' plain values and decodes them under the root `events`, as the edge decodes a query.
 */
export class Events extends Context.Service<Events, {
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<Event, NotFound | StorageError>
  readonly list: (organisation: OrganisationId, params: typeof EventListParams.Encoded) => Effect.Effect<Page<Event>, ValidationFailed | StorageError>
}>()("@paykit/engine/Events") {
  static readonly layer: Layer.Layer<Events, never, EventLog> = Layer.effect(
    Events,
    Effect.map(EventLog, (log: EventLog["Service"]) =>
      Events.of({
        get: log.get,
        list: (organisation, plain) => Effect.flatMap(decodeList(plain), (params) => {
          const filters: { [P in EventFilterKey]?: Filter | undefined } = {
            resource_type: params.resource_type === undefined ? undefined : eq(params.resource_type),
            action: params.action === undefined ? undefined : eq(params.action)
          }
          for (const key of EVENT_LINK_KEYS) {
            const value = params[key]
            if (value !== undefined) filters[key] = eq(value)
          }
          return log.list(organisation, toListQuery(params, filters))
        })
      }))
  )
}
