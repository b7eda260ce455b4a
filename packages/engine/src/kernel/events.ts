import { Context, Effect, Layer, Schema } from "effect"
import type { NotFound } from "@paykit/core"
import { EventLog } from "./ports/event-log.ts"
import { eq, type Filter, type Page } from "./ports/list-query.ts"
import { EVENT_LINK_KEYS, EVENT_RESOURCE_TYPES, type Event } from "./domain/events.ts"
import { listFields, toListQuery } from "./list-params.ts"

const linkFields = Object.fromEntries(EVENT_LINK_KEYS.map((k) => [k, Schema.optionalKey(Schema.String)])) as {
  readonly [K in (typeof EVENT_LINK_KEYS)[number]]: Schema.optionalKey<Schema.String>
}

export const EventListParams = Schema.Struct({
  ...listFields("event"),
  resource_type: Schema.optionalKey(Schema.Literals(EVENT_RESOURCE_TYPES)),
  action: Schema.optionalKey(Schema.String),
  ...linkFields
})
export type EventListParams = typeof EventListParams.Type

/**
 * The events API: append-only, read by id or listed with filters, newest first. The list takes
 * decoded `EventListParams` (the edge decodes a query with that Schema, under the root `events`).
 */
export class Events extends Context.Service<Events, {
  readonly get: (organisation: string, id: string) => Effect.Effect<Event, NotFound>
  readonly list: (organisation: string, params: EventListParams) => Effect.Effect<Page<Event>>
}>()("@paykit/engine/Events") {
  static readonly layer: Layer.Layer<Events, never, EventLog> = Layer.effect(
    Events,
    Effect.map(EventLog, (log: EventLog["Service"]) =>
      Events.of({
        get: log.get,
        list: (organisation, params) => {
          const filters: Record<string, Filter | undefined> = {
            resource_type: params.resource_type === undefined ? undefined : eq(params.resource_type),
            action: params.action === undefined ? undefined : eq(params.action)
          }
          for (const key of EVENT_LINK_KEYS) {
            const value = params[key]
            if (value !== undefined) filters[key] = eq(value)
          }
          return log.list(organisation, toListQuery(params, filters))
        }
      }))
  )
}
