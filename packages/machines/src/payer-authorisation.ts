import { Schema } from "effect"
import { bindMachine, defineMachine, guard } from "./machine.ts"

/** Payer authorisation statuses, as the real API (`PayerAuthorisationStatus`). */
export const PAYER_AUTHORISATION_STATUSES = ["created", "submitted", "confirmed", "completed", "failed"] as const
export const PayerAuthorisationStatus = Schema.Literals(PAYER_AUTHORISATION_STATUSES)
  .annotate({ identifier: "PayerAuthorisationStatus" })
export type PayerAuthorisationStatus = typeof PayerAuthorisationStatus.Type

export const PAYER_AUTHORISATION_EVENTS = ["update", "submit", "confirm", "resources_created", "fail"] as const
export type PayerAuthorisationEvent = (typeof PAYER_AUTHORISATION_EVENTS)[number]

export interface PayerAuthorisationContext {
  /** How many names `incomplete_fields` lists; zero means the details are valid. */
  readonly incomplete_field_count: number
}

const detailsComplete = guard<PayerAuthorisationContext>(
  "incomplete_fields_empty",
  "payer_authorisation_incomplete",
  "The payer authorisation has incomplete fields",
  (c) => c.incomplete_field_count === 0
)

/**
 * The deprecated flow: created (updated any number of times) -> submitted -> confirmed ->
 * completed once the customer, bank account and mandate exist; any unfinished authorisation can
 * fail. The real API emits only `completed` and `failed` for payer authorisations, so the other
 * transitions emit nothing.
 */
export const payerAuthorisationMachine = defineMachine<PayerAuthorisationContext>()({
  name: "payer_authorisations",
  noun: "payer authorisation",
  states: PAYER_AUTHORISATION_STATUSES,
  events: PAYER_AUTHORISATION_EVENTS,
  initial: ["created"],
  terminal: ["completed", "failed"],
  created: null,
  transitions: [
    { from: ["created"], event: "update", to: "created", emits: null, reason: "payer_authorisation_not_updatable" },
    {
      from: ["created"], event: "submit", to: "submitted", guard: detailsComplete,
      emits: null, reason: "payer_authorisation_already_submitted"
    },
    { from: ["submitted"], event: "confirm", to: "confirmed", emits: null, reason: "payer_authorisation_not_submitted" },
    {
      from: ["confirmed"], event: "resources_created", to: "completed",
      emits: "completed", reason: "payer_authorisation_not_confirmed"
    },
    {
      from: ["created", "submitted", "confirmed"], event: "fail", to: "failed",
      emits: "failed", reason: "payer_authorisation_already_finished"
    }
  ]
})

export const payerAuthorisations = bindMachine(payerAuthorisationMachine)
