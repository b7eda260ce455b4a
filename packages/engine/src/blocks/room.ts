import { defineRoom, store } from "../registry/room.ts"
import { bankAccountFingerprints, BlockByRefRequest, BlockCreateRequest, blockMatches, blocks } from "./domain/blocks.ts"
import { BankAccountFingerprintRepository, BlockMatchRepository, BlockRepository } from "./repositories.ts"
import { Blocks } from "./blocks.ts"
import { BlockScreenLive } from "./block-screen.ts"

/** The blocks' room: blocked payer details, their matches, and the fingerprints of bank accounts. */
export const blocksRoom = defineRoom({
  stores: [
    store(BlockRepository, blocks),
    store(BlockMatchRepository, blockMatches),
    store(BankAccountFingerprintRepository, bankAccountFingerprints)
  ],
  requestBodies: { blocks: { create: BlockCreateRequest, block_by_ref: BlockByRefRequest } },
  services: Blocks.layer,
  ports: BlockScreenLive
})
