import { defineMachine } from "./machine.ts"

/** A scheme identifier's statuses, as the real API (`SchemeIdentifierStatus`). */
export const SCHEME_IDENTIFIER_STATUSES = ["pending", "active"] as const
export type SchemeIdentifierStatus = (typeof SCHEME_IDENTIFIER_STATUSES)[number]

export const SCHEME_IDENTIFIER_EVENTS = ["register"] as const
export type SchemeIdentifierEvent = (typeof SCHEME_IDENTIFIER_EVENTS)[number]

/**
 * A scheme identifier (kept in its creditor's `scheme_identifiers`). A new creditor's are active
 * at once (the engine is their scheme operator); one requested later is pending until the scheme
 * operator registers it. Only active identifiers are applied to mandates. No API event.
 */
export const schemeIdentifierMachine = defineMachine<Record<never, never>>()({
  name: "scheme_identifiers",
  noun: "scheme identifier",
  states: SCHEME_IDENTIFIER_STATUSES,
  events: SCHEME_IDENTIFIER_EVENTS,
  initial: ["pending", "active"],
  terminal: ["active"],
  created: null,
  transitions: [
    { from: ["pending"], event: "register", to: "active", emits: null, reason: "scheme_identifier_not_pending" }
  ]
})
