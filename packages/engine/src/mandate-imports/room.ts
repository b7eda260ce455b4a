import { defineRoom, store } from "../registry/room.ts"
import {
  MandateImportCreateRequest,
  mandateImportEntries,
  MandateImportEntryCreateRequest,
  mandateImportEntryRequests,
  mandateImports
} from "./domain/mandate-imports.ts"
import { mandateImportDeadlines, mandateImportDueWork } from "./due.ts"
import { MandateImportEntryRepository, MandateImportEntryRequestRepository, MandateImportRepository } from "./repositories.ts"
import { MandateImports } from "./mandate-imports.ts"

/** The mandate imports' room: mandates moved from another provider, entry by entry. */
export const mandateImportsRoom = defineRoom({
  stores: [
    store(MandateImportRepository, mandateImports),
    store(MandateImportEntryRepository, mandateImportEntries),
    store(MandateImportEntryRequestRepository, mandateImportEntryRequests)
  ],
  requestBodies: { mandate_imports: { create: MandateImportCreateRequest }, mandate_import_entries: { create: MandateImportEntryCreateRequest } },
  dueWork: mandateImportDueWork,
  deadlines: mandateImportDeadlines,
  services: MandateImports.layer
})
