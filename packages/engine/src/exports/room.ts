import { defineRoom } from "../kernel/room.ts"
import { fromBackend } from "../kernel/repository-service.ts"
import { dataExports } from "./domain/exports.ts"
import { ExportRepository } from "./repositories.ts"

/** The exports' room: the organisation's data exports. */
export const exportsRoom = defineRoom({
  resources: [dataExports],
  repositories: fromBackend(ExportRepository, dataExports)
})
