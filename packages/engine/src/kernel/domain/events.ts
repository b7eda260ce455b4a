import { Schema } from "effect"
import { ID_PREFIXES } from "@paykit/core"
import { defineResource } from "../definition.ts"
import { CreatedAt, Id, StoredMetadata } from "../fields.ts"

export const EVENT_ORIGINS = ["bank", "api", "gocardless", "customer", "payer"] as const
export type EventOrigin = (typeof EVENT_ORIGINS)[number]

/** The link keys an event can carry (the real API's `EventLinks`); each is also a list filter. */
export const EVENT_LINK_KEYS = [
  "bank_authorisation", "billing_request", "billing_request_flow", "creditor", "customer", "customer_bank_account",
  "instalment_schedule", "mandate", "mandate_request", "mandate_request_mandate", "new_customer_bank_account",
  "new_mandate", "organisation", "outbound_payment", "parent_event", "payer_authorisation", "payment",
  "payment_account_transaction", "payment_request_payment", "payout", "previous_customer_bank_account", "refund",
  "scheme_identifier", "subscription", "outbound_payment_import", "negative_balance_limit", "export"
] as const
export type EventLinkKey = (typeof EVENT_LINK_KEYS)[number]

/**
 * The real API's resource types, plus `creditor_bank_accounts`: paykit records a bank account's
 * disabling (it changes where payouts go) though the real API has no event type for it.
 */
export const EVENT_RESOURCE_TYPES = [
  "bank_authorisations", "billing_requests", "creditors", "customers", "customer_bank_accounts", "instalment_schedules", "mandates",
  "outbound_payments", "outbound_payment_imports", "payer_authorisations", "payments", "payment_account_transactions",
  "payouts", "refunds", "scheme_identifiers", "subscriptions", "negative_balance_limits",
  "creditor_bank_accounts"
] as const
export type EventResourceType = (typeof EVENT_RESOURCE_TYPES)[number]

export const EventDetails = Schema.Struct({
  origin: Schema.Literals(EVENT_ORIGINS),
  cause: Schema.String,
  description: Schema.String,
  scheme: Schema.optionalKey(Schema.String),
  reason_code: Schema.optionalKey(Schema.String),
  will_attempt_retry: Schema.optionalKey(Schema.Boolean),
  currency: Schema.optionalKey(Schema.String)
})
export type EventDetails = typeof EventDetails.Type

export const EventLinks = Schema.Record(Schema.Literals(EVENT_LINK_KEYS), Schema.String)

export const Event = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  resource_type: Schema.Literals(EVENT_RESOURCE_TYPES),
  action: Schema.String,
  links: Schema.Record(Schema.String, Schema.String),
  details: EventDetails,
  metadata: StoredMetadata,
  resource_metadata: StoredMetadata
})
export type Event = typeof Event.Type

const linkFilters = Object.fromEntries(
  EVENT_LINK_KEYS.map((key) => [key, (e: Event): string | null => e.links[key] ?? null])
) as { readonly [P in EventLinkKey]: (e: Event) => string | null }

export const events = defineResource({
  name: "events",
  idPrefix: ID_PREFIXES.event,
  schema: Event,
  filters: {
    created_at: (e: Event) => e.created_at,
    resource_type: (e: Event) => e.resource_type,
    action: (e: Event) => e.action,
    ...linkFilters
  }
})
