import { defineMachine } from "./machine.ts"

/** An access token's statuses: usable, revoked (for good), or inactive (replaced by a newer grant, or its app disabled). */
export const ACCESS_TOKEN_STATUSES = ["active", "revoked", "inactive"] as const
export type AccessTokenStatus = (typeof ACCESS_TOKEN_STATUSES)[number]

export const ACCESS_TOKEN_EVENTS = ["revoke", "deactivate"] as const
export type AccessTokenEvent = (typeof ACCESS_TOKEN_EVENTS)[number]

/**
 * An access token (kept by the server, not the engine). It is issued active; a reconnect of its
 * app or the app's disabling makes it inactive; revoking ends it, active or inactive, and a
 * revoked token stays revoked. No API event.
 */
export const accessTokenMachine = defineMachine<Record<never, never>>()({
  name: "access_tokens",
  noun: "access token",
  states: ACCESS_TOKEN_STATUSES,
  events: ACCESS_TOKEN_EVENTS,
  initial: ["active"],
  terminal: ["revoked"],
  created: null,
  transitions: [
    { from: ["active", "inactive"], event: "revoke", to: "revoked", emits: null, reason: "access_token_revoked" },
    { from: ["active"], event: "deactivate", to: "inactive", emits: null, reason: "access_token_not_active" }
  ]
})
