import { defineRoom, store } from "../registry/room.ts"
import { mandatePdfs } from "./domain/mandate-pdfs.ts"
import { mandatePdfDeadlines } from "./due.ts"
import { MandatePdfRepository } from "./repositories.ts"
import { MandatePdfs } from "./mandate-pdfs.ts"

/** The mandate PDFs' room: the documents a payer signs, made and kept for their expiry. */
export const mandatePdfsRoom = defineRoom({
  stores: [store(MandatePdfRepository, mandatePdfs)],
  deadlines: mandatePdfDeadlines,
  services: MandatePdfs.layer
})
