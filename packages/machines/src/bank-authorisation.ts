import { BANK_AUTHORISATION_URL_LIFE_MS, type Timestamp, timestampFromMillis, timestampToMillis } from "@paykit/core"
import { Schema } from "effect"
import { bindMachine, defineMachine, guard } from "./machine.ts"

/**
 * Bank authorisation states. The real resource has no `status` field (it shows
 * `last_visited_at`, `authorised_at`, `expires_at`); these states are what those fields and the
 * BANK_AUTHORISATION_* events describe.
 */
export const BANK_AUTHORISATION_STATES = ["created", "visited", "authorised", "denied", "failed", "expired"] as const
export const BankAuthorisationState = Schema.Literals(BANK_AUTHORISATION_STATES).annotate({ identifier: "BankAuthorisationState" })
export type BankAuthorisationState = typeof BankAuthorisationState.Type

export const BANK_AUTHORISATION_EVENTS = ["visit", "authorise", "deny", "fail", "expire"] as const
export type BankAuthorisationEvent = (typeof BANK_AUTHORISATION_EVENTS)[number]

export interface BankAuthorisationContext {
  readonly created_at: Timestamp
}

/** `expires_at` of a bank authorisation created at `createdAt`: its URL lives 15 minutes. */
export const bankAuthorisationExpiresAt = (createdAt: Timestamp): Timestamp =>
  timestampFromMillis(timestampToMillis(createdAt) + BANK_AUTHORISATION_URL_LIFE_MS)

const expired = (c: BankAuthorisationContext, at: Timestamp): boolean =>
  timestampToMillis(at) >= timestampToMillis(bankAuthorisationExpiresAt(c.created_at))

const notExpired = guard<BankAuthorisationContext>(
  "before_expiry",
  "bank_authorisation_expired",
  "The bank authorisation has expired; create a new one",
  (c, at) => !expired(c, at)
)
const expiryReached = guard<BankAuthorisationContext>(
  "expiry_reached",
  "bank_authorisation_not_expired",
  "The bank authorisation has not reached its expiry",
  (c, at) => expired(c, at)
)

/**
 * created -> visited (the payer opens the URL, any number of times) -> authorised, denied or
 * failed at the bank; expired 15 minutes after creation when none of those happened. Emits the
 * spec's BANK_AUTHORISATION_* names.
 */
export const bankAuthorisationMachine = defineMachine<BankAuthorisationContext>()({
  name: "bank_authorisations",
  noun: "bank authorisation",
  states: BANK_AUTHORISATION_STATES,
  events: BANK_AUTHORISATION_EVENTS,
  initial: ["created"],
  terminal: ["authorised", "denied", "failed", "expired"],
  created: null,
  transitions: [
    {
      from: ["created", "visited"], event: "visit", to: "visited", guard: notExpired,
      emits: "BANK_AUTHORISATION_VISITED", reason: "bank_authorisation_not_pending"
    },
    {
      from: ["created", "visited"], event: "authorise", to: "authorised", guard: notExpired,
      emits: "BANK_AUTHORISATION_AUTHORISED", reason: "bank_authorisation_not_pending"
    },
    {
      from: ["created", "visited"], event: "deny", to: "denied", guard: notExpired,
      emits: "BANK_AUTHORISATION_DENIED", reason: "bank_authorisation_not_pending"
    },
    {
      from: ["created", "visited"], event: "fail", to: "failed",
      emits: "BANK_AUTHORISATION_FAILED", reason: "bank_authorisation_not_pending"
    },
    {
      from: ["created", "visited"], event: "expire", to: "expired", guard: expiryReached,
      emits: "BANK_AUTHORISATION_EXPIRED", reason: "bank_authorisation_not_pending"
    }
  ]
})

export const bankAuthorisations = bindMachine(bankAuthorisationMachine)
