import { Timestamp } from "@paykit/core"
import { Schema } from "effect"

/** Where an event came from, as the real API's `details.origin`. */
export const EVENT_ORIGINS = ["bank", "api", "gocardless", "customer", "payer"] as const
export const EventOrigin = Schema.Literals(EVENT_ORIGINS).annotate({ identifier: "EventOrigin" })
export type EventOrigin = typeof EventOrigin.Type

/**
 * Why a transition happened: becomes the API event's `details` (`origin`, `cause`,
 * `description`), e.g. `{origin: "bank", cause: "insufficient_funds"}`.
 */
export const Cause = Schema.Struct({
  origin: EventOrigin,
  cause: Schema.String,
  description: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "Cause" })
export type Cause = typeof Cause.Type

/** The event name of the history entry that records a resource's creation. */
export const CREATE_EVENT = "create"

/**
 * One accepted transition. `from` is null for the creation entry. `emits` is the API event
 * action to publish for `resource_type`, or null where the real API publishes none.
 */
export interface HistoryEntry<S extends string, E extends string> {
  readonly resource_type: string
  readonly from: S | null
  readonly to: S
  readonly event: E | typeof CREATE_EVENT
  readonly emits: string | null
  readonly at: Timestamp
  readonly cause: Cause
}

/**
 * A history entry as stored, with states and events as plain strings; the engine decodes `to`
 * and `from` with the resource's status schema when it reads them back.
 */
export const HistoryEntryRecord = Schema.Struct({
  resource_type: Schema.String,
  from: Schema.NullOr(Schema.String),
  to: Schema.String,
  event: Schema.String,
  emits: Schema.NullOr(Schema.String),
  at: Timestamp,
  cause: Cause
}).annotate({ identifier: "HistoryEntryRecord" })
export type HistoryEntryRecord = typeof HistoryEntryRecord.Type
