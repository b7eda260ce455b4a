import { Layer } from "effect"
import { defineRoom } from "../kernel/room.ts"
import { fromBackend } from "../kernel/repository-service.ts"
import { bankAccountFingerprints, BlockByRefRequest, BlockCreateRequest, blockMatches, blocks } from "./domain/blocks.ts"
import { BankAccountFingerprintRepository, BlockMatchRepository, BlockRepository } from "./repositories.ts"

/** The blocks' room: blocked payer details, their matches, and the fingerprints of bank accounts. */
export const blocksRoom = defineRoom({
  resources: [blocks, blockMatches, bankAccountFingerprints],
  repositories: Layer.mergeAll(
    fromBackend(BlockRepository, blocks),
    fromBackend(BlockMatchRepository, blockMatches),
    fromBackend(BankAccountFingerprintRepository, bankAccountFingerprints)
  ),
  requestBodies: { blocks: { create: BlockCreateRequest, block_by_ref: BlockByRefRequest } }
})
