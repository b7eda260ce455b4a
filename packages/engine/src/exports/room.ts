import { defineRoom, store } from "../registry/room.ts"
import { dataExports } from "./domain/exports.ts"
import { ExportRepository } from "./repositories.ts"
import { Exports } from "./exports.ts"

/** The exports' room: the organisation's data exports. */
export const exportsRoom = defineRoom({
  stores: [store(ExportRepository, dataExports)],
  services: Exports.layer
})
