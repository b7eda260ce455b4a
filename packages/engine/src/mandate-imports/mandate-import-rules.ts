import { type MandateImportEvent, mandateImportMachine } from "@paykit/machines"
import type { Versioned } from "../kernel/ports/repository.ts"
import { applyTransition } from "../kernel/support.ts"
import type { MandateImport } from "./domain/mandate-imports.ts"
import type { MandateImportEntryRepository, MandateImportEntryRequestRepository, MandateImportRepository } from "./repositories.ts"

/** The storage of the mandate import use cases. */
export interface ImportDeps {
  readonly imports: MandateImportRepository["Service"]
  readonly entries: MandateImportEntryRepository["Service"]
  readonly requests: MandateImportEntryRequestRepository["Service"]
}

/** Why an import moved, for its history (the real API sends no event for imports). */
const CAUSES: Readonly<Record<MandateImportEvent, { readonly origin: "api" | "gocardless"; readonly cause: string; readonly description: string }>> = {
  submit: { origin: "api", cause: "mandate_import_submitted", description: "The mandate import was submitted." },
  cancel: { origin: "api", cause: "mandate_import_cancelled", description: "The mandate import was cancelled at your request." },
  start_processing: { origin: "gocardless", cause: "mandate_import_processing", description: "Processing of the import's entries has begun." },
  finish_processing: { origin: "gocardless", cause: "mandate_import_processed", description: "Every entry of the import has been processed." }
}

/** An import's status change through its machine. */
export const moveImport = (deps: ImportDeps, organisation: string, current: Versioned<MandateImport>, event: MandateImportEvent) =>
  applyTransition(deps.imports, {
    organisation,
    machine: mandateImportMachine,
    current,
    event,
    context: {},
    cause: CAUSES[event],
    links: { creditor: current.resource.links.creditor }
  })
