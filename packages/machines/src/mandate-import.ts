import { Schema } from "effect"
import { bindMachine, defineMachine } from "./machine.ts"

/** Mandate import statuses, as the real API (`MandateImportStatus`). */
export const MANDATE_IMPORT_STATUSES = ["created", "submitted", "cancelled", "processing", "processed"] as const
export const MandateImportStatus = Schema.Literals(MANDATE_IMPORT_STATUSES).annotate({ identifier: "MandateImportStatus" })
export type MandateImportStatus = typeof MandateImportStatus.Type

export const MANDATE_IMPORT_EVENTS = ["submit", "cancel", "start_processing", "finish_processing"] as const
export type MandateImportEvent = (typeof MANDATE_IMPORT_EVENTS)[number]

/**
 * created (entries being added) -> submitted -> processing -> processed; only a `created` import
 * can be cancelled (the real API: "imports which have already been submitted or processed cannot
 * be cancelled"). The real API sends no events for mandate imports, so none is emitted; the
 * mandates an import creates send their own.
 */
export const mandateImportMachine = defineMachine<Record<never, never>>()({
  name: "mandate_imports",
  noun: "mandate import",
  states: MANDATE_IMPORT_STATUSES,
  events: MANDATE_IMPORT_EVENTS,
  initial: ["created"],
  terminal: ["cancelled", "processed"],
  created: null,
  transitions: [
    { from: ["created"], event: "submit", to: "submitted", emits: null, reason: "mandate_import_not_created" },
    { from: ["created"], event: "cancel", to: "cancelled", emits: null, reason: "mandate_import_not_created" },
    { from: ["submitted"], event: "start_processing", to: "processing", emits: null, reason: "mandate_import_not_submitted" },
    { from: ["processing"], event: "finish_processing", to: "processed", emits: null, reason: "mandate_import_not_processing" }
  ]
})

export const mandateImports = bindMachine(mandateImportMachine)
