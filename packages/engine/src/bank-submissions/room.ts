import { Effect } from "effect"
import { defineRoom, store } from "../registry/room.ts"
import { bankSubmissions } from "./domain/bank-submissions.ts"
import { bankBatches, bankFileChunks, bankItems } from "./domain/bank-items.ts"
import { BankSubmissions } from "./bank-submissions.ts"
import { BankBatchRepository, BankFileChunkRepository, BankItemRepository, BankSubmissionRepository } from "./repositories.ts"

/**
 * The bank submissions' room: what the daily run hands the bank (submissions, their queued items
 * and batches, their files at rest). Below the rooms that submit (mandates, payments), which queue
 * their items here.
 */
export const bankSubmissionsRoom = defineRoom({
  stores: [
    store(BankSubmissionRepository, bankSubmissions),
    store(BankItemRepository, bankItems),
    store(BankBatchRepository, bankBatches),
    store(BankFileChunkRepository, bankFileChunks)
  ],
  /** After payments (40) have queued the day's collections, before payouts (50). */
  dueWork: Effect.map(BankSubmissions, (submissions) => [{ name: "bank submissions", order: 45, deadline: false, run: submissions.processDay }]),
  services: BankSubmissions.layer
})
