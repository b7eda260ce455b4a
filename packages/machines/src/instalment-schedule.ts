import { Schema } from "effect"
import { bindMachine, defineMachine } from "./machine.ts"

/** Instalment schedule statuses, as the real API (`InstalmentScheduleStatus`). */
export const INSTALMENT_SCHEDULE_STATUSES = ["pending", "active", "creation_failed", "completed", "cancelled", "errored"] as const
export const InstalmentScheduleStatus = Schema.Literals(INSTALMENT_SCHEDULE_STATUSES).annotate({ identifier: "InstalmentScheduleStatus" })
export type InstalmentScheduleStatus = typeof InstalmentScheduleStatus.Type

export const INSTALMENT_SCHEDULE_EVENTS = ["payments_created", "creation_failed", "complete", "error", "resume", "cancel"] as const
export type InstalmentScheduleEvent = (typeof INSTALMENT_SCHEDULE_EVENTS)[number]

/**
 * pending (its payments being made) -> active, or creation_failed when a payment was refused;
 * active -> completed once every payment is collected, errored when one fails (and back to active,
 * `resumed`, when it is retried); cancelled from any state but the terminal ones. The events are
 * the real API's: `created`, `creation_failed`, `completed`, `errored`, `resumed`, `cancelled`
 * (the move to active sends none: the real API announces the payments, each with its `created`).
 */
export const instalmentScheduleMachine = defineMachine<Record<never, never>>()({
  name: "instalment_schedules",
  noun: "instalment schedule",
  states: INSTALMENT_SCHEDULE_STATUSES,
  events: INSTALMENT_SCHEDULE_EVENTS,
  initial: ["pending"],
  terminal: ["creation_failed", "completed", "cancelled"],
  created: "created",
  transitions: [
    { from: ["pending"], event: "payments_created", to: "active", emits: null, reason: "instalment_schedule_not_pending" },
    { from: ["pending"], event: "creation_failed", to: "creation_failed", emits: "creation_failed", reason: "instalment_schedule_not_pending" },
    { from: ["active"], event: "complete", to: "completed", emits: "completed", reason: "instalment_schedule_not_active" },
    { from: ["active"], event: "error", to: "errored", emits: "errored", reason: "instalment_schedule_not_active" },
    { from: ["errored"], event: "resume", to: "active", emits: "resumed", reason: "instalment_schedule_not_errored" },
    { from: ["pending", "active", "errored"], event: "cancel", to: "cancelled", emits: "cancelled", reason: "cancellation_failed" }
  ]
})

export const instalmentSchedules = bindMachine(instalmentScheduleMachine)
