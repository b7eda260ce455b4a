import { Layer } from "effect"
import { defineRoom } from "../kernel/room.ts"
import { fromBackend } from "../kernel/repository-service.ts"
import {
  MandateImportCreateRequest,
  mandateImportEntries,
  MandateImportEntryCreateRequest,
  mandateImportEntryRequests,
  mandateImports
} from "./domain/mandate-imports.ts"
import { mandateImportDeadlines, mandateImportDueWork } from "./due.ts"
import { MandateImportEntryRepository, MandateImportEntryRequestRepository, MandateImportRepository } from "./repositories.ts"

/** The mandate imports' room: mandates moved from another provider, entry by entry. */
export const mandateImportsRoom = defineRoom({
  resources: [mandateImports, mandateImportEntries, mandateImportEntryRequests],
  repositories: Layer.mergeAll(
    fromBackend(MandateImportRepository, mandateImports),
    fromBackend(MandateImportEntryRepository, mandateImportEntries),
    fromBackend(MandateImportEntryRequestRepository, mandateImportEntryRequests)
  ),
  requestBodies: { mandate_imports: { create: MandateImportCreateRequest }, mandate_import_entries: { create: MandateImportEntryCreateRequest } },
  dueWork: mandateImportDueWork,
  deadlines: mandateImportDeadlines
})
