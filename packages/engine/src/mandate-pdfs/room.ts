import { defineRoom } from "../kernel/room.ts"
import { fromBackend } from "../kernel/repository-service.ts"
import { mandatePdfs } from "./domain/mandate-pdfs.ts"
import { mandatePdfDeadlines } from "./due.ts"
import { MandatePdfRepository } from "./repositories.ts"

/** The mandate PDFs' room: the documents a payer signs, made and kept for their expiry. */
export const mandatePdfsRoom = defineRoom({
  resources: [mandatePdfs],
  repositories: fromBackend(MandatePdfRepository, mandatePdfs),
  deadlines: mandatePdfDeadlines
})
