import { Schema } from "effect"
import { bindMachine, defineMachine, guard } from "./machine.ts"

/** Outbound payment import statuses, as the real API (`OutboundPaymentImportStatus`). */
export const OUTBOUND_PAYMENT_IMPORT_STATUSES = [
  "created", "validating", "valid", "invalid", "processing", "processed", "cancelled"
] as const
export const OutboundPaymentImportStatus = Schema.Literals(OUTBOUND_PAYMENT_IMPORT_STATUSES)
  .annotate({ identifier: "OutboundPaymentImportStatus" })
export type OutboundPaymentImportStatus = typeof OutboundPaymentImportStatus.Type

export const OUTBOUND_PAYMENT_IMPORT_EVENTS = [
  "start_validation", "validation_succeeded", "validation_failed", "authorise", "processing_finished", "cancel", "expire"
] as const
export type OutboundPaymentImportEvent = (typeof OUTBOUND_PAYMENT_IMPORT_EVENTS)[number]

/** The import's `entry_counts` that the guards read. */
export interface OutboundPaymentImportContext {
  readonly entry_counts: {
    readonly valid: number
    readonly processed: number
    readonly failed_to_process: number
  }
}

// Processing is over when every valid entry became a payment or failed terminally.
const allEntriesConverted = guard<OutboundPaymentImportContext>(
  "all_entries_converted",
  "outbound_payment_import_entries_pending",
  "Some entries of the import have not been converted into outbound payments yet",
  (c) => c.entry_counts.processed + c.entry_counts.failed_to_process >= c.entry_counts.valid
)

/**
 * created -> validating -> valid | invalid; valid -> (a user authorises it in the dashboard)
 * processing -> processed. Before authorisation the import can be cancelled by a user or
 * expire automatically; both end in `cancelled`.
 *
 * The spec names no events for imports; the emitted actions are this engine's own: `created`,
 * `validating`, `valid`, `invalid`, `processing`, `processed`, `cancelled` and `expired`.
 */
export const outboundPaymentImportMachine = defineMachine<OutboundPaymentImportContext>()({
  name: "outbound_payment_imports",
  noun: "outbound payment import",
  states: OUTBOUND_PAYMENT_IMPORT_STATUSES,
  events: OUTBOUND_PAYMENT_IMPORT_EVENTS,
  // The create call answers `validating` (spec: States and transitions); `created` is the
  // state of an import stored before validation starts.
  initial: ["created", "validating"],
  terminal: ["invalid", "processed", "cancelled"],
  created: "created",
  transitions: [
    {
      from: ["created"], event: "start_validation", to: "validating",
      emits: "validating", reason: "outbound_payment_import_not_created"
    },
    {
      from: ["validating"], event: "validation_succeeded", to: "valid",
      emits: "valid", reason: "outbound_payment_import_not_validating"
    },
    {
      from: ["validating"], event: "validation_failed", to: "invalid",
      emits: "invalid", reason: "outbound_payment_import_not_validating"
    },
    {
      from: ["valid"], event: "authorise", to: "processing",
      emits: "processing", reason: "outbound_payment_import_not_authorisable"
    },
    {
      from: ["processing"], event: "processing_finished", to: "processed", guard: allEntriesConverted,
      emits: "processed", reason: "outbound_payment_import_not_processing"
    },
    {
      from: ["created", "validating", "valid"], event: "cancel", to: "cancelled",
      emits: "cancelled", reason: "cancellation_failed"
    },
    {
      from: ["created", "validating", "valid"], event: "expire", to: "cancelled",
      emits: "expired", reason: "outbound_payment_import_not_expirable"
    }
  ]
})

export const outboundPaymentImports = bindMachine(outboundPaymentImportMachine)
