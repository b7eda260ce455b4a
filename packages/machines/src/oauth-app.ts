import { defineMachine } from "./machine.ts"

/** An OAuth app's statuses: its client may connect organisations, or is refused for good. */
export const OAUTH_APP_STATUSES = ["enabled", "disabled"] as const
export type OAuthAppStatus = (typeof OAUTH_APP_STATUSES)[number]

export const OAUTH_APP_EVENTS = ["disable"] as const
export type OAuthAppEvent = (typeof OAUTH_APP_EVENTS)[number]

/** An OAuth app (kept by the server): registered enabled; disabling is for good. No API event. */
export const oauthAppMachine = defineMachine<Record<never, never>>()({
  name: "oauth_apps",
  noun: "OAuth app",
  states: OAUTH_APP_STATUSES,
  events: OAUTH_APP_EVENTS,
  initial: ["enabled"],
  terminal: ["disabled"],
  created: null,
  transitions: [
    { from: ["enabled"], event: "disable", to: "disabled", emits: null, reason: "oauth_app_disabled" }
  ]
})
